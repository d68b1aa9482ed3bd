// A small rotation (focr.h): an image turned up to 45° about its center, as a skew is corrected
// (focr_rotate_small; the skew is measured in analysis/skew.cpp); and a turned rectangle cut out
// upright (focr_crop_turned), as a detected text region is read.
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

extern "C" focr_status focr_crop_turned(const focr_image *src, float center_x, float center_y, float degrees,
                                        focr_image *dst) {
    return guarded("crop_turned", [&]() -> focr_status {
        focr_status s = validate_packed_pair(src, dst, "crop_turned");
        if (s != FOCR_OK) return s;
        if (!std::isfinite(center_x) || !std::isfinite(center_y) || !std::isfinite(degrees) ||
            std::fabs(center_x) > 1e6f || std::fabs(center_y) > 1e6f)
            return fail(FOCR_E_INVALID_ARGUMENT, "crop_turned: center or degrees not finite or out of range");
        const cv::Mat in = wrap_plane0(*src);
        cv::Mat out = wrap_plane0(*dst);
        const uchar *before = out.data;
        // The inverse map, in pixel indices: dst (i, j) sits at (i + ½ − w/2, j + ½ − h/2) from
        // dst's center, read from c + R·that in continuous coordinates, less ½ for src's index.
        const double t = (double)degrees * CV_PI / 180, c = std::cos(t), sn = std::sin(t);
        const double u0 = 0.5 - out.cols / 2.0, v0 = 0.5 - out.rows / 2.0;
        const cv::Matx23d m(c, -sn, c * u0 - sn * v0 + center_x - 0.5, sn, c, sn * u0 + c * v0 + center_y - 0.5);
        cv::warpAffine(in, out, m, out.size(), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, cv::BORDER_REPLICATE);
        if (out.data != before) return fail(FOCR_E_INTERNAL, "crop_turned: OpenCV reallocated the destination");
        return FOCR_OK;
    });
}
