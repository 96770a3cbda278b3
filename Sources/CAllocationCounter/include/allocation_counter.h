#ifndef RADAR_KIOSK_ALLOCATION_COUNTER_H
#define RADAR_KIOSK_ALLOCATION_COUNTER_H
#include <stdint.h>

/// Number of heap allocations (malloc, calloc, realloc, aligned variants)
/// made by the whole process since it started.
uint64_t radar_allocation_count(void);

/// 1 when allocations are counted; 0 under a sanitizer that owns malloc.
int radar_allocation_counting(void);

/// The same, counting only the calling thread's allocations.
uint64_t radar_thread_allocation_count(void);

#endif
