// Scene text found by a DB text detector (focr_detect.h): the model run by OpenVINO
// (openvino/runtime.hpp), one compiled network for every input size (its input is 1×3×H×W with H
// and W dynamic), and DB's post-processing (Liao et al. 2020) written here. It is in
// libFrameOCRMedia.so, not the shim: the shim's loader (Sources/CFrameOCR/loader/media_loader.cpp)
// loads the library when a detector is first made, and forwards these calls.
#include <algorithm>
#include <cmath>
#include <malloc.h>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "dnn/target.hpp"
#include "entry/media_calls.hpp"
#include "focr_common/descriptor.hpp"
#include "focr_common/status.hpp"
#include "focr_detect.h"
#include "openvino/runtime.hpp"

using namespace focr;

struct focr_text_detector {
    /// The network, compiled once for the device chosen.
    std::unique_ptr<focr::ov::Network> network;
    /// Where the networks run and why (focr_dnn.h), decided at create.
    focr::dnn::Decision decision;
    cv::Mat bgr, resized, blob, binary;
    /// The input size of the last run (a new one gives freed memory back: detect).
    cv::Size last_input;
};

namespace {

/// ImageNet's mean and standard deviation, as PP-OCR normalizes its input: one scale (the mean of
/// the three deviations, 0.226) stands for the three; boxes measured against the exact per-channel
/// normalization were the same. The means are taken in the pixels' channel order (B, G, R), as
/// PP-OCR's own preprocessing does with OpenCV's BGR images.
constexpr float kMean[3] = {0.485f * 255, 0.456f * 255, 0.406f * 255};
constexpr float kScale = 1.0f / (255.0f * 0.226f);

/// The probe's input size (focr_dnn.h): the probe line on a 320×96 image, multiples of 32.
const cv::Size kProbeSize(320, 96);
/// The probe counts the map's pixels on different sides of PP-OCR's binary threshold.
constexpr float kProbeThreshold = 0.3f;

/// `r` with width ≥ height and its angle in (−90, 90]: the text's direction, clockwise as
/// displayed (y down), whatever convention cv::minAreaRect used. A region less than
/// kSquareAspect times as wide as tall (a short word) could run either way: it is taken as
/// running within 45° of the horizontal, as Latin text in a scene mostly does.
constexpr float kSquareAspect = 1.5f;
cv::RotatedRect along_text(cv::RotatedRect r) {
    if (r.size.width < r.size.height) {
        std::swap(r.size.width, r.size.height);
        r.angle += 90;
    }
    while (r.angle > 90) r.angle -= 180;
    while (r.angle <= -90) r.angle += 180;
    if (std::fabs(r.angle) > 45 && r.size.width < kSquareAspect * r.size.height) {
        std::swap(r.size.width, r.size.height);
        r.angle += r.angle > 0 ? -90 : 90;
    }
    return r;
}

/// The mean of `map` inside the turned rectangle with corners `pts` (map pixels).
double mean_inside(const cv::Mat &map, const cv::Point2f pts[4]) {
    float x0 = pts[0].x, y0 = pts[0].y, x1 = x0, y1 = y0;
    for (int i = 1; i < 4; ++i) {
        x0 = std::min(x0, pts[i].x);
        y0 = std::min(y0, pts[i].y);
        x1 = std::max(x1, pts[i].x);
        y1 = std::max(y1, pts[i].y);
    }
    const int ix0 = std::clamp((int)std::floor(x0), 0, map.cols - 1), iy0 = std::clamp((int)std::floor(y0), 0, map.rows - 1);
    const int ix1 = std::clamp((int)std::ceil(x1), 0, map.cols - 1), iy1 = std::clamp((int)std::ceil(y1), 0, map.rows - 1);
    const cv::Rect box(ix0, iy0, ix1 - ix0 + 1, iy1 - iy0 + 1);
    cv::Mat mask = cv::Mat::zeros(box.size(), CV_8U);
    std::vector<cv::Point> poly;
    for (int i = 0; i < 4; ++i) poly.emplace_back((int)std::lround(pts[i].x - ix0), (int)std::lround(pts[i].y - iy0));
    cv::fillConvexPoly(mask, poly, cv::Scalar(1));
    return cv::mean(map(box), mask)[0];
}

/// The model's input is padded (with the normalized mean, 0) to its longer side rounded up to a
/// multiple of this many pixels: a few shapes serve photos of every size. Every new shape costs
/// OpenVINO's CPU plug-in kernels compiled for it and working memory laid out anew; over 50 photos
/// of varied sizes the peak resident memory fell from 650 to 587 MB with steps of 128 instead of 32
/// (docs/openvino.md, "Memory"), for about 5 % more pixels searched on average.
constexpr int kLongSideStep = 128;

/// `size` (multiples of 32) with its longer side padded to a multiple of kLongSideStep.
cv::Size bucket(cv::Size size) {
    const auto up = [](int v) { return (v + kLongSideStep - 1) / kLongSideStep * kLongSideStep; };
    return size.width >= size.height ? cv::Size(up(size.width), size.height) : cv::Size(size.width, up(size.height));
}

}  // namespace

