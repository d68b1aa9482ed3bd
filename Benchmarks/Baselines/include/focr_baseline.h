/*
 * focr_baseline.h — plain OpenCV, written the way a user would write it: the baselines that
 * frameocr-bench measures FrameOCR against, in the same run.
 *
 * These are NOT FrameOCR's code path. Each per-op baseline calls exactly one OpenCV function;
 * the chain calls OpenCV one function after another with fresh cv::Mat temporaries (allocated on
 * every call, as `cv::Mat gray; cv::cvtColor(src, gray, …)` does). Only the final result is
 * written straight into the caller's `dst` (a cv::Mat header over its memory, which OpenCV does
 * not reallocate when size and type match), so no extra copy is charged to the baseline.
 *
 * Not part of the shim: the benchmark's own C target (CBaselines, Benchmarks/Baselines, C++17
 * inside baseline.cpp), which frameocr-bench and the tests link. It uses the shim's public types
 * (focr.h: focr_image, focr_status) and none of its internals.
 *
 * Ownership and errors: images are borrowed for the call (as in focr.h); every function returns a
 * focr_status and no exception leaves it. A failure's message is focr_baseline_last_error() —
 * not focr_last_error(), which belongs to the shim. Thread-safe (no shared state).
 */
#ifndef FOCR_BASELINE_H
#define FOCR_BASELINE_H

#include "focr.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The message of the calling thread's last baseline failure ("" if none). Valid until its next call. */
const char *focr_baseline_last_error(void);

/**
 * The whole chain in plain OpenCV: `cv::cvtColor(src, gray, …2GRAY)` of the whole frame (for
 * NV12/I420 a cv::Mat header over the Y plane, no copy; GRAY8 used as is) → `gray(cv::Rect(x, y,
 * w, h))` → `cv::rotate(roi, rotated, rotate_code)` (cv::RotateFlags: 0 = 90° clockwise, 1 = 180°,
 * 2 = 90° counter-clockwise; -1: no rotation) → `cv::adaptiveThreshold(rotated, dst, 255, method,
 * THRESH_BINARY, block, c)` (block ≤ 0: no threshold, the result is copied into dst).
 * (x, y, w, h) is the region in the raw (stored) frame, pixels. dst is GRAY8, w×h (h×w when
 * rotated by 90°).
 */
focr_status focr_baseline_chain(const focr_image *src, int32_t x, int32_t y, int32_t w, int32_t h,
                                int32_t rotate_code, int32_t method, int32_t block, double c, focr_image *dst);

/**
 * One `cv::cvtColor` into dst (GRAY8, same size): COLOR_{BGRA,RGBA,BGR,RGB}2GRAY for packed
 * formats; COLOR_YUV2GRAY_NV12 / COLOR_YUV2GRAY_I420 for NV12/I420 whose planes are contiguous
 * with one stride (as a user's single `cv::Mat` of h·3/2 rows); FOCR_E_UNSUPPORTED otherwise.
 */
focr_status focr_baseline_gray(const focr_image *src, focr_image *dst);

/** One `src(cv::Rect(x, y, w, h)).copyTo(dst)`: a materialized crop (dst: src's format, w×h). */
focr_status focr_baseline_crop(const focr_image *src, int32_t x, int32_t y, int32_t w, int32_t h, focr_image *dst);

/** One `cv::rotate(src, dst, rotate_code)` (packed formats; dst has the rotated size). */
focr_status focr_baseline_rotate(const focr_image *src, int32_t rotate_code, focr_image *dst);

/** One `cv::adaptiveThreshold(src, dst, 255, method, THRESH_BINARY, block, c)` (GRAY8 → GRAY8). */
focr_status focr_baseline_threshold(const focr_image *src, int32_t method, int32_t block, double c, focr_image *dst);

/* MARK: - OpenCV oracles (the tests' reference for FrameOCR's own kernels) */

/**
 * The OpenCV calls that focr_orient's GRAY8 kernels stand for, for EXIF `orientation` 1…8:
 * copyTo, cv::flip(1), cv::rotate(ROTATE_180), cv::flip(0), cv::transpose, cv::rotate(90°
 * clockwise), cv::transpose + cv::flip(-1), cv::rotate(90° counter-clockwise). Packed formats;
 * dst has src's format and the upright size.
 */
focr_status focr_baseline_orient(const focr_image *src, int32_t orientation, focr_image *dst);

/**
 * One `cv::adaptiveThreshold(src, dst, 255, method, inverted ? THRESH_BINARY_INV : THRESH_BINARY,
 * block, c)` (GRAY8 → GRAY8, any block and C OpenCV accepts): what focr_adaptive_threshold's
 * mean kernels must equal byte for byte.
 */
focr_status focr_baseline_adaptive_threshold(const focr_image *src, int32_t method, int32_t inverted, int32_t block,
                                             double c, focr_image *dst);

/**
 * The mean cv::adaptiveThreshold(ADAPTIVE_THRESH_GAUSSIAN_C) compares with, by its own steps:
 * `src.convertTo(f, CV_32F)`, `cv::GaussianBlur(f, m, Size(block, block), 0, 0,
 * BORDER_REPLICATE | BORDER_ISOLATED)`, `m.convertTo(dst, CV_8U)` (GRAY8 → GRAY8): what
 * focr_fast_gaussian_mean must equal byte for byte.
 */
focr_status focr_baseline_gaussian_mean(const focr_image *src, int32_t block, focr_image *dst);

/**
 * The float image of focr_baseline_gaussian_mean before its last convertTo, into `dst` (rows
 * `dst_stride` floats apart, `dst_count` floats in all): what focr_fast_gaussian_blur must equal
 * bit for bit.
 */
focr_status focr_baseline_gaussian_blur(const focr_image *src, int32_t block, float *dst, size_t dst_stride,
                                        size_t dst_count);

#ifdef __cplusplus
}
#endif

#endif /* FOCR_BASELINE_H */
