// The per-operation entry points of focr.h on borrowed images: gray conversion, orientation,
// adaptive threshold, resize, copy (OpenCV, or the fast path's SIMD kernels where it has them).
#include <cstring>
#include <string>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "common/descriptor.hpp"
#include "common/status.hpp"
#include "fast/fastpath.hpp"
#include "focr.h"

using namespace focr;

namespace {

/// Checks src/dst are valid packed images, and dst has `format`, `width`×`height`.
focr_status check_pair(const focr_image *src, focr_image *dst, int32_t format, int32_t width, int32_t height,
                       const char *op) {
    focr_status s = validate(src, "src");
    if (s != FOCR_OK) return s;
    if ((s = validate(dst, "dst")) != FOCR_OK) return s;
    if (packed_bytes_per_pixel(src->format) == 0)
        return fail(FOCR_E_INVALID_ARGUMENT, std::string(op) + ": planar source; use its Y plane as GRAY8");
    if (dst->format != format || dst->width != width || dst->height != height)
        return fail(FOCR_E_INVALID_ARGUMENT, std::string(op) + ": destination is format " + std::to_string(dst->format) +
                                                 " " + std::to_string(dst->width) + "x" + std::to_string(dst->height) +
                                                 ", expected format " + std::to_string(format) + " " +
                                                 std::to_string(width) + "x" + std::to_string(height));
    // Overlap check: the destination's bytes must not intersect the source's.
    const uint8_t *s0 = plane_bytes(src->planes[0]);
    const uint8_t *s1 = s0 + src->planes[0].bytes_per_row * (size_t)(src->height - 1) +
                        (size_t)src->width * packed_bytes_per_pixel(src->format);
    const uint8_t *d0 = plane_bytes(dst->planes[0]);
    const uint8_t *d1 = d0 + dst->planes[0].bytes_per_row * (size_t)(dst->height - 1) +
                        (size_t)dst->width * packed_bytes_per_pixel(dst->format);
    if (d0 < s1 && s0 < d1) return fail(FOCR_E_INVALID_ARGUMENT, std::string(op) + ": source and destination overlap");
    return FOCR_OK;
}

/// Fails if OpenCV reallocated the destination instead of writing into the caller's memory.
focr_status check_in_place(const cv::Mat &out, const focr_image *dst, const char *op) {
    if (out.data != dst->planes[0].data)
        return fail(FOCR_E_INTERNAL, std::string(op) + ": OpenCV reallocated the destination");
    return FOCR_OK;
}

}  // namespace

extern "C" focr_status focr_convert_to_gray(const focr_image *src, focr_image *dst) {
    return guarded("convert_to_gray", [&]() -> focr_status {
        focr_status s = validate(src, "src");
        if (s != FOCR_OK) return s;
        if (src->format == FOCR_FORMAT_NV12 || src->format == FOCR_FORMAT_I420)
            return fail(FOCR_E_INVALID_ARGUMENT, "convert_to_gray: NV12/I420 gray is the Y plane; no conversion");
        if ((s = check_pair(src, dst, FOCR_FORMAT_GRAY8, src->width, src->height, "convert_to_gray")) != FOCR_OK)
            return s;
        cv::Mat in = wrap_plane0(*src), out = wrap_plane0(*dst);
        int code = -1;
        switch (src->format) {
        case FOCR_FORMAT_GRAY8: in.copyTo(out); return check_in_place(out, dst, "convert_to_gray");
        case FOCR_FORMAT_BGRA8: code = cv::COLOR_BGRA2GRAY; break;
        case FOCR_FORMAT_RGBA8: code = cv::COLOR_RGBA2GRAY; break;
        case FOCR_FORMAT_BGR8: code = cv::COLOR_BGR2GRAY; break;
        case FOCR_FORMAT_RGB8: code = cv::COLOR_RGB2GRAY; break;
        }
        cv::cvtColor(in, out, code);
        return check_in_place(out, dst, "convert_to_gray");
    });
}

