// A text region read without its surroundings (focr_detect.h): everything outside a rectangle
// replaced by the rectangle's edge pixels. The detector itself is in libFrameOCRMedia.so
// (Sources/CFrameOCRMedia/detector.cpp), which the shim loads on first use (media/media.cpp).
#include <opencv2/core.hpp>

#include "common/descriptor.hpp"
#include "common/status.hpp"
#include "focr_detect.h"

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
