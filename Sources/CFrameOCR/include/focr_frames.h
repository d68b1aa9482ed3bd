/*
 * focr_frames.h — measurements of a frame against the frames before it, for live reading: a
 * small signature (a reduced copy and the frame's sharpness) that says whether anything changed
 * and whether the frame is too blurred to read, and the global motion between two signatures.
 * Implemented in analysis/frames.cpp.
 *
 * Ownership and errors follow focr.h: images are borrowed for the call; every function returns a
 * focr_status and no exception leaves the shim. Thread-safe (no shared state).
 */
#ifndef FOCR_FRAMES_H
#define FOCR_FRAMES_H

#include "focr.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The signature of `gray` (GRAY8, any size ≥ 1×1, any bytes_per_row): `thumb` (GRAY8, caller
 * allocated, at most `gray`'s size; typically 128 px wide) receives `gray` reduced with
 * cv::resize INTER_AREA, `motion_thumb` (GRAY8, at most `gray`'s size, typically 256 px wide;
 * NULL: none) the same reduced to its size for the motion estimate (focr_global_motion), and
 * `*sharpness` the variance of the Laplacian (cv::Laplacian, 3×3
 * aperture, CV_16S) over the variance of the gradient (cv::Sobel, 3×3, both directions summed)
 * of a copy reduced to at most `sharp_side` pixels on its longer side (INTER_AREA; ≤ 0: 480): a
 * ratio without unit that blur lowers (across an edge blurred by σ, as 1/σ²) while the amount of
 * text, its contrast and the light leave it as it is; 0 for a flat frame. Cost: one area
 * reduction of the frame, a Laplacian and two Sobel passes of the reduced copy, and the motion
 * thumbnail reduced from that copy when it is at least as large.
 */
focr_status focr_frame_signature(const focr_image *gray, int32_t sharp_side, focr_image *thumb,
                                 focr_image *motion_thumb, float *sharpness);

/**
 * How different two signatures' thumbnails are, 0…255 gray levels: the absolute difference of
 * `a` and `b` (GRAY8, the same size; cv::absdiff) averaged over blocks of at most
 * `block`×`block` pixels (cv::resize INTER_AREA to ⌈width/block⌉×⌈height/block⌉, blocks of
 * width/⌈width/block⌉ by height/⌈height/block⌉ pixels; 1: each pixel, a
 * block at least the image: the whole image's mean), the largest block's mean into
 * `*difference`. Blocks keep a small change (a digit on a display, one label among many) from
 * vanishing into the whole frame's mean, while sensor noise stays at its own level in every
 * block. `block` < 1 is an error.
 */
focr_status focr_frame_difference(const focr_image *a, const focr_image *b, int32_t block, float *difference);

/**
 * The motion that carries `previous` onto `current`, as a similarity: a point (x, y) of
 * `previous` is at (a·x − b·y + tx, b·x + a·y + ty) in `current` (thumbnail pixels, x right, y
 * down; scale √(a² + b²), angle atan2(b, a), clockwise as displayed).
 */
typedef struct focr_motion {
    float a, b, tx, ty;
    /** The whole thumbnails' phase correlation peak (0…1; low when the frames share little: a
     *  cut, a flat image). */
    float response;
    /** Tiles whose shift was measured, and of those the inliers of the similarity (0: the
     *  motion is the translation alone). */
    int32_t tiles;
    int32_t inliers;
} focr_motion;

/**
 * The global motion between two thumbnails (GRAY8, the same size; typically 256 px wide), into
 * `*motion`:
 * 1. the translation, by cv::phaseCorrelate of float copies of the centred region of the largest
 *    even size the DFT takes as it is (cv::getOptimalDFTSize; with a padded or odd size the peak
 *    is half a pixel off) under a Hanning window (cv::createHanningWindow), and its peak's
 *    response;
 * 2. then, on thumbnails at least 32 px on each side, the shift of each textured tile (32×32 px,
 *    16×16 when the shorter side is under 64; side by side; textured: a standard deviation of 6
 *    gray levels or more) against the current thumbnail brought back by the motion so far
 *    (cv::warpAffine, WARP_INVERSE_MAP; at first the translation), by phase correlation (a
 *    response of 0.2 or more kept; tiles the motion takes outside skipped), and a similarity
 *    fitted to the tiles' centres by cv::estimateAffinePartial2D (RANSAC, 1 px reprojection
 *    threshold); up to three passes, until a pass moves the thumbnail's corners by under 0.1 px.
 *    A fit is kept when at least 6 tiles and at least half of those measured agree with it, its
 *    scale is within 0.8…1.25 and its angle within ±15°. When step 1's response is under 0.3 and
 *    its shift at least 1 px, step 2 also starts from no motion, and the start more tiles agree
 *    on is kept. A scale and angle that move the thumbnail's corners by under half a pixel are
 *    dropped (a = 1, b = 0, and the translation the similarity gives the centre). With no fit,
 *    a = 1, b = 0, (tx, ty) is step 1's translation and `inliers` 0.
 * Thumbnails under 8×8, or either with a standard deviation under 2 gray levels (flat: no
 * structure to correlate), give the identity with response 0.
 */
focr_status focr_global_motion(const focr_image *previous, const focr_image *current, focr_motion *motion);

/**
 * Sets glibc's malloc, for the whole process, for reading a stream of frames: an arena keeps up
 * to `trim_threshold` bytes of freed memory at its top (mallopt M_TRIM_THRESHOLD; glibc's default
 * 128 KiB) and blocks of `mmap_threshold` bytes or more are mapped alone (M_MMAP_THRESHOLD), so
 * that the few megabytes each frame's analysis allocates and frees are not given back to the
 * system and faulted in again on every frame. Both must be at least 1. Errors:
 * FOCR_E_INVALID_ARGUMENT (a value below 1), FOCR_E_UNSUPPORTED (not glibc, or mallopt refused).
 */
focr_status focr_malloc_thresholds(int32_t trim_threshold, int32_t mmap_threshold);

#ifdef __cplusplus
}
#endif

#endif /* FOCR_FRAMES_H */
