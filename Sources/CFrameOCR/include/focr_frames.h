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
 * cv::resize INTER_AREA, and `*sharpness` the variance of the Laplacian (cv::Laplacian, 3×3
 * aperture, CV_16S) over the variance of the gradient (cv::Sobel, 3×3, both directions summed)
 * of a copy reduced to at most `sharp_side` pixels on its longer side (INTER_AREA; ≤ 0: 480): a
 * ratio without unit that blur lowers (across an edge blurred by σ, as 1/σ²) while the amount of
 * text, its contrast and the light leave it as it is; 0 for a flat frame. Cost: one area
 * reduction of the frame, a Laplacian and two Sobel passes of the reduced copy.
 */
focr_status focr_frame_signature(const focr_image *gray, int32_t sharp_side, focr_image *thumb, float *sharpness);

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
 * The translation that carries `previous` onto `current` (GRAY8 thumbnails of the same size):
 * cv::phaseCorrelate on float copies under a Hanning window (cv::createHanningWindow), in pixels
 * of the thumbnails (`*dx` right, `*dy` down: a point at p in `previous` is at p + (dx, dy) in
 * `current`), and the peak's response (0…1; low when the frames share little: a cut, a flat
 * image). Thumbnails under 8×8, or either with a standard deviation under 2 gray levels (flat: no
 * structure to correlate), give 0, 0, 0.
 */
focr_status focr_global_motion(const focr_image *previous, const focr_image *current, float *dx, float *dy,
                               float *response);

#ifdef __cplusplus
}
#endif

#endif /* FOCR_FRAMES_H */
