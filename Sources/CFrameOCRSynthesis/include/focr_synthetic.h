/*
 * focr_synthetic.h — what generated test scenes are made of: a line of text rendered in a
 * TrueType font, and an image placed on a canvas by an affine map. FrameOCR reads frames; it does
 * not make them — these serve the generated sequences that the live reader is tested, tuned and
 * benchmarked on (FrameOCRSynthesis's SyntheticScene). Implemented in synthetic.cpp (OpenCV:
 * cv::freetype, cv::warpAffine).
 *
 * A test-support target of its own (CFrameOCRSynthesis), outside every product: it is the only
 * code that links OpenCV's freetype module (and FreeType and HarfBuzz with it), which the shim and
 * the programs built on it never load. The Swift test-support target FrameOCRSynthesis wraps it
 * for the tests and frameocr-bench.
 *
 * Ownership and errors follow focr_common.h: images and strings are borrowed for the call; every function
 * returns a focr_status and no exception leaves the shim. Thread-safe (no shared state: each call
 * loads its font).
 */
#ifndef FOCR_SYNTHETIC_H
#define FOCR_SYNTHETIC_H

#include "focr_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The size, in pixels, of `utf8` (UTF-8, 1…1024 bytes) rendered by focr_render_text in the
 * TrueType font file `font_path` at `height` pixels (cv::freetype::FreeType2::getTextSize; the
 * font's pixel height, 4…1024) with `margin` (0…4096) pixels on every side: `*width`, `*height`.
 * FOCR_E_IO when the font cannot be loaded, FOCR_E_INVALID_ARGUMENT for an empty text or a size
 * out of range.
 */
focr_status focr_text_size(const char *utf8, const char *font_path, int32_t height, int32_t margin, int32_t *width,
                           int32_t *out_height);

/**
 * `utf8` rendered into `dst` (GRAY8, exactly the size focr_text_size gives for the same text,
 * font, height and margin): `dst` filled with `paper`, then the text drawn in `ink`, antialiased
 * (cv::freetype::FreeType2::putText, LINE_AA, on a BGR copy then cv::cvtColor): the text's top
 * `margin` below the top edge, its lowest descender `margin` above the bottom edge, its left edge
 * `margin` (and the first glyph's side bearing) from the left.
 */
focr_status focr_render_text(const char *utf8, const char *font_path, int32_t height, int32_t margin, uint8_t ink,
                             uint8_t paper, focr_image *dst);

/**
 * `src` (packed) drawn into `dst` (same format, any size ≥ 1×1; may not alias src) through the
 * affine map `m` (row-major 2×3, pixel indices: a pixel at (x, y) of src lands at
 * (m[0]·x + m[1]·y + m[2], m[3]·x + m[4]·y + m[5]) in dst): cv::warpAffine with INTER_LINEAR and
 * BORDER_TRANSPARENT, so the pixels of `dst` that no source pixel reaches keep their values and
 * images can be composed on a canvas one after the other. A singular or non-finite map is
 * FOCR_E_INVALID_ARGUMENT.
 */
focr_status focr_warp_affine(const focr_image *src, const double m[6], focr_image *dst);

#ifdef __cplusplus
}
#endif

#endif /* FOCR_SYNTHETIC_H */
