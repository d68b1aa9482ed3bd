// Plain-OpenCV baselines for frameocr-bench and the tests' OpenCV oracles (focr_baseline.h): what
// a user would write, measured side by side with FrameOCR in the same run.
//
// A C target of the benchmark's own (CBaselines), not part of the shim: it sees only the shim's
// public header (focr.h, for the image descriptor and the status codes), so the descriptor checks,
// the cv::Mat headers over a descriptor and the exception firewall here are its own, and a
// failure's message is focr_baseline_last_error().
#include <cstdint>
#include <exception>
#include <new>
#include <string>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "focr_baseline.h"

namespace {

thread_local std::string last_error;

/// Records `message` as the calling thread's last baseline error and returns `status`.
focr_status fail(focr_status status, const std::string &message) {
    try {
        last_error = message;
    } catch (...) {
    }
    return status;
}

/// Runs `body`; an exception becomes a status and "`where`: reason" (no exception reaches Swift).
template <typename Body>
focr_status firewall(const char *where, Body &&body) noexcept {
    focr_status status = FOCR_E_INTERNAL;
    std::string reason = "unknown exception";
    try {
        return body();
    } catch (const cv::Exception &e) {
        status = FOCR_E_OPENCV;
        reason = std::string("OpenCV: ") + e.what();
    } catch (const std::bad_alloc &) {
        status = FOCR_E_OUT_OF_MEMORY;
        reason = "out of memory";
    } catch (const std::exception &e) {
        reason = e.what();
    } catch (...) {
    }
    return fail(status, std::string(where) + ": " + reason);
}

/// What the baselines need to know of a pixel format: its planes, the bytes of a sample of plane 0
/// and of the chroma planes, and its cv::cvtColor …2GRAY code (-1: none, GRAY8 and YUV included).
struct Format {
    int planes = 0, bytes = 0, chroma_bytes = 0, gray_code = -1;
};

Format format_of(int32_t format) {
    switch (format) {
    case FOCR_FORMAT_GRAY8: return {1, 1, 0, -1};
    case FOCR_FORMAT_BGRA8: return {1, 4, 0, cv::COLOR_BGRA2GRAY};
    case FOCR_FORMAT_RGBA8: return {1, 4, 0, cv::COLOR_RGBA2GRAY};
    case FOCR_FORMAT_BGR8: return {1, 3, 0, cv::COLOR_BGR2GRAY};
    case FOCR_FORMAT_RGB8: return {1, 3, 0, cv::COLOR_RGB2GRAY};
    case FOCR_FORMAT_NV12: return {2, 1, 2, -1};
    case FOCR_FORMAT_I420: return {3, 1, 1, -1};
    default: return {};
    }
}

int gray_code(int32_t format) { return format_of(format).gray_code; }

/// Whether `image` is a descriptor OpenCV may wrap: a known format with its plane count, each plane
/// with data, the size the format gives it (chroma planes ⌈w/2⌉ × ⌈h/2⌉) and a stride of at least
/// its row's bytes. Failures name `role` ("src", "dst").
focr_status check(const focr_image *image, const char *role) {
    const std::string r = std::string(role) + ": ";
    if (image == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, r + "image is NULL");
    if (image->width <= 0 || image->height <= 0) return fail(FOCR_E_INVALID_ARGUMENT, r + "size is not positive");
    const Format f = format_of(image->format);
    if (f.planes == 0) return fail(FOCR_E_INVALID_ARGUMENT, r + "unknown pixel format " + std::to_string(image->format));
    if (image->plane_count != f.planes) return fail(FOCR_E_INVALID_ARGUMENT, r + "wrong plane count for its format");
    for (int p = 0; p < f.planes; ++p) {
        const focr_plane &plane = image->planes[p];
        const int32_t w = p == 0 ? image->width : (image->width + 1) / 2, h = p == 0 ? image->height : (image->height + 1) / 2;
        const size_t row = (size_t)w * (size_t)(p == 0 ? f.bytes : f.chroma_bytes);
        if (plane.data == nullptr || plane.width != w || plane.height != h || plane.bytes_per_row < row)
            return fail(FOCR_E_INVALID_ARGUMENT, r + "plane " + std::to_string(p) + " does not fit its format and size");
    }
    return FOCR_OK;
}

/// The bytes of a plane (focr_plane.data is `void *`).
const uint8_t *bytes_of(const focr_plane &plane) { return static_cast<const uint8_t *>(plane.data); }

/// A cv::Mat header over plane 0 (no copy), with the format's channels (1 for NV12/I420's Y plane).
cv::Mat wrap(const focr_image &image) {
    return cv::Mat(image.height, image.width, CV_8UC(format_of(image.format).bytes), image.planes[0].data,
                   image.planes[0].bytes_per_row);
}

bool planar(int32_t format) { return format == FOCR_FORMAT_NV12 || format == FOCR_FORMAT_I420; }

/// Gray of the whole frame as a user writes it: a fresh Mat from cvtColor, or the Y plane as is.
cv::Mat gray_of(const focr_image &src) {
    if (planar(src.format) || src.format == FOCR_FORMAT_GRAY8)
        return cv::Mat(src.height, src.width, CV_8UC1, src.planes[0].data, src.planes[0].bytes_per_row);
    cv::Mat gray;
    cv::cvtColor(wrap(src), gray, gray_code(src.format));
    return gray;
}

cv::Mat wrap_gray(const focr_image &image) {
    return cv::Mat(image.height, image.width, CV_8UC1, image.planes[0].data, image.planes[0].bytes_per_row);
}

focr_status check_dst(const cv::Mat &out, const focr_image *dst, const char *op) {
    if (out.data != dst->planes[0].data)
        return fail(FOCR_E_INVALID_ARGUMENT, std::string(op) + ": dst has the wrong size or format");
    return FOCR_OK;
}

bool rect_inside(const focr_image &src, int32_t x, int32_t y, int32_t w, int32_t h) {
    return x >= 0 && y >= 0 && w > 0 && h > 0 && x + w <= src.width && y + h <= src.height;
}

}  // namespace

