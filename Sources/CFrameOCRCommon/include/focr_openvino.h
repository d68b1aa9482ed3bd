/*
 * focr_openvino.h — OpenVINO, the runtime of the media library's neural networks (the text detector,
 * focr_detect.h; the CTC line recognizer and the text-angle classifier, focr_recognize.h). Its C API
 * (libopenvino_c) comes from the pinned PyPI wheel `openvino` (Apache-2.0): `make openvino` downloads
 * it, checks its SHA-256 and unpacks only the files the CPU needs (the C and core libraries, the CPU
 * plug-in, the ONNX and IR front ends, TBB) into the build tree. The media library opens it with
 * dlopen on the first network made, never links it: the package builds, and reads with Tesseract,
 * where it is absent; making a network then fails with FOCR_E_RUNTIME_MISSING, whose message names
 * the file, the folders searched and the make target. Implemented in libFrameOCRMedia
 * (Sources/CFrameOCRMedia/openvino/runtime.cpp).
 *
 * Where FOCR_OPENVINO_C_LIBRARY is looked for:
 *   - $FRAMEOCR_OPENVINO_DIR, when set, and only there (a folder the user names, e.g. the lib/ of
 *     `make openvino OPENVINO_DIR=/opt/frameocr-openvino`): another release found elsewhere is never
 *     taken in its place;
 *   - else, in order (the first folder that has the file wins): the build tree of the FrameOCR
 *     checkout the library was compiled from, <package>/.build/openvino/lib (`make openvino`); then
 *     FOCR_OPENVINO_SYSTEM_FOLDER, the lib/ of the system prefix
 *     (`make openvino OPENVINO_DIR=/usr/local/lib/frameocr/openvino`; docs/openvino.md).
 * The runtime is loaded once per process and never unloaded (OpenVINO's thread pool outlives it).
 */
#ifndef FOCR_OPENVINO_H
#define FOCR_OPENVINO_H

#include "focr_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The OpenVINO release FrameOCR is built and tested against (the Makefile's OPENVINO_VERSION). */
#define FOCR_OPENVINO_VERSION "2026.4.1"
/** The library opened: the C API of that release (its soname). */
#define FOCR_OPENVINO_C_LIBRARY "libopenvino_c.so.2641"
/** The system folder searched last. */
#define FOCR_OPENVINO_SYSTEM_FOLDER "/usr/local/lib/frameocr/openvino/lib"

/** What focr_openvino_runtime found. Strings are static (valid for the process's life). */
typedef struct focr_openvino_info {
    int32_t loaded;        /* 1 when the runtime is loaded (this call loads it, once per process) */
    const char *library;   /* the path it was loaded from; "" when not loaded */
    const char *version;   /* OpenVINO's build number ("2026.4.1-22982-…"); "" when not loaded */
    const char *folders;   /* the folders searched, in order, separated by ':' */
    const char *capabilities; /* the CPU's OPTIMIZATION_CAPABILITIES ("FP32 INT8 BIN EXPORT_IMPORT", BF16
                                 among them where the CPU computes in it); "" when not loaded */
    const char *devices;   /* the devices OpenVINO lists, as listed when first asked, separated by ' '
                              ("CPU", "CPU GPU.0 NPU"); "" when not loaded */
} focr_openvino_info;

/** The precision networks run in on the CPU (INFERENCE_PRECISION_HINT). */
typedef enum focr_precision {
    FOCR_PRECISION_AUTO = 0, /* the detector in bf16 where the CPU has it, the recognizer and classifier in f32 */
    FOCR_PRECISION_F32 = 1,  /* every network in f32 */
    FOCR_PRECISION_BF16 = 2  /* every network in bf16 where the CPU has it (else f32: OpenVINO computes in f32) */
} focr_precision;

/**
 * How the networks made from now on are compiled, for the whole process (networks made before keep
 * theirs). Defaults: 1 worker, 0 threads, FOCR_PRECISION_AUTO.
 *   workers   1…256: the networks that may run at once (the caller's worker threads): NUM_STREAMS of
 *             the recognizer's and the classifier's networks. The detector's stays 1: each stream
 *             holds its own working memory (156 MB more at 1 MP for 14 % more detections a second).
 *   threads   0…1024: INFERENCE_NUM_THREADS, the cores OpenVINO may use (the caller's core budget);
 *             0: OpenVINO's choice, every core.
 *   precision a focr_precision.
 */
typedef struct focr_openvino_config {
    int32_t workers;
    int32_t threads;
    int32_t precision;
} focr_openvino_config;

/**
 * Sets the configuration (above). FOCR_OK; FOCR_E_INVALID_ARGUMENT for NULL or a value out of range;
 * FOCR_E_UNAVAILABLE when libFrameOCRMedia cannot be loaded. Does not load OpenVINO.
 */
focr_status focr_openvino_configure(const focr_openvino_config *config);

/** The configuration in force. FOCR_E_INVALID_ARGUMENT for NULL; FOCR_E_UNAVAILABLE as above. */
focr_status focr_openvino_configuration(focr_openvino_config *config);

/**
 * Loads the runtime if it is not yet loaded and says where from. FOCR_OK with info->loaded 1; else
 * FOCR_E_RUNTIME_MISSING (info->loaded 0, the other fields filled) with the message networks get;
 * FOCR_E_INVALID_ARGUMENT for NULL; FOCR_E_UNAVAILABLE when libFrameOCRMedia cannot be loaded.
 */
focr_status focr_openvino_runtime(focr_openvino_info *info);

#ifdef __cplusplus
}
#endif

#endif /* FOCR_OPENVINO_H */
