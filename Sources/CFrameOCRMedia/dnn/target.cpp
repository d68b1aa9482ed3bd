// Where a network runs, and why (focr_dnn.h): OpenVINO's devices listed, the parity probe of a GPU
// or an NPU against the CPU, and the decisions kept per model and device. Shared by the text
// detector (detection/detector.cpp) and the CTC line recognizer (recognition/recognizer.cpp).
#include "dnn/target.hpp"

#include "openvino/runtime.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <string>

#include <opencv2/imgproc.hpp>

namespace focr::dnn {

namespace {

/// What OpenVINO lists: the devices' names, and the list for a reason.
struct Devices {
    std::vector<std::string> names;
    std::string list;
};

Devices query() {
    Devices d;
    for (const std::string &name : focr::ov::available_devices()) {
        d.list += (d.list.empty() ? "" : ", ") + name;
        d.names.push_back(name);
    }
    if (d.list.empty()) d.list = "none";
    return d;
}

/// OpenVINO's name of a kind of device: "GPU", "NPU" (the CPU's otherwise).
const char *kind_name(int32_t device) {
    switch (device) {
        case FOCR_DNN_DEVICE_GPU: return "GPU";
        case FOCR_DNN_DEVICE_NPU: return "NPU";
        default: return "CPU";
    }
}

/// The first device of `kind` that OpenVINO lists ("GPU", or "GPU.0" where it numbers them); "" when none.
std::string first_of(const Devices &s, const char *kind) {
    const std::string k = kind;
    for (const std::string &name : s.names)
        if (name == k || name.rfind(k + ".", 0) == 0) return name;
    return "";
}

std::string number(const char *format, double v) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, v);
    return buffer;
}

/// "0 values not finite, 0 of 120 steps of another class, max |Δ| 4.8e-06 over the finite ones
/// (tolerance 0.001)" for a reason.
std::string figures(const Comparison &c) {
    if (!c.same_shape) return "the outputs' shapes differ";
    return std::to_string(c.non_finite) + " values not finite, " + std::to_string(c.mismatches) + " of " +
           std::to_string(c.compared) + " " + c.mismatch_units + ", max |Δ| " +
           number("%.2g", c.max_abs_difference) + " over the finite ones (tolerance " +
           number("%g", FOCR_DNN_PROBE_TOLERANCE) + ")";
}

}  // namespace

double milliseconds_since(int64_t start) {
    return (double)(cv::getTickCount() - start) * 1000.0 / cv::getTickFrequency();
}

Decision decide(int32_t device, const Probe &probe) {
    const int64_t start = cv::getTickCount();
    Decision d;
    d.value.requested = device;
    d.value.chosen = FOCR_DNN_DEVICE_CPU;
    if (device == FOCR_DNN_DEVICE_CPU) {
        d.reason = "asked for the CPU";
        d.value.decision_ms = milliseconds_since(start);
        return d;
    }
    const Devices s = query();
    d.value.queried = 1;
    d.devices = s.list;
    const std::string asked = device == FOCR_DNN_DEVICE_AUTO ? "auto" : std::string("the ") + kind_name(device);
    std::vector<int32_t> kinds = {device};
    if (device == FOCR_DNN_DEVICE_AUTO) kinds = {FOCR_DNN_DEVICE_GPU, FOCR_DNN_DEVICE_NPU};
    std::string failures;
    for (const int32_t kind : kinds) {
        const std::string name = first_of(s, kind_name(kind));
        if (name.empty()) continue;
        d.device = name;
        d.value.probed = 1;
        d.value.tolerance = FOCR_DNN_PROBE_TOLERANCE;
        try {
            double cpu_ms = 0, device_ms = 0;
            const Comparison c = probe(name, cpu_ms, device_ms);
            d.value.cpu_ms = cpu_ms;
            d.value.device_ms = device_ms;
            d.value.max_abs_difference = c.max_abs_difference;
            d.value.non_finite = c.non_finite;
            d.value.mismatches = c.mismatches;
            d.value.compared = c.compared;
            d.value.diverged = c.diverged();
            if (!c.diverged()) {
                d.value.chosen = kind;
                d.value.fell_back = 0;
                d.compiled_for = name;
                d.reason =
                    "asked for " + asked + ": OpenVINO's " + name + " matched the CPU on the probe: " + figures(c);
                d.value.decision_ms = milliseconds_since(start);
                return d;
            }
            failures += (failures.empty() ? "" : "; ") + name + " diverged from the CPU on the probe: " + figures(c);
        } catch (const std::exception &e) {
            d.value.diverged = 1;
            failures += (failures.empty() ? "" : "; ") + name + " failed the probe: " + e.what();
        }
    }
    if (failures.empty()) {
        // Nothing of the kind listed. For auto that is the CPU's machine, no fallback.
        d.value.fell_back = device == FOCR_DNN_DEVICE_AUTO ? 0 : 1;
        d.reason = (device == FOCR_DNN_DEVICE_AUTO ? std::string("auto: OpenVINO lists no GPU or NPU")
                                                   : "asked for " + asked + ", but OpenVINO lists none") +
                   " (its devices: " + s.list +
                   "; its GPU and NPU plug-ins, for Intel devices, are not among the files `make openvino` installs)";
    } else {
        d.value.fell_back = 1;
        d.reason = "asked for " + asked + ", runs on the CPU: " + failures;
    }
    d.value.decision_ms = milliseconds_since(start);
    return d;
}

