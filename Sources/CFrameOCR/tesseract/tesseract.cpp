// Tesseract through its C API (tesseract/capi.h): engines, recognition, result flattening.
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include <tesseract/capi.h>

#include "focr_common/descriptor.hpp"
#include "focr_common/status.hpp"
#include "focr_tesseract.h"

using namespace focr;

struct focr_engine {
    TessBaseAPI *api = nullptr;
    ETEXT_DESC *monitor = nullptr;
    std::vector<focr_element> elements;  // reused frame to frame
    std::deque<std::string> strings;     // backing store for element text (stable addresses)
    size_t strings_used = 0;
    bool osd = false;                    // loaded with the "osd" model (orientation detection only)
    bool lstm_only = false;              // the engine in use is the LSTM alone
    bool invert_lines = true;            // tessedit_do_invert as the engine was created with
    struct SetValue {
        const char *name;  // a string literal of the caller's
        std::string value;
    };
    std::vector<SetValue> set_values;  // the per-call variables as this engine last set them

    /// Sets a per-call Tesseract variable, only when it differs from what this engine last set:
    /// TessBaseAPISetVariable looks the name up among Tesseract's ~700 parameters by strcmp, and
    /// most calls repeat the last call's settings. No allocation once a value has been held.
    void set_variable(const char *name, const char *value) {
        for (SetValue &v : set_values) {
            if (std::strcmp(v.name, name) != 0) continue;
            if (v.value == value) return;
            TessBaseAPISetVariable(api, name, value);
            v.value = value;
            return;
        }
        TessBaseAPISetVariable(api, name, value);
        set_values.push_back(SetValue{name, value});
    }

    ~focr_engine() {
        if (monitor) TessMonitorDelete(monitor);
        if (api) TessBaseAPIDelete(api);
    }

    /// Stores a copy of `text` (taking ownership of the engine's delete[]-string) and returns it.
    const char *keep(char *text) {
        if (strings_used == strings.size()) strings.emplace_back();
        std::string &slot = strings[strings_used++];
        slot.assign(text ? text : "");
        if (text) TessDeleteText(text);
        return slot.c_str();
    }
    const char *keep_copy(const char *text) {
        if (strings_used == strings.size()) strings.emplace_back();
        std::string &slot = strings[strings_used++];
        slot.assign(text ? text : "");
        return slot.c_str();
    }
};

namespace {

const char *default_datapath() {
    const char *env = std::getenv("TESSDATA_PREFIX");
    if (env != nullptr && *env != '\0') return env;
    return "/usr/share/tesseract-ocr/5/tessdata";
}

float clean_confidence(float c) { return (std::isnan(c) || c < 0.0f) ? -1.0f : (c > 100.0f ? 100.0f : c); }

}  // namespace

extern "C" focr_status focr_engine_create(const focr_engine_config *config, focr_engine **out) {
    return guarded("engine_create", [&]() -> focr_status {
        if (config == nullptr || out == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "engine_create: NULL argument");
        *out = nullptr;
        const char *datapath = config->datapath && *config->datapath ? config->datapath : default_datapath();
        const char *languages = config->languages && *config->languages ? config->languages : "eng";
        if (config->engine_mode < 0 || config->engine_mode > 3)
            return fail(FOCR_E_INVALID_ARGUMENT, "engine_create: engine mode " + std::to_string(config->engine_mode) +
                                                     " not in 0…3");
        std::vector<std::string> names, values;
        if (config->user_words_file) { names.push_back("user_words_file"); values.push_back(config->user_words_file); }
        if (config->user_patterns_file) {
            names.push_back("user_patterns_file");
            values.push_back(config->user_patterns_file);
        }
        for (int32_t i = 0; i < config->variable_count; ++i) {
            names.push_back(config->variable_names[i]);
            values.push_back(config->variable_values[i]);
        }
        // Tesseract prints warnings to stderr; send them nowhere unless the caller chose a file.
        if (std::find(names.begin(), names.end(), "debug_file") == names.end()) {
            names.push_back("debug_file");
            values.push_back("/dev/null");
        }
        std::vector<char *> n, v;
        for (auto &s : names) n.push_back(const_cast<char *>(s.c_str()));
        for (auto &s : values) v.push_back(const_cast<char *>(s.c_str()));

        auto *engine = new focr_engine();
        engine->osd = std::strcmp(languages, "osd") == 0;
        engine->api = TessBaseAPICreate();
        const int rc = TessBaseAPIInit4(engine->api, datapath, languages, (TessOcrEngineMode)config->engine_mode,
                                        nullptr, 0, n.data(), v.data(), n.size(), 0);
        if (rc != 0) {
            delete engine;
            return fail(FOCR_E_TESSERACT, std::string("could not load language '") + languages + "' from " + datapath +
                                              " (is tesseract-ocr-" + languages + " installed?)");
        }
        engine->monitor = TessMonitorCreate();
        // The mode in use (OEM 3 resolves to 1 when the models have no legacy part, as Debian's);
        // TessBaseAPIOem would return the mode asked for.
        int mode_in_use = -1;
        TessBaseAPIGetIntVariable(engine->api, "tessedit_ocr_engine_mode", &mode_in_use);
        engine->lstm_only = mode_in_use == tesseract::OEM_LSTM_ONLY;
        BOOL invert = TRUE;
        TessBaseAPIGetBoolVariable(engine->api, "tessedit_do_invert", &invert);
        engine->invert_lines = invert != FALSE;
        *out = engine;
        return FOCR_OK;
    });
}

