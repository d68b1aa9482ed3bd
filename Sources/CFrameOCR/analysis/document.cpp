// A paper document photographed on a darker or textured background: where the paper lies, and
// its uneven light flattened (focr_document.h: focr_find_document, focr_flatten_document).
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "analysis/histogram.hpp"
#include "focr_common/descriptor.hpp"
#include "focr_common/status.hpp"
#include "focr_document.h"

using namespace focr;

namespace {

/// The medians of `image`'s pixels where `mask` is set and where it is not (percentile); -1 for
/// a side without pixels.
std::pair<int, int> masked_medians(const cv::Mat &image, const cv::Mat &mask) {
    std::array<int, 256> inside{}, outside{};
    int n_in = 0, n_out = 0;
    for (int y = 0; y < image.rows; ++y) {
        const uint8_t *p = image.ptr<uint8_t>(y), *m = mask.ptr<uint8_t>(y);
        for (int x = 0; x < image.cols; ++x) {
            if (m[x] != 0) { ++inside[p[x]]; ++n_in; } else { ++outside[p[x]]; ++n_out; }
        }
    }
    return {n_in > 0 ? percentile(inside, n_in, 0.5) : -1, n_out > 0 ? percentile(outside, n_out, 0.5) : -1};
}

}  // namespace

extern "C" focr_status focr_find_document(const focr_image *gray, focr_document *out) {
    return guarded("find_document", [&]() -> focr_status {
        if (out == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "find_document: out is NULL");
        *out = focr_document{};
        focr_status s = validate(gray, "gray");
        if (s != FOCR_OK) return s;
        if (gray->format != FOCR_FORMAT_GRAY8) return fail(FOCR_E_INVALID_ARGUMENT, "find_document: gray must be GRAY8");
        const cv::Mat in = wrap_plane0(*gray);
        const int W = in.cols, H = in.rows;
        if (std::min(W, H) < 32) return FOCR_OK;  // too small to hold a document on a background
        // 1. A reduced copy, the longer side at most 512 px (cv::resize INTER_AREA).
        const double f = std::min(1.0, 512.0 / std::max(W, H));
        cv::Mat small;
        if (f < 1) cv::resize(in, small, cv::Size(std::max(1, (int)std::lround(W * f)), std::max(1, (int)std::lround(H * f))), 0, 0, cv::INTER_AREA);
        else small = in.clone();
        const int w = small.cols, h = small.rows, side = std::min(w, h);
        // 2. Text removed (a median a 40th of the smaller side wide), the light's slow falloff
        //    divided out (a Gaussian of a quarter of the smaller side, cv::GaussianBlur; cv::divide).
        //    The falloff is smooth, so the Gaussian runs on an eighth-size copy (cv::resize
        //    INTER_AREA, then back with INTER_LINEAR): a σ of 70 px at full size costs ~20 ms.
        //    The median of radius r is taken as ⌈r/2⌉ passes of a 5×5 median: OpenCV vectorizes the
        //    5×5 one, and a 7×7 or wider one is about 20× slower (5 ms on a 512 px copy).
        cv::Mat med = small.clone(), light, flat;
        const int radius = std::max(3, (side / 40) | 1) / 2;
        for (int pass = 0; pass < (radius + 1) / 2; ++pass) cv::medianBlur(med, med, 5);
        {
            cv::Mat tiny;
            const cv::Size reduced(std::max(1, w / 8), std::max(1, h / 8));
            cv::resize(med, tiny, reduced, 0, 0, cv::INTER_AREA);
            tiny.convertTo(tiny, CV_32F);
            const double sigma = std::max(1.0, side / 32.0);
            cv::GaussianBlur(tiny, tiny, cv::Size(), sigma, sigma, cv::BORDER_REPLICATE);
            cv::resize(tiny, light, cv::Size(w, h), 0, 0, cv::INTER_LINEAR);
        }
        cv::Mat medf;
        med.convertTo(medf, CV_32F);
        cv::divide(medf, cv::max(light, 1.0), flat, 128.0);
        flat.convertTo(flat, CV_8U);
        // 3. The bright class (Otsu, cv::threshold THRESH_OTSU), closed then opened with a square
        //    of a 40th of the smaller side (cv::morphologyEx), its largest outer contour
        //    (cv::findContours RETR_EXTERNAL, cv::contourArea).
        cv::Mat mask;
        cv::threshold(flat, mask, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
        const int k = std::max(3, (side / 40) | 1);
        const cv::Mat square = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(k, k));
        cv::morphologyEx(mask, mask, cv::MORPH_CLOSE, square);
        cv::morphologyEx(mask, mask, cv::MORPH_OPEN, square);
        std::vector<std::vector<cv::Point>> contours;
        cv::findContours(mask, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE);
        if (contours.empty()) return FOCR_OK;
        size_t best = 0;
        double area = 0;
        for (size_t i = 0; i < contours.size(); ++i) {
            const double a = cv::contourArea(contours[i]);
            if (a > area) { area = a; best = i; }
        }
        const std::vector<cv::Point> &c = contours[best];
        if (area <= 0) return FOCR_OK;
        // 4. Measurements: share of the image, fill of its turned bounding rectangle
        //    (cv::minAreaRect), median brightness inside and outside, share of the frame's edge it
        //    touches, its outline (cv::convexHull, cv::approxPolyDP) and bounding box.
        const cv::RotatedRect turned = cv::minAreaRect(c);
        const double rect_area = (double)turned.size.width * turned.size.height;
        cv::Mat filled = cv::Mat::zeros(h, w, CV_8U);
        cv::drawContours(filled, contours, (int)best, cv::Scalar(255), cv::FILLED);
        long edge = 0, on = 0;
        for (int x = 0; x < w; ++x) { on += filled.at<uint8_t>(0, x) != 0; on += filled.at<uint8_t>(h - 1, x) != 0; }
        for (int y = 0; y < h; ++y) { on += filled.at<uint8_t>(y, 0) != 0; on += filled.at<uint8_t>(y, w - 1) != 0; }
        edge = 2L * (w + h);
        out->area_fraction = (float)(area / ((double)w * h));
        out->rectangularity = rect_area > 0 ? (float)std::min(1.0, area / rect_area) : 0.f;
        const auto [paper, surroundings] = masked_medians(small, filled);
        out->paper = (float)paper;
        out->surroundings = (float)surroundings;
        out->edge_contact = (float)on / (float)edge;
        float angle = turned.angle;  // OpenCV ≥ 4.5: (0, 90]; the turn nearest to upright
        while (angle > 45) angle -= 90;
        while (angle < -45) angle += 90;
        out->angle_degrees = angle;
        std::vector<cv::Point> hull, poly;
        cv::convexHull(c, hull);
        double eps = 0.01 * cv::arcLength(hull, true);
        cv::approxPolyDP(hull, poly, eps, true);
        while ((int)poly.size() > FOCR_DOCUMENT_MAX_CORNERS) {
            eps *= 1.5;
            cv::approxPolyDP(hull, poly, eps, true);
        }
        out->corners = (int32_t)poly.size();
        for (size_t i = 0; i < poly.size(); ++i) {
            out->points[2 * i] = (float)std::min((double)W, poly[i].x / f);
            out->points[2 * i + 1] = (float)std::min((double)H, poly[i].y / f);
        }
        const cv::Rect box = cv::boundingRect(c);
        const int x0 = std::max(0, (int)std::floor(box.x / f)), y0 = std::max(0, (int)std::floor(box.y / f));
        const int x1 = std::min(W, (int)std::ceil((box.x + box.width) / f)), y1 = std::min(H, (int)std::ceil((box.y + box.height) / f));
        out->x = x0;
        out->y = y0;
        out->width = x1 - x0;
        out->height = y1 - y0;
        return FOCR_OK;
    });
}

