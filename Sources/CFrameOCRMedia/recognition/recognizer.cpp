// A text line read by a CTC recognizer (focr_recognize.h): PP-OCRv4's SVTR-LCNet network run by
// OpenVINO (openvino/runtime.hpp), and the greedy CTC decoding (Graves et al. 2006) written here,
// restricted to the classes the caller allows. It is in libFrameOCRMedia.so, not the shim, for the
// reason the text detector is (detection/detector.cpp); the shim's loader loads the library when a
// recognizer is first made, and forwards these calls.
//
// One compiled network serves every input width: the model's input is 1×3×48×W with W dynamic.
// OpenVINO's CPU plug-in compiles its kernels for each new shape on its first run (12–40 ms more)
// and keeps them in a cache (bounded: openvino/runtime.cpp); FrameOCR's widths come in steps
// (width_step), so a handful of shapes serve a scene's lines.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
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
#include "focr_recognize.h"
#include "openvino/runtime.hpp"

using namespace focr;

struct focr_text_recognizer {
    /// Class index → its text: "" for the blank (0), the keys in file order, " " last.
    std::vector<std::string> keys;
    /// The network, compiled once for the device chosen.
    std::unique_ptr<focr::ov::Network> network;
    /// Where the networks run and why (focr_dnn.h), decided at create.
    focr::dnn::Decision decision;
    // Kept between calls, so that a call allocates nothing once they have grown (OpenVINO's own
    // buffers inside the network aside).
    cv::Mat bgr, resized, blob;
    std::vector<int32_t> allowed;            // the classes the decoder may output, blank first
    std::vector<focr_recognized_char> found; // the line's characters, before they are copied out
    std::vector<int> widths, resized_widths, order; // per line of a batch: W, the resized width; lines by W
};

namespace {

/// The network's time step, input pixels: each output step covers this many input columns.
constexpr int kStride = 8;
/// The width of the blank input create runs once to check the output's shape, and of the probe line.
constexpr int kCheckWidth = 320;
/// The probe line's height: PP-OCRv4's.
constexpr int kProbeHeight = 48;
/// The widths auto's probe runs the probe line at (padded on the right), in turn on one network, as
/// lines of every width run on one.
constexpr int kProbeWidths[] = {kCheckWidth, 640, kCheckWidth};

/// The network's output as a T×C matrix (a header over its data), or an empty Mat when it is not
/// 1×T×C with C = `classes` (float, continuous).
cv::Mat steps_by_classes(const cv::Mat &output, int classes) {
    if (output.type() != CV_32F || !output.isContinuous()) return cv::Mat();
    if (output.dims == 3 && output.size[0] == 1 && output.size[2] == classes && output.size[1] >= 1)
        return cv::Mat(output.size[1], classes, CV_32F, const_cast<float *>(output.ptr<float>()));
    return cv::Mat();
}

/// "1×T×C" for a message.
std::string shape(const cv::Mat &m) {
    std::string s;
    for (int d = 0; d < m.dims; ++d) s += (d ? "×" : "") + std::to_string(m.size[d]);
    return s.empty() ? "empty" : s;
}

/// `src` as BGR in `scratch` (or `in` itself for BGR8): the caller's pixels are read where they are.
/// False for a format the recognizer and the classifier do not take.
bool to_bgr(cv::Mat &scratch, const focr_image &src, const cv::Mat &in, const cv::Mat *&bgr) {
    switch (src.format) {
        case FOCR_FORMAT_GRAY8: cv::cvtColor(in, scratch, cv::COLOR_GRAY2BGR); break;
        case FOCR_FORMAT_BGR8: bgr = &in; return true;
        case FOCR_FORMAT_RGB8: cv::cvtColor(in, scratch, cv::COLOR_RGB2BGR); break;
        case FOCR_FORMAT_BGRA8: cv::cvtColor(in, scratch, cv::COLOR_BGRA2BGR); break;
        case FOCR_FORMAT_RGBA8: cv::cvtColor(in, scratch, cv::COLOR_RGBA2BGR); break;
        default: return false;
    }
    bgr = &scratch;
    return true;
}

/// PaddleOCR's normalization of a line: (x / 255 − 0.5) / 0.5, each BGR channel alike.
constexpr float kMean[3] = {127.5f, 127.5f, 127.5f};
constexpr float kScale = 1.0f / 127.5f;

/// `resized` (8-bit BGR, H rows, at most `width` columns) into `blob`, normalized, padded with 0.
void fill_blob(const cv::Mat &resized, int width, cv::Mat &blob) {
    focr::dnn::fill_blob(resized, width, kMean, kScale, blob);
}

/// Up to `k` of the allowed non-blank classes other than `own` at the step `p` (C probabilities),
/// most probable first (ties: the lower class first), into `c`.
void alternates(const float *p, const std::vector<int32_t> &allowed, int32_t own, int k, focr_recognized_char &c) {
    c.alternate_count = 0;
    if (k == 0) return;
    for (int32_t cls : allowed) {
        if (cls == 0 || cls == own) continue;
        const float v = p[cls];
        int n = c.alternate_count;
        if (n == k && v <= c.alternate_probability[k - 1]) continue;
        if (n < k) ++c.alternate_count;
        int i = c.alternate_count - 1;
        // Insert v, keeping the list falling; an equal value stays behind the earlier (lower) class.
        while (i > 0 && c.alternate_probability[i - 1] < v) {
            c.alternate_probability[i] = c.alternate_probability[i - 1];
            c.alternate_class[i] = c.alternate_class[i - 1];
            --i;
        }
        c.alternate_probability[i] = v;
        c.alternate_class[i] = cls;
    }
}

}  // namespace