extern "C" void focr_engine_destroy(focr_engine *engine) { delete engine; }

namespace {

focr_status set_image(focr_engine *engine, const focr_image *image, int32_t ppi) {
    focr_status s = validate(image, "image");
    if (s != FOCR_OK) return s;
    const int bpp = packed_bytes_per_pixel(image->format);
    if (bpp == 0) return fail(FOCR_E_INVALID_ARGUMENT, "recognize: pass the Y plane of NV12/I420 as GRAY8");
    if (ppi <= 0) return fail(FOCR_E_INVALID_ARGUMENT, "recognize: source resolution must be > 0 ppi");
    // Tesseract reads 3/4-byte pixels as RGB(A). A BGR(A) image would swap red and blue, which
    // changes the gray it derives; the Swift layer converts BGR(A) to gray before it gets here.
    TessBaseAPISetImage(engine->api, plane_bytes(image->planes[0]), image->width, image->height, bpp,
                        (int)image->planes[0].bytes_per_row);
    TessBaseAPISetSourceResolution(engine->api, ppi);
    return FOCR_OK;
}

}  // namespace

namespace {
/// Whether recognitions run with OpenMP made single-threaded (set by focr_limit_openmp).
std::atomic<bool> openmp_limited{false};

/// omp_set_max_active_levels(0) on the calling thread, once per thread. libgomp (GCC 12) keeps
/// this setting per thread — OpenMP 5.1 made max-active-levels-var part of the data environment —
/// so a call on one thread leaves every other thread at the default (all cores), which made
/// recognition on a second thread several times slower. Looked up at run time: a no-op without
/// libgomp.
bool limit_openmp_on_this_thread() {
    thread_local bool done = false;
    if (done) return true;
    using setter = void (*)(int);
    static const auto fn = reinterpret_cast<setter>(dlsym(RTLD_DEFAULT, "omp_set_max_active_levels"));
    if (fn == nullptr) return false;
    fn(0);
    done = true;
    return true;
}
}  // namespace

namespace {
/// lstm_rating_coefficient while choices are read: ChoiceIterator::Confidence is
/// clip(100 − coefficient · rating, 0, 100), so at 0.01 it is unclipped for every rating below
/// 10 000 (a rating is minus a sum of log-probabilities, one per time step), and the rating comes
/// back as (100 − confidence) / 0.01, to within 8·10⁻⁴ (a float's step at 100).
constexpr const char *kRatingCoefficient = "0.01";
constexpr double kRatingCoefficientValue = 0.01;

/// Up to `count` choices of the symbol at `it` (whose own confidence `e.confidence` is already
/// set), in Tesseract's ChoiceIterator order and with its texts. The first gets the symbol's
/// confidence; each next one that confidence times its likelihood relative to the first,
/// exp(r₀ − rᵢ), from the CTC ratings r the iterator keeps. With the legacy engine loaded (OEM 0
/// or 2) the coefficient stays at its default and each choice gets Tesseract's own confidence: a
/// choice may then be the legacy classifier's (100 + 5 · certainty, clipped).
void read_choices(focr_engine *engine, TessResultIterator *it, int count, focr_element &e) {
    TessChoiceIterator *ci = TessResultIteratorGetChoiceIterator(it);
    if (ci == nullptr) return;
    const double anchor = e.confidence >= 0 ? e.confidence : 100.0;
    double first_rating = 0;
    do {
        const char *t = TessChoiceIteratorGetUTF8Text(ci);
        if (t == nullptr) continue;
        const float reported = TessChoiceIteratorConfidence(ci);
        const double rating = std::max(0.0, (100.0 - (double)reported) / kRatingCoefficientValue);
        const int k = e.alternate_count++;
        if (k == 0) first_rating = rating;
        e.alternate_text[k] = engine->keep_copy(t);
        const double log_ratio = std::min(0.0, first_rating - rating);  // natural log, ≤ 0
        e.alternate_confidence[k] = engine->lstm_only ? (float)(anchor * std::exp(log_ratio))
                                                      : clean_confidence(reported);
        e.alternate_log10_likelihood[k] = engine->lstm_only ? (float)(log_ratio / std::log(10.0)) : NAN;
    } while (e.alternate_count < count && TessChoiceIteratorNext(ci));
    TessChoiceIteratorDelete(ci);
}
}  // namespace

