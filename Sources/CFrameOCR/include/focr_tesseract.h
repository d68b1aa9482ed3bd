/*
 * focr_tesseract.h — FrameOCR's C shim over Tesseract's C API (tesseract/capi.h). Implemented in
 * tesseract/tesseract.cpp.
 *
 * Ownership and lifetime rules
 * ----------------------------
 * - focr_engine wraps one TessBaseAPI. It is NOT thread-safe: use one engine per thread (the
 *   Swift layer keeps a pool). Create with focr_engine_create, free with focr_engine_destroy
 *   (NULL is a no-op). Models are loaded once, in focr_engine_create.
 * - focr_engine_recognize borrows the image for the duration of the call only (Tesseract copies
 *   it once into its own Pix). The elements it returns, and every string they point to, are owned
 *   by the engine and stay valid until the next focr_engine_recognize or focr_engine_destroy on
 *   that engine. Their storage is reused from frame to frame.
 * - Errors follow focr.h: a focr_status, and focr_last_error() for the message.
 */
#ifndef FOCR_TESSERACT_H
#define FOCR_TESSERACT_H

#include "focr.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct focr_engine focr_engine;

/** Engine settings fixed at creation (they need a model load to change). */
typedef struct focr_engine_config {
    const char *datapath;           /* tessdata folder; NULL: TESSDATA_PREFIX, else Debian's */
    const char *languages;          /* "eng", "eng+deu", … */
    int32_t engine_mode;            /* OEM: 0 legacy, 1 LSTM, 2 both, 3 default */
    const char *user_words_file;    /* NULL or a file of words, one per line */
    const char *user_patterns_file; /* NULL or a file of patterns, one per line */
    /* Extra init-only variables (name/value pairs), may be NULL when count is 0. */
    const char *const *variable_names;
    const char *const *variable_values;
    int32_t variable_count;
} focr_engine_config;

/** Loads the models. FOCR_E_TESSERACT with the engine's reason when a language is missing. */
focr_status focr_engine_create(const focr_engine_config *config, focr_engine **out);
void focr_engine_destroy(focr_engine *engine);

/** Settings applied before every recognition (so nothing leaks from one call to the next). */
typedef struct focr_recognize_options {
    int32_t page_segmentation_mode; /* PSM 0…13 (3 is the tesseract command's, 6 the API's) */
    int32_t source_resolution;      /* pixels per inch, > 0: always passed to SetSourceResolution */
    const char *whitelist;          /* NULL or "" for none */
    const char *blacklist;          /* NULL or "" for none */
    int32_t deadline_ms;            /* ≤ 0: none; else Tesseract's monitor cancels after it */
    int32_t want_symbols;           /* 0: stop at words (faster); else symbols too */
    /* Choices per symbol, 0…FOCR_MAX_ALTERNATES (needs want_symbols). 0: none, and Tesseract's
     * choice mode stays off. N ≥ 1: lstm_choice_mode=2 and lstm_choice_iterations=N−1 for this
     * call, and each symbol gets up to N choices, best first (Tesseract's ChoiceIterator order),
     * each with its path probability (see focr_element.alternate_confidence). */
    int32_t alternates;
    /* Tesseract's own binarization before layout analysis (its `thresholding_method` variable;
     * the LSTM recognizer still reads the image's gray levels): 0 Otsu over the whole image (the
     * default), 1 Leptonica's tiled Sauvola (pixSauvolaBinarizeTiled: window 0.33 in, k 0.34),
     * 2 Leptonica's tiled adaptive Otsu (pixOtsuAdaptiveThreshold). */
    int32_t thresholding_method;
    /* 1: no second, inverted reading of poorly read lines for this call (Tesseract's
     * tessedit_do_invert off), for images known to hold dark text on a light ground. 0: the
     * engine's own setting (Tesseract's default: on). */
    int32_t skip_inverted_reading;
} focr_recognize_options;

typedef enum focr_level {
    FOCR_LEVEL_BLOCK = 0,
    FOCR_LEVEL_PARAGRAPH = 1,
    FOCR_LEVEL_LINE = 2,
    FOCR_LEVEL_WORD = 3,
    FOCR_LEVEL_SYMBOL = 4
} focr_level;

