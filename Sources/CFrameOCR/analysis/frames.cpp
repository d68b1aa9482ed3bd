// Frame-to-frame measurements for live reading (focr_frames.h): the signature that gates a
// frame (a reduced copy and its sharpness), the difference of two signatures, and the global
// motion between them.
#include <algorithm>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "focr_common/descriptor.hpp"
#include "focr_common/status.hpp"
#include "focr_frames.h"

using namespace focr;

namespace {

/// Checks that `image` is a valid GRAY8 descriptor; failures name `where` and `role`.
focr_status check_gray(const focr_image *image, const char *where, const char *role) {
    focr_status s = validate(image, role);
    if (s != FOCR_OK) return s;
    if (image->format != FOCR_FORMAT_GRAY8)
        return fail(FOCR_E_INVALID_ARGUMENT, std::string(where) + ": " + role + " must be GRAY8");
    return FOCR_OK;
}

}  // namespace

extern "C" focr_status focr_frame_signature(const focr_image *gray, int32_t sharp_side, focr_image *thumb,
                                            float *sharpness) {
    return guarded("frame_signature", [&]() -> focr_status {
        if (sharpness == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "frame_signature: sharpness is NULL");
        *sharpness = 0;
        focr_status s = check_gray(gray, "frame_signature", "gray");
        if (s != FOCR_OK) return s;
        if ((s = check_gray(thumb, "frame_signature", "thumb")) != FOCR_OK) return s;
        if (thumb->width > gray->width || thumb->height > gray->height)
            return fail(FOCR_E_INVALID_ARGUMENT, "frame_signature: thumb larger than the frame");
        const cv::Mat in = wrap_plane0(*gray);
        cv::Mat out = wrap_plane0(*thumb);
        const uchar *before = out.data;
        cv::resize(in, out, out.size(), 0, 0, cv::INTER_AREA);
        if (out.data != before) return fail(FOCR_E_INTERNAL, "frame_signature: OpenCV reallocated the thumbnail");
        const int side = sharp_side > 0 ? sharp_side : 480;
        const double f = std::min(1.0, double(side) / std::max(in.cols, in.rows));
        cv::Mat reduced;
        if (f < 1) {
            cv::resize(in, reduced,
                       cv::Size(std::max(1, int(in.cols * f + 0.5)), std::max(1, int(in.rows * f + 0.5))), 0, 0,
                       cv::INTER_AREA);
        } else {
            reduced = in;
        }
        // Blur takes more from the second derivative than from the first (across a step edge
        // blurred by σ the gradient's energy falls as 1/σ, the Laplacian's as 1/σ³), while the
        // amount of text, its contrast and the light change both alike: their ratio measures
        // blur, not content.
        cv::Mat laplacian, gx, gy;
        cv::Laplacian(reduced, laplacian, CV_16S, 3);
        cv::Sobel(reduced, gx, CV_16S, 1, 0, 3);
        cv::Sobel(reduced, gy, CV_16S, 0, 1, 3);
        cv::Scalar mean, dl, dx, dy;
        cv::meanStdDev(laplacian, mean, dl);
        cv::meanStdDev(gx, mean, dx);
        cv::meanStdDev(gy, mean, dy);
        const double gradient = dx[0] * dx[0] + dy[0] * dy[0];
        *sharpness = gradient > 1e-6 ? float(dl[0] * dl[0] / gradient) : 0.0f;
        return FOCR_OK;
    });
}

extern "C" focr_status focr_frame_difference(const focr_image *a, const focr_image *b, int32_t block, float *difference) {
    return guarded("frame_difference", [&]() -> focr_status {
        if (difference == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "frame_difference: difference is NULL");
        *difference = 0;
        if (block < 1) return fail(FOCR_E_INVALID_ARGUMENT, "frame_difference: block below 1");
        focr_status s = validate_gray_pair(a, b, "frame_difference");
        if (s != FOCR_OK) return s;
        cv::Mat d, means;
        cv::absdiff(wrap_plane0(*a), wrap_plane0(*b), d);
        const cv::Size blocks((d.cols - 1) / block + 1, (d.rows - 1) / block + 1);
        if (blocks.width <= 1 && blocks.height <= 1) {
            *difference = float(cv::mean(d)[0]);
            return FOCR_OK;
        }
        d.convertTo(d, CV_32F);
        cv::resize(d, means, blocks, 0, 0, cv::INTER_AREA);
        double largest = 0;
        cv::minMaxLoc(means, nullptr, &largest);
        *difference = float(largest);
        return FOCR_OK;
    });
}

extern "C" focr_status focr_global_motion(const focr_image *previous, const focr_image *current, float *dx, float *dy,
                                          float *response) {
    return guarded("global_motion", [&]() -> focr_status {
        if (dx == nullptr || dy == nullptr || response == nullptr)
            return fail(FOCR_E_INVALID_ARGUMENT, "global_motion: an output is NULL");
        *dx = *dy = *response = 0;
        focr_status s = validate_gray_pair(previous, current, "global_motion");
        if (s != FOCR_OK) return s;
        if (previous->width < 8 || previous->height < 8) return FOCR_OK;
        // A flat thumbnail has no structure to correlate: no estimate.
        cv::Scalar mean, deviation;
        for (const focr_image *image : {previous, current}) {
            cv::meanStdDev(wrap_plane0(*image), mean, deviation);
            if (deviation[0] < 2) return FOCR_OK;
        }
        cv::Mat p, c;
        wrap_plane0(*previous).convertTo(p, CV_32F);
        wrap_plane0(*current).convertTo(c, CV_32F);
        cv::Mat window;
        cv::createHanningWindow(window, p.size(), CV_32F);
        double r = 0;
        const cv::Point2d shift = cv::phaseCorrelate(p, c, window, &r);
        *dx = float(shift.x);
        *dy = float(shift.y);
        *response = float(r);
        return FOCR_OK;
    });
}