extern "C" focr_status focr_media_text_recognizer_create(const char *model_path, const char *keys_path,
                                                        int32_t device, focr_text_recognizer **out) {
    return guarded("text_recognizer_create", [&]() -> focr_status {
        if (out == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "text_recognizer_create: out is NULL");
        *out = nullptr;
        if (model_path == nullptr || keys_path == nullptr)
            return fail(FOCR_E_INVALID_ARGUMENT, "text_recognizer_create: model_path or keys_path is NULL");
        focr::dnn::check_device("text_recognizer_create", device);
        focr::dnn::check_model_file(model_path, "text recognizer");
        auto d = std::make_unique<focr_text_recognizer>();
        std::ifstream keys_file(keys_path, std::ios::binary);
        if (!keys_file) return fail(FOCR_E_IO, std::string(keys_path) + ": cannot open the text recognizer's keys");

        d->keys.emplace_back();  // the blank
        for (std::string line; std::getline(keys_file, line);) {
            if (!line.empty() && line.back() == '\r') line.pop_back();
            d->keys.push_back(std::move(line));
        }
        // A final newline ends the last key; it does not start another.
        if (d->keys.size() == 1) return fail(FOCR_E_IO, std::string(keys_path) + ": no keys in the file");
        d->keys.emplace_back(" ");
        const int classes = (int)d->keys.size();

        // Where it runs (focr_dnn.h). The probe: the probe line at the widths kProbeWidths, in
        // turn, through the CPU's network and the device's, which replaces it when the outputs
        // match at every width.
        d->network = focr::dnn::place(
            model_path, device, focr::ov::Role::recognizer, "text recognizer",
            [&](focr::ov::Network &cpu, focr::ov::Network &other, double &cpu_ms, double &device_ms) {
                const cv::Mat line = focr::dnn::probe_image(cv::Size(kCheckWidth, kProbeHeight));
                focr::dnn::Comparison all;
                for (const int width : kProbeWidths) {
                    fill_blob(line, width, d->blob);
                    int64_t start = cv::getTickCount();
                    const cv::Mat on_cpu = cpu.run(d->blob).clone();
                    cpu_ms += focr::dnn::milliseconds_since(start);
                    start = cv::getTickCount();
                    const cv::Mat on_device = other.run(d->blob).clone();
                    device_ms += focr::dnn::milliseconds_since(start);
                    all.add(focr::dnn::compare_classes(on_cpu, on_device));
                    if (all.diverged()) break;
                }
                return all;
            },
            d->decision);
        // One run on a blank input: the output must have a class per key, the blank and the space.
        cv::Mat output;
        try {
            const int sizes[4] = {1, 3, 48, kCheckWidth};
            d->blob = cv::Mat(4, sizes, CV_32F, cv::Scalar(0));
            output = d->network->run(d->blob);
        } catch (const focr::StatusError &e) {
            return fail(FOCR_E_UNSUPPORTED,
                        std::string(model_path) + ": the network does not run on a 1×3×48×320 input: " + e.what());
        }
        if (steps_by_classes(output, classes).empty()) {
            const int got = output.dims >= 1 ? output.size[output.dims - 1] : 0;
            return fail(FOCR_E_UNSUPPORTED,
                        std::string(model_path) + ": its output is " + shape(output) + ", not 1×T×" +
                            std::to_string(classes) + " (" + std::string(keys_path) + " holds " +
                            std::to_string(classes - 2) + " keys, which with the blank and the space make " +
                            std::to_string(classes) + " classes; the model has " + std::to_string(got - 2) +
                            " keys' worth)");
        }
        d->allowed.reserve((size_t)classes);
        d->found.reserve(256);
        *out = d.release();
        return FOCR_OK;
    });
}

