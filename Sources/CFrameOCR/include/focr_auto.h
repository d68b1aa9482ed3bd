/*
 * focr_auto.h — measurements behind FrameOCR's automatic preprocessing: per-region polarity
 * and the size of the text, taken cheaply from the upright gray image before recognition.
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
 * Text size: Otsu's threshold of `dst` (cv::threshold THRESH_OTSU), 8-connected components of
 * the ink (cv::connectedComponentsWithStats), kept when 3 ≤ height ≤ 0.9·h, width ≤ 3·height +
 * 2, height ≤ 12·width and filling ≥ 10 % of their box.
 */
focr_status focr_auto_analyze(const focr_image *src, int32_t tile, focr_image *dst, focr_text_analysis *out);

/**
 * `src` (packed) surrounded by `border` pixels of `value` on every side into `dst` (same format,
 * (w + 2·border)×(h + 2·border)): cv::copyMakeBorder with BORDER_CONSTANT.
 */
focr_status focr_pad(const focr_image *src, int32_t border, uint8_t value, focr_image *dst);

/** The dominant line of large text that focr_dominant_line found. Pixels of the source image. */
typedef struct focr_text_line {
    int32_t x, y, width, height;  /* the bounding box of what was drawn */
    int32_t characters;           /* how many character components it holds; 0: none found */
    float character_height;       /* their mean height */
    int32_t inverted;             /* 1 when they are light on a darker background */
    float clutter;                /* ink (of the line's polarity) left out, per pixel of ink drawn: 0 when the
                                     line is all there is */
} focr_text_line;

/**
 * The dominant line of large text in `src` (GRAY8) — the number of a licence plate, the word of
 * a cropped sign — drawn alone into `dst` (GRAY8, same size; may not alias src): its characters
 * black (0), everything else white (255).
 *
 * For both polarities, Otsu's binarization (cv::threshold THRESH_OTSU) is split into 8-connected
 * components (cv::connectedComponentsWithStats); character-like ones are at least a quarter and
 * at most 95 % of the image's height, 0.08…1.2 times as wide as tall and fill at least 10 % of
 * their box. Those of similar height (within 20 %) and centre line (within a quarter of their
 * height) form a line; the line with the most height in total (count × mean height) of at least
 * three characters wins; every component inside its band (60 % of its height above and below,
 * across the image) with at least half its height within the line's rows and at most three
 * heights wide is drawn with it (capitals, ascenders, descenders, punctuation, the rest of the
 * line; not smaller lines of text, frames or rules), and `out` boxes them all. `out->characters` is 0
 * (and `dst` all white) when there is no such line.
 */
focr_status focr_dominant_line(const focr_image *src, focr_image *dst, focr_text_line *out);

#ifdef __cplusplus
}
#endif

#endif /* FOCR_AUTO_H */