extern "C" focr_status focr_media_text_detector_create(const char *model_path, int32_t device,
                                                      focr_text_detector **out) {
    return guarded("text_detector_create", [&]() -> focr_status {
        if (out == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "text_detector_create: out is NULL");
        *out = nullptr;
        if (model_path == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "text_detector_create: model_path is NULL");
        focr::dnn::check_device("text_detector_create", device);
        focr::dnn::check_model_file(model_path, "text detector");
        auto d = std::make_unique<focr_text_detector>();
        // Where the network runs (focr_dnn.h). The probe: the probe line at 320×96 through the
        // CPU's network and the device's.
        d->network = focr::dnn::place(
            model_path, device, focr::ov::Role::detector, "text detector",
            [&](focr::ov::Network &cpu, focr::ov::Network &other, double &cpu_ms, double &device_ms) {
                focr::dnn::fill_blob(focr::dnn::probe_image(kProbeSize), kProbeSize.width, kMean, kScale, d->blob);
                int64_t start = cv::getTickCount();
                const cv::Mat on_cpu = cpu.run(d->blob).clone();
                cpu_ms = focr::dnn::milliseconds_since(start);
                start = cv::getTickCount();
                const cv::Mat on_device = other.run(d->blob).clone();
                device_ms = focr::dnn::milliseconds_since(start);
                return focr::dnn::compare_maps(on_cpu, on_device, kProbeThreshold);
            },
            d->decision);
        *out = d.release();
        return FOCR_OK;
    });
}

extern "C" void focr_media_text_detector_destroy(focr_text_detector *detector) { delete detector; }

extern "C" focr_status focr_media_text_detector_device(const focr_text_detector *detector,
                                                      focr_dnn_decision *decision) {
    return guarded("text_detector_device", [&]() -> focr_status {
        if (detector == nullptr || decision == nullptr)
            return fail(FOCR_E_INVALID_ARGUMENT, "text_detector_device: NULL argument");
        *decision = detector->decision.view();
        return FOCR_OK;
    });
}