extern "C" void focr_media_text_recognizer_destroy(focr_text_recognizer *recognizer) { delete recognizer; }

extern "C" focr_status focr_media_text_recognizer_device(const focr_text_recognizer *recognizer,
                                                        focr_dnn_decision *decision) {
    return guarded("text_recognizer_device", [&]() -> focr_status {
        if (recognizer == nullptr || decision == nullptr)
            return fail(FOCR_E_INVALID_ARGUMENT, "text_recognizer_device: NULL argument");
        *decision = recognizer->decision.view();
        return FOCR_OK;
    });
}

extern "C" focr_status focr_media_text_recognizer_key_count(const focr_text_recognizer *recognizer, int32_t *count) {
    return guarded("text_recognizer_key_count", [&]() -> focr_status {
        if (recognizer == nullptr || count == nullptr)
            return fail(FOCR_E_INVALID_ARGUMENT, "text_recognizer_key_count: NULL argument");
        *count = (int32_t)recognizer->keys.size();
        return FOCR_OK;
    });
}

extern "C" focr_status focr_media_text_recognizer_key(const focr_text_recognizer *recognizer, int32_t index,
                                                     const char **key) {
    return guarded("text_recognizer_key", [&]() -> focr_status {
        if (recognizer == nullptr || key == nullptr)
            return fail(FOCR_E_INVALID_ARGUMENT, "text_recognizer_key: NULL argument");
        *key = nullptr;
        if (index < 0 || (size_t)index >= recognizer->keys.size())
            return fail(FOCR_E_INVALID_ARGUMENT, "text_recognizer_key: index " + std::to_string(index) +
                                                     " not in 0…" + std::to_string(recognizer->keys.size() - 1));
        *key = recognizer->keys[(size_t)index].c_str();
        return FOCR_OK;
    });
}

