/*
 * focr_files.h — FrameOCR's C shim: image files (Leptonica; OpenCV's imgcodecs for what Leptonica
 * does not read).
 *
 * focr_image_decode_file and focr_image_decode_memory are the shim's own
 * (Sources/CFrameOCR/files/decode.cpp): Leptonica, which Tesseract loads anyway, decodes the
 * formats FrameOCR names, so reading a still loads nothing more. focr_image_decode_opencv and
 * focr_image_write_file are implemented in libFrameOCRMedia.so (Sources/CFrameOCRMedia/files/
 * files.cpp), which the shim's loader (Sources/CFrameOCR/loader/media_loader.cpp) finds in the
 * process or opens with dlopen on the first call: imgcodecs brings GDAL and about 140 shared
 * libraries (31 MB of GDAL alone), which a process that reads only stills Leptonica decodes never
 * loads. When the library is neither linked in nor found, those two calls fail with
 * FOCR_E_UNAVAILABLE and say where it was looked for.
 *
 * Ownership and errors follow focr_common.h: `*out` is set on success and freed with
 * focr_decoded_image_destroy; images and paths are borrowed for the call. Thread-safe (no shared
 * state but Leptonica's message level, set once).
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
 * Decodes an image file of a format FrameOCR names: PNG, JPEG, TIFF, BMP, PNM (PBM/PGM/PPM/PAM),
 * WebP, GIF and JPEG 2000 (JP2/J2K), told by their signature (Leptonica's findFileFormatBuffer),
 * whatever the file is called. Any other bytes (PDF, PostScript, DICOM, text, …) fail with
 * FOCR_E_DECODE before any decoder sees them.
 *
 * Leptonica decodes (pixReadMem). What it reads wrongly goes to OpenCV's imgcodecs through
 * focr_image_decode_opencv (which loads libFrameOCRMedia): a 16-bit PNG (Leptonica keeps the high
 * byte of each sample), a BMP of other than 1, 4, 8 or 24 bits a pixel (Leptonica 1.82 reads a
 * 32-bit one a byte off), a JPEG 2000 with alpha (Leptonica drops it). A file Leptonica reads no
 * image from is tried with OpenCV too, and is FOCR_E_DECODE if that fails as well. The result is
 * GRAY8 (1…16-bit gray sources, gray palettes) or BGR8 (color, gray with alpha), 8 bits per
 * sample: 16-bit samples are scaled by 1/257 and rounded, an alpha channel is flattened onto white
 * (round((c·a + 255·(255 − a)) / 255)), a JPEG's EXIF orientation (APP1, IFD0 tag 0x0112, 1…8)
 * is applied, and so is a TIFF's orientation tag (by Leptonica), so the pixels come back upright.
 * Other formats' orientation is not applied. `*out` is set on success and must be freed with
 * focr_decoded_image_destroy.
 *
 * Size limit: before decoding, the size the header claims is read (Leptonica's pixReadHeaderMem for
 * PNG, JPEG, TIFF, PNM, WebP and JP2; BMP's and GIF's two size fields directly), and an image wider
 * or taller than FOCR_MAX_IMAGE_SIDE or with more than `max_pixels` pixels (width × height,
 * 1 … FOCR_MAX_IMAGE_PIXELS_CEILING) fails with FOCR_E_TOO_LARGE without its pixels ever being
 * allocated. A header that cannot be read this way is checked once decoded. Peak memory while
 * decoding: the file's bytes, Leptonica's image (4 bytes a pixel for color) and the result.
 * Errors: FOCR_E_IO (missing/unreadable), FOCR_E_DECODE (not a named format, truncated, corrupt),
 * FOCR_E_TOO_LARGE, FOCR_E_INVALID_ARGUMENT (`max_pixels` out of range), FOCR_E_UNAVAILABLE (a file
 * only OpenCV reads, without libFrameOCRMedia). Leptonica's messages are turned off process-wide
 * on the first call (setMsgSeverity): every failure reaches the caller as a status.
 */
focr_status focr_image_decode_file(const char *path, uint64_t max_pixels, focr_decoded_image **out);

/** Decodes an in-memory encoded image (same rules as focr_image_decode_file). */
focr_status focr_image_decode_memory(const uint8_t *bytes, size_t count, uint64_t max_pixels,
                                     focr_decoded_image **out);

/**
 * Decodes an in-memory encoded image with OpenCV's cv::imdecode alone, without the format check or
 * the header's size check (the caller's): the fallback of focr_image_decode_memory, in
 * libFrameOCRMedia. The result follows the same rules (GRAY8 or BGR8, 16-bit scaled by 1/257,
 * alpha flattened onto white, a JPEG's EXIF orientation applied by OpenCV); the decoded size is
 * held to `max_pixels` and FOCR_MAX_IMAGE_SIDE, and OpenCV's own ceiling (CV_IO_MAX_IMAGE_PIXELS,
 * 2^30) fails with FOCR_E_TOO_LARGE. Bytes carrying DICOM's signature ("DICM" at byte 128), which
 * OpenCV would hand to GDCM whatever their first bytes say, fail with FOCR_E_DECODE.
 * Errors: FOCR_E_DECODE, FOCR_E_TOO_LARGE, FOCR_E_INVALID_ARGUMENT, FOCR_E_UNAVAILABLE.
 */
focr_status focr_image_decode_opencv(const uint8_t *bytes, size_t count, uint64_t max_pixels,
                                     focr_decoded_image **out);

/**
 * Encodes `image` (GRAY8, BGR8 or BGRA8) to a file with cv::imwrite; format from the extension.
 * `quality` 1…100 sets a lossy codec's quality (JPEG: IMWRITE_JPEG_QUALITY; WebP:
 * IMWRITE_WEBP_QUALITY); 0 leaves each codec's default (JPEG 95, WebP lossless). Other formats
 * ignore it. Errors: FOCR_E_INVALID_ARGUMENT (quality outside 0…100, NULL path), FOCR_E_UNSUPPORTED
 * (other pixel formats), FOCR_E_IO (the file cannot be written), FOCR_E_UNAVAILABLE.
 */
focr_status focr_image_write_file(const focr_image *image, const char *path, int32_t quality);

/**
 * Encodes `image` (GRAY8, BGR8 or BGRA8) in memory with cv::imencode, in the format of
 * `extension` (".jpg", ".png", ".webp", …; with or without the dot), `quality` as for
 * focr_image_write_file. `*bytes` receives a malloc'd buffer of `*count` bytes that the caller
 * releases with free(). Errors: FOCR_E_INVALID_ARGUMENT (NULL arguments, quality outside 0…100),
 * FOCR_E_UNSUPPORTED (other pixel formats, an extension OpenCV does not encode), FOCR_E_OUT_OF_MEMORY,
 * FOCR_E_UNAVAILABLE.
 */
focr_status focr_image_encode(const focr_image *image, const char *extension, int32_t quality, uint8_t **bytes,
                              size_t *count);

#ifdef __cplusplus
}
#endif

#endif /* FOCR_FILES_H */
