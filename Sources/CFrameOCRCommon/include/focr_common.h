/*
 * focr_common.h — what both halves of FrameOCR's C shim share: the status codes and the calling
 * thread's last error, the borrowed image descriptor, and the decoded images the shim hands out.
 *
 * Part of the CFrameOCRCommon target (Sources/CFrameOCRCommon), on which the shim (CFrameOCR,
 * linked into every program) and its media library (CFrameOCRMedia, libFrameOCRMedia.so: image
 * files, video, the text detector) both depend. Implemented there: status.cpp (the last error,
 * and the exception firewall every entry point runs in), descriptor.cpp (the checks every entry
 * point makes of a descriptor), decoded_image.cpp (focr_decoded_image_view and _destroy). Swift
 * sees these declarations through the CFrameOCR module (its umbrella header includes this one).
 *
 * Ownership and lifetime rules
 * ----------------------------
 * - `focr_image` is a *borrowed descriptor*: it names memory owned by the caller and never owns
 *   it. Every plane has its own base address and `bytes_per_row` (NV12's chroma plane is never
 *   assumed to follow the luma plane). A shim call reads and writes only the `width × height`
 *   pixels of each plane; padding bytes past a row's pixels are never read and never written.
 *   Pointers in a descriptor need only stay valid for the duration of the call.
 * - The only pixels the shim hands out are `focr_decoded_image`s (from focr_image_decode_file,
 *   focr_image_decode_memory and focr_video_read), freed with focr_decoded_image_destroy.
 *   `_destroy(NULL)` is a no-op.
 * - Every entry point returns a focr_status. FOCR_OK is 0. On failure, focr_last_error() returns
 *   a message for the calling thread, valid until that thread's next shim call. No C++ exception
 *   ever leaves the shim.
 * - libFrameOCRMedia.so, when the shim loads it with dlopen, has its own copy of this code and so
 *   its own last error: the shim's loader copies the library's message into the shim's, so that a
 *   caller only ever reads focr_last_error().
 */
#ifndef FOCR_COMMON_H
#define FOCR_COMMON_H

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
    FOCR_E_TOO_LARGE = 13, /* an image file's header, a raw frame or a video stream claims more pixels
                              than the caller's limit (the message gives the size and the limit) */
    FOCR_E_UNAVAILABLE = 14, /* the code for the call is not in this process: libFrameOCRMedia (image
                               files, video, the text detector) is neither linked in nor found (the
                               message says where it was looked for and how to provide it) */
    FOCR_E_RUNTIME_MISSING = 15, /* OpenVINO, the runtime of the neural networks, is not installed or
                                    cannot be loaded (focr_openvino.h; the message names the file,
                                    the folders searched and `make openvino`) */
    FOCR_E_INFERENCE = 16 /* OpenVINO failed: a model it cannot read or compile, an inference that
                             failed (the message is OpenVINO's, with the model's path) */
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

/* MARK: - Decoded images */

/** Pixels the shim decoded (an image file, a video frame) and the caller owns. */
typedef struct focr_decoded_image focr_decoded_image;

/** The decoded pixels (GRAY8 or BGR8, one plane): borrowed, valid until focr_decoded_image_destroy.
    A zeroed descriptor for NULL. */
focr_image focr_decoded_image_view(const focr_decoded_image *image);

/** Frees the pixels, from any thread, before or after the handle that made them is gone. NULL is a
    no-op. */
void focr_decoded_image_destroy(focr_decoded_image *image);

/** The largest width or height of any image FrameOCR handles, in pixels (descriptors are int32). */
#define FOCR_MAX_IMAGE_SIDE 65536
/** The largest `max_pixels` a decode accepts: OpenCV's imgcodecs refuses more (CV_IO_MAX_IMAGE_PIXELS). */
#define FOCR_MAX_IMAGE_PIXELS_CEILING (1ull << 30)

#ifdef __cplusplus
}
#endif

#endif /* FOCR_COMMON_H */