extern "C" focr_status focr_baseline_chain(const focr_image *src, int32_t x, int32_t y, int32_t w, int32_t h,
                                           int32_t rotate_code, int32_t method, int32_t block, double c,
                                           focr_image *dst) {
    return firewall("baseline_chain", [&]() -> focr_status {
        if (focr_status s = check(src, "src")) return s;
        if (focr_status s = check(dst, "dst")) return s;
        if (!rect_inside(*src, x, y, w, h)) return fail(FOCR_E_INVALID_ARGUMENT, "baseline_chain: region outside the frame");
        if (!planar(src->format) && src->format != FOCR_FORMAT_GRAY8 && gray_code(src->format) < 0)
            return fail(FOCR_E_UNSUPPORTED, "baseline_chain: unsupported format");
        cv::Mat gray = gray_of(*src);
        cv::Mat roi = gray(cv::Rect(x, y, w, h));
        cv::Mat rotated;
        if (rotate_code >= 0) cv::rotate(roi, rotated, rotate_code);
        else rotated = roi;
        cv::Mat out = wrap_gray(*dst);
        if (block > 0) {
            cv::adaptiveThreshold(rotated, out, 255,
                                  method == FOCR_THRESHOLD_GAUSSIAN ? cv::ADAPTIVE_THRESH_GAUSSIAN_C : cv::ADAPTIVE_THRESH_MEAN_C,
                                  cv::THRESH_BINARY, block, c);
        } else {
            rotated.copyTo(out);
        }
        return check_dst(out, dst, "baseline_chain");
    });
}