extern "C" focr_status focr_engine_recognize(focr_engine *engine, const focr_image *image,
                                             const focr_recognize_options *options, focr_recognition *out) {
    return guarded("recognize", [&]() -> focr_status {
        if (engine == nullptr || options == nullptr || out == nullptr)
            return fail(FOCR_E_INVALID_ARGUMENT, "recognize: NULL argument");
        std::memset(out, 0, sizeof *out);
        TessBaseAPI *api = engine->api;
        if (options->page_segmentation_mode < 0 || options->page_segmentation_mode > 13)
            return fail(FOCR_E_INVALID_ARGUMENT, "recognize: page segmentation mode " +
                                                     std::to_string(options->page_segmentation_mode) + " not in 0…13");
        if (image && (image->format == FOCR_FORMAT_BGR8 || image->format == FOCR_FORMAT_BGRA8))
            return fail(FOCR_E_INVALID_ARGUMENT, "recognize: BGR/BGRA must be converted first (Tesseract reads RGB)");
        // Per-call settings, applied on every call so nothing leaks from the previous one (each
        // variable is set again only when it differs from what the engine last had: set_variable).
        TessBaseAPIClear(api);
        TessBaseAPISetPageSegMode(api, (TessPageSegMode)options->page_segmentation_mode);
        engine->set_variable("tessedit_char_whitelist", options->whitelist ? options->whitelist : "");
        engine->set_variable("tessedit_char_blacklist", options->blacklist ? options->blacklist : "");
        if (options->thresholding_method < 0 || options->thresholding_method > 2)
            return fail(FOCR_E_INVALID_ARGUMENT, "recognize: thresholding method " + std::to_string(options->thresholding_method) +
                                                     " not in 0…2");
        engine->set_variable("thresholding_method", std::to_string(options->thresholding_method).c_str());
        if (options->alternates < 0 || options->alternates > FOCR_MAX_ALTERNATES)
            return fail(FOCR_E_INVALID_ARGUMENT, "recognize: alternates " + std::to_string(options->alternates) + " not in 0…" +
                                                     std::to_string(FOCR_MAX_ALTERNATES));
        if (options->alternates > 0 && !options->want_symbols)
            return fail(FOCR_E_INVALID_ARGUMENT, "recognize: alternates are per symbol: ask for symbols too");
        // The choice mode costs extra beam searches per line; it is on only when asked for. Each
        // iteration decodes one more beam with the choices found so far excluded, so N choices
        // need N − 1. The coefficient only scales ChoiceIterator::Confidence (see read_choices).
        const bool choices = options->alternates > 0;
        engine->set_variable("lstm_choice_mode", choices ? "2" : "0");
        engine->set_variable("lstm_choice_iterations", std::to_string(choices ? options->alternates - 1 : 0).c_str());
        // Tesseract reads a line again inverted when its first reading is poor (tessedit_do_invert),
        // in case it is light text on a dark ground; a caller who knows the polarity may skip it.
        engine->set_variable("tessedit_do_invert", options->skip_inverted_reading ? "0" : (engine->invert_lines ? "1" : "0"));
        engine->set_variable("lstm_rating_coefficient", choices && engine->lstm_only ? kRatingCoefficient : "5");
        focr_status s = set_image(engine, image, options->source_resolution);
        if (s != FOCR_OK) return s;

        if (openmp_limited.load(std::memory_order_relaxed)) limit_openmp_on_this_thread();
        ETEXT_DESC *monitor = nullptr;
        if (options->deadline_ms > 0) {
            TessMonitorDelete(engine->monitor);
            engine->monitor = TessMonitorCreate();
            TessMonitorSetDeadlineMSecs(engine->monitor, options->deadline_ms);
            monitor = engine->monitor;
        }
        const int rc = TessBaseAPIRecognize(api, monitor);
        // With a deadline, Recognize returns non-zero when cancelled; the partial result stands.
        const bool timed_out = monitor != nullptr && rc != 0;
        if (rc != 0 && !timed_out) return fail(FOCR_E_TESSERACT, "recognize: Tesseract's Recognize failed");

        engine->elements.clear();
        engine->strings_used = 0;
        TessResultIterator *it = TessBaseAPIGetIterator(api);
        if (it != nullptr) {
            TessPageIterator *pit = TessResultIteratorGetPageIterator(it);
            const TessPageIteratorLevel deepest = options->want_symbols ? tesseract::RIL_SYMBOL : tesseract::RIL_WORD;
            const TessPageIteratorLevel levels[5] = {tesseract::RIL_BLOCK, tesseract::RIL_PARA, tesseract::RIL_TEXTLINE, tesseract::RIL_WORD, tesseract::RIL_SYMBOL};
            do {
                for (int l = 0; l <= (int)(deepest == tesseract::RIL_SYMBOL ? 4 : 3); ++l) {
                    const TessPageIteratorLevel level = levels[l];
                    // Each step is a new element of the deepest level; a higher level starts here
                    // only when the iterator is at its beginning.
                    if (level != deepest && !TessPageIteratorIsAtBeginningOf(pit, level)) continue;
                    focr_element e;
                    std::memset(&e, 0, sizeof e);
                    e.level = l;
                    if (!TessPageIteratorBoundingBox(pit, level, &e.left, &e.top, &e.right, &e.bottom)) continue;
                    // One pass, linear in the page: blocks, paragraphs and lines carry no text
                    // (asking Tesseract for it walks all of their words again; their text is
                    // the words', joined by whoever reads the elements), and blocks and
                    // paragraphs no confidence (the same walk, for a value nobody uses).
                    if (level == tesseract::RIL_BLOCK || level == tesseract::RIL_PARA) {
                        e.confidence = -1.0f;
                    } else {
                        e.confidence = clean_confidence(TessResultIteratorConfidence(it, level));
                    }
                    e.text = level == tesseract::RIL_WORD || level == tesseract::RIL_SYMBOL
                                 ? engine->keep(TessResultIteratorGetUTF8Text(it, level))
                                 : "";
                    if (level == tesseract::RIL_SYMBOL && choices) read_choices(engine, it, options->alternates, e);
                    engine->elements.push_back(e);
                }
            } while (TessResultIteratorNext(it, deepest));
            TessResultIteratorDelete(it);
        }
        out->elements = engine->elements.data();
        out->element_count = (int32_t)engine->elements.size();
        out->timed_out = timed_out ? 1 : 0;
        out->mean_confidence = timed_out ? -1.0f : clean_confidence((float)TessBaseAPIMeanTextConf(api));
        return FOCR_OK;
    });
}

