/*
 * focr_recognize.h — a line recognizer for scene text and plates: a CRNN-style network with a CTC
 * output (Graves et al., "Connectionist Temporal Classification", ICML 2006) run on OpenVINO
 * (focr_openvino.h), and its greedy CTC decoding written here. The recognizer's code is in
 * libFrameOCRMedia.so (Sources/CFrameOCRMedia/recognition/recognizer.cpp), which the shim's loader
 * (Sources/CFrameOCR/loader/media_loader.cpp) finds in the process or opens with dlopen on the first
 * focr_text_recognizer_create, as for the text detector (focr_detect.h); when the library is neither
 * linked in nor found, the status calls fail with FOCR_E_UNAVAILABLE and destroy does nothing.
 *
 * The model is an ONNX file given by path, with its character list (UTF-8, one key per line) beside
 * it: FrameOCR's Makefile installs PP-OCRv4's recognizer (PaddleOCR, Apache-2.0; the rapidocr
 * wheel's ch_PP-OCRv4_rec_infer.onnx, unchanged) as /usr/local/share/frameocr/ppocrv4-rec.onnx
 * and its keys as ppocrv4-rec-keys.txt.
 *
 * The network's contract: input a 1×3×H×W float blob (batch 1; H 48 for PP-OCRv4; W ≥ 8, a multiple
 * of 8 here, dynamic: one compiled network serves every width), BGR, each value (x / 255 − 0.5) / 0.5 as PaddleOCR normalizes; output 1×T×C
 * probabilities (softmaxed), T = W / 8 time steps, C classes: class 0 the CTC blank, classes
 * 1…K the K keys in the file's order, class K + 1 a space " " (PaddleOCR's use_space_char).
 * focr_text_recognizer_create checks C = K + 2 by running the network once.
 *
 * Classes are indexed as the network's output is: 0…key_count − 1 (key_count = C, blank and space
 * included); focr_text_recognizer_key gives each class's text ("" for the blank).
 *
 * Ownership and errors follow focr_common.h. A handle is NOT thread-safe: use one per thread
 * (FrameOCR's TextLineRecognizer keeps a pool). focr_text_recognizer_destroy(NULL) is a no-op. The
 * strings focr_text_recognizer_key gives stay valid until the handle is destroyed.
 */
#ifndef FOCR_RECOGNIZE_H
#define FOCR_RECOGNIZE_H

#include "focr_common.h"
#include "focr_dnn.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct focr_text_recognizer focr_text_recognizer;

/** The most alternates a recognized character carries (focr_recognizer_params.top_k). */
#define FOCR_RECOGNIZER_MAX_ALTERNATES 4

/** How focr_text_recognizer_recognize resizes the crop and decodes the network's output. */
typedef struct focr_recognizer_params {
    int32_t height;           /* the crop is resized to this height, pixels, keeping its aspect (16…256, a
                                 multiple of 8; PP-OCRv4: 48) */
    int32_t min_width;        /* the input is padded on the right (with 0 after normalization) up to this
                                 width, pixels (8…4096; PaddleOCR: 320) */
    int32_t width_step;       /* and further up to a multiple of this many pixels (8…4096, a multiple of
                                 8): W = max(resized, min_width) rounded up to it. Each W is one input
                                 shape: a shape first seen costs OpenVINO a compile of its kernels
                                 on its first run (see focr_text_recognizer_recognize) */
    int32_t max_width;        /* the resized crop is at most this wide, pixels (8…8192; wider crops are
                                 squeezed to it) */
    const uint8_t *allowed;   /* NULL: every class may be output; else key_count bytes, one per class,
                                 nonzero where the class may be output (the blank is always allowed,
                                 whatever allowed[0] says); at least one non-blank class must be allowed */
    int32_t top_k;            /* alternates per character, 0…FOCR_RECOGNIZER_MAX_ALTERNATES */
} focr_recognizer_params;

/** One character of the line, as the greedy CTC decoding read it. */
typedef struct focr_recognized_char {
    int32_t class_index;      /* 1…key_count − 1 (never the blank) */
    float probability;        /* the highest probability of the class over the character's run of time
                                 steps, 0…1 (PaddleOCR takes the run's first step instead) */
    int32_t first_step, last_step; /* the character's run: time steps first_step…last_step (inclusive) */
    int32_t best_step;        /* the step of `probability`: where the alternates are read */
    float x0, x1;             /* the run's extent in src's pixels, 0 ≤ x0 ≤ x1 ≤ src width: step t covers
                                 the input's columns [t·s, (t + 1)·s) (s = W / T, 8), the padding cut
                                 off, scaled by src width / resized width */
    int32_t alternate_count;  /* 0…top_k */
    int32_t alternate_class[FOCR_RECOGNIZER_MAX_ALTERNATES]; /* other allowed non-blank classes at best_step, */
    float alternate_probability[FOCR_RECOGNIZER_MAX_ALTERNATES]; /* most probable first (ties: lower class) */
} focr_recognized_char;

