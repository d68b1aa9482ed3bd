// Where a network runs, and why (focr_dnn.h): OpenCV's OpenCL state queried as its dnn module checks
// it (OpenCV 4.6's net_impl.cpp, setUpNet), and auto's parity probe against the CPU. Shared by the
// text detector (detection/detector.cpp) and the CTC line recognizer (recognition/recognizer.cpp).
#include "dnn/target.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <opencv2/core/ocl.hpp>
#include <opencv2/imgproc.hpp>

namespace focr::dnn {

namespace {

/// OpenCV's OpenCL state, as its dnn module sees it.
struct OpenCLState {
    bool have = false, use = false, allow_all = false;
    int type = 0;  // cv::ocl::Device::type(), 0 without a device
    std::string name;

    /// Whether the dnn module runs a network with the OpenCL target on the device (net_impl.cpp:
    /// a GPU, or any device when all are allowed), rather than switching it to the CPU.
    bool dnn_runs_on_device() const { return use && (type == cv::ocl::Device::TYPE_GPU || allow_all); }

    /// Why it does not, one clause (empty when it does).
    std::string why_cpu() const {
        if (!have) return "no OpenCL platform";
        if (!use) return "OpenCV has no OpenCL device: it takes a GPU only, unless OPENCV_OPENCL_DEVICE names another";
        if (!dnn_runs_on_device())
            return "OpenCL device " + name +
                   " is not a GPU: OpenCV's dnn runs on a GPU only, unless OPENCV_DNN_OPENCL_ALLOW_ALL_DEVICES=1";
        return "";
    }
};

/// OPENCV_DNN_OPENCL_ALLOW_ALL_DEVICES read as OpenCV reads a boolean setting (1, true, on, yes,
/// enable, enabled; any case).
bool allow_all_devices() {
    const char *v = std::getenv("OPENCV_DNN_OPENCL_ALLOW_ALL_DEVICES");
    if (v == nullptr) return false;
    std::string s(v);
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return (char)std::tolower(c); });
    return s == "1" || s == "true" || s == "on" || s == "yes" || s == "enable" || s == "enabled";
}

OpenCLState query() {
    OpenCLState s;
    s.allow_all = allow_all_devices();
    s.have = cv::ocl::haveOpenCL();
    if (s.have) s.use = cv::ocl::useOpenCL();
    if (s.use) {
        const cv::ocl::Device &device = cv::ocl::Device::getDefault();
        s.type = device.type();
        s.name = device.name();
    }
    return s;
}

int32_t device_type(int type) {
    if (type == 0) return FOCR_DNN_DEVICE_NONE;
    if (type & cv::ocl::Device::TYPE_GPU) return FOCR_DNN_DEVICE_GPU;
    if (type & cv::ocl::Device::TYPE_CPU) return FOCR_DNN_DEVICE_CPU;
    if (type & cv::ocl::Device::TYPE_ACCELERATOR) return FOCR_DNN_DEVICE_ACCELERATOR;
    return FOCR_DNN_DEVICE_OTHER;
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
    const OpenCLState s = query();
    d.value.queried = 1;
    d.value.have_opencl = s.have;
    d.value.use_opencl = s.use;
    d.value.device_type = device_type(s.type);
    d.value.allow_all_devices = s.allow_all;
    d.device = s.name;
    if (target == FOCR_DNN_TARGET_OPENCL) {
        d.value.chosen = FOCR_DNN_TARGET_OPENCL;
        d.value.runs_on_opencl = s.dnn_runs_on_device();
        d.reason = s.dnn_runs_on_device()
                       ? "asked for OpenCL: OpenCV runs it on OpenCL device " + s.name + ", unchecked against the CPU"
                       : "asked for OpenCL, but OpenCV runs it on the CPU: " + s.why_cpu();
        d.value.decision_ms = milliseconds_since(start);
        return d;
    }
    // auto
    if (!s.dnn_runs_on_device()) {
        d.reason = s.why_cpu();
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
            d.reason = "OpenCL device " + s.name + " diverged from the CPU on the probe: " + figures(c);
        } else {
            d.value.chosen = FOCR_DNN_TARGET_OPENCL;
            d.value.runs_on_opencl = 1;
            d.reason = "OpenCL device " + s.name + " matched the CPU on the probe: " + figures(c);
        }
    } catch (const cv::Exception &e) {
        d.value.diverged = 1;
        d.reason = "OpenCL device " + s.name + " failed the probe: " + e.what();
    } catch (const std::exception &e) {
        d.value.diverged = 1;
        d.reason = "OpenCL device " + s.name + " failed the probe: " + e.what();
    }
    d.value.decision_ms = milliseconds_since(start);
    return d;
}

cv::dnn::Net read_network(const std::vector<uchar> &model, int cv_target) {
    cv::dnn::Net net = cv::dnn::readNetFromONNX(model);
    net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
    net.setPreferableTarget(cv_target);
    return net;
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