extern "C" focr_status focr_media_text_detector_detect(focr_text_detector *detector, const focr_image *src,
                                                 const focr_detector_params *params, focr_detected_text *out,
                                                 int32_t capacity, int32_t *count) {
    return guarded("text_detector_detect", [&]() -> focr_status {
        if (detector == nullptr || params == nullptr || count == nullptr || (out == nullptr && capacity > 0) || capacity < 0)
            return fail(FOCR_E_INVALID_ARGUMENT, "text_detector_detect: NULL argument or negative capacity");
        *count = 0;
        focr_status s = validate(src, "src");
        if (s != FOCR_OK) return s;
        const focr_detector_params &p = *params;
        if (p.long_side < 32 || p.long_side > 1920 || !(p.binary_threshold >= 0 && p.binary_threshold <= 1) ||
            !(p.box_threshold >= 0 && p.box_threshold <= 1) || !(p.unclip_ratio >= 0 && p.unclip_ratio <= 8) ||
            p.max_candidates < 1 || p.max_candidates > 10000 || !(p.min_size >= 1 && p.min_size <= 1000))
            return fail(FOCR_E_INVALID_ARGUMENT, "text_detector_detect: a parameter is out of range (focr_detect.h)");
        if (src->width < 8 || src->height < 8) return fail(FOCR_E_INVALID_ARGUMENT, "text_detector_detect: src under 8×8");
        const cv::Mat in = wrap_plane0(*src);
        focr_text_detector &d = *detector;
        // The caller's BGR pixels are read where they are; d.bgr never points at them.
        switch (src->format) {
            case FOCR_FORMAT_GRAY8: cv::cvtColor(in, d.bgr, cv::COLOR_GRAY2BGR); break;
            case FOCR_FORMAT_BGR8: break;
            case FOCR_FORMAT_RGB8: cv::cvtColor(in, d.bgr, cv::COLOR_RGB2BGR); break;
            case FOCR_FORMAT_BGRA8: cv::cvtColor(in, d.bgr, cv::COLOR_BGRA2BGR); break;
            case FOCR_FORMAT_RGBA8: cv::cvtColor(in, d.bgr, cv::COLOR_RGBA2BGR); break;
            default: return fail(FOCR_E_UNSUPPORTED, "text_detector_detect: src must be gray or packed colour");
        }
        const cv::Mat &bgr = src->format == FOCR_FORMAT_BGR8 ? in : d.bgr;
        // The input: the longer side at long_side, both sides multiples of 32.
        const double scale = (double)p.long_side / std::max(in.cols, in.rows);
        const auto side = [](double v) { return std::max(32, (int)std::lround(v / 32) * 32); };
        const cv::Size size(side(in.cols * scale), side(in.rows * scale));
        cv::resize(bgr, d.resized, size, 0, 0, cv::INTER_LINEAR);
        const cv::Size input = bucket(size);
        focr::dnn::fill_blob(d.resized, input.width, kMean, kScale, d.blob, input.height);
        const cv::Mat output = d.network->run(d.blob);
        if (input != d.last_input) {
            // The plug-in lays its working memory out anew for a new shape, and the blocks of the
            // last one, freed, stay with malloc: given back to the system here (about 5 ms), or
            // resident memory climbs with every larger size seen (200 → 1,000 MB over 20
            // sizes from 768×736 to 1920×736, docs/openvino.md, "Memory").
            ::malloc_trim(0);
            d.last_input = input;
        }
        if (output.dims != 4 || output.type() != CV_32F || !output.isContinuous() || output.size[2] != input.height ||
            output.size[3] != input.width)
            return fail(FOCR_E_INFERENCE, "text_detector_detect: the model's output is not a 1×1×H×W map");
        // The map of the image, without the bucket's padding.
        const cv::Mat map = cv::Mat(input.height, input.width, CV_32F, const_cast<float *>(output.ptr<float>()))(
            cv::Rect(0, 0, size.width, size.height));

        // DB's post-processing: the text kernels, their turned rectangles, scored and grown.
        cv::compare(map, p.binary_threshold, d.binary, cv::CMP_GE);
        cv::dilate(d.binary, d.binary, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(2, 2)));
        std::vector<std::vector<cv::Point>> contours;
        cv::findContours(d.binary, contours, cv::RETR_LIST, cv::CHAIN_APPROX_SIMPLE);
        std::sort(contours.begin(), contours.end(),
                  [](const auto &a, const auto &b) { return a.size() > b.size(); });
        if ((int)contours.size() > p.max_candidates) contours.resize((size_t)p.max_candidates);
        const double sx = (double)in.cols / size.width, sy = (double)in.rows / size.height;
        std::vector<focr_detected_text> found;
        for (const auto &contour : contours) {
            const cv::RotatedRect r = cv::minAreaRect(contour);
            if (std::min(r.size.width, r.size.height) < p.min_size) continue;
            cv::Point2f pts[4];
            r.points(pts);
            const double score = mean_inside(map, pts);
            if (score < p.box_threshold) continue;
            // Unclip: a w×h rectangle offset by d = area·ratio / perimeter is (w + 2d)×(h + 2d).
            const double w = r.size.width, h = r.size.height;
            const double grow = w * h * p.unclip_ratio / (2 * (w + h));
            const cv::RotatedRect grown(r.center, cv::Size2f((float)(w + 2 * grow), (float)(h + 2 * grow)), r.angle);
            if (std::min(grown.size.width, grown.size.height) < p.min_size + 2) continue;
            grown.points(pts);
            std::vector<cv::Point2f> corners;
            for (const auto &q : pts)
                // A map index scaled, as PP-OCR's DB post-processing maps it: half a map pixel (0.9
                // source pixels at 1280 → 736) up and left of the pixel centres' mapping (i + 0.5).
                // That mapping was measured too: ICDAR 2015's tuning half lost 2 of 13 words
                // (img_1's "Carpark" read as ":"), the held-out half none; not kept.
                corners.emplace_back((float)std::clamp(q.x * sx, 0.0, (double)in.cols),
                                     (float)std::clamp(q.y * sy, 0.0, (double)in.rows));
            const cv::RotatedRect back = along_text(cv::minAreaRect(corners));
            found.push_back({back.center.x, back.center.y, back.size.width, back.size.height, back.angle, (float)score});
        }
        std::sort(found.begin(), found.end(), [](const auto &a, const auto &b) { return a.score > b.score; });
        *count = (int32_t)found.size();
        std::copy_n(found.begin(), std::min<size_t>(found.size(), (size_t)capacity), out);
        return FOCR_OK;
    });
}

