/*
 * focr_dnn.h — where the media library's networks run (the text detector, focr_detect.h; the CTC
 * line recognizer, focr_recognize.h), and why: OpenCV's dnn module on the CPU or on OpenCL, and
 * `auto`, which takes OpenCL only after a parity probe against the CPU. The decision is made once,
 * in focr_text_detector_create / focr_text_recognizer_create, and read back with
 * focr_text_detector_target / focr_text_recognizer_target. Implemented in libFrameOCRMedia
 * (Sources/CFrameOCRMedia/dnn/target.cpp), like the calls that take it.
 *
 * What OpenCV 4.6 does with DNN_TARGET_OPENCL (modules/core/src/ocl.cpp, modules/dnn/src/net_impl.cpp):
 * - cv::ocl::haveOpenCL(): an OpenCL runtime with a platform (loading it loads every installed
 *   driver: PoCL's costs about 25 ms and 63 MB resident on the 2-core Debian 12 machine);
 * - cv::ocl::useOpenCL(): OpenCV has a device. Without OPENCV_OPENCL_DEVICE it takes a GPU only,
 *   never a CPU device such as PoCL's (OPENCV_OPENCL_DEVICE=:CPU: names one);
 * - the dnn module then runs a network on that device only when it is a GPU
 *   (cv::ocl::Device::type() == TYPE_GPU) or OPENCV_DNN_OPENCL_ALLOW_ALL_DEVICES is true; otherwise
 *   it switches the network to the CPU, with a warning on stderr ("OpenCL target is not supported
 *   with current OpenCL device"). With no device and all devices allowed, the network keeps the
 *   OpenCL target and runs every layer on the CPU (measured: outputs within 4e-6 of the CPU
 *   target's, its layers set up for OpenCL).
 * focr_dnn_decision says which of these held, and whether OpenCV runs the network on OpenCL
 * (`runs_on_opencl`), by the same checks.
 *
 * The parity probe (`auto` only, and only when OpenCV would run the network on OpenCL): the network
 * is made twice, for the CPU and for OpenCL, and both are run on one fixed input — the probe line,
 * "Probe 0123 AB" drawn with cv::putText (FONT_HERSHEY_SIMPLEX, scale 1, thickness 2, LINE_8: no
 * anti-aliasing, so the same pixels on every machine with OpenCV 4.6) in ink 20 on paper 235 (BGR,
 * all three channels alike), left edge at x = 8, its baseline 11 px below the image's middle row:
 * 320×48 for the recognizer, 320×96 for the detector, each normalized as its model is for reading.
 * The detector runs it once (it makes a network per input size). The recognizer, which runs lines
 * of every width on one network, runs it at widths 320, 640 and 320 in turn on the same network
 * (padded on the right), stopping at the first that diverges. The outputs are compared value by
 * value:
 * - `max_abs_difference`: the largest |CPU − OpenCL| over the values both give as finite numbers;
 * - `non_finite`: the OpenCL output's NaNs and infinities (the CPU's are all finite);
 * - `mismatches`: the recognizer's time steps whose most probable class differs, where the CPU's
 *   choice is more probable than OpenCL's by more than the tolerance (a near tie is no mismatch);
 *   the detector's map pixels on different sides of 0.3 (PP-OCR's binary threshold), where the
 *   CPU's value is more than the tolerance from it;
 * and the outputs diverge when any value is not finite, the difference exceeds the tolerance
 * (FOCR_DNN_PROBE_TOLERANCE: both outputs are probabilities 0…1), any mismatch is counted, or the
 * shapes differ. Measured on PoCL's CPU device (OPENCV_OPENCL_DEVICE=:CPU:,
 * OPENCV_DNN_OPENCL_ALLOW_ALL_DEVICES=1): a fresh recognizer network's outputs differ from the CPU's
 * by at most 7e-7 at width 320 and 2.3e-5 at 1600, never in a step's class; but one network run at
 * a second width gives NaN for every value (and again back at the first), so auto stays on the CPU
 * there. The detector's differ by 2.7e-5, no pixel across 0.3: auto takes OpenCL for it.
 *
 * Cost: `cpu` queries nothing. `opencl` and `auto` query OpenCV's OpenCL state (the runtime is
 * loaded once per process: 37 ms for the first engine here). The probe, where it runs, reads the
 * model a second time and runs both networks; OpenCL's runs build OpenCV's kernels for each input
 * shape (PoCL: a one-line read with the recognizer's probe took 9–16 s, its kernel cache warm or
 * empty, instead of 1.4 s). Every figure is in the decision.
 */
