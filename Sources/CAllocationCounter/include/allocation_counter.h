#ifndef RADAR_KIOSK_ALLOCATION_COUNTER_H
#define RADAR_KIOSK_ALLOCATION_COUNTER_H
#include <stdint.h>

/// Number of heap allocations (malloc, calloc, realloc, aligned variants)
/// made by the whole process since it started.
uint64_t radar_allocation_count(void);

/// The same, counting only the calling thread's allocations.
uint64_t radar_thread_allocation_count(void);

#endif
