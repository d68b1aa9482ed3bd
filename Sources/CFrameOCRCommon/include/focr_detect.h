/*
 * focr_detect.h — a text detector for cluttered frames (scene text): the DB model (Liao et al.,
 * "Real-time Scene Text Detection with Differentiable Binarization", AAAI 2020) run on OpenVINO
 * (focr_openvino.h), with its post-processing done here. The detector's code is in
 * libFrameOCRMedia.so (Sources/CFrameOCRMedia/detection/detector.cpp), which the shim's loader
 * (Sources/CFrameOCR/loader/media_loader.cpp) finds in the process or opens with dlopen on the first
 * focr_text_detector_create, and OpenVINO with it; when the library is neither linked in nor found,
 * create and detect fail with FOCR_E_UNAVAILABLE and destroy does nothing; when OpenVINO is not
 * installed, create fails with FOCR_E_RUNTIME_MISSING. Replacing what lies outside a region
 * (focr_replicate_outside) is a plain image operation: focr.h, image/borders.cpp.
 *
 * The model is an ONNX file given by path: FrameOCR's Makefile installs PP-OCRv4's detector
 * (PaddleOCR, Apache-2.0; the rapidocr-onnxruntime 1.4.4 wheel's file, unchanged) as
 * /usr/local/share/frameocr/ppocrv4-det.onnx (`make text-detector`). Its input is a BGR image
 * normalized per channel ((x / 255 − mean) / std, ImageNet's mean and std), H and W multiples of 32
 * and dynamic: one compiled network serves every size; its output a 1×1×H×W map of the probability
 * that a pixel is text.
 *
 * Ownership and errors follow focr_common.h. A handle is NOT thread-safe: use one per thread (FrameOCR's
 * TextDetector keeps a pool). focr_text_detector_destroy(NULL) is a no-op.
 */
#ifndef FOCR_DETECT_H
#define FOCR_DETECT_H

#include "focr_common.h"
#include "focr_dnn.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct focr_text_detector focr_text_detector;

/** How focr_text_detector_detect runs the model and reads its map. */
typedef struct focr_detector_params {
    int32_t long_side;        /* the input's longer side, pixels (32…1920; rounded to a multiple of 32, the
                                 shorter side scaled alike and rounded): the image is resized to it */
    float binary_threshold;   /* a map pixel is text at or above this probability (0…1; PP-OCR: 0.3) */
    float box_threshold;      /* a region is kept when its mean probability is at least this (0…1; 0.5) */
    float unclip_ratio;       /* the shrunk text region is grown by area·ratio/perimeter on every side
                                 (DB's unclip; 0…8; PP-OCR: 1.6) */
    int32_t max_candidates;   /* regions examined at most, largest contours first (1…10000; 1000) */
    float min_size;           /* a region narrower than this, map pixels, is dropped (1…1000; 3) */
} focr_detector_params;

/** One detected text region: a turned rectangle in the source image's pixels. */
typedef struct focr_detected_text {
    float center_x, center_y; /* pixels of the source (continuous, top-left origin; mapped from the
                                 map as PP-OCR maps it, a map index scaled: up to half a map pixel
                                 up and left of the pixel-centre mapping) */
    float width, height;      /* along the text and across it, pixels: width ≥ height, except for a
                                 region under 1.5 times as wide as tall turned more than 45°, which
                                 is taken as running within 45° of the horizontal (a short word) */
    float angle_degrees;      /* the text's direction, degrees clockwise as displayed, in (−90, 90] */
    float score;              /* mean text probability inside the region, 0…1 */
} focr_detected_text;

/**
 * Loads the ONNX model at `model_path` into a new detector whose network runs on `device`
 * (focr_dnn_device: CPU, GPU, NPU or auto, decided here, once per model file and device in a
 * process, with the parity probe of focr_dnn.h on the probe line in a 320×96 image;
 * focr_text_detector_device tells what was decided). FOCR_E_IO when the file cannot be read
 * or is empty; FOCR_E_UNSUPPORTED when OpenVINO cannot read or compile it (the message is
 * OpenVINO's, with the path); FOCR_E_RUNTIME_MISSING when OpenVINO is not installed;
 * FOCR_E_INVALID_ARGUMENT for a NULL path or output or an unknown device. A device that fails the
 * probe is no error: the network runs on the CPU, and the decision says why.
 */
focr_status focr_text_detector_create(const char *model_path, int32_t device, focr_text_detector **out);

/** Frees the detector and its network. NULL is a no-op. */
void focr_text_detector_destroy(focr_text_detector *detector);

/**
 * Where the detector's network runs and why, as create decided (focr_dnn.h); the strings stay
 * valid until the detector is destroyed. FOCR_E_INVALID_ARGUMENT for a NULL argument.
 */
focr_status focr_text_detector_device(const focr_text_detector *detector, focr_dnn_decision *decision);

/**
 * The text regions of `src` (GRAY8, BGR8, RGB8, BGRA8 or RGBA8; any bytes_per_row; at least
 * 8×8): `src` resized to the model's input (cv::resize INTER_LINEAR; gray replicated to three
 * channels), normalized into a 1×3×H×W float blob, run (OpenVINO, one infer request), then DB's
 * post-processing: the map thresholded at `binary_threshold` and dilated by a 2×2 square, the outer
 * and inner contours (cv::findContours), each one's smallest turned rectangle (cv::minAreaRect)
 * scored by the mean probability inside it (cv::fillPoly mask), kept when the score reaches
 * `box_threshold`, grown by the unclip distance, and mapped back to `src`'s pixels (the four
 * corners scaled, cv::minAreaRect again).
 *
 * Up to `capacity` regions are written to `out` (highest score first); `*count` is how many were
 * found, which may exceed `capacity`. Errors: FOCR_E_INVALID_ARGUMENT (descriptor, parameters,
 * under 8×8), FOCR_E_UNSUPPORTED (a planar format), FOCR_E_UNAVAILABLE (libFrameOCRMedia.so
 * cannot be loaded), FOCR_E_INFERENCE (OpenVINO failed, or the output is not a 1×1×H×W map),
 * FOCR_E_OPENCV (an image operation failed).
 */
focr_status focr_text_detector_detect(focr_text_detector *detector, const focr_image *src,
                                      const focr_detector_params *params, focr_detected_text *out, int32_t capacity,
                                      int32_t *count);

#ifdef __cplusplus
}
#endif

#endif /* FOCR_DETECT_H */
