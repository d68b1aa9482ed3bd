/*
 * focr.h — FrameOCR's C shim: images, OpenCV operations and errors.
 *
 * A pure-C interface over OpenCV (C++17 inside). Implemented in common/ (status.cpp: the last
 * error; descriptor.cpp: the checks every entry point makes) and image/ (operations.cpp: the
 * per-operation entry points; files.cpp: image files). Swift imports this module only, through
 * the umbrella header CFrameOCR.h.
 *
 * Ownership and lifetime rules
 * ----------------------------
 * - `focr_image` is a *borrowed descriptor*: it names memory owned by the caller and never owns
 *   it. Every plane has its own base address and `bytes_per_row` (NV12's chroma plane is never
 *   assumed to follow the luma plane). A shim call reads and writes only the `width × height`
 *   pixels of each plane; padding bytes past a row's pixels are never read and never written.
 *   Pointers in a descriptor need only stay valid for the duration of the call.
 * - Destinations are caller-allocated: an operation writes into `dst` and fails with
 *   FOCR_E_INVALID_ARGUMENT when `dst` has the wrong size or format. No operation reallocates.
 * - The only memory the shim hands out is `focr_decoded_image` (from focr_image_decode_file),
 *   freed with focr_decoded_image_destroy. `_destroy(NULL)` is a no-op.
 * - Every entry point returns a focr_status. FOCR_OK is 0. On failure, focr_last_error() returns
 *   a message for the calling thread, valid until that thread's next shim call. No C++ exception
 *   ever leaves the shim.
 * - All functions here are thread-safe: they keep no shared mutable state.
 */
#ifndef FOCR_H
#define FOCR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* MARK: - Status */

typedef enum focr_status {
    FOCR_OK = 0,
    FOCR_E_INVALID_ARGUMENT = 1, /* bad size, format, stride or parameter */
    FOCR_E_IO = 2,               /* file missing or unreadable */
    FOCR_E_DECODE = 3,           /* file present but not a decodable image */
    FOCR_E_OPENCV = 4,           /* cv::Exception inside OpenCV */
    FOCR_E_TESSERACT = 5,        /* engine initialisation or recognition failed */
    FOCR_E_OUT_OF_MEMORY = 6,
    FOCR_E_UNSUPPORTED = 7,      /* format or operation not supported */
    FOCR_E_INTERNAL = 8,         /* any other exception */
    FOCR_E_OPENCL = 9,           /* an OpenCL call or program build failed */
    FOCR_E_NO_OPENCL_DEVICE = 10,         /* no OpenCL platform or device (no ICD installed, none enumerated) */
    FOCR_E_OPENCL_DEVICE_UNSUPPORTED = 11, /* an OpenCL device that lacks what the kernels need (local memory,
                                              work-group size: focr_cl_requirements) */
    FOCR_E_STALLED = 12, /* a live video source delivered nothing within its timeout (focr_video.h) */
    FOCR_E_TOO_LARGE = 13 /* an image file's header, a raw frame or a video stream claims more pixels
                             than the caller's limit (the message gives the size and the limit) */
} focr_status;

/** The message of the calling thread's last failure ("" if none). Valid until its next call. */
const char *focr_last_error(void);

/* MARK: - Image descriptor */

/** Pixel formats. Values are FrameOCR's own; Swift maps them to FourCC-backed PixelFormat. */
typedef enum focr_format {
    FOCR_FORMAT_GRAY8 = 0, /* 1 plane, 1 byte per pixel */
    FOCR_FORMAT_BGRA8 = 1, /* 1 plane, 4 bytes per pixel: B, G, R, A */
    FOCR_FORMAT_RGBA8 = 2, /* 1 plane, 4 bytes per pixel: R, G, B, A */
    FOCR_FORMAT_BGR8 = 3,  /* 1 plane, 3 bytes per pixel: B, G, R */
    FOCR_FORMAT_RGB8 = 4,  /* 1 plane, 3 bytes per pixel: R, G, B */
    FOCR_FORMAT_NV12 = 5,  /* 2 planes: Y (w×h), interleaved CbCr (ceil(w/2)×ceil(h/2) pairs) */
    FOCR_FORMAT_I420 = 6   /* 3 planes: Y (w×h), Cb and Cr (ceil(w/2)×ceil(h/2) each) */
} focr_format;

