// Internal to libFrameOCRMedia: where a network runs and the decision behind it (focr_dnn.h), shared
// by the text detector (detection/) and the CTC line recognizer (recognition/). Each of them keeps a
// Decision in its handle, made once at create by decide() with a probe of its own model.
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "focr_dnn.h"
#include "openvino/runtime.hpp"

namespace focr::dnn {

/// A decision and the strings its C view points into (the handle owns it).
struct Decision {
    focr_dnn_decision value{};
    std::string devices, device, reason;
    /// The OpenVINO device the network is compiled for: "CPU", or the listed name of the device
    /// chosen ("GPU", "GPU.0", "NPU").
    std::string compiled_for = "CPU";

    /// The C view, its strings pointing into this object.
    focr_dnn_decision view() const {
        focr_dnn_decision v = value;
        v.devices = devices.c_str();
        v.device = device.c_str();
        v.reason = reason.c_str();
        return v;
    }
};

/// One comparison of a CPU output with a device's output (focr_dnn.h, "The parity probe").
struct Comparison {
    float max_abs_difference = 0;
    int non_finite = 0;
    int mismatches = 0;
    int compared = 0;
    bool same_shape = true;
    const char *mismatch_units = "";  // what `mismatches` counts, for a reason
    /// `other` (a comparison of the next input) added: the largest difference, the counts summed.
    void add(const Comparison &o) {
        max_abs_difference = std::max(max_abs_difference, o.max_abs_difference);
        non_finite += o.non_finite;
        mismatches += o.mismatches;
        compared += o.compared;
        same_shape = same_shape && o.same_shape;
        mismatch_units = o.mismatch_units;
    }
    bool diverged() const {
        return !same_shape || non_finite > 0 || mismatches > 0 || !(max_abs_difference <= FOCR_DNN_PROBE_TOLERANCE);
    }
};

/// Runs the model once on the CPU and once on the OpenVINO device named (as listed: "GPU.0") on
/// the probe input and compares the outputs; fills the two times, milliseconds. May throw: decide()
/// takes that as divergence.
using Probe = std::function<Comparison(const std::string &device, double &cpu_ms, double &device_ms)>;

/// `device` (a focr_dnn_device, checked by the caller) decided: for the CPU nothing queried; for the
/// GPU or the NPU OpenVINO's devices listed and, when it lists one of that kind, `probe` run on it
/// (taken when it finds the same outputs); for auto the same with the GPU, then the NPU. A device
/// asked for (or found, for auto) and not taken is a fallback (focr_dnn.h). Throws
/// focr::StatusError when OpenVINO is missing (every device but the CPU).
Decision decide(int32_t device, const Probe &probe);

/// The probe line (focr_dnn.h): "Probe 0123 AB" in ink 20 on paper 235, 8-bit BGR, `size` pixels
/// (at least 256×32).
cv::Mat probe_image(cv::Size size);

/// Fills `blob` (1×3×H×W float, channel-major) from `bgr` (8-bit, 3 channels, at most H = `height`
/// rows — `bgr.rows` when `height` is 0 or less — and at most W = `width` columns): channel c of
/// each pixel as (x − mean[c]) · scale, and 0 to the right of and below the image (the normalized
/// mean: the recognizer's padding, the detector's size bucket). The detector's and the
/// recognizer's input.
void fill_blob(const cv::Mat &bgr, int width, const float mean[3], float scale, cv::Mat &blob, int height = 0);

/// The same into the `height`×`width` planes of one image at `base` (3 planes, channel-major;
/// `height` ≥ `bgr.rows`): one image of a batch's blob.
void fill_planes(const cv::Mat &bgr, int width, int height, const float mean[3], float scale, float *base);

/// The model at `model_path` compiled for OpenVINO's `device` ("CPU", "GPU.0", "NPU") with the options of
/// its `role` under the process's configuration (focr::ov::options_for), with an infer request of
/// its own. Throws focr::StatusError.
std::unique_ptr<focr::ov::Network> compile(const char *model_path, const char *device, focr::ov::Role role);

/// `device` checked to be a focr_dnn_device: FOCR_E_INVALID_ARGUMENT, "`call`: device … is not 0
/// (CPU), 1 (GPU), 2 (auto) or 3 (NPU)". Throws focr::StatusError.
void check_device(const char *call, int32_t device);

/// The check every network's create makes of its model file before OpenVINO reads it: opened and
/// not empty, else FOCR_E_IO naming the file ("cannot open the `what`'s model", "empty model
/// file"). Throws focr::StatusError.
void check_model_file(const char *model_path, const char *what);

/// The probe of place(): runs the probe input through the CPU's network and the device's, fills
/// the two times (milliseconds) and compares the outputs.
using PairProbe =
    std::function<Comparison(focr::ov::Network &cpu, focr::ov::Network &other, double &cpu_ms, double &device_ms)>;

/// A handle's network, placed as `device` asks. The decision is made once per model file and device
/// asked for in a process (decide(): its probe runs `probe` on the CPU's network and the device's,
/// compiled for it) and kept: a later handle of the same model and device takes it as it is, without
/// listing devices or probing again. The model is compiled for the CPU first whenever the decision
/// is made (a model OpenVINO cannot read is refused there: FOCR_E_UNSUPPORTED, "the `what`'s model:
/// …"). Returns the network of the device chosen, the decision into `decision`. Throws
/// focr::StatusError.
std::unique_ptr<focr::ov::Network> place(const char *model_path, int32_t device, focr::ov::Role role, const char *what,
                                         const PairProbe &probe, Decision &decision);

/// 1×T×C class probabilities compared: values, and each step's most probable class.
Comparison compare_classes(const cv::Mat &cpu, const cv::Mat &other);

/// 1×1×H×W maps compared: values, and each pixel's side of `threshold`.
Comparison compare_maps(const cv::Mat &cpu, const cv::Mat &other, float threshold);

/// Milliseconds since `start` (cv::getTickCount ticks).
double milliseconds_since(int64_t start);

}  // namespace focr::dnn
