// Image files, video, the text detector and the text recognizer (focr_files.h, focr_video.h,
// focr_detect.h, focr_recognize.h, focr_openvino.h) through
// libFrameOCRMedia's table (focr_media_calls.h), found on first use.
//
// OpenCV's imgcodecs and videoio pull in GDAL, FFmpeg and GStreamer (about 200 shared libraries,
// 50 MB resident and 0.1 s of start-up) for every process that links them, even one that only
// prints its version or reads raw camera frames (the networks' runtime, OpenVINO, is opened by
// the media library itself, with dlopen, on the first network). So the code
// that calls them is a target of its own, CFrameOCRMedia, and the shim reaches it only through its
// table, which this file looks for on the first image file Leptonica does not read (files/decode.cpp),
// image written, video, text detector or recognizer:
//
// 1. in the process: a program that depends on the FrameOCR *product* (another package) links
//    CFrameOCRMedia in, and so does one that links libFrameOCRMedia.so at start; the weak
//    reference to focr_media_entry below is then set;
// 2. else with dlopen, from (in order) $FRAMEOCR_MEDIA_LIBRARY, the folder of the binary that holds
//    this code, then the dynamic loader's search path: this package's own programs depend on the
//    FrameOCR *target* and find libFrameOCRMedia.so beside them, where `swift build` puts it.
//
// The public functions are generated from the one list of calls (FOCR_MEDIA_CALLS) and keep the
// public headers' contracts; when the table cannot be had they fail with FOCR_E_UNAVAILABLE and
// say where it was looked for.
#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <type_traits>

#include "focr_common.h"
#include "focr_common/status.hpp"
#include "focr_detect.h"
#include "focr_files.h"
#include "focr_media_calls.h"
#include "focr_recognize.h"
#include "focr_video.h"

using namespace focr;

// Set when CFrameOCRMedia is in the process (linked in, or libFrameOCRMedia.so linked at start);
// NULL otherwise, without a link error.
extern "C" const focr_media_api *focr_media_entry(void) __attribute__((weak));

namespace {

const char *const kLibrary = "libFrameOCRMedia.so";

struct Loaded {
    const focr_media_api *api = nullptr;
    std::string why;  // set when api is NULL
};

/// The folder of the binary (program or shared library) that holds this code, with a slash.
/// The loader names the program as it was started (`.build/debug/frameocr`, relative to the
/// folder it was started in); /proc/self/exe names it absolutely, whatever the process did since.
std::string own_folder() {
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&own_folder), &info) == 0 || info.dli_fname == nullptr) return "";
    std::string path = info.dli_fname;
    if (path.empty() || path[0] != '/') {
        char exe[4096];
        const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n > 0) path.assign(exe, (size_t)n);
    }
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

/// The table, if it has this build's version and size; else NULL with `why` set.
const focr_media_api *checked(const focr_media_api *api, const std::string &where, std::string &why) {
    if (api != nullptr && api->version == FOCR_MEDIA_API_VERSION && api->size == sizeof(focr_media_api)) return api;
    why = where + " is from another build of FrameOCR (its entry table does not match)";
    return nullptr;
}

Loaded load() {
    Loaded out;
    if (focr_media_entry != nullptr) {  // 1. linked in
        out.api = checked(focr_media_entry(), "The linked-in media code", out.why);
        return out;
    }
    std::string tried;  // 2. beside the program, or where the environment says
    void *handle = nullptr;
    const char *env = std::getenv("FRAMEOCR_MEDIA_LIBRARY");
    const std::string folder = own_folder();
    const std::string candidates[3] = {env && *env ? env : "", folder.empty() ? "" : folder + kLibrary, kLibrary};
    for (const std::string &c : candidates) {
        if (c.empty()) continue;
        handle = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (handle != nullptr) break;
        const char *e = dlerror();
        tried += (tried.empty() ? "" : "; ") + std::string(e ? e : c.c_str());
    }
    if (handle == nullptr) {
        out.why = std::string(kLibrary) + " (image files, video, the text detector and recognizer) could not be loaded: " + tried +
                  ". A program that depends on the FrameOCR product links this code in; one built against the "
                  "FrameOCR target (this package's own) loads it at run time: put " +
                  kLibrary + " beside the program (`swift build --product FrameOCRMedia` builds it) or set " +
                  "FRAMEOCR_MEDIA_LIBRARY to its path";
        return out;
    }
    using entry_fn = const focr_media_api *(*)(void);
    auto entry = reinterpret_cast<entry_fn>(dlsym(handle, "focr_media_entry"));
    out.api = checked(entry ? entry() : nullptr, kLibrary, out.why);
    return out;
}

/// The table, found once per process; NULL with the reason recorded as the error.
const focr_media_api *media(const char *where) {
    static const Loaded loaded = load();
    if (loaded.api == nullptr) fail(FOCR_E_UNAVAILABLE, std::string(where) + ": " + loaded.why);
    return loaded.api;
}

/// Sets `*arg` to NULL when `arg` is a handle output (a `T **`); other arguments are left alone.
template <typename T>
void clear_if_output(T arg) {
    if constexpr (std::is_pointer_v<T> && std::is_pointer_v<std::remove_pointer_t<T>>) {
        if (arg != nullptr) *arg = nullptr;
    }
}

/// Calls the table's entry `field` with `args`, as focr_media_calls.h says for its return type:
/// - focr_status: handle outputs set to NULL first; FOCR_E_UNAVAILABLE (and why) without the table;
///   on failure the library's message copied into this shim's last error;
/// - void (a _destroy): nothing for a NULL handle;
/// - const char * (a name): "" for a NULL handle or without the table.
template <typename Ret, typename... Params, typename... Args>
Ret forward(const char *where, Ret (*focr_media_api::*field)(Params...), Args... args) {
    if constexpr (std::is_same_v<Ret, focr_status>) {
        (clear_if_output(args), ...);
        const focr_media_api *api = media(where);
        if (api == nullptr) return FOCR_E_UNAVAILABLE;
        const focr_status status = (api->*field)(args...);
        if (status != FOCR_OK) fail(status, api->last_error());
        return status;
    } else if constexpr (std::is_void_v<Ret>) {
        static_assert(sizeof...(Args) == 1, "a void call takes its handle only");
        if (((args == nullptr) && ...)) return;
        if (const focr_media_api *api = media(where)) (api->*field)(args...);
    } else {
        static_assert(std::is_same_v<Ret, const char *> && sizeof...(Args) == 1, "a name takes its handle only");
        const focr_media_api *api = ((args != nullptr) && ...) ? media(where) : nullptr;
        return api != nullptr ? (api->*field)(args...) : "";
    }
}

}  // namespace

// The public functions, one per line of the list.
#define FOCR_MEDIA_EXPAND(...) __VA_ARGS__
#define FOCR_MEDIA_FORWARD(ret, name, params, args)                                         \
    extern "C" ret focr_##name params {                                                     \
        return forward(#name, &focr_media_api::name, FOCR_MEDIA_EXPAND args);               \
    }
FOCR_MEDIA_CALLS(FOCR_MEDIA_FORWARD)
#undef FOCR_MEDIA_FORWARD
#undef FOCR_MEDIA_EXPAND
