/*
 * focr_auto.h — measurements behind FrameOCR's automatic preprocessing, taken cheaply from the
 * upright gray image before recognition: per-region polarity, light and the size of the text
 * (focr_auto_analyze, analysis/auto_analyze.cpp), and the skew of the text lines (focr_find_skew,
 * analysis/skew.cpp). The small rotation that corrects a skew, and the smoothing and padding that
 * go with a turned image, are plain image operations: focr.h (focr_rotate_small, focr_smooth,
 * focr_pad; image/).
 *
 * The rest of the analysis room has headers of its own: focr_lines.h (lines of large text),
 * focr_document.h (a sheet of paper on a surface), focr_mrz.h (machine readable zones).
 *
 * Ownership and errors follow focr.h: images are borrowed for the call; every function returns a
 * focr_status and no exception leaves the shim. Thread-safe (no shared state).
 */
#ifndef FOCR_AUTO_H
#define FOCR_AUTO_H

#include "focr.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What focr_auto_analyze measured. Sizes in pixels of the analysed image. */
typedef struct focr_text_analysis {
    int32_t tiles_x, tiles_y;  /* the polarity grid: tiles_x × tiles_y regions */
    int32_t inverted_tiles;    /* regions with light text on a dark background (inverted in dst) */
    int32_t dark_tiles;        /* regions with a dark background, text or not */
    int32_t components;        /* text-like connected components after polarity */
    float text_height;         /* median height of the text-like components at least half as tall as
                                  their 90th percentile (specks and punctuation left out); 0: none */
    float text_height_p75;     /* their 75th percentile */
    float text_aspect;         /* median width / height of the components counted in text_height */
    int32_t edge_components;   /* text-like components touching the image border */
    float contrast;            /* Otsu's between-class distance: |mean(ink) − mean(paper)|, 0…255 */
    float background_spread;   /* paper brightness p90 − p10 over the regions: uneven light when large */
    float threshold;           /* Otsu's threshold of dst (the one behind components and contrast), 0…255 */
    int32_t marked_tiles;      /* regions with marks: 5 % of their pixels ≥ 40 levels below their paper (p90) */
    int32_t lost_tiles;        /* marked regions whose marks (p5) and paper (p90) lie on the same side of
                                  `threshold`: a single threshold loses their marks (uneven light) */
    float ink_band;            /* rows the text spans: the 90th percentile of the bottoms minus the 10th
                                  of the tops of the components counted in text_height (a single line's
                                  height, whatever its crop's margins); 0: none */
} focr_text_analysis;

/**
 * Polarity and text size of `src` (GRAY8, upright), with `dst` (GRAY8, same size; may not alias
 * src) receiving `src` with every light-on-dark region inverted.
 *
 * Polarity, per region of a grid of tiles of `tile` pixels (≤ 0: max(32, min(w, h) / 4)): a
 * region is dark when its median is below 128; it is inverted when it is dark, 2–45 % of its
 * pixels are at least 48 levels brighter than the median, and those light pixels form strokes:
 * at least two pieces inside the region and a margin of half a region around it (not touching
 * that window's border) holding at least half of them (a lit object or a highlight entering the
 * window does not count). A dark area — 4-connected dark regions — is inverted as a whole when
 * any of its regions holds such strokes; within it, blocks of a quarter region whose
 * surroundings (the block and half a region around it) have a median of 128 or more (a light
 * area it straddles) are kept as they are.
 * A dark region with no such minority (a uniformly dark frame) is left alone.
 * Light: per region of the same grid on `dst`, its paper is its 90th percentile and it holds marks
 * when its 5th percentile is at least 40 levels darker; a marked region is lost (`lost_tiles`) when
 * both percentiles lie on the same side of Otsu's threshold of the whole of `dst` (a single
 * threshold makes it all ink or all paper).
 * Text size: Otsu's threshold of `dst` (cv::threshold THRESH_OTSU), 8-connected components of
 * the ink (cv::connectedComponentsWithStats), kept when 3 ≤ height ≤ 0.9·h, width ≤ 3·height +
 * 2, height ≤ 12·width and filling ≥ 10 % of their box.
 */
focr_status focr_auto_analyze(const focr_image *src, int32_t tile, focr_image *dst, focr_text_analysis *out);

/**
 * The skew of the text lines of `gray` (GRAY8, dark text on a light background, any
 * bytes_per_row): Leptonica's pixFindSkewSweepAndSearch on a 1 bpp copy binarized with Otsu's
 * threshold (cv::threshold THRESH_OTSU; ink = 1), sweeping −max_degrees…+max_degrees in steps of
 * 1° on a 4× reduced copy (2× below 1 000 000 pixels), then a binary search down to 0.01° on a 2×
 * (1×) reduced one.
 *
 * `*angle_degrees` is how far the lines are turned, in degrees clockwise as displayed (top-left
 * origin, y down): positive when a line descends to the right. It is the *negative* of
 * Leptonica's angle, which is the rotation that deskews (clockwise positive); so
 * focr_rotate_small(src, -angle, …) deskews. `*confidence` is Leptonica's ratio of the best
 * differential square sum of row sums to the worst (≥ 0; 0 when it could not tell: no ink, too
 * little signal, or the best angle at the edge of the sweep; Leptonica's pixDeskew trusts ≥ 3).
 * When the angle cannot be measured both are 0 and the call still returns FOCR_OK.
 *
 * `max_degrees` in 1…45. Leptonica's own messages are silenced (setMsgSeverity, process-wide, as
 * for the GIF decoder). Cost: one binarization and ~2 × max_degrees + 20 shears of a reduced
 * binary image.
 */
focr_status focr_find_skew(const focr_image *gray, float max_degrees, float *angle_degrees, float *confidence);

#ifdef __cplusplus
}
#endif

#endif /* FOCR_AUTO_H */
