// Internal to FrameOCR's C code (CFrameOCRCommon): checks of the borrowed image descriptors
// (focr_common.h's focr_image) every room of the shim and of libFrameOCRMedia uses, and the
// cv::Mat header over a packed image's pixels (implemented in descriptor.cpp).
#pragma once

#include <cstdint>

#include <opencv2/core.hpp>

#include "focr_common.h"

namespace focr {

/// The bytes of a plane (focr_plane.data is `void *` at the boundary).
inline uint8_t *plane_bytes(const focr_plane &plane) { return static_cast<uint8_t *>(plane.data); }

/// Bytes per pixel of plane 0 of a packed format (0 for planar formats).
int packed_bytes_per_pixel(int32_t format);

/// The byte of a packed colour pixel that holds blue: 2 for RGB8/RGBA8, else 0 (BGR8/BGRA8) — the
/// `bidx` of cv::cvtColor's …2GRAY and of the fast path's and the kernels' gray rows.
inline int blue_index(int32_t format) { return format == FOCR_FORMAT_RGBA8 || format == FOCR_FORMAT_RGB8 ? 2 : 0; }

/// Validates `image`; on failure records a message mentioning `role` ("src", "dst").
focr_status validate(const focr_image *image, const char *role);

/// Validates `src` and `dst` as GRAY8 images of the same size; failures name `where`.
focr_status validate_gray_pair(const focr_image *src, const focr_image *dst, const char *where);

/// Validates `src` (a packed or gray format) and `dst` (the same format, not the same pixels);
/// failures name `where`. Sizes are the caller's to check.
focr_status validate_packed_pair(const focr_image *src, const focr_image *dst, const char *where);

/// A cv::Mat header over plane 0 of a packed (or gray) image: no copy.
cv::Mat wrap_plane0(const focr_image &image);

}  // namespace focr
