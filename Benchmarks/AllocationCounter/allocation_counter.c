// Counting malloc for frameocr-bench: see include/allocation_counter.h.
#define _GNU_SOURCE
#include "allocation_counter.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>

// Under a sanitizer (make sanitize: ASan, TSan) the sanitizer's runtime owns the malloc family:
// interposing it too would hand the runtime pointers it never allocated. The counter then steps
// aside: the malloc family below is left out and focr_bench_counting_active() answers 0, which the
// benchmark reports as "unavailable".
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define FOCR_UNDER_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define FOCR_UNDER_SANITIZER 1
#endif

static _Atomic uint64_t allocations;
static _Atomic uint64_t allocated_bytes;
static _Atomic uint64_t frees;

#ifndef FOCR_UNDER_SANITIZER
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);
extern void __libc_free(void *pointer);

static inline void counted_bytes(size_t size) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&allocated_bytes, size, memory_order_relaxed);
}

void *malloc(size_t size) {
    counted_bytes(size);
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    counted_bytes(count * size);  // an overflowing product fails in glibc anyway
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    counted_bytes(size);  // every realloc may move (allocate) a block: counted as an allocation of its new size
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    counted_bytes(size);
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    counted_bytes(size);
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    counted_bytes(size);
    void *p = __libc_memalign(alignment, size);
    if (p == NULL) return ENOMEM;
    *out = p;
    return 0;
}

void *valloc(size_t size) {
    counted_bytes(size);
    return __libc_valloc(size);
}

void *pvalloc(size_t size) {
    counted_bytes(size);
    return __libc_pvalloc(size);
}

void free(void *pointer) {
    if (pointer != NULL) atomic_fetch_add_explicit(&frees, 1, memory_order_relaxed);
    __libc_free(pointer);
}
#endif  // FOCR_UNDER_SANITIZER

uint64_t focr_bench_allocation_count(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }

uint64_t focr_bench_allocated_bytes(void) { return atomic_load_explicit(&allocated_bytes, memory_order_relaxed); }

uint64_t focr_bench_free_count(void) { return atomic_load_explicit(&frees, memory_order_relaxed); }

int32_t focr_bench_counting_active(void) {
#ifdef FOCR_UNDER_SANITIZER
    return 0;
#else
    // The dynamic linker's answer for "malloc" in the global scope is what every shared library
    // calls: it must be this file's definition.
    void *resolved = dlsym(RTLD_DEFAULT, "malloc");
    return resolved == (void *)&malloc ? 1 : 0;
#endif
}

int32_t focr_bench_under_sanitizer(void) {
#ifdef FOCR_UNDER_SANITIZER
    return 1;
#else
    return 0;
#endif
}

void focr_bench_line_buffered_stdout(void) { setvbuf(stdout, NULL, _IOLBF, 0); }