void fill_blob(const cv::Mat &bgr, int width, const float mean[3], float scale, cv::Mat &blob, int height) {
    if (height < bgr.rows) height = bgr.rows;
    const int sizes[4] = {1, 3, height, width};
    blob.create(4, sizes, CV_32F);
    fill_planes(bgr, width, height, mean, scale, blob.ptr<float>());
}

void fill_planes(const cv::Mat &bgr, int width, int height, const float mean[3], float scale, float *base) {
    const int h = bgr.rows, w = bgr.cols;
    const size_t plane = (size_t)height * width;
    for (int y = 0; y < h; ++y) {
        const uchar *row = bgr.ptr<uchar>(y);
        float *c0 = base + (size_t)y * width, *c1 = c0 + plane, *c2 = c1 + plane;
        for (int x = 0; x < w; ++x) {
            c0[x] = (row[3 * x] - mean[0]) * scale;
            c1[x] = (row[3 * x + 1] - mean[1]) * scale;
            c2[x] = (row[3 * x + 2] - mean[2]) * scale;
        }
        std::fill(c0 + w, c0 + width, 0.0f);
        std::fill(c1 + w, c1 + width, 0.0f);
        std::fill(c2 + w, c2 + width, 0.0f);
    }
    // The rows below the image, in each channel.
    for (int c = 0; c < 3; ++c) std::fill(base + c * plane + (size_t)h * width, base + (c + 1) * plane, 0.0f);
}

std::unique_ptr<focr::ov::Network> compile(const char *model_path, const char *device, focr::ov::Role role) {
    return std::make_unique<focr::ov::Network>(model_path, focr::ov::options_for(role, device));
}

void check_device(const char *call, int32_t device) {
    if (device != FOCR_DNN_DEVICE_CPU && device != FOCR_DNN_DEVICE_GPU && device != FOCR_DNN_DEVICE_AUTO &&
        device != FOCR_DNN_DEVICE_NPU)
        throw focr::StatusError(FOCR_E_INVALID_ARGUMENT, std::string(call) + ": device " + std::to_string(device) +
                                                             " is not 0 (CPU), 1 (GPU), 2 (auto) or 3 (NPU)");
}

void check_model_file(const char *model_path, const char *what) {
    std::ifstream file(model_path, std::ios::binary);
    if (!file) throw focr::StatusError(FOCR_E_IO, std::string(model_path) + ": cannot open the " + what + "'s model");
    if (file.peek() == std::ifstream::traits_type::eof())
        throw focr::StatusError(FOCR_E_IO, std::string(model_path) + ": empty model file");
}