/** The line as a whole. */
typedef struct focr_recognized_line {
    int32_t count;            /* characters found (may exceed the capacity given) */
    float mean_probability;   /* the mean of every character's probability, 0…1; 0 when count is 0 */
    int32_t resized_width;    /* the crop's width after the resize, pixels (≤ max_width) */
    int32_t input_width;      /* W, the blob's width: max(resized, min_width) rounded up to a multiple of
                                 width_step */
    int32_t time_steps;       /* T, the output's time steps */
} focr_recognized_line;

/**
 * Loads the ONNX model at `model_path` and its keys at `keys_path` into a new recognizer whose
 * network runs on `device` (focr_dnn_device: CPU, GPU, NPU or auto, decided here, once per model
 * file and device in a process, with the parity probe of focr_dnn.h on the 320×48 probe line;
 * focr_text_recognizer_device tells what was decided), and runs the network once on a blank
 * 320-wide input to check its output. FOCR_E_IO when a file cannot be read or is empty (or the
 * keys file has no key); FOCR_E_UNSUPPORTED when OpenVINO cannot read or compile the model (its
 * message, with the path), or its output is not 1×T×C with C = the keys + 2 (the message gives
 * both counts); FOCR_E_RUNTIME_MISSING when OpenVINO is not installed; FOCR_E_INVALID_ARGUMENT for a NULL path or output or an unknown device. A
 * device that fails the probe is no error: the network runs on the CPU, and the decision says why.
 */
focr_status focr_text_recognizer_create(const char *model_path, const char *keys_path, int32_t device,
                                        focr_text_recognizer **out);

/** Frees the recognizer and its network. NULL is a no-op. */
void focr_text_recognizer_destroy(focr_text_recognizer *recognizer);

/**
 * Where the recognizer's network runs and why, as create decided (focr_dnn.h); the strings stay
 * valid until the recognizer is destroyed. FOCR_E_INVALID_ARGUMENT for a NULL argument.
 */
focr_status focr_text_recognizer_device(const focr_text_recognizer *recognizer, focr_dnn_decision *decision);

/** The number of classes, C (the keys + 2: the blank and the space). */
focr_status focr_text_recognizer_key_count(const focr_text_recognizer *recognizer, int32_t *count);

/**
 * The text of class `index` (0…key_count − 1), UTF-8, NUL-terminated: "" for the blank (0), " " for
 * the last class, else the keys file's line `index`. Valid until the recognizer is destroyed.
 * FOCR_E_INVALID_ARGUMENT for an index out of range.
 */
focr_status focr_text_recognizer_key(const focr_text_recognizer *recognizer, int32_t index, const char **key);

/**
 * Reads the one upright line of text in `src` (GRAY8, BGR8, RGB8, BGRA8 or RGBA8; any bytes_per_row;
 * at least 1×1): `src` as BGR (gray replicated, alpha dropped; cv::cvtColor), resized to `height`
 * rows and ceil(height · width / src height) columns, at most `max_width` (cv::resize INTER_LINEAR),
 * normalized into the blob, padded with 0 to W, run (OpenVINO, one infer request), and decoded greedily:
 * at each time step the most probable of the blank and the allowed classes; a run of steps of one
 * class is one character; blanks dropped (so a letter twice needs a blank between). Nothing else is
 * dropped: the network may read a space where the text ends, in the padding (PaddleOCR's decoding
 * keeps it; FrameOCR's Swift recognizer drops spaces at the line's ends), and a character read
 * wholly in the padding has x0 = x1 = src width.
 *
 * Up to `capacity` characters are written to `out`, left to right; `line->count` is how many were
 * read, which may exceed `capacity` (`line->mean_probability` is over all of them). Errors:
 * FOCR_E_INVALID_ARGUMENT (descriptor, parameters: the message names the first out of range),
 * FOCR_E_UNSUPPORTED (a planar format), FOCR_E_UNAVAILABLE (libFrameOCRMedia.so cannot be loaded),
 * FOCR_E_INFERENCE (OpenVINO failed, or its output's shape changed; a height other than the
 * model's), FOCR_E_OPENCV (an image operation failed).
 *
 * No allocation per call in steady state beyond OpenVINO's own: the images, the blob and the
 * decoder's scratch live in the handle, and the blob is handed to OpenVINO in place (no copy). One
 * compiled network runs every width; a width first seen costs OpenVINO a compile of its kernels on
 * its first run (12–40 ms on a 2-core x86 machine), which its CPU plug-in keeps in a bounded cache.
 */
focr_status focr_text_recognizer_recognize(focr_text_recognizer *recognizer, const focr_image *src,
                                           const focr_recognizer_params *params, focr_recognized_char *out,
                                           int32_t capacity, focr_recognized_line *line);

