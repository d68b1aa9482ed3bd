// Frame-to-frame measurements for live reading (focr_frames.h): the signature that gates a
// frame (a reduced copy and its sharpness), the difference of two signatures, and the global
// motion between them.
#include <algorithm>
#include <cmath>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <opencv2/calib3d.hpp>
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

/// A motion in thumbnail pixels, the tiles measured in its last pass and those that agreed with
/// it (0: no similarity was fitted, `m` is the translation it started from).
/// The largest even size ≤ n that the DFT takes as it is (cv::getOptimalDFTSize): cv::phaseCorrelate
/// pads any other size, and with an odd padded size its peak is half a pixel off.
int even_dft_size(int n) {
    for (int k = n - n % 2; k > 2; k -= 2)
        if (cv::getOptimalDFTSize(k) == k) return k;
    return 2;
}

struct Similarity {
    cv::Matx23d m;
    int tiles = 0;
    int inliers = 0;
};

/// Step 2 of focr_global_motion: the textured tiles of `p` found in `c` (GRAY8) where the
/// motion so far (at first the translation `shift`) puts them, a similarity fitted to the tiles
/// that agree, and again with that similarity, up to three passes (see focr_frames.h).

Similarity estimate_similarity(const cv::Mat &p, const cv::Mat &c, cv::Point2d shift) {
    Similarity out{cv::Matx23d(1, 0, shift.x, 0, 1, shift.y)};
    // A size the DFT takes as it is, and even: cv::phaseCorrelate pads others, and with an odd
    // size its peak is half a pixel off.
    const int tile = std::min(p.cols, p.rows) >= 64 ? 32 : 16;
    if (p.cols < 32 || p.rows < 32 || p.cols < tile || p.rows < tile) return out;
    const int stride = tile;
    cv::Mat window;
    cv::createHanningWindow(window, cv::Size(tile, tile), CV_32F);
    // The textured tiles of `p`, as float copies (cv::phaseCorrelate multiplies the window into
    // inputs of a size the DFT takes as they are, in place).
    std::vector<cv::Rect> tiles;
    std::vector<cv::Mat> before;
    cv::Scalar mean, deviation;
    for (int y = 0; y + tile <= p.rows; y += stride) {
        for (int x = 0; x + tile <= p.cols; x += stride) {
            const cv::Rect at(x, y, tile, tile);
            cv::meanStdDev(p(at), mean, deviation);
            if (deviation[0] < 6) continue;
            tiles.push_back(at);
            before.emplace_back();
            p(at).convertTo(before.back(), CV_32F);
        }
    }
    cv::Matx23d &m = out.m;
    const cv::Rect frame(0, 0, c.cols, c.rows);
    auto carried = [&](double x, double y) {
        return cv::Point2d(m(0, 0) * x + m(0, 1) * y + m(0, 2), m(1, 0) * x + m(1, 1) * y + m(1, 2));
    };
    // Until a pass fails, m is the last similarity fitted (at first the translation alone).
    for (int pass = 0; pass < 3; ++pass) {
        // `c` brought back onto `p` by the motion so far: back(q) = c(m·q).
        cv::Mat back;
        cv::warpAffine(c, back, cv::Mat(m), p.size(), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP);
        std::vector<cv::Point2f> from, to;
        for (size_t t = 0; t < tiles.size(); ++t) {
            const cv::Rect &at = tiles[t];
            // Only tiles that the motion keeps inside `c`.
            bool inside = true;
            for (const cv::Point2d corner :
                 {carried(at.x, at.y), carried(at.x + at.width - 1, at.y), carried(at.x, at.y + at.height - 1),
                  carried(at.x + at.width - 1, at.y + at.height - 1)})
                inside = inside && frame.contains(cv::Point(int(std::floor(corner.x)), int(std::floor(corner.y))));
            if (!inside) continue;
            cv::Mat after;
            back(at).convertTo(after, CV_32F);
            double response = 0;
            const cv::Point2d d = cv::phaseCorrelate(before[t].clone(), after, window, &response);
            if (response < 0.2) continue;
            // The tile's centre q is at q + d in `back`, so at m·(q + d) in `c`.
            const double qx = at.x + at.width / 2.0, qy = at.y + at.height / 2.0;
            from.emplace_back(float(qx), float(qy));
            const cv::Point2d moved = carried(qx + d.x, qy + d.y);
            to.emplace_back(float(moved.x), float(moved.y));
        }
        out.tiles = int(from.size());
        if (from.size() < 6) break;
        std::vector<uchar> inliers;
        const cv::Mat fit = cv::estimateAffinePartial2D(from, to, inliers, cv::RANSAC, 1.0);
        if (fit.empty()) break;
        const int agreeing = int(std::count(inliers.begin(), inliers.end(), uchar(1)));
        const double a = fit.at<double>(0, 0), b = fit.at<double>(1, 0);
        const double scale = std::hypot(a, b), degrees = std::atan2(b, a) * 180 / CV_PI;
        if (agreeing < 6 || 2 * agreeing < int(from.size()) || scale < 0.8 || scale > 1.25 ||
            std::abs(degrees) > 15)
            break;
        const cv::Matx23d next(a, -b, fit.at<double>(0, 2), b, a, fit.at<double>(1, 2));
        // How far the fit moved the thumbnail's corners from the motion before it.
        double change = 0;
        for (const cv::Point2d q : {cv::Point2d(0, 0), cv::Point2d(p.cols, 0), cv::Point2d(0, p.rows),
                                     cv::Point2d(p.cols, p.rows)}) {
            const cv::Point2d was = carried(q.x, q.y);
            change = std::max(change, std::hypot(next(0, 0) * q.x + next(0, 1) * q.y + next(0, 2) - was.x,
                                                 next(1, 0) * q.x + next(1, 1) * q.y + next(1, 2) - was.y));
        }
        m = next;
        out.inliers = agreeing;
        if (change < 0.1) break;
    }
    // A scale or turn that moves the thumbnail's corners by less than half a pixel is below what
    // the tiles measure (their shifts are good to about a third of a pixel): the motion is the
    // translation that the similarity gives the thumbnail's centre.
    const double a = m(0, 0), b = m(1, 0), reach = std::hypot(p.cols, p.rows) / 2;
    const double cx = p.cols / 2.0, cy = p.rows / 2.0;
    if (std::abs(std::hypot(a, b) - 1) * reach < 0.5 && std::abs(std::atan2(b, a)) * reach < 0.5) {
        const cv::Point2d centre = carried(cx, cy);
        m = cv::Matx23d(1, 0, centre.x - cx, 0, 1, centre.y - cy);
    }
    return out;
}

}  // namespace