extern "C" focr_status focr_engine_detect_orientation(focr_engine *engine, const focr_image *image,
                                                      int32_t source_resolution, int32_t *degrees,
                                                      float *confidence) {
    return guarded("detect_orientation", [&]() -> focr_status {
        if (engine == nullptr || degrees == nullptr || confidence == nullptr)
            return fail(FOCR_E_INVALID_ARGUMENT, "detect_orientation: NULL argument");
        // With any other model Tesseract's orientation detection asserts (AdaptedTemplates) and
        // aborts the process; only an engine loaded with "osd" may run it.
        if (!engine->osd) return fail(FOCR_E_INVALID_ARGUMENT, "detect_orientation: the engine must be loaded with the osd model");
        TessBaseAPIClear(engine->api);
        focr_status s = set_image(engine, image, source_resolution);
        if (s != FOCR_OK) return s;
        int deg = 0;
        float conf = 0;
        const char *script = nullptr;
        float script_conf = 0;
        if (!TessBaseAPIDetectOrientationScript(engine->api, &deg, &conf, &script, &script_conf))
            return fail(FOCR_E_TESSERACT, "detect_orientation: too few characters or no osd.traineddata");
        if (std::isnan(conf)) return fail(FOCR_E_TESSERACT, "detect_orientation: no confidence (NaN)");
        // Tesseract reports the counter-clockwise angle of the text; upright needs the inverse.
        *degrees = (360 - deg) % 360;
        *confidence = conf;
        return FOCR_OK;
    });
}

extern "C" const char *focr_tesseract_version(void) { return TessVersion(); }


extern "C" int32_t focr_openmp_max_active_levels(void) {
    using getter = int (*)(void);
    static const auto fn = reinterpret_cast<getter>(dlsym(RTLD_DEFAULT, "omp_get_max_active_levels"));
    return fn == nullptr ? -1 : fn();
}

extern "C" int32_t focr_limit_openmp(void) {
    openmp_limited.store(true, std::memory_order_relaxed);
    return limit_openmp_on_this_thread() ? 1 : 0;
}
