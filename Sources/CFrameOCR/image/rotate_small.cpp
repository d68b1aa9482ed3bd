// A small rotation (focr.h): an image turned up to 45° about its center, as a skew is corrected
// (focr_rotate_small; the skew is measured in analysis/skew.cpp).
#include <cmath>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "focr.h"
#include "focr_common/descriptor.hpp"
#include "focr_common/status.hpp"

using namespace focr;

extern "C" focr_status focr_rotate_small(const focr_image *src, float degrees, uint8_t fill, focr_image *dst) {
    return guarded("rotate_small", [&]() -> focr_status {
        focr_status s = validate_packed_pair(src, dst, "rotate_small");
        if (s != FOCR_OK) return s;
        if (!(degrees >= -45 && degrees <= 45)) return fail(FOCR_E_INVALID_ARGUMENT, "rotate_small: degrees not in -45…45");
        const cv::Mat in = wrap_plane0(*src);
        cv::Mat out = wrap_plane0(*dst);
        const uchar *before = out.data;
        // Forward map in pixel indices (pixel centers): d = R·(s − c_src) + c_dst; the same map in
        // continuous coordinates, since both centers move by the same half pixel.
        const double t = (double)degrees * CV_PI / 180, c = std::cos(t), sn = std::sin(t);
        const double sx = (in.cols - 1) / 2.0, sy = (in.rows - 1) / 2.0;
        const double dx = (out.cols - 1) / 2.0, dy = (out.rows - 1) / 2.0;
        const cv::Matx23d m(c, -sn, dx - (c * sx - sn * sy), sn, c, dy - (sn * sx + c * sy));
        cv::warpAffine(in, out, m, out.size(), cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar::all(fill));
        if (out.data != before) return fail(FOCR_E_INTERNAL, "rotate_small: OpenCV reallocated the destination");
        return FOCR_OK;
    });
}