extern "C" focr_status focr_frame_signature(const focr_image *gray, int32_t sharp_side, focr_image *thumb,
                                            focr_image *motion_thumb, float *sharpness) {
    return guarded("frame_signature", [&]() -> focr_status {
        if (sharpness == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "frame_signature: sharpness is NULL");
        *sharpness = 0;
        focr_status s = check_gray(gray, "frame_signature", "gray");
        if (s != FOCR_OK) return s;
        if ((s = check_gray(thumb, "frame_signature", "thumb")) != FOCR_OK) return s;
        if (thumb->width > gray->width || thumb->height > gray->height)
            return fail(FOCR_E_INVALID_ARGUMENT, "frame_signature: thumb larger than the frame");
        if (motion_thumb != nullptr) {
            if ((s = check_gray(motion_thumb, "frame_signature", "motion_thumb")) != FOCR_OK) return s;
            if (motion_thumb->width > gray->width || motion_thumb->height > gray->height)
                return fail(FOCR_E_INVALID_ARGUMENT, "frame_signature: motion_thumb larger than the frame");
        }
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
        if (motion_thumb != nullptr) {
            // From the sharpness copy when it is at least as large (cheaper than the frame).
            const cv::Mat &source =
                reduced.cols >= motion_thumb->width && reduced.rows >= motion_thumb->height ? reduced : in;
            cv::Mat motion = wrap_plane0(*motion_thumb);
            const uchar *data = motion.data;
            cv::resize(source, motion, motion.size(), 0, 0, cv::INTER_AREA);
            if (motion.data != data)
                return fail(FOCR_E_INTERNAL, "frame_signature: OpenCV reallocated the motion thumbnail");
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

extern "C" focr_status focr_global_motion(const focr_image *previous, const focr_image *current, focr_motion *motion) {
    return guarded("global_motion", [&]() -> focr_status {
        if (motion == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "global_motion: motion is NULL");
        *motion = focr_motion{1, 0, 0, 0, 0, 0, 0};
        focr_status s = validate_gray_pair(previous, current, "global_motion");
        if (s != FOCR_OK) return s;
        if (previous->width < 8 || previous->height < 8) return FOCR_OK;
        // A flat thumbnail has no structure to correlate: no estimate.
        cv::Scalar mean, deviation;
        for (const focr_image *image : {previous, current}) {
            cv::meanStdDev(wrap_plane0(*image), mean, deviation);
            if (deviation[0] < 2) return FOCR_OK;
        }
        // The centred region of even, DFT-ready size (see even_dft_size).
        const cv::Size size(even_dft_size(previous->width), even_dft_size(previous->height));
        const cv::Rect centred((previous->width - size.width) / 2, (previous->height - size.height) / 2, size.width,
                               size.height);
        cv::Mat p, c;
        wrap_plane0(*previous)(centred).convertTo(p, CV_32F);
        wrap_plane0(*current)(centred).convertTo(c, CV_32F);
        cv::Mat window;
        cv::createHanningWindow(window, p.size(), CV_32F);
        double r = 0;
        const cv::Point2d shift = cv::phaseCorrelate(p, c, window, &r);
        motion->response = float(r);
        // p and c now hold the window (cv::phaseCorrelate applied it in place): the tiles are
        // taken from the thumbnails themselves. A weak peak may be a wrong one (a turn, rows of
        // text alike): the tiles are also tried where they were, and the start more of them
        // agree on is kept.
        const cv::Mat before = wrap_plane0(*previous), after = wrap_plane0(*current);
        Similarity best = estimate_similarity(before, after, shift);
        if (r < 0.3 && std::hypot(shift.x, shift.y) >= 1) {
            const Similarity still = estimate_similarity(before, after, cv::Point2d(0, 0));
            if (still.inliers > best.inliers) best = still;
        }
        motion->a = float(best.m(0, 0));
        motion->b = float(best.m(1, 0));
        motion->tx = float(best.m(0, 2));
        motion->ty = float(best.m(1, 2));
        motion->tiles = int32_t(best.tiles);
        motion->inliers = int32_t(best.inliers);
        return FOCR_OK;
    });
}

extern "C" focr_status focr_malloc_thresholds(int32_t trim_threshold, int32_t mmap_threshold) {
    if (trim_threshold < 1 || mmap_threshold < 1)
        return fail(FOCR_E_INVALID_ARGUMENT, "malloc_thresholds: a threshold below 1");
#if defined(__GLIBC__)
    if (mallopt(M_TRIM_THRESHOLD, trim_threshold) == 1 && mallopt(M_MMAP_THRESHOLD, mmap_threshold) == 1)
        return FOCR_OK;
    return fail(FOCR_E_UNSUPPORTED, "malloc_thresholds: mallopt refused the thresholds");
#else
    return fail(FOCR_E_UNSUPPORTED, "malloc_thresholds: the C library is not glibc");
#endif
}
