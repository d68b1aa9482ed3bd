/*
 * focr_dnn.h — where the media library's networks run (the text detector, focr_detect.h; the CTC
 * line recognizer, focr_recognize.h), and why. The networks run on OpenVINO (focr_openvino.h): on
 * its CPU plug-in, or on its GPU plug-in (Intel GPUs, on OpenCL; named FOCR_DNN_TARGET_OPENCL for
 * that reason) where OpenVINO lists a GPU, and `auto` takes the GPU only after a parity probe
 * against the CPU. The decision is made once, in focr_text_detector_create /
 * focr_text_recognizer_create, and read back with focr_text_detector_target /
 * focr_text_recognizer_target. Implemented in libFrameOCRMedia (Sources/CFrameOCRMedia/dnn/
 * target.cpp), like the calls that take it.
 *
 * `make openvino` installs the CPU plug-in only, so on a machine set up by the Makefile OpenVINO
 * lists the CPU alone: `opencl` and `auto` run on the CPU, and the decision says why. The field
 * names that mention OpenCL (have_opencl, use_opencl, runs_on_opencl, opencl_ms) are about that GPU.
 *
 * The parity probe (`auto` only, and only when OpenVINO lists a GPU): the network is compiled for
 * the CPU and for the GPU, and both are run on one fixed input — the probe line, "Probe 0123 AB"
 * drawn with cv::putText (FONT_HERSHEY_SIMPLEX, scale 1, thickness 2, LINE_8: no anti-aliasing, so
 * the same pixels on every machine with OpenCV 4.6) in ink 20 on paper 235 (BGR, all three
 * channels alike), left edge at x = 8, its baseline 11 px below the image's middle row: 320×48 for
 * the recognizer, 320×96 for the detector, each normalized as its model is for reading. The
 * recognizer runs it at widths 320, 640 and 320 in turn on the same network (padded on the right),
 * stopping at the first that diverges. The outputs are compared value by value:
 * - `max_abs_difference`: the largest |CPU − GPU| over the values both give as finite numbers;
 * - `non_finite`: the GPU output's NaNs and infinities (the CPU's are all finite);
 * - `mismatches`: the recognizer's time steps whose most probable class differs, where the CPU's
 *   choice is more probable than the GPU's by more than the tolerance (a near tie is no mismatch);
 *   the detector's map pixels on different sides of 0.3 (PP-OCR's binary threshold), where the
 *   CPU's value is more than the tolerance from it;
 * and the outputs diverge when any value is not finite, the difference exceeds the tolerance
 * (FOCR_DNN_PROBE_TOLERANCE: both outputs are probabilities 0…1), any mismatch is counted, or the
 * shapes differ; a GPU that fails to compile or run the network diverges too.
 *
 * Cost: `cpu` queries nothing. `opencl` and `auto` list OpenVINO's devices (its runtime is already
 * loaded by then). The probe, where it runs, compiles the model a second time and runs both
 * networks. Every figure is in the decision.
 */
#ifndef FOCR_DNN_H
#define FOCR_DNN_H

#include "focr_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Where a network runs: the OpenVINO device it is compiled for. */
typedef enum focr_dnn_target {
    FOCR_DNN_TARGET_CPU = 0,    /* OpenVINO's "CPU" */
    FOCR_DNN_TARGET_OPENCL = 1, /* OpenVINO's "GPU" (its plug-in runs on OpenCL), as asked, where it
                                   lists one; else the CPU (focr_dnn_decision.runs_on_opencl says) */
    FOCR_DNN_TARGET_AUTO = 2    /* the GPU when OpenVINO lists one and the parity probe finds the
                                   same outputs as the CPU's; else the CPU */
} focr_dnn_target;

/** The kind of device besides the CPU that OpenVINO lists (GPU when it lists "GPU"). */
typedef enum focr_dnn_device_type {
    FOCR_DNN_DEVICE_NONE = 0, /* not queried (target CPU), or OpenVINO lists no GPU */
    FOCR_DNN_DEVICE_CPU = 1,
    FOCR_DNN_DEVICE_GPU = 2,
    FOCR_DNN_DEVICE_ACCELERATOR = 3,
    FOCR_DNN_DEVICE_OTHER = 4
} focr_dnn_device_type;

/** The largest |CPU − GPU| of the probe's outputs (probabilities 0…1) that counts as the same. */
#define FOCR_DNN_PROBE_TOLERANCE 1e-3f

/** What create decided, with what it found. Strings are owned by the handle, valid until it is destroyed. */
typedef struct focr_dnn_decision {
    int32_t requested;        /* focr_dnn_target, as given to create */
    int32_t chosen;           /* FOCR_DNN_TARGET_CPU or FOCR_DNN_TARGET_OPENCL: the device the handle's
                                 network is compiled for (CPU, GPU) */
    int32_t runs_on_opencl;   /* 1 when the network runs on OpenVINO's GPU; else 0 (the CPU) */
    int32_t queried;          /* 1 when OpenVINO's devices were listed (opencl, auto); the four
                                 fields below are 0 when they were not */
    int32_t have_opencl;      /* OpenVINO lists a GPU */
    int32_t use_opencl;       /* the same (kept for the layout) */
    int32_t device_type;      /* FOCR_DNN_DEVICE_GPU when OpenVINO lists a GPU, else NONE */
    int32_t allow_all_devices; /* always 0 (an OpenCV setting, retired with its dnn module) */
    int32_t probed;           /* 1 when the parity probe ran (auto); the probe fields below are 0 when not */
    int32_t diverged;         /* 1 when the probe's outputs diverged (or the GPU run failed) */
    float max_abs_difference; /* the probe's largest |CPU − GPU| over finite values */
    float tolerance;          /* FOCR_DNN_PROBE_TOLERANCE when probed */
    int32_t non_finite;       /* the GPU output's NaN and infinite values */
    int32_t mismatches;       /* steps (recognizer) or map pixels (detector) that disagree (above) */
    int32_t compared;         /* steps (recognizer) or map pixels (detector) compared */
    double cpu_ms;            /* the probe's CPU run, milliseconds */
    double opencl_ms;         /* the probe's GPU run, milliseconds (with the GPU's compile of the network) */
    double decision_ms;       /* the whole decision: the listing of OpenVINO's devices and the probe */
    const char *device;       /* the device's name as OpenVINO lists it ("GPU"), "" when none or not queried */
    const char *reason;       /* one line saying why `chosen` */
} focr_dnn_decision;

#ifdef __cplusplus
}
#endif

#endif /* FOCR_DNN_H */
