/*
 * focr_mrz.h — glyph measurements for reading a machine readable zone (ICAO Doc 9303).
 * Implemented in analysis/mrz.cpp.
 *
 * Ownership and errors follow focr.h: images are borrowed for the call; every function returns a
 * focr_status and no exception leaves the shim. Thread-safe (no shared state).
 */
#ifndef FOCR_MRZ_H
#define FOCR_MRZ_H

#include "focr.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Which of `cells` equal-width character cells of one MRZ line hold the filler `<`.
 *
 * MRZ text is set in OCR-B, a monospaced font, so a line of n characters whose box is
 * (`x`, `y`, `width`, `height`) in `gray` (GRAY8, dark text on light) has its i-th character in
 * the cell x + i·width/n … x + (i+1)·width/n. Each cell is binarized with Otsu's threshold of the
 * line box (cv::threshold THRESH_OTSU) and cropped to its ink; the filler is a chevron whose
 * point is on the left, so the left quarter of its ink box is empty in the top and bottom
 * quarters (rows with ink ≤ 30 % there), where K has its stem and X its arms.
 * `out[i]` is 1 for a chevron, 0 otherwise (also for a cell without ink).
 *
 * The box is clipped to the image; FOCR_E_INVALID_ARGUMENT when it is empty, `cells` is not in
 * 1…256, or `gray` is not GRAY8.
 */
focr_status focr_mrz_chevrons(const focr_image *gray, int32_t x, int32_t y, int32_t width, int32_t height, int32_t cells,
                              uint8_t *out);

#ifdef __cplusplus
}
#endif

#endif /* FOCR_MRZ_H */