std::unique_ptr<focr::ov::Network> place(const char *model_path, int32_t device, focr::ov::Role role, const char *what,
                                         const PairProbe &probe, Decision &decision) {
    // The decisions made in this process, per model file and device asked for: one probe each.
    static std::mutex mutex;
    static std::map<std::string, Decision> made;
    const std::string key = std::string(model_path) + '\n' + std::to_string(device);
    const auto on_cpu = [&] {
        try {
            return compile(model_path, "CPU", role);
        } catch (const focr::StatusError &e) {
            if (e.status != FOCR_E_INFERENCE) throw;
            throw focr::StatusError(FOCR_E_UNSUPPORTED, std::string("the ") + what + "'s model: " + e.what());
        }
    };
    std::unique_lock<std::mutex> lock(mutex);
    if (const auto found = made.find(key); found != made.end()) {
        decision = found->second;
        lock.unlock();
        return decision.compiled_for == "CPU" ? on_cpu() : compile(model_path, decision.compiled_for.c_str(), role);
    }
    lock.unlock();
    std::unique_ptr<focr::ov::Network> cpu = on_cpu(), other;
    decision = decide(device, [&](const std::string &name, double &cpu_ms, double &device_ms) {
        other = compile(model_path, name.c_str(), role);
        return probe(*cpu, *other, cpu_ms, device_ms);
    });
    lock.lock();
    made.emplace(key, decision);
    lock.unlock();
    if (decision.compiled_for == "CPU") return cpu;
    return other ? std::move(other) : compile(model_path, decision.compiled_for.c_str(), role);
}

cv::Mat probe_image(cv::Size size) {
    cv::Mat image(size, CV_8UC3, cv::Scalar::all(235));
    cv::putText(image, "Probe 0123 AB", cv::Point(8, size.height / 2 + 11), cv::FONT_HERSHEY_SIMPLEX, 1.0,
                cv::Scalar::all(20), 2, cv::LINE_8);
    return image;
}

namespace {

/// Values compared: the largest finite difference, the device's values that are not finite.
void compare_values(const float *a, const float *b, size_t n, Comparison &c) {
    for (size_t i = 0; i < n; ++i) {
        if (!std::isfinite(b[i])) {
            ++c.non_finite;
            continue;
        }
        if (std::isfinite(a[i])) c.max_abs_difference = std::max(c.max_abs_difference, std::fabs(a[i] - b[i]));
    }
}

bool same_shape(const cv::Mat &a, const cv::Mat &b) {
    if (a.dims != b.dims || a.type() != CV_32F || b.type() != CV_32F || !a.isContinuous() || !b.isContinuous())
        return false;
    for (int i = 0; i < a.dims; ++i)
        if (a.size[i] != b.size[i]) return false;
    return true;
}

}  // namespace

Comparison compare_classes(const cv::Mat &cpu, const cv::Mat &other) {
    Comparison c;
    if (!same_shape(cpu, other) || cpu.dims != 3) {
        c.same_shape = false;
        return c;
    }
    const int steps = cpu.size[1], classes = cpu.size[2];
    const float *a = cpu.ptr<float>(), *b = other.ptr<float>();
    compare_values(a, b, cpu.total(), c);
    for (int t = 0; t < steps; ++t) {
        const float *pa = a + (size_t)t * classes, *pb = b + (size_t)t * classes;
        const int ia = (int)(std::max_element(pa, pa + classes) - pa);
        const int ib = (int)(std::max_element(pb, pb + classes) - pb);
        if (ia != ib && pa[ia] - pa[ib] > FOCR_DNN_PROBE_TOLERANCE) ++c.mismatches;
    }
    c.compared = steps;
    c.mismatch_units = "steps of another class";
    return c;
}

Comparison compare_maps(const cv::Mat &cpu, const cv::Mat &other, float threshold) {
    Comparison c;
    if (!same_shape(cpu, other)) {
        c.same_shape = false;
        return c;
    }
    const float *a = cpu.ptr<float>(), *b = other.ptr<float>();
    const size_t n = cpu.total();
    compare_values(a, b, n, c);
    for (size_t i = 0; i < n; ++i)
        if ((a[i] >= threshold) != (b[i] >= threshold) && std::fabs(a[i] - threshold) > FOCR_DNN_PROBE_TOLERANCE)
            ++c.mismatches;
    c.compared = (int)n;
    c.mismatch_units = "pixels across the threshold";
    return c;
}

}  // namespace focr::dnn
