/*
 * focr_dnn.h — on which OpenVINO device the media library's networks run (the text detector,
 * focr_detect.h; the CTC line recognizer, focr_recognize.h), and why. The networks run on OpenVINO
 * (focr_openvino.h): on its CPU plug-in, or on a GPU (its GPU plug-in, Intel GPUs) or an NPU (its NPU
 * plug-in, Intel NPUs) where OpenVINO lists one and the parity probe finds it gives the CPU's
 * outputs. The decision is made in focr_text_detector_create / focr_text_recognizer_create, once per
 * model file and device asked for in a process (later handles of the same model take it without a
 * probe), and read back with focr_text_detector_device / focr_text_recognizer_device. Implemented in
 * libFrameOCRMedia (Sources/CFrameOCRMedia/dnn/target.cpp), like the calls that take it.
 *
 * `make openvino` installs the CPU plug-in only, so on a machine set up by the Makefile OpenVINO
 * lists the CPU alone: `gpu`, `npu` and `auto` run on the CPU, and the decision says why. A device
 * other than the CPU asked for (gpu, npu) or found (auto) that is not used — not listed, failing to
 * compile or run the network, or diverging on the probe — is a fallback: `fell_back` is 1 (FrameOCR
 * counts it and logs its reason: NeuralRuntime.deviceFallbacks).
 *
 * The parity probe (whenever a device other than the CPU is listed and asked for): the network is
 * compiled for the CPU and for the device, and both are run on one fixed input — the probe line,
 * "Probe 0123 AB" drawn with cv::putText (FONT_HERSHEY_SIMPLEX, scale 1, thickness 2, LINE_8: no
 * anti-aliasing, so the same pixels on every machine with OpenCV 4.6) in ink 20 on paper 235 (BGR,
 * all three channels alike), left edge at x = 8, its baseline 11 px below the image's middle row:
 * 320×48 for the recognizer, 320×96 for the detector, each normalized as its model is for reading.
 * The recognizer runs it at widths 320, 640 and 320 in turn on the same network (padded on the
 * right), stopping at the first that diverges. The outputs are compared value by value:
 * - `max_abs_difference`: the largest |CPU − device| over the values both give as finite numbers;
 * - `non_finite`: the device output's NaNs and infinities (the CPU's are all finite);
 * - `mismatches`: the recognizer's time steps whose most probable class differs, where the CPU's
 *   choice is more probable than the device's by more than the tolerance (a near tie is no
 *   mismatch); the detector's map pixels on different sides of 0.3 (PP-OCR's binary threshold),
 *   where the CPU's value is more than the tolerance from it;
 * and the outputs diverge when any value is not finite, the difference exceeds the tolerance
 * (FOCR_DNN_PROBE_TOLERANCE: both outputs are probabilities 0…1), any mismatch is counted, or the
 * shapes differ; a device that fails to compile or run the network diverges too.
 *
 * Cost: `cpu` queries nothing. `gpu`, `npu` and `auto` list OpenVINO's devices (its runtime is
 * already loaded by then). The probe, where it runs, compiles the model a second time and runs both
 * networks. Every figure is in the decision.
 */
#ifndef FOCR_DNN_H
#define FOCR_DNN_H

#include "focr_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The device a network runs on: asked for at create, and chosen. */
typedef enum focr_dnn_device {
    FOCR_DNN_DEVICE_CPU = 0,  /* OpenVINO's "CPU" */
    FOCR_DNN_DEVICE_GPU = 1,  /* OpenVINO's "GPU" when it lists one and the probe matches; else the CPU */
    FOCR_DNN_DEVICE_AUTO = 2, /* the first of the GPU and the NPU that OpenVINO lists and the probe
                                 finds giving the CPU's outputs; else the CPU */
    FOCR_DNN_DEVICE_NPU = 3   /* OpenVINO's "NPU" when it lists one and the probe matches; else the CPU */
} focr_dnn_device;

/** The largest |CPU − device| of the probe's outputs (probabilities 0…1) that counts as the same. */
#define FOCR_DNN_PROBE_TOLERANCE 1e-3f

/** What create decided, with what it found. Strings are owned by the handle, valid until it is destroyed. */
typedef struct focr_dnn_decision {
    int32_t requested;        /* focr_dnn_device, as given to create */
    int32_t chosen;           /* FOCR_DNN_DEVICE_CPU, _GPU or _NPU: the device the network is compiled for */
    int32_t fell_back;        /* 1 when a device other than the CPU was asked for (gpu, npu) or found
                                 (auto) and the network runs on the CPU instead */
    int32_t queried;          /* 1 when OpenVINO's devices were listed (gpu, npu, auto) */
    int32_t probed;           /* 1 when the parity probe ran; the probe fields below are 0 when not */
    int32_t diverged;         /* 1 when the probe's outputs diverged (or the device failed the network) */
    float max_abs_difference; /* the probe's largest |CPU − device| over finite values */
    float tolerance;          /* FOCR_DNN_PROBE_TOLERANCE when probed */
    int32_t non_finite;       /* the device output's NaN and infinite values */
    int32_t mismatches;       /* steps (recognizer) or map pixels (detector) that disagree (above) */
    int32_t compared;         /* steps (recognizer) or map pixels (detector) compared */
    double cpu_ms;            /* the probe's CPU run, milliseconds */
    double device_ms;         /* the probe's run on the device, milliseconds (with its compile of the network) */
    double decision_ms;       /* the whole decision: the listing of OpenVINO's devices and the probe */
    const char *devices;      /* OpenVINO's devices as listed ("CPU", "CPU, GPU.0, NPU"), "" when not queried */
    const char *device;       /* the device probed or chosen besides the CPU as OpenVINO names it ("GPU.0",
                                 "NPU"), "" when none */
    const char *reason;       /* one line saying why `chosen` */
} focr_dnn_decision;

#ifdef __cplusplus
}
#endif

#endif /* FOCR_DNN_H */