#define FOCR_MAX_ALTERNATES 3

/**
 * One element of the result, in reading order; an element at level L follows its parent at
 * level L-1 (block › paragraph › line › word › symbol). Boxes are in the pixels of the image
 * given to recognize, top-left origin, right/bottom exclusive.
 */
typedef struct focr_element {
    int32_t level;
    int32_t left, top, right, bottom;
    float confidence;   /* 0…100, or -1 when the engine has none; always -1 for blocks and
                           paragraphs (not asked for: one pass over the page) */
    const char *text;   /* UTF-8, never NULL: a word's or a symbol's text (may be ""); "" for
                           blocks, paragraphs and lines, whose text is their words' */
    int32_t alternate_count; /* symbols only, ≤ the options' alternates */
    const char *alternate_text[FOCR_MAX_ALTERNATES];
    /* 0…100. The first choice: the symbol's confidence. Each next one: that confidence times its
     * likelihood relative to the first, exp(r₀ − rᵢ), where r is the CTC rating Tesseract's
     * ChoiceIterator keeps for a choice (minus the sum of the log-probabilities of the symbol's
     * time steps on the choice's path, blanks included). Tesseract's own
     * ChoiceIterator::Confidence is clip(100 − lstm_rating_coefficient·r, 0, 100), which at its
     * default coefficient (5) is 0 for nearly every choice but the first. With the legacy engine
     * loaded (OEM 0 or 2), Tesseract's own value. */
    float alternate_confidence[FOCR_MAX_ALTERNATES];
    /* log₁₀ of each choice's likelihood relative to the first, (r₀ − rᵢ) / ln 10: 0 for the
     * first, −14 for a choice 10¹⁴ times less likely; the comparable scale of the confidences
     * above, which for later choices underflow towards 0. NaN with the legacy engine loaded. */
    float alternate_log10_likelihood[FOCR_MAX_ALTERNATES];
} focr_element;

typedef struct focr_recognition {
    const focr_element *elements;
    int32_t element_count;
    int32_t timed_out;       /* 1 when the deadline cancelled recognition (partial result) */
    float mean_confidence;   /* TessBaseAPIMeanTextConf, 0…100, -1 when no words */
} focr_recognition;

/**
 * Recognizes a GRAY8, BGR8, RGB8, BGRA8 or RGBA8 image (for NV12/I420 pass the Y plane as
 * GRAY8). The image goes to TessBaseAPISetImage with its own bytes_per_row (no copy of ours),
 * then SetSourceResolution, then Recognize with a monitor when a deadline is set.
 */
focr_status focr_engine_recognize(focr_engine *engine, const focr_image *image,
                                  const focr_recognize_options *options, focr_recognition *out);

/**
 * Orientation and script detection (TessBaseAPIDetectOrientationScript). The engine must have
 * been created with languages "osd" (osd.traineddata) and engine mode 0; any other engine gets
 * FOCR_E_INVALID_ARGUMENT (Tesseract itself would abort the process on an assertion).
 * `*degrees` is the clockwise rotation that makes the image upright. FOCR_E_TESSERACT when
 * detection is impossible (too few characters).
 */
focr_status focr_engine_detect_orientation(focr_engine *engine, const focr_image *image,
                                           int32_t source_resolution, int32_t *degrees,
                                           float *confidence);

/** Tesseract's version string (static). */
const char *focr_tesseract_version(void);

/**
 * Makes OpenMP inside Tesseract single-threaded for every recognition in the process from now
 * on: omp_set_max_active_levels(0) on the calling thread now, and on each other thread before
 * its first focr_engine_recognize (libgomp keeps the setting per thread). Looked up at run
 * time; a no-op without libgomp. Returns 1 when the call could be made. Process-wide policy:
 * see the README's "Threads" section.
 */
int32_t focr_limit_openmp(void);

/** omp_get_max_active_levels() on the calling thread; -1 without libgomp (for tests). */
int32_t focr_openmp_max_active_levels(void);

#ifdef __cplusplus
}
#endif

#endif /* FOCR_TESSERACT_H */
