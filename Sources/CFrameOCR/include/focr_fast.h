/*
 * focr_fast.h — FrameOCR's fast CPU path: the preprocessing chain fused into one pass over the
 * frame, SIMD kernels (portable C++, SSE2, or AVX2 chosen at run time) split across OpenCV's
 * thread pool (cv::parallel_for_), byte-identical to the OpenCV chain (cv::cvtColor → ROI →
 * cv::rotate/flip/transpose → cv::adaptiveThreshold MEAN_C).
 *
 * Implemented in fast/: fastpath.cpp drives the kernels over rows, tiles and stripes; one file
 * per instruction set holds them (fast_scalar.cpp, fast_sse2.cpp, fast_avx2.cpp). The per-op
 * entry points of focr.h use the same kernels: focr_convert_to_gray for the packed color formats,
 * focr_orient for GRAY8 and focr_adaptive_threshold for both methods.
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

/**
 * focr_fast_preprocess with the threshold's method: FOCR_THRESHOLD_MEAN (as above) or
 * FOCR_THRESHOLD_GAUSSIAN, byte-identical to cv::cvtColor(…2GRAY) → cv::rotate / cv::flip /
 * cv::transpose → cv::adaptiveThreshold(255, ADAPTIVE_THRESH_GAUSSIAN_C, THRESH_BINARY[_INV],
 * block_size, C). The Gaussian thresholds the upright gray region (thread-local scratch, none for
 * an upright GRAY8 source) with the fast path's float kernels, which repeat OpenCV 4.6's
 * GaussianBlur on the float image operation for operation (fused multiply-adds where OpenCV's
 * AVX2 code fuses them, on this machine: see fast_kernels.hpp, GaussParams); block sizes over 255,
 * |C| over 10^6 and machines other than x86 call cv::adaptiveThreshold itself.
 *
 * Errors: those of focr_fast_preprocess, and FOCR_E_INVALID_ARGUMENT for an unknown method.
 */
focr_status focr_fast_preprocess_method(const focr_image *src, int32_t orientation, int32_t method,
                                        int32_t block_size, double c, int32_t inverted, focr_image *dst);

/* MARK: - For tests and benchmarks */

/**
 * The 8-bit Gaussian mean cv::adaptiveThreshold(GAUSSIAN_C) compares with — src as CV_32F,
 * cv::GaussianBlur(Size(block_size, block_size), 0, 0, BORDER_REPLICATE | BORDER_ISOLATED),
 * convertTo(CV_8U) — as the fast path computes it at the calling thread's SIMD level: the
 * threshold's intermediate, for parity tests that see every rounding, not only those the
 * comparison happens to hinge on. `src` and `dst`: GRAY8 of one size, not overlapping.
 *
 * Errors: FOCR_E_INVALID_ARGUMENT for bad descriptors; FOCR_E_UNSUPPORTED for a block_size that
 * is not odd in 3…255, or off x86 (where the fast path leaves the Gaussian to OpenCV).
 */
focr_status focr_fast_gaussian_mean(const focr_image *src, int32_t block_size, focr_image *dst);

/**
 * The float image cv::GaussianBlur makes inside cv::adaptiveThreshold(GAUSSIAN_C) (before the
 * rounding focr_fast_gaussian_mean adds), as the fast path computes it at the calling thread's
 * SIMD level, into `dst`: rows `dst_stride` floats apart, `dst_count` floats in all (at least
 * dst_stride · (height − 1) + width). `fused`: −1 multiply-adds as OpenCV's own GaussianBlur
 * does them on this machine now (focr_fast_gaussian_fuses), 0 always separate, 1 always fused —
 * so tests can show that the choice shows in the bits. Errors as focr_fast_gaussian_mean's.
 */
focr_status focr_fast_gaussian_blur(const focr_image *src, int32_t block_size, int32_t fused, float *dst,
                                    size_t dst_stride, size_t dst_count);

/**
 * 1 when cv::GaussianBlur on float images fuses its multiply-adds on this machine now (OpenCV's
 * AVX2 code path: cv::checkHardwareSupport(CV_CPU_AVX2)), else 0.
 */
int32_t focr_fast_gaussian_fuses(void);

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
