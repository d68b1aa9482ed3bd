/*
 * allocation_counter.h — counts heap allocations of the whole process (frameocr-bench only).
 *
 * allocation_counter.c defines malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign,
 * valloc, pvalloc and free. Linked into an executable, these definitions interpose glibc's for
 * every shared library loaded into the process (libstdc++'s operator new, OpenCV's fastMalloc,
 * Tesseract, the Swift runtime): the ELF dynamic linker resolves a symbol to the executable's
 * definition first. Each one bumps a relaxed atomic counter and forwards to glibc's own
 * implementation (__libc_malloc, __libc_memalign, …), so memory behaves exactly as before.
 * Allocations glibc makes internally (not through the PLT) are not counted.
 *
 * This target must only ever be a dependency of the benchmark executable (and the test target that
 * links it): a library must never replace its users' malloc.
 */
#ifndef FOCR_ALLOCATION_COUNTER_H
#define FOCR_ALLOCATION_COUNTER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Allocation calls so far (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign, valloc, pvalloc), all threads. */
uint64_t focr_bench_allocation_count(void);

/** Bytes asked for by those calls so far (realloc: the new size), all threads. */
uint64_t focr_bench_allocated_bytes(void);

/** free calls with a non-NULL pointer so far, all threads. */
uint64_t focr_bench_free_count(void);

/** 1 when the dynamic linker resolves "malloc" to the counting one (so shared libraries are counted), else 0. */
int32_t focr_bench_counting_active(void);

/** 1 when this file was built under a sanitizer (ASan, TSan), which owns the malloc family: the
 *  counter then steps aside and counts nothing. */
int32_t focr_bench_under_sanitizer(void);

/** Makes C stdout line-buffered (rows of the table appear as measured, also through a pipe). */
void focr_bench_line_buffered_stdout(void);

#ifdef __cplusplus
}
#endif

#endif
