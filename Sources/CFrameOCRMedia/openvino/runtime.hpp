// Internal to libFrameOCRMedia: OpenVINO, the runtime of the neural networks (focr_openvino.h). The
// library (libopenvino_c and what it needs, from the pinned PyPI wheel that `make openvino` unpacks)
// is opened with dlopen on the first network made, never linked: where it is absent, the package
// still builds and reads with Tesseract, and making a network fails with FOCR_E_RUNTIME_MISSING
// naming the file looked for, the folders searched and the make target that installs it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "focr_common.h"
#include "focr_common/status.hpp"
#include "focr_openvino.h"
#include "openvino/api.hpp"

namespace focr::ov {

/// The calls of OpenVINO's C API that the library uses, resolved with dlsym.
struct Api {
#define FOCR_OV_MEMBER(ret, name, params) ret(*name) params = nullptr;
    FOCR_OV_CALLS(FOCR_OV_MEMBER)
#undef FOCR_OV_MEMBER
    ov_core_t *core = nullptr;  // the process's one core (never freed: OpenVINO's threads outlive it)
    std::string library;        // the path the library was opened from
    std::string version;        // ov_get_openvino_version's build number, e.g. "2026.4.1-22982-…"
};

/// A failure of OpenVINO or of finding it, with the focr_status it maps to (guarded() returns it).
using Failure = focr::StatusError;

/// The runtime, loaded once per process (thread-safe): the library found and opened, every call
/// resolved, one core made. Null with `*failure` filled when that failed (FOCR_E_RUNTIME_MISSING:
/// not found, not loadable or a call missing; FOCR_E_INFERENCE: the core could not be made); the
/// outcome is kept, so a second call answers at once.
const Api *runtime(Failure *failure);

/// The devices OpenVINO lists ("CPU", "GPU", "GPU.1", "NPU", …: the plug-ins installed that find
/// their hardware). Throws Failure when the runtime is missing or the listing fails.
std::vector<std::string> available_devices();

/// The folders searched for the library, in order (focr_openvino.h).
std::vector<std::string> search_folders();

/// Entries of the CPU plug-in's cache of kernels compiled per input shape (CPU_RUNTIME_CACHE_CAPACITY;
/// OpenVINO's default is 5000): a line recognizer's widths come in steps of 160 up to 1600, a
/// detector's sizes in steps of 32.
constexpr int kRuntimeCacheCapacity = 16;

/// The compiled-model cache folder (CACHE_DIR): $FRAMEOCR_OPENVINO_CACHE when set ("", 0, off or no:
/// none), else $XDG_CACHE_HOME/frameocr/openvino, else $HOME/.cache/frameocr/openvino; made if
/// missing; "" when it cannot be made or written (every start then compiles). Found once per process
/// and kept.
std::string default_cache_dir();

/// How a network is compiled (OpenVINO's properties).
struct Options {
    std::string device = "CPU";
    std::string precision = "f32";                // "f32" or "bf16" (INFERENCE_PRECISION_HINT)
    int threads = 0;                              // INFERENCE_NUM_THREADS; 0: OpenVINO's choice
    int streams = 1;                              // NUM_STREAMS: the infer requests that may run at once
    std::string cache_dir = default_cache_dir();  // CACHE_DIR; "" for none
};

/// What a network does, which sets how it is compiled (options_for).
enum class Role { detector, recognizer, classifier };

/// The process's settings for the networks made from now on (focr_openvino_configure): workers
/// (1…256), threads (0…1024), precision (a focr_precision). Thread-safe.
focr_openvino_config configuration();
void configure(const focr_openvino_config &config);

/// The CPU's OPTIMIZATION_CAPABILITIES as OpenVINO lists them ("FP32 INT8 BIN EXPORT_IMPORT", with
/// BF16 where the CPU computes in it: AVX-512 BF16 or AMX); "" when the runtime is missing. Read
/// once per process.
const std::string &cpu_capabilities();

/// Whether the CPU computes in bf16 (BF16 in cpu_capabilities()).
bool cpu_has_bf16();

/// The precision a network of `role` runs in under `precision` (a focr_precision) on a CPU with or
/// without bf16: f32 asked, f32; bf16 asked, bf16 where the CPU has it, else f32; auto, the
/// detector in bf16 where the CPU has it (its map barely moves: mask IoU .96–.995), the recognizer
/// and the classifier in f32 (bf16 changed 8 of 113 PP-OCRv4 crops' text). "f32" or "bf16".
const char *precision_for(Role role, int32_t precision, bool has_bf16);

/// The options a network of `role` is compiled with on `device` under configuration(): its
/// precision (precision_for), INFERENCE_NUM_THREADS the configured threads, NUM_STREAMS the
/// configured workers for the recognizer and the classifier, 1 for the detector (each stream holds
/// its own working memory: at 1 MP a second one cost 156 MB for 14 % more detections a second;
/// docs/openvino.md, "Threads").
Options options_for(Role role, const std::string &device);

/// A model compiled for one set of options (runtime.cpp).
struct Compiled;

/// One infer request on a model compiled for a device. The compiled model is shared by every
/// Network of the process made from the same file with the same options (compiled once: weights
/// and kernels held once). Not thread-safe (one per thread, as the handles that hold one are).
class Network {
  public:
    /// Reads and compiles the model file (ONNX or OpenVINO IR), or shares the compiled model the
    /// process already holds, and makes an infer request on it. Throws Failure:
    /// FOCR_E_RUNTIME_MISSING (runtime()), FOCR_E_IO (no such file), FOCR_E_INFERENCE (OpenVINO
    /// refused it; its message).
    Network(const std::string &model_path, const Options &options);
    ~Network();
    Network(const Network &) = delete;
    Network &operator=(const Network &) = delete;