extern "C" focr_status focr_baseline_gray(const focr_image *src, focr_image *dst) {
    return firewall("baseline_gray", [&]() -> focr_status {
        if (focr_status s = check(src, "src")) return s;
        if (focr_status s = check(dst, "dst")) return s;
        cv::Mat out = wrap_gray(*dst);
        if (planar(src->format)) {
            // One Mat of h·3/2 rows, as a user holding a contiguous NV12/I420 buffer writes it.
            const size_t stride = src->planes[0].bytes_per_row;
            bool contiguous = bytes_of(src->planes[1]) == bytes_of(src->planes[0]) + stride * src->height &&
                              src->planes[1].bytes_per_row * (src->format == FOCR_FORMAT_I420 ? 2 : 1) == stride &&
                              src->width % 2 == 0 && src->height % 2 == 0;
            if (src->format == FOCR_FORMAT_I420)
                contiguous = contiguous && bytes_of(src->planes[2]) == bytes_of(src->planes[1]) + src->planes[1].bytes_per_row * (src->height / 2);
            if (!contiguous) return fail(FOCR_E_UNSUPPORTED, "baseline_gray: planes must be contiguous with one stride");
            cv::Mat yuv(src->height * 3 / 2, src->width, CV_8UC1, src->planes[0].data, stride);
            cv::cvtColor(yuv, out, src->format == FOCR_FORMAT_NV12 ? cv::COLOR_YUV2GRAY_NV12 : cv::COLOR_YUV2GRAY_I420);
        } else {
            const int code = gray_code(src->format);
            if (code < 0) return fail(FOCR_E_UNSUPPORTED, "baseline_gray: unsupported format");
            cv::cvtColor(wrap(*src), out, code);
        }
        return check_dst(out, dst, "baseline_gray");
    });
}

extern "C" focr_status focr_baseline_crop(const focr_image *src, int32_t x, int32_t y, int32_t w, int32_t h,
                                          focr_image *dst) {
    return firewall("baseline_crop", [&]() -> focr_status {
        if (focr_status s = check(src, "src")) return s;
        if (focr_status s = check(dst, "dst")) return s;
        if (planar(src->format) || dst->format != src->format)
            return fail(FOCR_E_UNSUPPORTED, "baseline_crop: packed formats only, dst in src's format");
        if (!rect_inside(*src, x, y, w, h)) return fail(FOCR_E_INVALID_ARGUMENT, "baseline_crop: region outside the frame");
        cv::Mat out = wrap(*dst);
        wrap(*src)(cv::Rect(x, y, w, h)).copyTo(out);
        return check_dst(out, dst, "baseline_crop");
    });
}

extern "C" focr_status focr_baseline_rotate(const focr_image *src, int32_t rotate_code, focr_image *dst) {
    return firewall("baseline_rotate", [&]() -> focr_status {
        if (focr_status s = check(src, "src")) return s;
        if (focr_status s = check(dst, "dst")) return s;
        if (planar(src->format) || dst->format != src->format)
            return fail(FOCR_E_UNSUPPORTED, "baseline_rotate: packed formats only, dst in src's format");
        cv::Mat out = wrap(*dst);
        cv::rotate(wrap(*src), out, rotate_code);
        return check_dst(out, dst, "baseline_rotate");
    });
}

extern "C" focr_status focr_baseline_threshold(const focr_image *src, int32_t method, int32_t block, double c,
                                               focr_image *dst) {
    return firewall("baseline_threshold", [&]() -> focr_status {
        if (focr_status s = check(src, "src")) return s;
        if (focr_status s = check(dst, "dst")) return s;
        if (src->format != FOCR_FORMAT_GRAY8 || dst->format != FOCR_FORMAT_GRAY8)
            return fail(FOCR_E_UNSUPPORTED, "baseline_threshold: GRAY8 only");
        cv::Mat out = wrap_gray(*dst);
        cv::adaptiveThreshold(wrap_gray(*src), out, 255,
                              method == FOCR_THRESHOLD_GAUSSIAN ? cv::ADAPTIVE_THRESH_GAUSSIAN_C : cv::ADAPTIVE_THRESH_MEAN_C,
                              cv::THRESH_BINARY, block, c);
        return check_dst(out, dst, "baseline_threshold");
    });
}

