// The per-operation entry points of focr.h on borrowed images: gray conversion, orientation,
// adaptive threshold, resize, copy, BGR for people to look at (OpenCV, or the fast path's SIMD
// kernels where it has them).
#include <cstring>
#include <string>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "focr_common/descriptor.hpp"
#include "focr_common/status.hpp"
#include "image/orient.hpp"
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

/// The bytes `[first, last)` a plane of `image` covers (rows × bytes_per_row, the last row's
/// pixels only).
struct ByteRange {
    const uint8_t *first;
    const uint8_t *last;
};

ByteRange plane_range(const focr_image &image, int p, size_t bytes_per_sample) {
    const focr_plane &pl = image.planes[p];
    const uint8_t *first = plane_bytes(pl);
    return {first, first + pl.bytes_per_row * (size_t)(pl.height - 1) + (size_t)pl.width * bytes_per_sample};
}

/// Bytes per sample of plane `p` of a valid descriptor.
size_t sample_bytes(const focr_image &image, int p) {
    if (image.format == FOCR_FORMAT_NV12) return p == 0 ? 1 : 2;
    if (image.format == FOCR_FORMAT_I420) return 1;
    return (size_t)packed_bytes_per_pixel(image.format);
}

/// BT.601 4:2:0 YCbCr (NV12: interleaved CbCr in plane 1; I420: Cb in plane 1, Cr in plane 2)
/// to BGR8, 16-bit fixed point (the coefficients of focr.h × 65536, rounded), into `out`.
void ycbcr_to_bgr(const focr_image &src, bool full_range, cv::Mat &out) {
    // Coefficients × 65536: luma gain, Cr→R, Cb→G, Cr→G, Cb→B.
    const int32_t ky = full_range ? 65536 : 76309;
    const int32_t y0 = full_range ? 0 : 16;
    const int32_t crr = full_range ? 91881 : 104597;
    const int32_t cbg = full_range ? 22554 : 25675;
    const int32_t crg = full_range ? 46802 : 53279;
    const int32_t cbb = full_range ? 116130 : 132201;
    const bool nv12 = src.format == FOCR_FORMAT_NV12;
    auto clamp8 = [](int32_t v) -> uint8_t {
        v = (v + 32768) >> 16;  // arithmetic shift: rounds to nearest for negative sums too
        return (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : v));
    };
    for (int32_t y = 0; y < src.height; ++y) {
        const uint8_t *luma = plane_bytes(src.planes[0]) + src.planes[0].bytes_per_row * (size_t)y;
        const uint8_t *c1 = plane_bytes(src.planes[1]) + src.planes[1].bytes_per_row * (size_t)(y / 2);
        const uint8_t *c2 = nv12 ? nullptr : plane_bytes(src.planes[2]) + src.planes[2].bytes_per_row * (size_t)(y / 2);
        uint8_t *o = out.ptr<uint8_t>(y);
        for (int32_t x = 0; x < src.width; ++x) {
            const int32_t cb = (nv12 ? c1[(x / 2) * 2] : c1[x / 2]) - 128;
            const int32_t cr = (nv12 ? c1[(x / 2) * 2 + 1] : c2[x / 2]) - 128;
            const int32_t l = (luma[x] - y0) * ky;
            o[3 * x + 0] = clamp8(l + cbb * cb);
            o[3 * x + 1] = clamp8(l - cbg * cb - crg * cr);
            o[3 * x + 2] = clamp8(l + crr * cr);
        }
    }
}

/// Fails if OpenCV reallocated the destination instead of writing into the caller's memory.
focr_status check_in_place(const cv::Mat &out, const focr_image *dst, const char *op) {
    if (out.data != dst->planes[0].data)
        return fail(FOCR_E_INTERNAL, std::string(op) + ": OpenCV reallocated the destination");
    return FOCR_OK;
}

}  // namespace

// Declared and described in image/orient.hpp.
void focr::orient_mat(const cv::Mat &in, cv::Mat &out, int32_t orientation) {
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
}

