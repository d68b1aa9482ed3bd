/*
 * focr_fast.h — FrameOCR's fast CPU path: the preprocessing chain fused into one pass over the
 * frame, SIMD kernels (portable C++, SSE2, or AVX2 chosen at run time) split across OpenCV's
 * thread pool (cv::parallel_for_), byte-identical to the OpenCV chain (cv::cvtColor → ROI →
 * cv::rotate/flip/transpose → cv::adaptiveThreshold MEAN_C).
 *
 * Implemented in fast/: fastpath.cpp drives the kernels over rows, tiles and stripes; one file
 * per instruction set holds them (fast_scalar.cpp, fast_sse2.cpp, fast_avx2.cpp). The per-op
 * entry points of focr.h use the same kernels: focr_orient for GRAY8 and focr_adaptive_threshold
 * for the mean method.
 *
 * Ownership: images are borrowed for the call; scratch memory is thread-local and reused from
 * call to call (no allocation per frame in the steady state). Thread-safe.
 */
#ifndef FOCR_FAST_H
#define FOCR_FAST_H

#include "focr.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Raw region `src` (GRAY8, BGRA8, RGBA8, BGR8 or RGB8; for NV12/I420 pass the Y plane as GRAY8)
 * → gray → upright for `orientation` (1…8) → adaptive mean threshold (block_size odd ≥ 3, C
 * finite, inverted) into `dst` (GRAY8, the upright size: width and height swap for 5…8, rows
 * `bytes_per_row` apart, padding untouched). block_size ≤ 0: no threshold (gray + upright only).
 *
 * Byte-identical to cv::cvtColor(…2GRAY) → cv::rotate / cv::flip / cv::transpose →
 * cv::adaptiveThreshold(255, ADAPTIVE_THRESH_MEAN_C, THRESH_BINARY[_INV], block_size, C) with
 * OpenCV's replicated border and its rounding of the box mean. The frame is read once; the only
 * intermediate is the upright gray region (thread-local scratch, none when `src` is GRAY8 and
 * orientation is 1), and `dst` is written once. Block sizes over 255 and |C| over 10^6 threshold
 * through cv::adaptiveThreshold itself.
 *
 * Errors: FOCR_E_INVALID_ARGUMENT for an invalid descriptor, a planar `src`, an orientation
 * outside 1…8, a `dst` that is not GRAY8 of the upright size or overlaps `src`, an even or too
 * small block_size, a C that is not finite.
 */
focr_status focr_fast_preprocess(const focr_image *src, int32_t orientation, int32_t block_size, double c,
                                 int32_t inverted, focr_image *dst);

/* MARK: - SIMD level (for tests and benchmarks) */

/**
 * The instruction set the fast path uses for calls from the calling thread: 0 portable C++,
 * 1 SSE2, 2 AVX2. The machine's best (AVX2 when __builtin_cpu_supports says so), capped by the
 * environment variable FRAMEOCR_SIMD (`portable`, `sse2`, `avx2`, read once) and by
 * focr_fast_limit_simd_level. Every level gives the same bytes.
 */
int32_t focr_fast_simd_level(void);

/**
 * Caps the level for calls made from the calling thread (the worker threads of those calls
 * follow the caller); a negative level removes the cap. Returns the level now in effect.
 */
int32_t focr_fast_limit_simd_level(int32_t level);

#ifdef __cplusplus
}
#endif

#endif /* FOCR_FAST_H */