extern "C" focr_status focr_baseline_orient(const focr_image *src, int32_t orientation, focr_image *dst) {
    return firewall("baseline_orient", [&]() -> focr_status {
        if (focr_status s = check(src, "src")) return s;
        if (focr_status s = check(dst, "dst")) return s;
        if (planar(src->format) || dst->format != src->format)
            return fail(FOCR_E_UNSUPPORTED, "baseline_orient: packed formats only, dst in src's format");
        if (orientation < 1 || orientation > 8) return fail(FOCR_E_INVALID_ARGUMENT, "baseline_orient: orientation not in 1…8");
        cv::Mat in = wrap(*src), out = wrap(*dst);
        switch (orientation) {
        case 1: in.copyTo(out); break;
        case 2: cv::flip(in, out, 1); break;
        case 3: cv::rotate(in, out, cv::ROTATE_180); break;
        case 4: cv::flip(in, out, 0); break;
        case 5: cv::transpose(in, out); break;
        case 6: cv::rotate(in, out, cv::ROTATE_90_CLOCKWISE); break;
        case 7: cv::transpose(in, out); cv::flip(out, out, -1); break;
        case 8: cv::rotate(in, out, cv::ROTATE_90_COUNTERCLOCKWISE); break;
        }
        return check_dst(out, dst, "baseline_orient");
    });
}

extern "C" focr_status focr_baseline_adaptive_threshold(const focr_image *src, int32_t method, int32_t inverted, int32_t block,
                                                        double c, focr_image *dst) {
    return firewall("baseline_adaptive_threshold", [&]() -> focr_status {
        if (focr_status s = check(src, "src")) return s;
        if (focr_status s = check(dst, "dst")) return s;
        if (src->format != FOCR_FORMAT_GRAY8 || dst->format != FOCR_FORMAT_GRAY8)
            return fail(FOCR_E_UNSUPPORTED, "baseline_adaptive_threshold: GRAY8 only");
        cv::Mat out = wrap_gray(*dst);
        cv::adaptiveThreshold(wrap_gray(*src), out, 255,
                              method == FOCR_THRESHOLD_GAUSSIAN ? cv::ADAPTIVE_THRESH_GAUSSIAN_C : cv::ADAPTIVE_THRESH_MEAN_C,
                              inverted ? cv::THRESH_BINARY_INV : cv::THRESH_BINARY, block, c);
        return check_dst(out, dst, "baseline_adaptive_threshold");
    });
}

extern "C" focr_status focr_baseline_gaussian_mean(const focr_image *src, int32_t block, focr_image *dst) {
    return firewall("baseline_gaussian_mean", [&]() -> focr_status {
        if (focr_status s = check(src, "src")) return s;
        if (focr_status s = check(dst, "dst")) return s;
        if (src->format != FOCR_FORMAT_GRAY8 || dst->format != FOCR_FORMAT_GRAY8)
            return fail(FOCR_E_UNSUPPORTED, "baseline_gaussian_mean: GRAY8 only");
        cv::Mat f, blurred, out = wrap_gray(*dst);
        wrap_gray(*src).convertTo(f, CV_32F);
        cv::GaussianBlur(f, blurred, cv::Size(block, block), 0, 0, cv::BORDER_REPLICATE | cv::BORDER_ISOLATED);
        blurred.convertTo(out, CV_8U);
        return check_dst(out, dst, "baseline_gaussian_mean");
    });
}

extern "C" focr_status focr_baseline_gaussian_blur(const focr_image *src, int32_t block, float *dst, size_t dst_stride,
                                                   size_t dst_count) {
    return firewall("baseline_gaussian_blur", [&]() -> focr_status {
        if (focr_status s = check(src, "src")) return s;
        if (src->format != FOCR_FORMAT_GRAY8) return fail(FOCR_E_UNSUPPORTED, "baseline_gaussian_blur: GRAY8 only");
        if (dst == nullptr || dst_stride < (size_t)src->width ||
            dst_count < dst_stride * (size_t)(src->height - 1) + (size_t)src->width)
            return fail(FOCR_E_INVALID_ARGUMENT, "baseline_gaussian_blur: destination too small");
        cv::Mat f, out(src->height, src->width, CV_32F, dst, dst_stride * sizeof(float));
        wrap_gray(*src).convertTo(f, CV_32F);
        cv::GaussianBlur(f, out, cv::Size(block, block), 0, 0, cv::BORDER_REPLICATE | cv::BORDER_ISOLATED);
        if (out.data != (uchar *)dst) return fail(FOCR_E_INTERNAL, "baseline_gaussian_blur: OpenCV reallocated dst");
        return FOCR_OK;
    });
}

extern "C" const char *focr_baseline_last_error(void) { return last_error.c_str(); }
