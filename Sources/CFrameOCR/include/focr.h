/*
 * focr.h — FrameOCR's C shim: images and the operations on them (OpenCV, or FrameOCR's SIMD
 * kernels with OpenCV's bytes).
 *
 * A pure-C interface over OpenCV (C++17 inside). The types, the status codes and the last error
 * are focr_common.h's (the CFrameOCRCommon target). The operations are implemented in image/:
 * operations.cpp (gray, BGR, orientation, adaptive threshold, resize, copy; the SIMD rows they
 * call are in fast/), borders.cpp (focr_pad, focr_replicate_outside), rotate_small.cpp
 * (focr_rotate_small, focr_crop_turned) and
 * smooth.cpp. Image files are focr_files.h's. Swift imports this module only, through the
 * umbrella header CFrameOCR.h.
 *
 * Ownership and lifetime rules (with focr_common.h's)
 * ----------------------------
 * - Images are borrowed descriptors (focr_common.h), valid for the duration of the call.
 * - Destinations are caller-allocated: an operation writes into `dst` and fails with
 *   FOCR_E_INVALID_ARGUMENT when `dst` has the wrong size or format. No operation reallocates.
 * - Every entry point returns a focr_status; on failure focr_last_error() explains it for the
 *   calling thread. No C++ exception ever leaves the shim.
 * - All functions here are thread-safe: they keep no shared mutable state.
 */
#ifndef FOCR_H
#define FOCR_H

#include <stddef.h>
#include <stdint.h>

#include "focr_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* MARK: - Operations (OpenCV, or FrameOCR's SIMD kernels with OpenCV's bytes) */

/**
 * Gray conversion of a packed color image, byte-identical to `cv::cvtColor` with
 * COLOR_{BGRA,RGBA,BGR,RGB}2GRAY (BT.601 in OpenCV 4.x's 15-bit fixed point, (3735·B + 19235·G +
 * 9798·R + 2^14) >> 15: red/green/blue/white → 76/150/29/255). `dst` is GRAY8 with the same width
 * and height and must not overlap `src`. A GRAY8 source is copied row by row. NV12/I420 are
 * rejected here: their Y plane *is* the gray image (the Swift layer returns it as a view, no copy).
 * Implemented by FrameOCR's SIMD rows (fast/: SSE2, or AVX2 when the processor has it) over
 * OpenCV's thread pool from 64K pixels on, stored past the caches from 4 Mi pixels on; by
 * cv::cvtColor itself where no SIMD level is available (focr_fast_simd_level() == 0). No
 * allocation. Errors: FOCR_E_INVALID_ARGUMENT (a bad descriptor, size, format or overlap).
 */
focr_status focr_convert_to_gray(const focr_image *src, focr_image *dst);

/**
 * The BGR8 image of any format, made upright for `orientation` (1…8, as focr_orient; 5…8 give a
 * height×width `dst`), in one call: what a person looks at (annotation, video writing).
 * GRAY8 → B = G = R; BGRA8/RGBA8 drop alpha (cv::cvtColor COLOR_BGRA2BGR, COLOR_RGBA2BGR);
 * RGB8 swaps (COLOR_RGB2BGR); BGR8 is copied. NV12 and I420 are converted here, pixel by pixel
 * (each chroma sample serves its 2×2 block; odd sizes take the last, half-covered sample),
 * with BT.601 in 16-bit fixed point, rounded to nearest and clamped to 0…255:
 *   video range (`ycbcr_full_range` == 0): Y 16…235, Cb/Cr 16…240 (Y 16 → 0, 235 → 255);
 *     R = 1.164383 (Y−16) + 1.596027 (Cr−128), G = 1.164383 (Y−16) − 0.391762 (Cb−128)
 *     − 0.812968 (Cr−128), B = 1.164383 (Y−16) + 2.017232 (Cb−128);
 *   full range (≠ 0; JFIF): R = Y + 1.402 (Cr−128), G = Y − 0.344136 (Cb−128) − 0.714136 (Cr−128),
 *     B = Y + 1.772 (Cb−128).
 * `ycbcr_full_range` is ignored for packed formats. The orientation step is cv::rotate, cv::flip
 * and cv::transpose, from a thread-local scratch image (kept between calls: no allocation per
 * frame once sizes repeat). `dst` is BGR8, caller-allocated, and must not overlap any plane of
 * `src`. Errors: FOCR_E_INVALID_ARGUMENT (a bad descriptor, orientation, size or overlap).
 */
focr_status focr_convert_to_bgr(const focr_image *src, int32_t orientation, int32_t ycbcr_full_range, focr_image *dst);

/** Orientation in EXIF / CGImagePropertyOrientation numbering (1 = up … 8 = left). */
typedef enum focr_orientation {
    FOCR_ORIENTATION_UP = 1,
    FOCR_ORIENTATION_UP_MIRRORED = 2,
    FOCR_ORIENTATION_DOWN = 3,
    FOCR_ORIENTATION_DOWN_MIRRORED = 4,
    FOCR_ORIENTATION_LEFT_MIRRORED = 5,
    FOCR_ORIENTATION_RIGHT = 6,
    FOCR_ORIENTATION_RIGHT_MIRRORED = 7,
    FOCR_ORIENTATION_LEFT = 8
} focr_orientation;