extern "C" focr_status focr_convert_to_gray(const focr_image *src, focr_image *dst) {
    return guarded("convert_to_gray", [&]() -> focr_status {
        focr_status s = validate(src, "src");
        if (s != FOCR_OK) return s;
        if (src->format == FOCR_FORMAT_NV12 || src->format == FOCR_FORMAT_I420)
            return fail(FOCR_E_INVALID_ARGUMENT, "convert_to_gray: NV12/I420 gray is the Y plane; no conversion");
        if ((s = check_pair(src, dst, FOCR_FORMAT_GRAY8, src->width, src->height, "convert_to_gray")) != FOCR_OK)
            return s;
        const int scn = packed_bytes_per_pixel(src->format);
        if (scn > 1 && fast::current_level() >= fast::kSSE2) {
            // The fast path's SIMD BT.601 rows, parallel over groups of rows (the same bytes as
            // cv::cvtColor …2GRAY). Without SIMD (off x86, or FRAMEOCR_SIMD=portable) OpenCV's.
            fast::gray(fast::kernels(), plane_bytes(src->planes[0]), src->planes[0].bytes_per_row, src->width,
                       src->height, scn, blue_index(src->format), plane_bytes(dst->planes[0]), dst->planes[0].bytes_per_row);
            return FOCR_OK;
        }
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
        orient_mat(in, out, orientation);
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
        if (method == FOCR_THRESHOLD_GAUSSIAN && fast::threshold_gaussian_handles(block_size, c) &&
            fast::current_level() >= fast::kSSE2) {
            // The fast path's float kernels: OpenCV's Gaussian mean operation for operation, in
            // one pass and without allocating (same bytes as cv::adaptiveThreshold).
            fast::threshold_gaussian(fast::kernels(), plane_bytes(src->planes[0]), src->planes[0].bytes_per_row,
                                     src->width, src->height, block_size, c, inverted != 0,
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

extern "C" focr_status focr_convert_to_bgr(const focr_image *src, int32_t orientation, int32_t ycbcr_full_range,
                                           focr_image *dst) {
    return guarded("convert_to_bgr", [&]() -> focr_status {
        if (orientation < 1 || orientation > 8)
            return fail(FOCR_E_INVALID_ARGUMENT,
                        "convert_to_bgr: orientation " + std::to_string(orientation) + " not in 1…8");
        focr_status s = validate(src, "src");
        if (s != FOCR_OK) return s;
        if ((s = validate(dst, "dst")) != FOCR_OK) return s;
        const bool swaps = orientation >= 5;
        const int32_t w = swaps ? src->height : src->width, h = swaps ? src->width : src->height;
        if (dst->format != FOCR_FORMAT_BGR8 || dst->width != w || dst->height != h)
            return fail(FOCR_E_INVALID_ARGUMENT, "convert_to_bgr: destination is format " + std::to_string(dst->format) +
                                                     " " + std::to_string(dst->width) + "x" +
                                                     std::to_string(dst->height) + ", expected BGR8 " +
                                                     std::to_string(w) + "x" + std::to_string(h));
        const ByteRange d = plane_range(*dst, 0, 3);
        for (int p = 0; p < src->plane_count; ++p) {
            const ByteRange r = plane_range(*src, p, sample_bytes(*src, p));
            if (d.first < r.last && r.first < d.last)
                return fail(FOCR_E_INVALID_ARGUMENT, "convert_to_bgr: source and destination overlap");
        }
        cv::Mat out = wrap_plane0(*dst);
        // Upright sources convert straight into dst; the others into a thread-local scratch
        // image first (create() keeps its memory while the size repeats), then orient.
        thread_local cv::Mat scratch;
        cv::Mat stored = out;
        if (orientation != FOCR_ORIENTATION_UP) {
            scratch.create(src->height, src->width, CV_8UC3);
            stored = scratch;
        }
        if (src->format == FOCR_FORMAT_NV12 || src->format == FOCR_FORMAT_I420) {
            ycbcr_to_bgr(*src, ycbcr_full_range != 0, stored);
        } else {
            const cv::Mat in = wrap_plane0(*src);
            switch (src->format) {
            case FOCR_FORMAT_GRAY8: cv::cvtColor(in, stored, cv::COLOR_GRAY2BGR); break;
            case FOCR_FORMAT_BGRA8: cv::cvtColor(in, stored, cv::COLOR_BGRA2BGR); break;
            case FOCR_FORMAT_RGBA8: cv::cvtColor(in, stored, cv::COLOR_RGBA2BGR); break;
            case FOCR_FORMAT_RGB8: cv::cvtColor(in, stored, cv::COLOR_RGB2BGR); break;
            default: in.copyTo(stored); break;
            }
        }
        if (orientation == FOCR_ORIENTATION_UP) return check_in_place(stored, dst, "convert_to_bgr");
        orient_mat(stored, out, orientation);
        return check_in_place(out, dst, "convert_to_bgr");
    });
}
