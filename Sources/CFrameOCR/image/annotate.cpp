// Outlines and labels drawn onto a BGR8 image for people (focr_annotate.h): cv::line for the
// outlines, cv::rectangle and cv::putText for the labels.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "focr_common/descriptor.hpp"
#include "focr_common/status.hpp"
#include "focr_annotate.h"

using namespace focr;

namespace {

/// Longest label drawn, in bytes.
constexpr size_t kMaxLabel = 256;

/// Clips the segment a→b to the rectangle [lo, hi] on both axes (Liang–Barsky). On success
/// `t0`, `t1` (0 ≤ t0 ≤ t1 ≤ 1) bound the part inside: a + t (b − a).
bool clip(const cv::Point2d &a, const cv::Point2d &b, const cv::Point2d &lo, const cv::Point2d &hi, double &t0,
          double &t1) {
    t0 = 0;
    t1 = 1;
    const double d[2] = {b.x - a.x, b.y - a.y};
    const double p0[2] = {a.x, a.y};
    const double l[2] = {lo.x, lo.y}, h[2] = {hi.x, hi.y};
    for (int axis = 0; axis < 2; ++axis) {
        if (d[axis] == 0) {
            if (p0[axis] < l[axis] || p0[axis] > h[axis]) return false;
            continue;
        }
        double ta = (l[axis] - p0[axis]) / d[axis], tb = (h[axis] - p0[axis]) / d[axis];
        if (ta > tb) std::swap(ta, tb);
        t0 = std::max(t0, ta);
        t1 = std::min(t1, tb);
        if (t0 > t1) return false;
    }
    return true;
}

cv::Point rounded(const cv::Point2d &p) { return cv::Point((int)std::lround(p.x), (int)std::lround(p.y)); }

/// The part of a→b (pixel centres, already rounded) that can touch the image, drawn solid or
/// in dashes of `dash` pixels every `period` pixels counted from `a`.
void draw_edge(cv::Mat &m, cv::Point2d a, cv::Point2d b, const cv::Scalar &colour, int thickness, bool dashed,
               int dash, int period) {
    const double margin = thickness + 1;
    double t0, t1;
    if (!clip(a, b, {-margin, -margin}, {m.cols - 1 + margin, m.rows - 1 + margin}, t0, t1)) return;
    const cv::Point2d d = b - a;
    const double length = std::sqrt(d.dot(d));
    if (!dashed || length == 0) {
        cv::line(m, rounded(a + d * t0), rounded(a + d * t1), colour, thickness, cv::LINE_8);
        return;
    }
    const cv::Point2d unit = d / length;
    const double from = t0 * length, to = t1 * length;
    // The first dash that reaches into the visible part, so the phase is the corner's.
    for (double s = std::floor(std::max(0.0, from - dash) / period) * period; s <= to; s += period) {
        const double e = std::min(s + dash - 1, length);
        if (e < from) continue;
        cv::line(m, rounded(a + unit * std::max(s, from)), rounded(a + unit * std::min(e, to)), colour, thickness,
                 cv::LINE_8);
    }
}

/// Printable ASCII of `label` (other bytes '?'), at most kMaxLabel bytes.
std::string printable(const char *label) {
    std::string text;
    for (size_t i = 0; label[i] != 0 && i < kMaxLabel; ++i) {
        const unsigned char c = (unsigned char)label[i];
        text.push_back(c >= 32 && c <= 126 ? (char)c : '?');
    }
    return text;
}

}  // namespace