namespace {

/// The most lines one run of the network reads (lines of one input width W; a group of more is
/// run in chunks of 8, 4, 2 and 1 lines, so that each width has at most four input shapes).
constexpr int kMaxBatch = 8;
/// The most input columns (lines × W) one run reads: wider lines go in fewer at a time (8 up to
/// W 320, 4 up to 640, 2 up to 1280, then 1). The network's working memory grows with the
/// columns and stays at its largest (measured on OpenVINO 2026.4, f32, one stream: 8×320 +46 MB,
/// 8×640 +78 MB, 4×1600 +93 MB), while lines of 640 and more read no faster together than alone
/// (25.5–27 ms a line at 640 as 1, 2, 4 or 8): docs/openvino.md, "Memory".
constexpr int kBatchColumns = 2560;

/// Lines in the next run of a group with `left` lines still to run, each `width` columns wide:
/// the most of 8, 4, 2 and 1 that the group holds and kBatchColumns allows (1 at least). The
/// recognizer's and the classifier's batches both run so.
int run_size(size_t left, int width) {
    int n = kMaxBatch;
    while (n > 1 && ((size_t)n > left || n * width > kBatchColumns)) n /= 2;
    return n;
}

/// Greedy CTC decoding of one line's `steps`×C probabilities (`probs`) into `d.found`, written
/// out as focr_text_recognizer_recognize describes.
void decode(focr_text_recognizer &d, const float *probs, int steps, int classes, int width, int resized_width,
            int src_cols, const focr_recognizer_params &p, focr_recognized_char *out, int32_t capacity,
            focr_recognized_line &line) {
    const double stride = (double)width / steps;  // input columns per step (8)
    const double back = (double)src_cols / resized_width;
    d.found.clear();
    int32_t previous = 0;
    for (int t = 0; t < steps; ++t) {
        const float *row = probs + (size_t)t * classes;
        int32_t best = 0;
        float best_p = row[0];
        for (size_t i = 1; i < d.allowed.size(); ++i) {
            const int32_t c = d.allowed[i];
            if (row[c] > best_p) {
                best_p = row[c];
                best = c;
            }
        }
        if (best != 0 && best == previous) {
            focr_recognized_char &c = d.found.back();
            c.last_step = t;
            if (best_p > c.probability) {
                c.probability = best_p;
                c.best_step = t;
            }
        } else if (best != 0) {
            focr_recognized_char c{};
            c.class_index = best;
            c.probability = best_p;
            c.first_step = c.last_step = c.best_step = t;
            d.found.push_back(c);
        }
        previous = best;
    }
    double sum = 0;
    for (focr_recognized_char &c : d.found) {
        sum += c.probability;
        const auto x = [&](double column) {
            return (float)std::clamp(column, 0.0, (double)resized_width) * (float)back;
        };
        c.x0 = std::min(x(c.first_step * stride), (float)src_cols);
        c.x1 = std::min(x((c.last_step + 1) * stride), (float)src_cols);
        alternates(probs + (size_t)c.best_step * classes, d.allowed, c.class_index, p.top_k, c);
    }
    line.count = (int32_t)d.found.size();
    line.mean_probability = d.found.empty() ? 0.0f : (float)(sum / d.found.size());
    line.resized_width = resized_width;
    line.input_width = width;
    line.time_steps = steps;
    std::copy_n(d.found.begin(), std::min<size_t>(d.found.size(), (size_t)capacity), out);
}

/// The lines of a batch call checked (`call` names the entry point in messages): each a valid
/// descriptor of a gray or packed colour image, named "src" alone and "srcs[i]" in a batch.
focr_status check_lines(const char *call, const focr_image *srcs, int32_t count) {
    for (int32_t i = 0; i < count; ++i) {
        const std::string name = count == 1 ? "src" : "srcs[" + std::to_string(i) + "]";
        focr_status s = validate(&srcs[i], name.c_str());
        if (s != FOCR_OK) return s;
        if (srcs[i].format != FOCR_FORMAT_GRAY8 && srcs[i].format != FOCR_FORMAT_BGR8 &&
            srcs[i].format != FOCR_FORMAT_RGB8 && srcs[i].format != FOCR_FORMAT_BGRA8 &&
            srcs[i].format != FOCR_FORMAT_RGBA8)
            return fail(FOCR_E_UNSUPPORTED, std::string(call) + ": " + name + " must be gray or packed colour");
    }
    return FOCR_OK;
}

/// focr_text_recognizer_recognize_batch's work, its arguments checked but the images' (`call`
/// names the entry point in messages).
focr_status recognize_lines(const char *call, focr_text_recognizer &d, const focr_image *srcs, int32_t count,
                            const focr_recognizer_params &p, focr_recognized_char *out, int32_t capacity,
                            focr_recognized_line *lines) {
    if (focr_status s = check_lines(call, srcs, count); s != FOCR_OK) return s;
    const auto range = [call](const char *name, int32_t v, int32_t lo, int32_t hi, const char *more = "") {
        return fail(FOCR_E_INVALID_ARGUMENT, std::string(call) + ": " + name + " " + std::to_string(v) + " not in " +
                                                 std::to_string(lo) + "…" + std::to_string(hi) + more);
    };
    if (p.height < 16 || p.height > 256 || p.height % 8 != 0)
        return range("height", p.height, 16, 256, " or not a multiple of 8");
    if (p.min_width < 8 || p.min_width > 4096) return range("min_width", p.min_width, 8, 4096);
    if (p.width_step < 8 || p.width_step > 4096 || p.width_step % kStride != 0)
        return range("width_step", p.width_step, 8, 4096, " or not a multiple of 8");
    if (p.max_width < 8 || p.max_width > 8192) return range("max_width", p.max_width, 8, 8192);
    if (p.top_k < 0 || p.top_k > FOCR_RECOGNIZER_MAX_ALTERNATES)
        return range("top_k", p.top_k, 0, FOCR_RECOGNIZER_MAX_ALTERNATES);
    const int classes = (int)d.keys.size();
    d.allowed.clear();
    d.allowed.push_back(0);
    for (int c = 1; c < classes; ++c)
        if (p.allowed == nullptr || p.allowed[c] != 0) d.allowed.push_back(c);
    if (d.allowed.size() == 1)
        return fail(FOCR_E_INVALID_ARGUMENT, std::string(call) + ": allowed permits no class but the blank");

    // Each line's resized width and input width W; the lines ordered by W (then by index).
    d.widths.assign((size_t)count, 0);
    d.resized_widths.assign((size_t)count, 0);
    d.order.resize((size_t)count);
    for (int32_t i = 0; i < count; ++i) {
        const int64_t natural = ((int64_t)p.height * srcs[i].width + srcs[i].height - 1) / srcs[i].height;
        d.resized_widths[i] = (int)std::min<int64_t>(natural, p.max_width);
        d.widths[i] = (std::max(d.resized_widths[i], p.min_width) + p.width_step - 1) / p.width_step * p.width_step;
        d.order[i] = i;
    }
    std::sort(d.order.begin(), d.order.end(),
              [&](int a, int b) { return d.widths[a] != d.widths[b] ? d.widths[a] < d.widths[b] : a < b; });
    for (size_t first = 0; first < d.order.size();) {
        const int width = d.widths[d.order[first]];
        size_t same = first;
        while (same < d.order.size() && d.widths[d.order[same]] == width) ++same;
        const int n = run_size(same - first, width);
        const int sizes[4] = {n, 3, p.height, width};
        d.blob.create(4, sizes, CV_32F);
        const size_t image = (size_t)3 * p.height * width;
        for (int k = 0; k < n; ++k) {
            const focr_image &src = srcs[d.order[first + k]];
            const cv::Mat in = wrap_plane0(src);
            const cv::Mat *bgr = nullptr;
            to_bgr(d.bgr, src, in, bgr);
            cv::resize(*bgr, d.resized, cv::Size(d.resized_widths[d.order[first + k]], p.height), 0, 0,
                       cv::INTER_LINEAR);
            focr::dnn::fill_planes(d.resized, width, p.height, kMean, kScale, d.blob.ptr<float>() + k * image);
        }
        const cv::Mat output = d.network->run(d.blob);
        if (output.type() != CV_32F || !output.isContinuous() || output.dims != 3 || output.size[0] != n ||
            output.size[2] != classes || output.size[1] < 1)
            return fail(FOCR_E_INFERENCE, std::string(call) + ": the network's output is " + shape(output) +
                                               ", not " + std::to_string(n) + "×T×" + std::to_string(classes));
        const int steps = output.size[1];
        for (int k = 0; k < n; ++k) {
            const int i = d.order[first + k];
            decode(d, output.ptr<float>() + (size_t)k * steps * classes, steps, classes, width, d.resized_widths[i],
                   srcs[i].width, p, out == nullptr ? nullptr : out + (size_t)i * capacity, capacity, lines[i]);
        }
        first += (size_t)n;
    }
    return FOCR_OK;
}

}  // namespace