/**
 * One plane: `width × height` samples (a CbCr pair counts as one sample of 2 bytes). `data` is
 * untyped (`void *`, as swift-crypto's shims pass bytes) so that Swift hands over a raw pointer as
 * it is, without binding its memory to a type; the shim reads it as bytes.
 */
typedef struct focr_plane {
    void *data;           /* first byte of the first row */
    size_t bytes_per_row; /* ≥ width × bytes per sample */
    int32_t width;        /* samples per row */
    int32_t height;       /* rows */
} focr_plane;

/** A borrowed image: format, size in pixels and 1…3 planes. */
typedef struct focr_image {
    int32_t format;      /* a focr_format */
    int32_t width;       /* pixels, > 0 */
    int32_t height;      /* pixels, > 0 */
    int32_t plane_count; /* 1 for packed formats, 2 for NV12, 3 for I420 */
    focr_plane planes[3];
} focr_image;

/* MARK: - Operations (OpenCV, or FrameOCR's SIMD kernels with OpenCV's bytes) */

/**
 * Gray conversion of a packed color image, byte-identical to `cv::cvtColor` with
 * COLOR_{BGRA,RGBA,BGR,RGB}2GRAY (BT.601 in OpenCV 4.x's 15-bit fixed point, (3735·B + 19235·G +
 * 9798·R + 2^14) >> 15: red/green/blue/white → 76/150/29/255). `dst` is GRAY8 with the same width
 * and height and must not overlap `src`. A GRAY8 source is copied row by row. NV12/I420 are
 * rejected here: their Y plane *is* the gray image (the Swift layer returns it as a view, no copy).
 * Implemented by FrameOCR's SIMD rows (fast/: SSE2, or AVX2 when the processor has it) over
 * OpenCV's thread pool from 64K pixels on, stored past the caches from 4 Mi pixels on; by
 * cv::cvtColor itself where no SIMD level is available (focr_fast_simd_level() == 0). No
 * allocation. Errors: FOCR_E_INVALID_ARGUMENT (a bad descriptor, size, format or overlap).
 */
focr_status focr_convert_to_gray(const focr_image *src, focr_image *dst);

/**
 * The BGR8 image of any format, made upright for `orientation` (1…8, as focr_orient; 5…8 give a
 * height×width `dst`), in one call: what a person looks at (annotation, video writing).
 * GRAY8 → B = G = R; BGRA8/RGBA8 drop alpha (cv::cvtColor COLOR_BGRA2BGR, COLOR_RGBA2BGR);
 * RGB8 swaps (COLOR_RGB2BGR); BGR8 is copied. NV12 and I420 are converted here, pixel by pixel
 * (each chroma sample serves its 2×2 block; odd sizes take the last, half-covered sample),
 * with BT.601 in 16-bit fixed point, rounded to nearest and clamped to 0…255:
 *   video range (`ycbcr_full_range` == 0): Y 16…235, Cb/Cr 16…240 (Y 16 → 0, 235 → 255);
 *     R = 1.164383 (Y−16) + 1.596027 (Cr−128), G = 1.164383 (Y−16) − 0.391762 (Cb−128)
 *     − 0.812968 (Cr−128), B = 1.164383 (Y−16) + 2.017232 (Cb−128);
 *   full range (≠ 0; JFIF): R = Y + 1.402 (Cr−128), G = Y − 0.344136 (Cb−128) − 0.714136 (Cr−128),
 *     B = Y + 1.772 (Cb−128).
 * `ycbcr_full_range` is ignored for packed formats. The orientation step is cv::rotate, cv::flip
 * and cv::transpose, from a thread-local scratch image (kept between calls: no allocation per
 * frame once sizes repeat). `dst` is BGR8, caller-allocated, and must not overlap any plane of
 * `src`. Errors: FOCR_E_INVALID_ARGUMENT (a bad descriptor, orientation, size or overlap).
 */
focr_status focr_convert_to_bgr(const focr_image *src, int32_t orientation, int32_t ycbcr_full_range, focr_image *dst);

