// Smoothing (focr.h): a Gaussian blur of a gray image, as a turned or scaled image is smoothed
// before it is read (focr_smooth).
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "focr.h"
#include "focr_common/descriptor.hpp"
#include "focr_common/status.hpp"

using namespace focr;

extern "C" focr_status focr_smooth(const focr_image *src, float sigma, focr_image *dst) {
    return guarded("smooth", [&]() -> focr_status {
        focr_status s = validate_gray_pair(src, dst, "smooth");
        if (s != FOCR_OK) return s;
        if (!(sigma >= 0.1f && sigma <= 10.0f)) return fail(FOCR_E_INVALID_ARGUMENT, "smooth: sigma not in 0.1…10");
        const cv::Mat in = wrap_plane0(*src);
        cv::Mat out = wrap_plane0(*dst);
        const uchar *before = out.data;
        cv::GaussianBlur(in, out, cv::Size(), sigma, sigma, cv::BORDER_REPLICATE);
        if (out.data != before) return fail(FOCR_E_INTERNAL, "smooth: OpenCV reallocated the destination");
        return FOCR_OK;
    });
}