extern "C" focr_status focr_media_text_recognizer_recognize(focr_text_recognizer *recognizer, const focr_image *src,
                                                           const focr_recognizer_params *params,
                                                           focr_recognized_char *out, int32_t capacity,
                                                           focr_recognized_line *line) {
    return guarded("text_recognizer_recognize", [&]() -> focr_status {
        if (recognizer == nullptr || params == nullptr || line == nullptr || src == nullptr ||
            (out == nullptr && capacity > 0) || capacity < 0)
            return fail(FOCR_E_INVALID_ARGUMENT, "text_recognizer_recognize: NULL argument or negative capacity");
        *line = focr_recognized_line{};
        return recognize_lines("text_recognizer_recognize", *recognizer, src, 1, *params, out, capacity, line);
    });
}

extern "C" focr_status focr_media_text_recognizer_recognize_batch(focr_text_recognizer *recognizer,
                                                                 const focr_image *srcs, int32_t count,
                                                                 const focr_recognizer_params *params,
                                                                 focr_recognized_char *out, int32_t capacity,
                                                                 focr_recognized_line *lines) {
    return guarded("text_recognizer_recognize_batch", [&]() -> focr_status {
        if (recognizer == nullptr || params == nullptr || count < 0 || capacity < 0 ||
            (count > 0 && (srcs == nullptr || lines == nullptr || (out == nullptr && capacity > 0))))
            return fail(FOCR_E_INVALID_ARGUMENT,
                        "text_recognizer_recognize_batch: NULL argument, or a negative count or capacity");
        for (int32_t i = 0; i < count; ++i) lines[i] = focr_recognized_line{};
        return recognize_lines("text_recognizer_recognize_batch", *recognizer, srcs, count, *params, out, capacity,
                               lines);
    });
}

