// The header's inline wrappers need nothing here; the two functions below
// need glibc's GNU declarations, kept out of the header (see clinux.h).
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include "clinux.h"

int radar_available_processors(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
    int count = CPU_COUNT(&set);
    return count > 0 ? count : 1;
}

void radar_name_thread(const char *name) {
    pthread_setname_np(pthread_self(), name);
}
