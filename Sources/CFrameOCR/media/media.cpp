// Image files, video and the text detector through libFrameOCRMedia.so (Sources/CFrameOCRMedia),
// loaded on first use.
//
// OpenCV's imgcodecs and videoio pull in GDAL, FFmpeg and GStreamer (about 200 shared libraries,
// 50 MB resident and 0.1 s of start-up), and its dnn module protobuf (3.7 MB), for every process
// that links them, even one that only prints its version or reads raw camera frames. The code
// that calls them lives in a library of its own, which this file opens with dlopen on the first
// image file or video or the first text detector, from (in order): $FRAMEOCR_MEDIA_LIBRARY, the
// folder of the binary that holds this code, then the dynamic loader's search path. The functions
// below keep focr.h's, focr_video.h's and focr_detect.h's contracts; when the library cannot be
// loaded they fail with FOCR_E_UNSUPPORTED and say where it was looked for.
#include <dlfcn.h>
#include <unistd.h>

#include <cstring>
#include <mutex>
#include <string>

#include <opencv2/core.hpp>

#include "common/status.hpp"
#include "focr.h"
#include "focr_detect.h"
#include "focr_video.h"
#include "image/decoded_image.hpp"
#include "media/media_api.h"

using namespace focr;

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

Loaded load() {
    Loaded out;
    std::string tried;
    void *handle = nullptr;
    const char *env = std::getenv("FRAMEOCR_MEDIA_LIBRARY");
    std::string candidates[3] = {env && *env ? env : "", own_folder().empty() ? "" : own_folder() + kLibrary, kLibrary};
    for (const std::string &c : candidates) {
        if (c.empty()) continue;
        handle = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (handle != nullptr) break;
        const char *e = dlerror();
        tried += (tried.empty() ? "" : "; ") + std::string(e ? e : c.c_str());
    }
    if (handle == nullptr) {
        out.why = std::string(kLibrary) + " (image files, video and the text detector) could not be loaded: " + tried +
                  ". It is built beside the program by `swift build` or `make`; set FRAMEOCR_MEDIA_LIBRARY to its path";
        return out;
    }
    using entry_fn = const focr_media_api *(*)(void);
    auto entry = reinterpret_cast<entry_fn>(dlsym(handle, "focr_media_entry"));
    const focr_media_api *api = entry ? entry() : nullptr;
    if (api == nullptr || api->version != FOCR_MEDIA_API_VERSION || api->size != sizeof(focr_media_api)) {
        out.why = std::string(kLibrary) + " is from another build of FrameOCR (its entry table does not match)";
        return out;
    }
    out.api = api;
    return out;
}

/// The library's table, loaded once per process; NULL with the reason recorded as the error.
const focr_media_api *media(const char *where) {
    static const Loaded loaded = load();
    if (loaded.api == nullptr) fail(FOCR_E_UNSUPPORTED, std::string(where) + ": " + loaded.why);
    return loaded.api;
}

/// Calls the library's entry point `fn` with `args`: its status, with its message copied into
/// this shim's last error; FOCR_E_UNSUPPORTED (and why) when the library cannot be loaded.
template <typename Fn, typename... Args>
focr_status forward(const char *where, Fn focr_media_api::*fn, Args... args) {
    const focr_media_api *api = media(where);
    if (api == nullptr) return FOCR_E_UNSUPPORTED;
    const focr_status status = (api->*fn)(args...);
    if (status != FOCR_OK) fail(status, api->last_error());
    return status;
}

}  // namespace

extern "C" focr_status focr_image_decode_file(const char *path, uint64_t max_pixels, focr_decoded_image **out) {
    if (out != nullptr) *out = nullptr;
    return forward("decode_file", &focr_media_api::image_decode_file, path, max_pixels, out);
}

extern "C" focr_status focr_image_decode_memory(const uint8_t *bytes, size_t count, uint64_t max_pixels,
                                                focr_decoded_image **out) {
    if (out != nullptr) *out = nullptr;
    return forward("decode_memory", &focr_media_api::image_decode_memory, bytes, count, max_pixels, out);
}