extern "C" focr_status focr_orient(const focr_image *src, focr_image *dst, int32_t orientation) {
    return guarded("orient", [&]() -> focr_status {
        if (orientation < 1 || orientation > 8)
            return fail(FOCR_E_INVALID_ARGUMENT, "orient: orientation " + std::to_string(orientation) + " not in 1…8");
        if (src == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "orient: src is NULL");
        const bool swaps = orientation >= 5;
        focr_status s = check_pair(src, dst, src->format, swaps ? src->height : src->width,
                                   swaps ? src->width : src->height, "orient");
        if (s != FOCR_OK) return s;
        if (src->format == FOCR_FORMAT_GRAY8 && fast::current_level() >= fast::kSSE2) {
            // The fast path's SIMD copy, mirror and 16 × 16 transposes (same bytes as below).
            // Without SIMD (off x86, or FRAMEOCR_SIMD=portable) OpenCV's own code is faster.
            fast::upright(fast::kernels(), plane_bytes(src->planes[0]), src->planes[0].bytes_per_row, src->width, src->height, 1,
                          0, orientation, plane_bytes(dst->planes[0]), dst->planes[0].bytes_per_row);
            return FOCR_OK;
        }
        cv::Mat in = wrap_plane0(*src), out = wrap_plane0(*dst);
        switch (orientation) {
        case FOCR_ORIENTATION_UP: in.copyTo(out); break;
        case FOCR_ORIENTATION_UP_MIRRORED: cv::flip(in, out, 1); break;
        case FOCR_ORIENTATION_DOWN: cv::rotate(in, out, cv::ROTATE_180); break;
        case FOCR_ORIENTATION_DOWN_MIRRORED: cv::flip(in, out, 0); break;
        case FOCR_ORIENTATION_LEFT_MIRRORED: cv::transpose(in, out); break;
        case FOCR_ORIENTATION_RIGHT: cv::rotate(in, out, cv::ROTATE_90_CLOCKWISE); break;
        case FOCR_ORIENTATION_RIGHT_MIRRORED:
            cv::transpose(in, out);
            cv::flip(out, out, -1);
            break;
        case FOCR_ORIENTATION_LEFT: cv::rotate(in, out, cv::ROTATE_90_COUNTERCLOCKWISE); break;
        }
        return check_in_place(out, dst, "orient");
    });
}

extern "C" focr_status focr_adaptive_threshold(const focr_image *src, focr_image *dst, int32_t method,
                                               int32_t inverted, int32_t block_size, double c) {
    return guarded("adaptive_threshold", [&]() -> focr_status {
        if (block_size < 3 || block_size % 2 == 0)
            return fail(FOCR_E_INVALID_ARGUMENT, "adaptive_threshold: blockSize " + std::to_string(block_size) +
                                                     " must be odd and >= 3");
        if (method != FOCR_THRESHOLD_MEAN && method != FOCR_THRESHOLD_GAUSSIAN)
            return fail(FOCR_E_INVALID_ARGUMENT, "adaptive_threshold: unknown method " + std::to_string(method));
        if (src == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "adaptive_threshold: src is NULL");
        focr_status s = check_pair(src, dst, FOCR_FORMAT_GRAY8, src->width, src->height, "adaptive_threshold");
        if (s != FOCR_OK) return s;
        if (src->format != FOCR_FORMAT_GRAY8)
            return fail(FOCR_E_INVALID_ARGUMENT, "adaptive_threshold: source must be GRAY8");
        if (method == FOCR_THRESHOLD_MEAN && fast::threshold_mean_handles(block_size, c) &&
            fast::current_level() >= fast::kSSE2) {
            // The fast path's vectorized box sums and comparison (same bytes as cv::adaptiveThreshold).
            const fast::Source source{plane_bytes(src->planes[0]), src->planes[0].bytes_per_row, 1, 0};
            fast::threshold_mean(fast::kernels(), source, src->width, src->height, block_size, c, inverted != 0, 1,
                                 plane_bytes(dst->planes[0]), dst->planes[0].bytes_per_row);
            return FOCR_OK;
        }
        cv::Mat in = wrap_plane0(*src), out = wrap_plane0(*dst);
        cv::adaptiveThreshold(in, out, 255,
                              method == FOCR_THRESHOLD_MEAN ? cv::ADAPTIVE_THRESH_MEAN_C : cv::ADAPTIVE_THRESH_GAUSSIAN_C,
                              inverted ? cv::THRESH_BINARY_INV : cv::THRESH_BINARY, block_size, c);
        return check_in_place(out, dst, "adaptive_threshold");
    });
}

extern "C" focr_status focr_resize(const focr_image *src, focr_image *dst) {
    return guarded("resize", [&]() -> focr_status {
        if (src == nullptr || dst == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "resize: NULL image");
        focr_status s = check_pair(src, dst, src->format, dst->width, dst->height, "resize");
        if (s != FOCR_OK) return s;
        cv::Mat in = wrap_plane0(*src), out = wrap_plane0(*dst);
        const bool grows = dst->width > src->width || dst->height > src->height;
        cv::resize(in, out, out.size(), 0, 0, grows ? cv::INTER_CUBIC : cv::INTER_AREA);
        return check_in_place(out, dst, "resize");
    });
}

extern "C" focr_status focr_copy(const focr_image *src, focr_image *dst) {
    return guarded("copy", [&]() -> focr_status {
        if (src == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "copy: src is NULL");
        focr_status s = check_pair(src, dst, src->format, src->width, src->height, "copy");
        if (s != FOCR_OK) return s;
        cv::Mat out = wrap_plane0(*dst);
        wrap_plane0(*src).copyTo(out);
        return check_in_place(out, dst, "copy");
    });
}
