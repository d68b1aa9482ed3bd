/*
 * focr_files.h — FrameOCR's C shim: image files (OpenCV imgcodecs; Leptonica for what OpenCV
 * cannot read).
 *
 * Implemented in libFrameOCRMedia.so (Sources/CFrameOCRMedia/files/files.cpp), which the shim's
 * loader (Sources/CFrameOCR/loader/media_loader.cpp) finds in the process or opens with dlopen on
 * the first call: imgcodecs brings GDAL and about 140 shared libraries, which a process that reads
 * no file never loads. When the library is neither linked in nor found, every call here fails with
 * FOCR_E_UNAVAILABLE and says where it was looked for.
 *
 * Ownership and errors follow focr_common.h: `*out` is set on success and freed with
 * focr_decoded_image_destroy; images and paths are borrowed for the call. Thread-safe (no shared
 * state).
 */
#ifndef FOCR_FILES_H
#define FOCR_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "focr_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Decodes an image file with cv::imdecode: PNG, JPEG, TIFF, BMP, PGM/PPM, WebP and whatever else
 * the installed OpenCV reads; formats OpenCV cannot read (GIF) are decoded by Leptonica. The result is GRAY8 (one-channel sources) or BGR8, 8 bits per
 * sample: 16-bit samples are scaled by 1/257, an alpha channel is flattened onto white, and the
 * EXIF orientation is applied where OpenCV reads it (JPEG). `*out` is set on success and must be
 * freed with focr_decoded_image_destroy.
 *
 * Size limit: before decoding, the header is read with Leptonica's pixReadHeaderMem (PNG, JPEG,
 * TIFF, BMP, PNM, WebP, GIF, JP2), and an image wider or taller than FOCR_MAX_IMAGE_SIDE or with
 * more than `max_pixels` pixels (width × height, 1 … FOCR_MAX_IMAGE_PIXELS_CEILING) fails with
 * FOCR_E_TOO_LARGE without its pixels ever being allocated. A format whose header Leptonica cannot
 * read is checked after decoding (and OpenCV's own ceiling, CV_IO_MAX_IMAGE_PIXELS = 2^30, fails
 * with FOCR_E_TOO_LARGE too).
 * Errors: FOCR_E_IO (missing/unreadable), FOCR_E_DECODE (not an image, truncated), FOCR_E_TOO_LARGE,
 * FOCR_E_INVALID_ARGUMENT (`max_pixels` out of range).
 */
focr_status focr_image_decode_file(const char *path, uint64_t max_pixels, focr_decoded_image **out);

/** Decodes an in-memory encoded image (same rules as focr_image_decode_file). */
focr_status focr_image_decode_memory(const uint8_t *bytes, size_t count, uint64_t max_pixels,
                                     focr_decoded_image **out);

/** Encodes `image` (GRAY8, BGR8 or BGRA8) to a file with cv::imwrite; format from the extension. */
focr_status focr_image_write_file(const focr_image *image, const char *path);

#ifdef __cplusplus
}
#endif

#endif /* FOCR_FILES_H */