/**
 * Makes a stored image upright: `dst` receives the image as displayed for `orientation`
 * (RIGHT: rotate 90° clockwise; LEFT: 90° counter-clockwise; DOWN: 180°; mirrored variants add a
 * flip). For 5…8 `dst` is height×width. Packed formats only; `dst` has the same format and must
 * not overlap `src`. GRAY8: FrameOCR's SIMD kernels (fast/: 16 × 16 byte transposes for
 * 5…8, shuffled row copies for 1…4; SSE2, or AVX2 when the processor has it), byte-identical to
 * the OpenCV calls, which do the other formats and every format where no SIMD level is available
 * (focr_fast_simd_level() == 0): cv::rotate, cv::flip, cv::transpose.
 */
focr_status focr_orient(const focr_image *src, focr_image *dst, int32_t orientation);

typedef enum focr_threshold_method {
    FOCR_THRESHOLD_MEAN = 0,    /* cv::ADAPTIVE_THRESH_MEAN_C */
    FOCR_THRESHOLD_GAUSSIAN = 1 /* cv::ADAPTIVE_THRESH_GAUSSIAN_C */
} focr_threshold_method;

/**
 * `cv::adaptiveThreshold(src, dst, 255, method, inverted ? THRESH_BINARY_INV : THRESH_BINARY,
 * block_size, c)`. GRAY8 → GRAY8 of the same size; block_size odd and ≥ 3 (checked first); `dst`
 * must not overlap `src`. With block_size ≤ 255 and |c| ≤ 10^6, when a SIMD level is available
 * (focr_fast_simd_level() ≥ 1), both methods run FrameOCR's SIMD kernels (fast/), byte-identical
 * to OpenCV 4.6 and without allocating per frame: the mean as running box sums with OpenCV's own
 * rounding of the mean; the Gaussian (x86 only) as OpenCV's float GaussianBlur of the image
 * (cv::getGaussianKernel weights, replicated border) repeated operation for operation — fused
 * multiply-adds exactly where OpenCV's AVX2 filters fuse them on this machine — rounded half to
 * even as convertTo does. The rest calls OpenCV.
 */
focr_status focr_adaptive_threshold(const focr_image *src, focr_image *dst, int32_t method,
                                    int32_t inverted, int32_t block_size, double c);

/**
 * `cv::resize` of src into dst's size: INTER_AREA when both axes shrink or keep, INTER_CUBIC when
 * any axis grows. Packed formats; dst has src's format.
 */
focr_status focr_resize(const focr_image *src, focr_image *dst);

/** Copies pixels row by row (same format and size); padding is neither read nor written. */
focr_status focr_copy(const focr_image *src, focr_image *dst);

/* MARK: - Borders, small rotations, smoothing (image/borders.cpp, rotate_small.cpp, smooth.cpp) */

/**
 * `src` (packed) surrounded by `border` pixels of `value` on every side into `dst` (same format,
 * (w + 2·border)×(h + 2·border), not the same pixels): cv::copyMakeBorder with BORDER_CONSTANT.
 */
focr_status focr_pad(const focr_image *src, int32_t border, uint8_t value, focr_image *dst);

/**
 * `src` (GRAY8) with everything outside the rectangle (x, y, width, height; within src, at least
 * 1×1) replaced by the rectangle's nearest edge pixels, in place (cv::copyMakeBorder with
 * BORDER_REPLICATE): a text region turned upright is read without what lay around it.
 */
focr_status focr_replicate_outside(focr_image *src, int32_t x, int32_t y, int32_t width, int32_t height);

/**
 * `src` (packed) turned `degrees` clockwise (as displayed; −45…45) about its center into `dst`
 * (same format, any size ≥ 1×1; may not alias src): cv::warpAffine with INTER_LINEAR and
 * BORDER_CONSTANT `fill` in every channel. The source's center ((w − 1) / 2, (h − 1) / 2 in pixel
 * indices, w / 2, h / 2 in continuous coordinates) lands on the destination's center, so a `dst`
 * of (w + 2m)×(h + 2m) holds the turned image with m pixels more on every side (corners that still
 * leave `dst` are cut, areas no source pixel reaches are `fill`). In continuous coordinates a
 * point s of src lands at R(degrees)·(s − c_src) + c_dst, R(θ) = [cos θ, −sin θ; sin θ, cos θ].
 */
focr_status focr_rotate_small(const focr_image *src, float degrees, uint8_t fill, focr_image *dst);

/**
 * The turned rectangle of `src` (packed) centred on (center_x, center_y) (continuous pixel
 * coordinates, top-left origin), running `degrees` clockwise as displayed (any angle), cut out
 * upright into `dst` (same format; its size is the rectangle's: width along the text, height
 * across it; may not alias src): cv::warpAffine with WARP_INVERSE_MAP, INTER_LINEAR and
 * BORDER_REPLICATE (parts of the rectangle outside `src` repeat its edge). A point at (u, v) from
 * `dst`'s center is read from c + u·(cos θ, sin θ) + v·(−sin θ, cos θ) of `src`. A detected
 * text region is cut out this way for a line recognizer.
 */
focr_status focr_crop_turned(const focr_image *src, float center_x, float center_y, float degrees, focr_image *dst);

/**
 * `src` (GRAY8) smoothed with a Gaussian of standard deviation `sigma` pixels (0.1…10) into
 * `dst` (GRAY8, same size; may alias src): cv::GaussianBlur with the kernel size OpenCV derives
 * from sigma (about 6·sigma + 1) and BORDER_REPLICATE.
 */
focr_status focr_smooth(const focr_image *src, float sigma, focr_image *dst);

#ifdef __cplusplus
}
#endif

#endif /* FOCR_H */