/** Orientation in EXIF / CGImagePropertyOrientation numbering (1 = up … 8 = left). */
typedef enum focr_orientation {
    FOCR_ORIENTATION_UP = 1,
    FOCR_ORIENTATION_UP_MIRRORED = 2,
    FOCR_ORIENTATION_DOWN = 3,
    FOCR_ORIENTATION_DOWN_MIRRORED = 4,
    FOCR_ORIENTATION_LEFT_MIRRORED = 5,
    FOCR_ORIENTATION_RIGHT = 6,
    FOCR_ORIENTATION_RIGHT_MIRRORED = 7,
    FOCR_ORIENTATION_LEFT = 8
} focr_orientation;

/**
 * Makes a stored image upright: `dst` receives the image as displayed for `orientation`
 * (RIGHT: rotate 90° clockwise; LEFT: 90° counter-clockwise; DOWN: 180°; mirrored variants add a
 * flip). For 5…8 `dst` is height×width. Packed formats only; `dst` has the same format and must
 * not overlap `src`. GRAY8: FrameOCR's SIMD kernels (fast/: 16 × 16 byte transposes for
 * 5…8, shuffled row copies for 1…4; SSE2, or AVX2 when the processor has it), byte-identical to
 * the OpenCV calls, which do the other formats and every format where no SIMD level is available
 * (focr_fast_simd_level() == 0): cv::rotate, cv::flip, cv::transpose.
 */
focr_status focr_orient(const focr_image *src, focr_image *dst, int32_t orientation);

typedef enum focr_threshold_method {
    FOCR_THRESHOLD_MEAN = 0,    /* cv::ADAPTIVE_THRESH_MEAN_C */
    FOCR_THRESHOLD_GAUSSIAN = 1 /* cv::ADAPTIVE_THRESH_GAUSSIAN_C */
} focr_threshold_method;

/**
 * `cv::adaptiveThreshold(src, dst, 255, method, inverted ? THRESH_BINARY_INV : THRESH_BINARY,
 * block_size, c)`. GRAY8 → GRAY8 of the same size; block_size odd and ≥ 3 (checked first); `dst`
 * must not overlap `src`. With block_size ≤ 255 and |c| ≤ 10^6, when a SIMD level is available
 * (focr_fast_simd_level() ≥ 1), both methods run FrameOCR's SIMD kernels (fast/), byte-identical
 * to OpenCV 4.6 and without allocating per frame: the mean as running box sums with OpenCV's own
 * rounding of the mean; the Gaussian (x86 only) as OpenCV's float GaussianBlur of the image
 * (cv::getGaussianKernel weights, replicated border) repeated operation for operation — fused
 * multiply-adds exactly where OpenCV's AVX2 filters fuse them on this machine — rounded half to
 * even as convertTo does. The rest calls OpenCV.
 */
focr_status focr_adaptive_threshold(const focr_image *src, focr_image *dst, int32_t method,
                                    int32_t inverted, int32_t block_size, double c);

/**
 * `cv::resize` of src into dst's size: INTER_AREA when both axes shrink or keep, INTER_CUBIC when
 * any axis grows. Packed formats; dst has src's format.
 */
focr_status focr_resize(const focr_image *src, focr_image *dst);

/** Copies pixels row by row (same format and size); padding is neither read nor written. */
focr_status focr_copy(const focr_image *src, focr_image *dst);

/* MARK: - Image files (OpenCV imgcodecs) */

typedef struct focr_decoded_image focr_decoded_image;

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

/** The largest width or height of any image FrameOCR handles, in pixels (descriptors are int32). */
#define FOCR_MAX_IMAGE_SIDE 65536
/** The largest `max_pixels` a decode accepts: OpenCV's imgcodecs refuses more (CV_IO_MAX_IMAGE_PIXELS). */
#define FOCR_MAX_IMAGE_PIXELS_CEILING (1ull << 30)

/** The decoded pixels: borrowed, valid until focr_decoded_image_destroy. */
focr_image focr_decoded_image_view(const focr_decoded_image *image);

void focr_decoded_image_destroy(focr_decoded_image *image);

/** Encodes `image` (GRAY8, BGR8 or BGRA8) to a file with cv::imwrite; format from the extension. */
focr_status focr_image_write_file(const focr_image *image, const char *path);

#ifdef __cplusplus
}
#endif

#endif /* FOCR_H */
