// Plain-OpenCV baselines for frameocr-bench (see focr_baseline.h): what a user would write,
// measured side by side with FrameOCR in the same run.
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "common/descriptor.hpp"
#include "common/status.hpp"
#include "focr_baseline.h"

using namespace focr;

namespace {

int gray_code(int32_t format) {
    switch (format) {
    case FOCR_FORMAT_BGRA8: return cv::COLOR_BGRA2GRAY;
    case FOCR_FORMAT_RGBA8: return cv::COLOR_RGBA2GRAY;
    case FOCR_FORMAT_BGR8: return cv::COLOR_BGR2GRAY;
    case FOCR_FORMAT_RGB8: return cv::COLOR_RGB2GRAY;
    default: return -1;
    }
}

bool planar(int32_t format) { return format == FOCR_FORMAT_NV12 || format == FOCR_FORMAT_I420; }

/// Gray of the whole frame as a user writes it: a fresh Mat from cvtColor, or the Y plane as is.
cv::Mat gray_of(const focr_image &src) {
    if (planar(src.format) || src.format == FOCR_FORMAT_GRAY8)
        return cv::Mat(src.height, src.width, CV_8UC1, src.planes[0].data, src.planes[0].bytes_per_row);
    cv::Mat gray;
    cv::cvtColor(wrap_plane0(src), gray, gray_code(src.format));
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
    return guarded("baseline_chain", [&]() -> focr_status {
        if (focr_status s = validate(src, "src")) return s;
        if (focr_status s = validate(dst, "dst")) return s;
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
    return guarded("baseline_gray", [&]() -> focr_status {
        if (focr_status s = validate(src, "src")) return s;
        if (focr_status s = validate(dst, "dst")) return s;
        cv::Mat out = wrap_gray(*dst);
        if (planar(src->format)) {
            // One Mat of h·3/2 rows, as a user holding a contiguous NV12/I420 buffer writes it.
            const size_t stride = src->planes[0].bytes_per_row;
            bool contiguous = plane_bytes(src->planes[1]) == plane_bytes(src->planes[0]) + stride * src->height &&
                              src->planes[1].bytes_per_row * (src->format == FOCR_FORMAT_I420 ? 2 : 1) == stride &&
                              src->width % 2 == 0 && src->height % 2 == 0;
            if (src->format == FOCR_FORMAT_I420)
                contiguous = contiguous && plane_bytes(src->planes[2]) == plane_bytes(src->planes[1]) + src->planes[1].bytes_per_row * (src->height / 2);
            if (!contiguous) return fail(FOCR_E_UNSUPPORTED, "baseline_gray: planes must be contiguous with one stride");
            cv::Mat yuv(src->height * 3 / 2, src->width, CV_8UC1, src->planes[0].data, stride);
            cv::cvtColor(yuv, out, src->format == FOCR_FORMAT_NV12 ? cv::COLOR_YUV2GRAY_NV12 : cv::COLOR_YUV2GRAY_I420);
        } else {
            const int code = gray_code(src->format);
            if (code < 0) return fail(FOCR_E_UNSUPPORTED, "baseline_gray: unsupported format");
            cv::cvtColor(wrap_plane0(*src), out, code);
        }
        return check_dst(out, dst, "baseline_gray");
    });
}

extern "C" focr_status focr_baseline_crop(const focr_image *src, int32_t x, int32_t y, int32_t w, int32_t h,
                                          focr_image *dst) {
    return guarded("baseline_crop", [&]() -> focr_status {
        if (focr_status s = validate(src, "src")) return s;
        if (focr_status s = validate(dst, "dst")) return s;
        if (planar(src->format) || dst->format != src->format)
            return fail(FOCR_E_UNSUPPORTED, "baseline_crop: packed formats only, dst in src's format");
        if (!rect_inside(*src, x, y, w, h)) return fail(FOCR_E_INVALID_ARGUMENT, "baseline_crop: region outside the frame");
        cv::Mat out = wrap_plane0(*dst);
        wrap_plane0(*src)(cv::Rect(x, y, w, h)).copyTo(out);
        return check_dst(out, dst, "baseline_crop");
    });
}

extern "C" focr_status focr_baseline_rotate(const focr_image *src, int32_t rotate_code, focr_image *dst) {
    return guarded("baseline_rotate", [&]() -> focr_status {
        if (focr_status s = validate(src, "src")) return s;
        if (focr_status s = validate(dst, "dst")) return s;
        if (planar(src->format) || dst->format != src->format)
            return fail(FOCR_E_UNSUPPORTED, "baseline_rotate: packed formats only, dst in src's format");
        cv::Mat out = wrap_plane0(*dst);
        cv::rotate(wrap_plane0(*src), out, rotate_code);
        return check_dst(out, dst, "baseline_rotate");
    });
}

extern "C" focr_status focr_baseline_threshold(const focr_image *src, int32_t method, int32_t block, double c,
                                               focr_image *dst) {
    return guarded("baseline_threshold", [&]() -> focr_status {
        if (focr_status s = validate(src, "src")) return s;
        if (focr_status s = validate(dst, "dst")) return s;
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
    return guarded("baseline_orient", [&]() -> focr_status {
        if (focr_status s = validate(src, "src")) return s;
        if (focr_status s = validate(dst, "dst")) return s;
        if (planar(src->format) || dst->format != src->format)
            return fail(FOCR_E_UNSUPPORTED, "baseline_orient: packed formats only, dst in src's format");
        if (orientation < 1 || orientation > 8) return fail(FOCR_E_INVALID_ARGUMENT, "baseline_orient: orientation not in 1…8");
        cv::Mat in = wrap_plane0(*src), out = wrap_plane0(*dst);
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
    return guarded("baseline_adaptive_threshold", [&]() -> focr_status {
        if (focr_status s = validate(src, "src")) return s;
        if (focr_status s = validate(dst, "dst")) return s;
        if (src->format != FOCR_FORMAT_GRAY8 || dst->format != FOCR_FORMAT_GRAY8)
            return fail(FOCR_E_UNSUPPORTED, "baseline_adaptive_threshold: GRAY8 only");
        cv::Mat out = wrap_gray(*dst);
        cv::adaptiveThreshold(wrap_gray(*src), out, 255,
                              method == FOCR_THRESHOLD_GAUSSIAN ? cv::ADAPTIVE_THRESH_GAUSSIAN_C : cv::ADAPTIVE_THRESH_MEAN_C,
                              inverted ? cv::THRESH_BINARY_INV : cv::THRESH_BINARY, block, c);
        return check_dst(out, dst, "baseline_adaptive_threshold");
    });
}