extern "C" focr_status focr_image_write_file(const focr_image *image, const char *path) {
    return forward("write_file", &focr_media_api::image_write_file, image, path);
}

// Decoded images are cv::Mat (core only), freed here whichever side made them: both sides use the
// same libopencv_core and the same operator delete.

extern "C" focr_image focr_decoded_image_view(const focr_decoded_image *image) {
    focr_image v;
    std::memset(&v, 0, sizeof v);
    if (image == nullptr) return v;
    const cv::Mat &m = image->pixels;
    v.format = m.channels() == 1 ? FOCR_FORMAT_GRAY8 : FOCR_FORMAT_BGR8;
    v.width = m.cols;
    v.height = m.rows;
    v.plane_count = 1;
    v.planes[0] = focr_plane{m.data, m.step[0], m.cols, m.rows};
    return v;
}

extern "C" void focr_decoded_image_destroy(focr_decoded_image *image) { delete image; }

extern "C" focr_status focr_video_open(const char *location, const focr_video_options *options, focr_video **out) {
    if (out != nullptr) *out = nullptr;
    return forward("video_open", &focr_media_api::video_open, location, options, out);
}

extern "C" focr_status focr_video_get_info(const focr_video *video, focr_video_info *info) {
    return forward("video_get_info", &focr_media_api::video_get_info, video, info);
}

extern "C" const char *focr_video_backend_name(const focr_video *video) {
    const focr_media_api *api = video ? media("video_backend_name") : nullptr;
    return api ? api->video_backend_name(video) : "";
}

extern "C" focr_status focr_video_read(focr_video *video, focr_decoded_image **frame_out, focr_video_frame_info *info) {
    if (frame_out != nullptr) *frame_out = nullptr;
    return forward("video_read", &focr_media_api::video_read, video, frame_out, info);
}

extern "C" focr_status focr_video_interrupt(focr_video *video) {
    return forward("video_interrupt", &focr_media_api::video_interrupt, video);
}

extern "C" void focr_video_destroy(focr_video *video) {
    if (video == nullptr) return;
    if (const focr_media_api *api = media("video_destroy")) api->video_destroy(video);
}

extern "C" focr_status focr_video_writer_open(const char *path, double fps, int32_t width, int32_t height,
                                              const char *fourcc, focr_video_writer **out) {
    if (out != nullptr) *out = nullptr;
    return forward("video_writer_open", &focr_media_api::video_writer_open, path, fps, width, height, fourcc, out);
}

extern "C" focr_status focr_video_writer_size(const focr_video_writer *writer, int32_t *width, int32_t *height) {
    return forward("video_writer_size", &focr_media_api::video_writer_size, writer, width, height);
}

extern "C" focr_status focr_video_writer_write(focr_video_writer *writer, const focr_image *frame) {
    return forward("video_writer_write", &focr_media_api::video_writer_write, writer, frame);
}

extern "C" focr_status focr_video_writer_close(focr_video_writer *writer) {
    return forward("video_writer_close", &focr_media_api::video_writer_close, writer);
}

extern "C" void focr_video_writer_destroy(focr_video_writer *writer) {
    if (writer == nullptr) return;
    if (const focr_media_api *api = media("video_writer_destroy")) api->video_writer_destroy(writer);
}

extern "C" focr_status focr_text_detector_create(const char *model_path, focr_text_detector **out) {
    if (out != nullptr) *out = nullptr;
    return forward("text_detector_create", &focr_media_api::text_detector_create, model_path, out);
}

extern "C" void focr_text_detector_destroy(focr_text_detector *detector) {
    if (detector == nullptr) return;
    if (const focr_media_api *api = media("text_detector_destroy")) api->text_detector_destroy(detector);
}

extern "C" focr_status focr_text_detector_detect(focr_text_detector *detector, const focr_image *src,
                                                 const focr_detector_params *params, focr_detected_text *out,
                                                 int32_t capacity, int32_t *count) {
    return forward("text_detector_detect", &focr_media_api::text_detector_detect, detector, src, params, out, capacity,
                   count);
}
