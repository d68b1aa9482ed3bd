/*
 * focr_annotate.h — FrameOCR's C shim: boxes and labels drawn onto a BGR8 image, for a person to
 * look at what was read (OpenCV imgproc: cv::line, cv::rectangle, cv::putText). Implemented in
 * image/annotate.cpp. The image to draw on comes from focr_convert_to_bgr (focr.h); a video of
 * such images is written with focr_video_writer_* (focr_video.h), a still with
 * focr_image_write_file (focr.h).
 *
 * Ownership and lifetime rules
 * ----------------------------
 * - Everything is borrowed for the call: the image (written in place, only inside its
 *   `width × height` pixels; padding is never touched), the annotations and their labels.
 * - The caller decides what is drawn and in which colour (the Swift layer's Annotation); the
 *   shim only draws.
 * - Every entry point returns a focr_status; on failure focr_last_error() (focr.h) explains it.
 *   No C++ exception leaves the shim. Thread-safe: no shared state (different images may be
 *   drawn on from different threads at once).
 */
#ifndef FOCR_ANNOTATE_H
#define FOCR_ANNOTATE_H

#include <stddef.h>
#include <stdint.h>

#include "focr.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * How an annotation's outline is drawn. Widths are cv::line thicknesses in units of
 * `u = max(1, round(shorter side of the image / 480))` pixels, so a 4K frame gets lines as
 * visible as a VGA one; a thickness t > 1 covers t + 1 pixels across, centred on the edge.
 */
typedef enum focr_annotation_stroke {
    FOCR_STROKE_SOLID = 0,  /* thickness 2u (3 pixels across when u = 1) */
    FOCR_STROKE_THIN = 1,   /* thickness u (1 pixel when u = 1) */
    FOCR_STROKE_DASHED = 2  /* thickness u, dashes of 6u pixels every 10u, from each corner */
} focr_annotation_stroke;

/** One outline with its label. */
typedef struct focr_annotation {
    /* The four corners in image pixels (origin top-left, x right, y down), clockwise from the
       text's top-left; any finite values (an outline outside the image is clipped away). The
       corners are rounded to the nearest pixel; an axis-aligned box is a rectangle through
       the pixel centres of its corners. */
    double x[4];
    double y[4];
    uint8_t blue, green, red; /* the colour of the outline and of the label's background */
    int32_t stroke;           /* a focr_annotation_stroke */
    /* NUL-terminated text drawn on a filled box of the outline's colour (black text on light
       colours, white on dark), above the outline's top-left where it fits, else just inside
       it, moved left or down to stay in the image. OpenCV's Hershey fonts draw printable
       ASCII only: other bytes are drawn as '?' (the Swift layer replaces each non-ASCII
       character by one '?'). NULL or "" draws no label. At most 256 bytes are drawn. */
    const char *label;
} focr_annotation;

/**
 * Draws `count` annotations, in order (later ones over earlier ones), onto `image` (BGR8, any
 * size and bytes_per_row) in place: each outline as four lines (cv::line, 8-connected, no
 * anti-aliasing, so an outline's pixels have exactly its colour), then each label (its box by
 * cv::rectangle filled, its text by cv::putText, FONT_HERSHEY_SIMPLEX at scale 0.5u,
 * anti-aliased) after all outlines, so no outline crosses a label.
 * Errors: FOCR_E_INVALID_ARGUMENT (a bad descriptor; `annotations` NULL with count > 0; a
 * corner that is not finite; an unknown stroke), FOCR_E_UNSUPPORTED (an image that is not BGR8).
 */
focr_status focr_annotate(focr_image *image, const focr_annotation *annotations, size_t count);

#ifdef __cplusplus
}
#endif

#endif /* FOCR_ANNOTATE_H */