struct focr_text_angle_classifier {
    std::unique_ptr<focr::ov::Network> network;
    cv::Mat bgr, resized, blob;
};

namespace {

/// Whether the classifier's output is `n` rows of two float probabilities (upright, turned 180°).
bool two_classes(const cv::Mat &output, int n) {
    return output.type() == CV_32F && output.isContinuous() && output.total() == (size_t)2 * n;
}

}  // namespace

extern "C" focr_status focr_media_text_angle_classifier_create(const char *model_path,
                                                              focr_text_angle_classifier **out) {
    return guarded("text_angle_classifier_create", [&]() -> focr_status {
        if (out == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "text_angle_classifier_create: out is NULL");
        *out = nullptr;
        if (model_path == nullptr)
            return fail(FOCR_E_INVALID_ARGUMENT, "text_angle_classifier_create: model_path is NULL");
        focr::dnn::check_model_file(model_path, "text-angle classifier");
        auto d = std::make_unique<focr_text_angle_classifier>();
        cv::Mat output;
        try {
            d->network = focr::dnn::compile(model_path, "CPU", focr::ov::Role::classifier);
            const int sizes[4] = {1, 3, FOCR_ANGLE_CLASSIFIER_HEIGHT, FOCR_ANGLE_CLASSIFIER_WIDTH};
            d->blob = cv::Mat(4, sizes, CV_32F, cv::Scalar(0));
            output = d->network->run(d->blob);
        } catch (const focr::StatusError &e) {
            if (e.status != FOCR_E_INFERENCE) throw;
            return fail(FOCR_E_UNSUPPORTED,
                        std::string(model_path) + ": OpenVINO cannot read or run it on a 1×3×48×192 input: " + e.what());
        }
        if (!two_classes(output, 1))
            return fail(FOCR_E_UNSUPPORTED, std::string(model_path) + ": its output is " + shape(output) +
                                                ", not 1×2 (upright, turned 180°)");
        *out = d.release();
        return FOCR_OK;
    });
}

