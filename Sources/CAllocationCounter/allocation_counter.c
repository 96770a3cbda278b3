// Counts heap allocations by interposing glibc's malloc family: the process's
// own definitions win over libc's, and forward to glibc's internal entry points.
// This lets benchmarks and tests assert that a steady frame allocates nothing.
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include "allocation_counter.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

// Under AddressSanitizer or ThreadSanitizer the sanitizer owns malloc; the
// counter then steps aside and says so (radar_allocation_counting() == 0).
#if defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#    define RADAR_SANITIZED 1
#  endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#  define RADAR_SANITIZED 1
#endif

static uint64_t allocations;
// Per thread too, so that a test can measure its own work while others run.
static __thread uint64_t thread_allocations;

uint64_t radar_allocation_count(void) {
    return __atomic_load_n(&allocations, __ATOMIC_RELAXED);
}

uint64_t radar_thread_allocation_count(void) {
    return thread_allocations;
}

int radar_allocation_counting(void) {
#ifdef RADAR_SANITIZED
    return 0;
#else
    return 1;
#endif
}

static inline void count(void) {
    __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED);
    thread_allocations++;
}

#ifndef RADAR_SANITIZED
void *malloc(size_t size) { count(); return __libc_malloc(size); }
void *calloc(size_t n, size_t size) { count(); return __libc_calloc(n, size); }
void *realloc(void *p, size_t size) { count(); return __libc_realloc(p, size); }
void free(void *p) { __libc_free(p); }
void *memalign(size_t alignment, size_t size) { count(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { count(); return __libc_memalign(alignment, size); }
int posix_memalign(void **out, size_t alignment, size_t size) {
    count();
    void *p = __libc_memalign(alignment, size);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}
#endif
