// Borders (focr.h): an image surrounded by a constant border (focr_pad), and a text region read
// without its surroundings, everything outside a rectangle replaced by the rectangle's edge pixels
// (focr_replicate_outside; the text detector that finds such regions is in libFrameOCRMedia.so).
#include <opencv2/core.hpp>

#include "focr.h"
#include "focr_common/descriptor.hpp"
#include "focr_common/status.hpp"

using namespace focr;

extern "C" focr_status focr_replicate_outside(focr_image *src, int32_t x, int32_t y, int32_t width, int32_t height) {
    return guarded("replicate_outside", [&]() -> focr_status {
        focr_status s = validate(src, "src");
        if (s != FOCR_OK) return s;
        if (src->format != FOCR_FORMAT_GRAY8) return fail(FOCR_E_INVALID_ARGUMENT, "replicate_outside: src must be GRAY8");
        if (width < 1 || height < 1 || x < 0 || y < 0 || x > src->width - width || y > src->height - height)
            return fail(FOCR_E_INVALID_ARGUMENT, "replicate_outside: the rectangle is not within src");
        cv::Mat image = wrap_plane0(*src);
        const cv::Mat inside = image(cv::Rect(x, y, width, height)).clone();
        const uchar *before = image.data;
        cv::copyMakeBorder(inside, image, y, src->height - y - height, x, src->width - x - width, cv::BORDER_REPLICATE);
        if (image.data != before) return fail(FOCR_E_INTERNAL, "replicate_outside: OpenCV reallocated the image");
        return FOCR_OK;
    });
}

extern "C" focr_status focr_pad(const focr_image *src, int32_t border, uint8_t value, focr_image *dst) {
    return guarded("pad", [&]() -> focr_status {
        focr_status s = validate_packed_pair(src, dst, "pad");
        if (s != FOCR_OK) return s;
        if (border < 0 || border > 4096) return fail(FOCR_E_INVALID_ARGUMENT, "pad: border not in 0…4096");
        if (dst->width != src->width + 2 * border || dst->height != src->height + 2 * border)
            return fail(FOCR_E_INVALID_ARGUMENT, "pad: destination must have the padded size");
        const cv::Mat in = wrap_plane0(*src);
        cv::Mat out = wrap_plane0(*dst);
        const uchar *before = out.data;
        cv::copyMakeBorder(in, out, border, border, border, border, cv::BORDER_CONSTANT, cv::Scalar::all(value));
        if (out.data != before) return fail(FOCR_E_INTERNAL, "pad: OpenCV reallocated the destination");
        return FOCR_OK;
    });
}