extern "C" void focr_media_text_angle_classifier_destroy(focr_text_angle_classifier *classifier) { delete classifier; }

namespace {

/// focr_text_angle_classifier_classify_batch's work, its arguments checked but the images' (`call`
/// names the entry point in messages): the crops in chunks of 8, 4, 2 and 1 (at most four input
/// shapes), each resized and padded as it is alone.
focr_status classify_crops(const char *call, focr_text_angle_classifier &d, const focr_image *srcs, int32_t count,
                           float *upside_down) {
    if (focr_status s = check_lines(call, srcs, count); s != FOCR_OK) return s;
    constexpr int h = FOCR_ANGLE_CLASSIFIER_HEIGHT, w = FOCR_ANGLE_CLASSIFIER_WIDTH;
    const size_t image = (size_t)3 * h * w;
    for (int32_t first = 0; first < count;) {
        const int n = run_size((size_t)(count - first), w);
        const int sizes[4] = {n, 3, h, w};
        d.blob.create(4, sizes, CV_32F);
        for (int k = 0; k < n; ++k) {
            const focr_image &src = srcs[first + k];
            const cv::Mat in = wrap_plane0(src);
            const cv::Mat *bgr = nullptr;
            to_bgr(d.bgr, src, in, bgr);
            const int64_t natural = ((int64_t)h * in.cols + in.rows - 1) / in.rows;  // ceil(48 · w / h)
            const int resized_width = (int)std::clamp<int64_t>(natural, 1, w);
            cv::resize(*bgr, d.resized, cv::Size(resized_width, h), 0, 0, cv::INTER_LINEAR);
            focr::dnn::fill_planes(d.resized, w, h, kMean, kScale, d.blob.ptr<float>() + k * image);
        }
        const cv::Mat output = d.network->run(d.blob);
        if (!two_classes(output, n))
            return fail(FOCR_E_INFERENCE, std::string(call) + ": the network's output is " + shape(output) +
                                               ", not " + std::to_string(n) + "×2");
        // Class 1 of each row: turned 180°.
        for (int k = 0; k < n; ++k) upside_down[first + k] = output.ptr<float>()[2 * k + 1];
        first += n;
    }
    return FOCR_OK;
}

}  // namespace

extern "C" focr_status focr_media_text_angle_classifier_classify(focr_text_angle_classifier *classifier,
                                                                const focr_image *src, float *upside_down) {
    return guarded("text_angle_classifier_classify", [&]() -> focr_status {
        if (classifier == nullptr || upside_down == nullptr || src == nullptr)
            return fail(FOCR_E_INVALID_ARGUMENT, "text_angle_classifier_classify: NULL argument");
        *upside_down = 0;
        return classify_crops("text_angle_classifier_classify", *classifier, src, 1, upside_down);
    });
}

extern "C" focr_status focr_media_text_angle_classifier_classify_batch(focr_text_angle_classifier *classifier,
                                                                      const focr_image *srcs, int32_t count,
                                                                      float *upside_down) {
    return guarded("text_angle_classifier_classify_batch", [&]() -> focr_status {
        if (classifier == nullptr || count < 0 || (count > 0 && (srcs == nullptr || upside_down == nullptr)))
            return fail(FOCR_E_INVALID_ARGUMENT,
                        "text_angle_classifier_classify_batch: NULL argument, or a negative count");
        for (int32_t i = 0; i < count; ++i) upside_down[i] = 0;
        return classify_crops("text_angle_classifier_classify_batch", *classifier, srcs, count, upside_down);
    });
}