    /// Runs the network on `input` (f32, `shape`, read in place: no copy; the tensor over it made
    /// again only when the buffer or the shape changed since the last run) and returns its first
    /// output, f32, valid until the next run; its shape into `output_shape`. Throws Failure
    /// (FOCR_E_INFERENCE) when OpenVINO fails, with its message.
    const float *run(float *input, const std::vector<int64_t> &shape, std::vector<int64_t> &output_shape);

    /// The same for a blob in a cv::Mat (f32, continuous, dims ≥ 1): the output as a cv::Mat header
    /// over the request's data (dims and sizes as OpenVINO gives them), valid until the next run.
    cv::Mat run(cv::Mat &blob);

    /// Milliseconds this network took to make (the compile, when it was not shared, and the infer
    /// request).
    double compile_ms() const { return compile_ms_; }

  private:
    /// A tensor over `input` at `shape` made the request's input (last_input_, last_shape_).
    void set_input(float *input, const std::vector<int64_t> &shape);
    /// The request's first output after a run (run()).
    const float *output(std::vector<int64_t> &output_shape);

    /// Notes `shape` as run, most recent first, as the plug-in's runtime cache keeps the kernels
    /// compiled per shape (least recently used out beyond kRuntimeCacheCapacity); true when the
    /// shape is new and one fell out: the plug-in freed that shape's kernels and buffers.
    bool remember(const std::vector<int64_t> &shape);

    const Api *api_;
    float *last_input_ = nullptr;  // the buffer the request's input tensor wraps, at last_shape_
    std::vector<int64_t> last_shape_;
    std::vector<std::vector<int64_t>> shapes_;  // remember()'s: the runtime cache's shapes, mirrored
    std::shared_ptr<Compiled> compiled_;
    ov_infer_request_t *request_ = nullptr;
    double compile_ms_ = 0;
};

/// "1×T×C" for a message.
std::string shape_text(const std::vector<int64_t> &shape);

}  // namespace focr::ov
