// Where a network runs, and why (focr_dnn.h): OpenVINO's devices listed, and auto's parity probe of
// its GPU against the CPU. Shared by the text detector (detection/detector.cpp) and the CTC line
// recognizer (recognition/recognizer.cpp).
#include "dnn/target.hpp"

#include "openvino/runtime.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include <opencv2/imgproc.hpp>

namespace focr::dnn {

namespace {

/// What OpenVINO lists: whether it has a GPU (its GPU plug-in, which runs on OpenCL, installed and
/// finding an Intel GPU), and the list for a reason.
struct Devices {
    bool gpu = false;
    std::string list;
};

Devices query() {
    Devices d;
    for (const std::string &name : focr::ov::available_devices()) {
        d.list += (d.list.empty() ? "" : ", ") + name;
        if (name == "GPU" || name.rfind("GPU.", 0) == 0) d.gpu = true;
    }
    if (d.list.empty()) d.list = "none";
    return d;
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

Decision decide(int32_t target, const Probe &probe) {
    const int64_t start = cv::getTickCount();
    Decision d;
    d.value.requested = target;
    d.value.chosen = FOCR_DNN_TARGET_CPU;
    if (target == FOCR_DNN_TARGET_CPU) {
        d.reason = "asked for the CPU";
        d.value.decision_ms = milliseconds_since(start);
        return d;
    }
    const Devices s = query();
    d.value.queried = 1;
    d.value.have_opencl = s.gpu;
    d.value.use_opencl = s.gpu;
    d.value.device_type = s.gpu ? FOCR_DNN_DEVICE_GPU : FOCR_DNN_DEVICE_NONE;
    d.device = s.gpu ? "GPU" : "";
    const std::string why_cpu = "OpenVINO lists no GPU (its devices: " + s.list +
                                "; its GPU plug-in, for Intel GPUs, is not among the files `make openvino` installs)";
    if (target == FOCR_DNN_TARGET_OPENCL) {
        d.value.chosen = s.gpu ? FOCR_DNN_TARGET_OPENCL : FOCR_DNN_TARGET_CPU;
        d.value.runs_on_opencl = s.gpu;
        d.reason = s.gpu ? "asked for OpenCL: OpenVINO's GPU, unchecked against the CPU"
                         : "asked for OpenCL, but it runs on the CPU: " + why_cpu;
        d.value.decision_ms = milliseconds_since(start);
        return d;
    }
    // auto
    if (!s.gpu) {
        d.reason = why_cpu;
        d.value.decision_ms = milliseconds_since(start);
        return d;
    }
    d.value.probed = 1;
    d.value.tolerance = FOCR_DNN_PROBE_TOLERANCE;
    try {
        double cpu_ms = 0, opencl_ms = 0;
        const Comparison c = probe(cpu_ms, opencl_ms);
        d.value.cpu_ms = cpu_ms;
        d.value.opencl_ms = opencl_ms;
        d.value.max_abs_difference = c.max_abs_difference;
        d.value.non_finite = c.non_finite;
        d.value.mismatches = c.mismatches;
        d.value.compared = c.compared;
        d.value.diverged = c.diverged();
        if (c.diverged()) {
            d.reason = "OpenVINO's GPU diverged from the CPU on the probe: " + figures(c);
        } else {
            d.value.chosen = FOCR_DNN_TARGET_OPENCL;
            d.value.runs_on_opencl = 1;
            d.reason = "OpenVINO's GPU matched the CPU on the probe: " + figures(c);
        }
    } catch (const std::exception &e) {
        d.value.diverged = 1;
        d.reason = std::string("OpenVINO's GPU failed the probe: ") + e.what();
    }
    d.value.decision_ms = milliseconds_since(start);
    return d;
}

void fill_blob(const cv::Mat &bgr, int width, const float mean[3], float scale, cv::Mat &blob, int height) {
    const int h = bgr.rows, w = bgr.cols;
    if (height < h) height = h;
    const int sizes[4] = {1, 3, height, width};
    blob.create(4, sizes, CV_32F);
    float *base = blob.ptr<float>();
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

void check_target(const char *call, int32_t target) {
    if (target != FOCR_DNN_TARGET_CPU && target != FOCR_DNN_TARGET_OPENCL && target != FOCR_DNN_TARGET_AUTO)
        throw focr::StatusError(FOCR_E_INVALID_ARGUMENT, std::string(call) + ": target " + std::to_string(target) +
                                                             " is not 0 (CPU), 1 (OpenCL) or 2 (auto)");
}

void check_model_file(const char *model_path, const char *what) {
    std::ifstream file(model_path, std::ios::binary);
    if (!file) throw focr::StatusError(FOCR_E_IO, std::string(model_path) + ": cannot open the " + what + "'s model");
    if (file.peek() == std::ifstream::traits_type::eof())
        throw focr::StatusError(FOCR_E_IO, std::string(model_path) + ": empty model file");
}

std::unique_ptr<focr::ov::Network> place(const char *model_path, int32_t target, focr::ov::Role role, const char *what,
                                         const PairProbe &probe, Decision &decision) {
    std::unique_ptr<focr::ov::Network> cpu;
    try {
        cpu = compile(model_path, "CPU", role);
    } catch (const focr::StatusError &e) {
        if (e.status != FOCR_E_INFERENCE) throw;
        throw focr::StatusError(FOCR_E_UNSUPPORTED, std::string("the ") + what + "'s model: " + e.what());
    }
    std::unique_ptr<focr::ov::Network> gpu;
    decision = decide(target, [&](double &cpu_ms, double &gpu_ms) {
        gpu = compile(model_path, "GPU", role);
        return probe(*cpu, *gpu, cpu_ms, gpu_ms);
    });
    if (decision.value.chosen != FOCR_DNN_TARGET_OPENCL) return cpu;
    return gpu ? std::move(gpu) : compile(model_path, "GPU", role);
}

cv::Mat probe_image(cv::Size size) {
    cv::Mat image(size, CV_8UC3, cv::Scalar::all(235));
    cv::putText(image, "Probe 0123 AB", cv::Point(8, size.height / 2 + 11), cv::FONT_HERSHEY_SIMPLEX, 1.0,
                cv::Scalar::all(20), 2, cv::LINE_8);
    return image;
}

namespace {

/// Values compared: the largest finite difference, OpenCL's values that are not finite.
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

Comparison compare_classes(const cv::Mat &cpu, const cv::Mat &opencl) {
    Comparison c;
    if (!same_shape(cpu, opencl) || cpu.dims != 3) {
        c.same_shape = false;
        return c;
    }
    const int steps = cpu.size[1], classes = cpu.size[2];
    const float *a = cpu.ptr<float>(), *b = opencl.ptr<float>();
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

Comparison compare_maps(const cv::Mat &cpu, const cv::Mat &opencl, float threshold) {
    Comparison c;
    if (!same_shape(cpu, opencl)) {
        c.same_shape = false;
        return c;
    }
    const float *a = cpu.ptr<float>(), *b = opencl.ptr<float>();
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
