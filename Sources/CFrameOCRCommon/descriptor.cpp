// Descriptor validation for every entry point of the shim and of libFrameOCRMedia, and the cv::Mat
// header over a packed image (focr_common/descriptor.hpp).
#include <string>

#include <opencv2/core.hpp>

#include "focr_common.h"
#include "focr_common/descriptor.hpp"
#include "focr_common/status.hpp"

namespace focr {

int packed_bytes_per_pixel(int32_t format) {
    switch (format) {
    case FOCR_FORMAT_GRAY8: return 1;
    case FOCR_FORMAT_BGRA8:
    case FOCR_FORMAT_RGBA8: return 4;
    case FOCR_FORMAT_BGR8:
    case FOCR_FORMAT_RGB8: return 3;
    default: return 0;
    }
}

focr_status validate_gray_pair(const focr_image *src, const focr_image *dst, const char *where) {
    focr_status s = validate(src, "src");
    if (s != FOCR_OK) return s;
    if ((s = validate(dst, "dst")) != FOCR_OK) return s;
    if (src->format != FOCR_FORMAT_GRAY8 || dst->format != FOCR_FORMAT_GRAY8 || dst->width != src->width ||
        dst->height != src->height)
        return fail(FOCR_E_INVALID_ARGUMENT, std::string(where) + ": src and dst must be GRAY8 of the same size");
    return FOCR_OK;
}

focr_status validate_packed_pair(const focr_image *src, const focr_image *dst, const char *where) {
    focr_status s = validate(src, "src");
    if (s != FOCR_OK) return s;
    if ((s = validate(dst, "dst")) != FOCR_OK) return s;
    if (packed_bytes_per_pixel(src->format) == 0) return fail(FOCR_E_INVALID_ARGUMENT, std::string(where) + ": planar source");
    if (dst->format != src->format)
        return fail(FOCR_E_INVALID_ARGUMENT, std::string(where) + ": destination must have the source's format");
    if (src->planes[0].data == dst->planes[0].data) return fail(FOCR_E_INVALID_ARGUMENT, std::string(where) + ": dst aliases src");
    return FOCR_OK;
}

focr_status validate(const focr_image *image, const char *role) {
    const std::string r(role);
    if (image == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, r + ": image is NULL");
    if (image->width <= 0 || image->height <= 0)
        return fail(FOCR_E_INVALID_ARGUMENT, r + ": size " + std::to_string(image->width) + "x" +
                                                 std::to_string(image->height) + " is not positive");
    int expected_planes = 1;
    if (image->format == FOCR_FORMAT_NV12) expected_planes = 2;
    else if (image->format == FOCR_FORMAT_I420) expected_planes = 3;
    else if (packed_bytes_per_pixel(image->format) == 0)
        return fail(FOCR_E_INVALID_ARGUMENT, r + ": unknown pixel format " + std::to_string(image->format));
    if (image->plane_count != expected_planes)
        return fail(FOCR_E_INVALID_ARGUMENT, r + ": format needs " + std::to_string(expected_planes) +
                                                 " planes, got " + std::to_string(image->plane_count));
    const int32_t cw = (image->width + 1) / 2, ch = (image->height + 1) / 2;
    for (int p = 0; p < expected_planes; ++p) {
        const focr_plane &pl = image->planes[p];
        int32_t w = image->width, h = image->height;
        size_t bytes_per_sample = (size_t)(packed_bytes_per_pixel(image->format));
        if (p > 0) { w = cw; h = ch; bytes_per_sample = image->format == FOCR_FORMAT_NV12 ? 2 : 1; }
        if (expected_planes > 1 && p == 0) bytes_per_sample = 1;
        if (pl.data == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, r + ": plane " + std::to_string(p) + " has no data");
        if (pl.width != w || pl.height != h)
            return fail(FOCR_E_INVALID_ARGUMENT, r + ": plane " + std::to_string(p) + " is " + std::to_string(pl.width) +
                                                     "x" + std::to_string(pl.height) + ", expected " + std::to_string(w) +
                                                     "x" + std::to_string(h));
        if (pl.bytes_per_row < (size_t)w * bytes_per_sample)
            return fail(FOCR_E_INVALID_ARGUMENT, r + ": plane " + std::to_string(p) + " bytesPerRow " +
                                                     std::to_string(pl.bytes_per_row) + " < row bytes " +
                                                     std::to_string((size_t)w * bytes_per_sample));
    }
    return FOCR_OK;
}

cv::Mat wrap_plane0(const focr_image &image) {
    const int bpp = packed_bytes_per_pixel(image.format);
    return cv::Mat(image.height, image.width, CV_8UC(bpp == 0 ? 1 : bpp), image.planes[0].data,
                   image.planes[0].bytes_per_row);
}

}  // namespace focr