extern "C" focr_status focr_annotate(focr_image *image, const focr_annotation *annotations, size_t count) {
    return guarded("annotate", [&]() -> focr_status {
        focr_status s = validate(image, "image");
        if (s != FOCR_OK) return s;
        if (image->format != FOCR_FORMAT_BGR8)
            return fail(FOCR_E_UNSUPPORTED, "annotate: the image must be BGR8 (see focr_convert_to_bgr), got format " +
                                                std::to_string(image->format));
        if (annotations == nullptr && count > 0)
            return fail(FOCR_E_INVALID_ARGUMENT, "annotate: annotations is NULL with count " + std::to_string(count));
        for (size_t i = 0; i < count; ++i) {
            const focr_annotation &a = annotations[i];
            for (int k = 0; k < 4; ++k)
                if (!std::isfinite(a.x[k]) || !std::isfinite(a.y[k]))
                    return fail(FOCR_E_INVALID_ARGUMENT,
                                "annotate: annotation " + std::to_string(i) + ": corner " + std::to_string(k) +
                                    " is not finite");
            if (a.stroke < FOCR_STROKE_SOLID || a.stroke > FOCR_STROKE_DASHED)
                return fail(FOCR_E_INVALID_ARGUMENT, "annotate: annotation " + std::to_string(i) + ": unknown stroke " +
                                                         std::to_string(a.stroke));
        }
        cv::Mat m = wrap_plane0(*image);
        const int u = std::max(1, (int)std::lround(std::min(m.cols, m.rows) / 480.0));
        // Corners far outside the image are pulled in to a range where the arithmetic is exact;
        // what is clipped away is never drawn, so the visible part does not change.
        const double far = 1e7;
        auto corner = [&](const focr_annotation &a, int k) {
            return cv::Point2d(std::round(std::clamp(a.x[k], -far, far)), std::round(std::clamp(a.y[k], -far, far)));
        };
        for (size_t i = 0; i < count; ++i) {
            const focr_annotation &a = annotations[i];
            const cv::Scalar colour(a.blue, a.green, a.red);
            const int thickness = a.stroke == FOCR_STROKE_SOLID ? 2 * u : u;
            for (int k = 0; k < 4; ++k)
                draw_edge(m, corner(a, k), corner(a, (k + 1) % 4), colour, thickness, a.stroke == FOCR_STROKE_DASHED,
                          6 * u, 10 * u);
        }
        const int font = cv::FONT_HERSHEY_SIMPLEX;
        const double scale = 0.5 * u;
        const int pad = 2 * u;
        for (size_t i = 0; i < count; ++i) {
            const focr_annotation &a = annotations[i];
            if (a.label == nullptr || a.label[0] == 0) continue;
            double min_x = far, min_y = far, max_x = -far, max_y = -far;
            for (int k = 0; k < 4; ++k) {
                const cv::Point2d p = corner(a, k);
                min_x = std::min(min_x, p.x);
                min_y = std::min(min_y, p.y);
                max_x = std::max(max_x, p.x);
                max_y = std::max(max_y, p.y);
            }
            // An outline wholly outside the image gets no label (one pinned to an edge would
            // point at nothing).
            if (max_x < 0 || max_y < 0 || min_x > m.cols - 1 || min_y > m.rows - 1) continue;
            const std::string text = printable(a.label);
            int baseline = 0;
            const cv::Size size = cv::getTextSize(text, font, scale, u, &baseline);
            const int w = size.width + 2 * pad, h = size.height + baseline + 2 * pad;
            int left = (int)min_x, top = (int)min_y - h;
            if (top < 0) top = (int)min_y + 1;
            left = std::max(0, std::min(left, m.cols - w));
            top = std::max(0, std::min(top, m.rows - h));
            const cv::Scalar colour(a.blue, a.green, a.red);
            const double luminance = 0.299 * a.red + 0.587 * a.green + 0.114 * a.blue;
            const cv::Scalar ink = luminance >= 140 ? cv::Scalar(0, 0, 0) : cv::Scalar(255, 255, 255);
            cv::rectangle(m, cv::Rect(left, top, w, h), colour, cv::FILLED, cv::LINE_8);
            cv::putText(m, text, cv::Point(left + pad, top + pad + size.height), font, scale, ink, u, cv::LINE_AA);
        }
        if (m.data != image->planes[0].data)
            return fail(FOCR_E_INTERNAL, "annotate: OpenCV reallocated the image");
        return FOCR_OK;
    });
}