#ifndef FOCR_DNN_H
#define FOCR_DNN_H

#include "focr_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Where a network runs (cv::dnn::Net::setPreferableTarget, backend DNN_BACKEND_OPENCV). */
typedef enum focr_dnn_target {
    FOCR_DNN_TARGET_CPU = 0,    /* cv::dnn::DNN_TARGET_CPU */
    FOCR_DNN_TARGET_OPENCL = 1, /* cv::dnn::DNN_TARGET_OPENCL, as asked: OpenCV may run it on the CPU
                                   (focr_dnn_decision.runs_on_opencl says whether it does) */
    FOCR_DNN_TARGET_AUTO = 2    /* OpenCL when OpenCV's dnn runs on its OpenCL device and the parity
                                   probe finds the same outputs as the CPU's; else the CPU */
} focr_dnn_target;

/** OpenCV's default OpenCL device's kind (CL_DEVICE_TYPE). */
typedef enum focr_dnn_device_type {
    FOCR_DNN_DEVICE_NONE = 0, /* not queried (target CPU), or OpenCV has no device */
    FOCR_DNN_DEVICE_CPU = 1,
    FOCR_DNN_DEVICE_GPU = 2,
    FOCR_DNN_DEVICE_ACCELERATOR = 3,
    FOCR_DNN_DEVICE_OTHER = 4
} focr_dnn_device_type;

/** The largest |CPU − OpenCL| of the probe's outputs (probabilities 0…1) that counts as the same. */
#define FOCR_DNN_PROBE_TOLERANCE 1e-3f

/** What create decided, with what it found. Strings are owned by the handle, valid until it is destroyed. */
typedef struct focr_dnn_decision {
    int32_t requested;        /* focr_dnn_target, as given to create */
    int32_t chosen;           /* FOCR_DNN_TARGET_CPU or FOCR_DNN_TARGET_OPENCL: the target the handle's
                                 networks are set to */
    int32_t runs_on_opencl;   /* 1 when OpenCV runs the networks on its OpenCL device: chosen is OpenCL,
                                 useOpenCL, and the device a GPU or all devices allowed; else 0 (the CPU) */
    int32_t queried;          /* 1 when OpenCV's OpenCL state was queried (opencl, auto); the four
                                 fields below are 0 when it was not */
    int32_t have_opencl;      /* cv::ocl::haveOpenCL() */
    int32_t use_opencl;       /* cv::ocl::useOpenCL(): OpenCV has a device */
    int32_t device_type;      /* focr_dnn_device_type of cv::ocl::Device::getDefault() */
    int32_t allow_all_devices; /* OPENCV_DNN_OPENCL_ALLOW_ALL_DEVICES is true (1, true, on, yes, enable) */
    int32_t probed;           /* 1 when the parity probe ran (auto); the probe fields below are 0 when not */
    int32_t diverged;         /* 1 when the probe's outputs diverged (or the OpenCL run failed) */
    float max_abs_difference; /* the probe's largest |CPU − OpenCL| over finite values */
    float tolerance;          /* FOCR_DNN_PROBE_TOLERANCE when probed */
    int32_t non_finite;       /* the OpenCL output's NaN and infinite values */
    int32_t mismatches;       /* steps (recognizer) or map pixels (detector) that disagree (above) */
    int32_t compared;         /* steps (recognizer) or map pixels (detector) compared */
    double cpu_ms;            /* the probe's CPU run, milliseconds */
    double opencl_ms;         /* the probe's OpenCL run, milliseconds (with the first build of OpenCV's kernels) */
    double decision_ms;       /* the whole decision: the query of OpenCV's OpenCL state and the probe */
    const char *device;       /* the device's name (cv::ocl::Device::name), "" when none or not queried */
    const char *reason;       /* one line saying why `chosen` (and, for opencl, where OpenCV runs it) */
} focr_dnn_decision;

#ifdef __cplusplus
}
#endif

#endif /* FOCR_DNN_H */
