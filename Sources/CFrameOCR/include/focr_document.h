/*
 * focr_document.h — a paper document photographed on a darker or textured surface: where the
 * sheet lies (focr_find_document) and its uneven light flattened (focr_flatten_document).
 * Implemented in analysis/document.cpp.
 *
 * Ownership and errors follow focr.h: images are borrowed for the call; every function returns a
 * focr_status and no exception leaves the shim. Thread-safe (no shared state).
 */
#ifndef FOCR_DOCUMENT_H
#define FOCR_DOCUMENT_H

#include "focr.h"

#ifdef __cplusplus
extern "C" {
#endif

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

#endif /* FOCR_DOCUMENT_H */