extern "C" focr_status focr_flatten_document(const focr_image *src, const float *points, int32_t corners, int32_t kernel,
                                             focr_image *dst) {
    return guarded("flatten_document", [&]() -> focr_status {
        focr_status s = validate_gray_pair(src, dst, "flatten_document");
        if (s != FOCR_OK) return s;
        if (src->planes[0].data == dst->planes[0].data) return fail(FOCR_E_INVALID_ARGUMENT, "flatten_document: dst aliases src");
        if (corners != 0 && (corners < 3 || corners > FOCR_DOCUMENT_MAX_CORNERS || points == nullptr))
            return fail(FOCR_E_INVALID_ARGUMENT, "flatten_document: corners must be 0 or 3…16 with points");
        if (kernel < 3 || kernel > 1001) return fail(FOCR_E_INVALID_ARGUMENT, "flatten_document: kernel not in 3…1001");
        const cv::Mat in = wrap_plane0(*src);
        cv::Mat out = wrap_plane0(*dst);
        const uchar *before = out.data;
        // The paper's brightness: a closing with a square wider than a stroke (cv::morphologyEx
        // MORPH_CLOSE) removes the print; the image is divided by it (cv::divide, scale 255).
        cv::Mat paper;
        const int k = kernel | 1;
        cv::morphologyEx(in, paper, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(k, k)));
        cv::divide(in, cv::max(paper, 1), out, 255.0, CV_8U);
        if (out.data != before) return fail(FOCR_E_INTERNAL, "flatten_document: OpenCV reallocated the destination");
        if (corners >= 3) {
            // Outside the paper's outline (cv::fillPoly), shrunk by a 200th of the smaller side
            // (at least 3 px; cv::erode), white: the surface and the paper's edge, which divided
            // by the paper's brightness would be dark (a rule Tesseract reads as `|`).
            cv::Mat inside = cv::Mat::zeros(in.size(), CV_8U);
            std::vector<cv::Point> poly;
            for (int i = 0; i < corners; ++i) poly.emplace_back((int)std::lround(points[2 * i]), (int)std::lround(points[2 * i + 1]));
            cv::fillPoly(inside, std::vector<std::vector<cv::Point>>{poly}, cv::Scalar(255));
            const int g = std::max(3, std::min(in.cols, in.rows) / 200) * 2 + 1;
            cv::erode(inside, inside, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(g, g)));
            out.setTo(255, inside == 0);
        }
        return FOCR_OK;
    });
}
