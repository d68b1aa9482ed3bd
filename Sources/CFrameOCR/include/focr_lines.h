/*
 * focr_lines.h — lines of large text, found and drawn alone for a second reading: the dominant
 * line (a licence plate's number, a cropped sign's word: focr_dominant_line,
 * analysis/dominant_line.cpp) and every line of large text (the words of a sign, a label, a
 * display: focr_text_lines, analysis/text_lines.cpp). Both find character-like components and
 * group them into lines with one model (analysis/components.hpp).
 *
 * Ownership and errors follow focr.h: images are borrowed for the call; every function returns a
 * focr_status and no exception leaves the shim. Thread-safe (no shared state).
 */
#ifndef FOCR_LINES_H
#define FOCR_LINES_H

#include "focr.h"

#ifdef __cplusplus
extern "C" {
#endif

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
 *    heights wide, at least half as contrasted as its characters, not reaching 30 % of its height
 *    beyond its rows both above and below: the edge of a label) that follow it within 1.2
 *    heights horizontally, one after another (lower case, punctuation, the next word), and is
 *    kept unless its
 *    box overlaps a line kept before or fewer than three of its characters are left; at most
 *    `max_lines` (1…64).
 *
 * `lines` receives `*count` (0…max_lines) lines in that order. Cost: two morphological
 * passes, one or two labellings and a pass over the labels.
 */
focr_status focr_text_lines(const focr_image *src, int32_t min_height, int32_t max_lines, focr_image *dst,
                            focr_line_box *lines, int32_t *count);

/**
 * Clears the surface around a label from `line` (GRAY8, a crop of one line of dark text on light
 * with some paper around it, modified in place) outside the text's box (`text_x`, `text_y`,
 * `text_width`, `text_height`: pixels of the crop, clipped to it; never changed). The paper's and
 * the ink's levels are the medians of the box's pixels above and below its Otsu threshold
 * (cv::threshold THRESH_OTSU; the whole crop's for an empty box); outside the box, the regions
 * darker than the paper by 15 % of the difference (8-connected, cv::connectedComponentsWithStats)
 * that touch a side of the crop — the surface beyond the label's or sign's edges, the corners of
 * a turned label, a neighbour's glyph cut by the crop — are set, with three pixels of their rim,
 * to the paper's level, so that an engine does not read an edge as `|` or `]`. `*cleared`
 * receives the number of regions cleared. A crop under 4×4, or a box without two levels, is left
 * as it is.
 */
focr_status focr_clear_line_edges(focr_image *line, int32_t text_x, int32_t text_y, int32_t text_width,
                                  int32_t text_height, int32_t *cleared);

#ifdef __cplusplus
}
#endif

#endif /* FOCR_LINES_H */
