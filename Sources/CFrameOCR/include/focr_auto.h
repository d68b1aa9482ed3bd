/*
 * focr_auto.h — measurements behind FrameOCR's automatic preprocessing: per-region polarity,
 * the size of the text and its skew, taken cheaply from the upright gray image before
 * recognition, and the small rotation that corrects the skew.
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
 * `src` (packed) surrounded by `border` pixels of `value` on every side into `dst` (same format,
 * (w + 2·border)×(h + 2·border), not the same pixels): cv::copyMakeBorder with BORDER_CONSTANT.
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

/** A line of large text that focr_text_lines found. Pixels of the source image. */
typedef struct focr_line_box {
    int32_t x, y, width, height;  /* the bounding box of what was drawn */
    int32_t characters;           /* how many character components it holds (≥ 3) */
    float character_height;       /* their median height */
    float character_aspect;       /* their median width / height */
} focr_line_box;

/**
 * Lines of large text in `src` (GRAY8, dark text on a light background: polarity already
 * normalized, e.g. focr_auto_analyze's dst) — the words of a sign, a label, a display — each
 * drawn alone into `dst` (GRAY8, same size; may not alias src): their characters black (0),
 * everything else white (255). Boxes do not overlap, so cropping `dst` to one box gives that
 * line alone.
 *
 * 1. Ink: `src` divided by its background (a morphological closing, cv::morphologyEx MORPH_CLOSE,
 *    with a square of a tenth of the smaller side, at least 15 px; cv::divide), binarized with
 *    Otsu's threshold (cv::threshold THRESH_OTSU): a shadow or a gradient across a sign does not
 *    join its letters to the dark around them.
 * 2. Rules: horizontal runs of ink at least twice the median character height long (an opening
 *    with a horizontal line, cv::morphologyEx MORPH_OPEN) are removed, so that letters touching a
 *    rail or an underline stand alone.
 * 3. Characters: 8-connected components (cv::connectedComponentsWithStats) at least
 *    `min_height` (≥ 3) and at most 95 % of the image tall, 0.08…1.2 times as wide as tall,
 *    filling 10…<100 % of their box and darker than the rest of it by ≥ 32 gray levels.
 * 4. Lines: characters of similar height (within 20 %) and centre line (within a quarter of
 *    their height), without those less than half as contrasted as the line's median, cut where
 *    neighbours are more than two heights apart; at least three characters.
 * 5. Most ink (count × height) first, each line takes the components of its band (60 % of its
 *    height above and below, at least half of their height within its rows, at most three
 *    heights wide, at least half as contrasted as its characters) that follow it within 0.6
 *    heights horizontally, one after another (lower case, punctuation), and is kept unless its
 *    box overlaps a line kept before or fewer than three of its characters are left; at most
 *    `max_lines` (1…64).
 *
 * `lines` receives `*count` (0…max_lines) lines in that order. Cost: two morphological
 * passes, one or two labellings and a pass over the labels.
 */
focr_status focr_text_lines(const focr_image *src, int32_t min_height, int32_t max_lines, focr_image *dst,
                            focr_line_box *lines, int32_t *count);

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
 * `src` (GRAY8) smoothed with a Gaussian of standard deviation `sigma` pixels (0.1…10) into
 * `dst` (GRAY8, same size; may alias src): cv::GaussianBlur with the kernel size OpenCV derives
 * from sigma (about 6·sigma + 1) and BORDER_REPLICATE.
 */
focr_status focr_smooth(const focr_image *src, float sigma, focr_image *dst);


/** Most corners of a document outline (focr_document). */
#define FOCR_DOCUMENT_MAX_CORNERS 16

/** What focr_find_document measured: the largest bright region after the light is evened. */
typedef struct focr_document {
    int32_t x, y, width, height;  /* its bounding box, pixels of the source (0×0: no region) */
    float area_fraction;          /* its area / the image's, 0…1 */
    float rectangularity;         /* its area / that of its smallest turned rectangle, 0…1 */
    float paper;                  /* median gray level inside it, 0…255 (-1: none) */
    float surroundings;           /* median gray level outside it, 0…255 (-1: none, it fills the image) */
    float edge_contact;           /* share of the image's edge pixels it covers, 0…1 */
    float angle_degrees;          /* its smallest turned rectangle's angle, −45…45 (OpenCV's convention) */
    int32_t corners;              /* vertices of its outline in `points` (0…FOCR_DOCUMENT_MAX_CORNERS) */
    float points[2 * FOCR_DOCUMENT_MAX_CORNERS];  /* x0, y0, x1, y1, …: its convex outline, source pixels */
} focr_document;

/**
 * The largest bright, roughly rectangular region of `gray` (GRAY8, any bytes_per_row) — a sheet of
 * paper lying on a darker or textured surface — measured for the caller to judge (focr_document).
 *
 * On a copy reduced to at most 512 px on its longer side (cv::resize INTER_AREA): the print removed
 * (a median a 40th of the smaller side wide, odd, ≥ 3, taken as ⌈radius/2⌉ passes of the
 * vectorized 5×5 cv::medianBlur), divided by the light's slow falloff (a Gaussian of σ a quarter of
 * the smaller side, cv::GaussianBlur on an eighth-size copy, resized back INTER_LINEAR; cv::divide
 * × 128), binarized with
 * Otsu's threshold (cv::threshold THRESH_OTSU), closed then opened with a square of a 40th of the
 * smaller side (cv::morphologyEx), and its largest outer contour (cv::findContours RETR_EXTERNAL)
 * measured: cv::minAreaRect, the medians inside and outside it, the edge it touches; its outline is
 * its convex hull simplified with cv::approxPolyDP (1 % of its perimeter, more until it has at
 * most FOCR_DOCUMENT_MAX_CORNERS vertices). Coordinates are mapped back to the source's pixels.
 * An image under 32 px on a side, or without a bright region, gives an all-zero `out` (FOCR_OK).
 */
focr_status focr_find_document(const focr_image *gray, focr_document *out);

/**
 * `src` (GRAY8) divided by its paper's brightness into `dst` (GRAY8, same size; may not alias):
 * the paper is a closing of `src` with a square of `kernel` pixels (3…1001, made odd; wider than a
 * stroke of the print; cv::morphologyEx MORPH_CLOSE), and dst = 255 · src / paper (cv::divide), so
 * paper is white and the print keeps its contrast under a shadow or a falloff. With `corners`
 * (3…FOCR_DOCUMENT_MAX_CORNERS) vertices in `points` (x, y pairs in `src`'s pixels), everything
 * outside that outline shrunk by a 200th of the smaller side (≥ 3 px; cv::fillPoly, cv::erode) is
 * white — the surface and the paper's own edge; `corners` 0: no outline.
 */
focr_status focr_flatten_document(const focr_image *src, const float *points, int32_t corners, int32_t kernel, focr_image *dst);

#ifdef __cplusplus
}
#endif

#endif /* FOCR_AUTO_H */
