/*
 * focr_fast.h — FrameOCR's fast CPU path: the preprocessing chain fused into one pass over the
 * frame, vectorizable C++ and OpenCV's thread pool (cv::parallel_for_), byte-identical to the
 * OpenCV chain (cv::cvtColor → ROI → cv::rotate/flip/transpose → cv::adaptiveThreshold MEAN_C).
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
 * → gray → upright for `orientation` (1…8) → adaptive mean threshold (block_size odd 3…255, C,
 * inverted) into `dst` (GRAY8, upright size). block_size ≤ 0: no threshold (gray + upright only).
 * The frame is read once; the only intermediate is the upright gray region (thread-local
 * scratch), and `dst` is written once.
 */
focr_status focr_fast_preprocess(const focr_image *src, int32_t orientation, int32_t block_size, double c,
                                 int32_t inverted, focr_image *dst);

#ifdef __cplusplus
}
#endif

#endif /* FOCR_FAST_H */