/**
 * Reads `count` lines (`srcs[0…count − 1]`, each as focr_text_recognizer_recognize reads `src`)
 * in as few runs of the network as their input widths allow: the lines of one width W are run
 * together, up to 8 at a time (a group of another size in chunks of 8, 4, 2 and 1 lines, so that
 * a width has at most four input shapes), each line padded as it would be alone, so each line
 * reads as it does alone (f32 kernels may differ in the last bits between batch sizes). Line i's
 * characters go to `out + i · capacity` (up to `capacity` each) and its summary to `lines[i]`.
 * Measured with PP-OCRv4's recognizer on OpenVINO (2-core AMD EPYC, f32, 48×320): 6 lines in one
 * run 90 ms against 6 × 23.5 ms alone. Errors as focr_text_recognizer_recognize's (a message
 * names `srcs[i]`), and FOCR_E_INVALID_ARGUMENT for a negative count or capacity; count 0 does
 * nothing. No line is written when an error is returned for one of them before any run.
 */
focr_status focr_text_recognizer_recognize_batch(focr_text_recognizer *recognizer, const focr_image *srcs,
                                                 int32_t count, const focr_recognizer_params *params,
                                                 focr_recognized_char *out, int32_t capacity,
                                                 focr_recognized_line *lines);

/**
 * The text-angle classifier: whether an upright line's crop is the right way up or turned 180°
 * (PP-OCR's direction classifier; FrameOCR's Makefile installs the rapidocr wheel's
 * ch_ppocr_mobile_v2.0_cls_infer.onnx, unchanged, as /usr/local/share/frameocr/ppocr-cls.onnx).
 * Its contract: input 1×3×48×192, normalized as the recognizer's; output 1×2 probabilities
 * (softmaxed): class 0 the text upright, class 1 turned 180°. It runs on OpenVINO's CPU plug-in. Code in
 * recognizer.cpp, loaded as the recognizer is; a handle is NOT thread-safe;
 * focr_text_angle_classifier_destroy(NULL) is a no-op.
 */
typedef struct focr_text_angle_classifier focr_text_angle_classifier;

/** The classifier's input, pixels: 48 rows, 192 columns (PP-OCR's cls_image_shape). */
#define FOCR_ANGLE_CLASSIFIER_HEIGHT 48
#define FOCR_ANGLE_CLASSIFIER_WIDTH 192

/**
 * Compiles the model at `model_path` on OpenVINO and runs it once on a blank input: its output must be
 * 1×2. Errors: FOCR_E_INVALID_ARGUMENT (NULL), FOCR_E_IO (the file cannot be read or is empty),
 * FOCR_E_UNSUPPORTED (OpenVINO cannot read, compile or run it, or its output is not 1×2),
 * FOCR_E_RUNTIME_MISSING (OpenVINO is not installed), FOCR_E_UNAVAILABLE (libFrameOCRMedia.so
 * cannot be loaded).
 */
focr_status focr_text_angle_classifier_create(const char *model_path, focr_text_angle_classifier **out);

void focr_text_angle_classifier_destroy(focr_text_angle_classifier *classifier);

/**
 * The probability, 0…1, that the one line of text in `src` (GRAY8, BGR8, RGB8, BGRA8 or RGBA8; any
 * bytes_per_row; at least 1×1) is turned 180°, into `*upside_down`: `src` as BGR, resized to 48 rows
 * and ceil(48 · width / height) columns, at most 192 (a longer line squeezed to 192, as PP-OCR does),
 * normalized, padded with 0 to 192, run. Errors: FOCR_E_INVALID_ARGUMENT (NULL, descriptor),
 * FOCR_E_UNSUPPORTED (a planar format), FOCR_E_INFERENCE (OpenVINO failed or its output changed).
 * No allocation per call in steady state beyond OpenVINO's own.
 */
focr_status focr_text_angle_classifier_classify(focr_text_angle_classifier *classifier, const focr_image *src,
                                                float *upside_down);

/**
 * focr_text_angle_classifier_classify for `count` lines at once: `srcs[i]`'s probability of being
 * turned 180° into `upside_down[i]`, each line resized and padded exactly as it is alone (the same
 * probability, to float rounding), read together in one run of the network, up to 8 at a time (a
 * group of another size in chunks of 8, 4, 2 and 1, so that the network sees at most four input
 * shapes). About half the time a line of reading them one by one (OpenVINO 2026.4, 2 cores: 1.2 ms
 * a crop alone, 0.6 ms in a batch of 8). `count` 0 does nothing. Errors: FOCR_E_INVALID_ARGUMENT
 * (NULL classifier, a negative count, NULL `srcs` or `upside_down` with a positive count, a bad
 * descriptor, named by its index: "srcs[3]"), FOCR_E_UNSUPPORTED (a planar format, by its index),
 * FOCR_E_INFERENCE (OpenVINO failed or its output changed). On an error every `upside_down[i]` is
 * 0 or a value already computed.
 */
focr_status focr_text_angle_classifier_classify_batch(focr_text_angle_classifier *classifier, const focr_image *srcs,
                                                      int32_t count, float *upside_down);

#ifdef __cplusplus
}
#endif

#endif /* FOCR_RECOGNIZE_H */
