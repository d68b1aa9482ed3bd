// Image files and video through libFrameOCRMedia.so (Sources/CFrameOCRMedia), loaded on first use.
//
// OpenCV's imgcodecs and videoio pull in GDAL, FFmpeg and GStreamer: about 200 shared libraries
// and 50 MB resident, and 0.1 s of start-up, for every process that links them, even one that only
// prints its version or reads raw camera frames. The code that calls them lives in a library of
// its own, which this file opens with dlopen on the first image file or video, from (in order):
// $FRAMEOCR_MEDIA_LIBRARY, the folder of the binary that holds this code, then the dynamic
// loader's search path. The functions below keep focr.h's and focr_video.h's contracts; when the
// library cannot be loaded they fail with FOCR_E_UNSUPPORTED and say where it was looked for.
#include <dlfcn.h>
#include <unistd.h>

#include <cstring>
#include <mutex>
#include <string>

#include <opencv2/core.hpp>

#include "common/status.hpp"
#include "focr.h"
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
        out.why = std::string(kLibrary) + " (image files and video) could not be loaded: " + tried +
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

/// `status` from the library, with its message copied into this shim's last error.
focr_status relay(const focr_media_api *api, focr_status status) {
    if (status != FOCR_OK) fail(status, api->last_error());
    return status;
}

}  // namespace

extern "C" focr_status focr_image_decode_file(const char *path, focr_decoded_image **out) {
    const focr_media_api *api = media("decode_file");
    if (out != nullptr) *out = nullptr;
    return api ? relay(api, api->image_decode_file(path, out)) : FOCR_E_UNSUPPORTED;
}

extern "C" focr_status focr_image_decode_memory(const uint8_t *bytes, size_t count, focr_decoded_image **out) {
    const focr_media_api *api = media("decode_memory");
    if (out != nullptr) *out = nullptr;
    return api ? relay(api, api->image_decode_memory(bytes, count, out)) : FOCR_E_UNSUPPORTED;
}

extern "C" focr_status focr_image_write_file(const focr_image *image, const char *path) {
    const focr_media_api *api = media("write_file");
    return api ? relay(api, api->image_write_file(image, path)) : FOCR_E_UNSUPPORTED;
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
    const focr_media_api *api = media("video_open");
    if (out != nullptr) *out = nullptr;
    return api ? relay(api, api->video_open(location, options, out)) : FOCR_E_UNSUPPORTED;
}

extern "C" focr_status focr_video_get_info(const focr_video *video, focr_video_info *info) {
    const focr_media_api *api = media("video_get_info");
    return api ? relay(api, api->video_get_info(video, info)) : FOCR_E_UNSUPPORTED;
}

extern "C" const char *focr_video_backend_name(const focr_video *video) {
    const focr_media_api *api = video ? media("video_backend_name") : nullptr;
    return api ? api->video_backend_name(video) : "";
}

extern "C" focr_status focr_video_read(focr_video *video, focr_decoded_image **frame_out, focr_video_frame_info *info) {
    const focr_media_api *api = media("video_read");
    if (frame_out != nullptr) *frame_out = nullptr;
    return api ? relay(api, api->video_read(video, frame_out, info)) : FOCR_E_UNSUPPORTED;
}

extern "C" focr_status focr_video_interrupt(focr_video *video) {
    const focr_media_api *api = media("video_interrupt");
    return api ? relay(api, api->video_interrupt(video)) : FOCR_E_UNSUPPORTED;
}

extern "C" void focr_video_destroy(focr_video *video) {
    if (video == nullptr) return;
    if (const focr_media_api *api = media("video_destroy")) api->video_destroy(video);
}

extern "C" focr_status focr_video_writer_open(const char *path, double fps, int32_t width, int32_t height,
                                              const char *fourcc, focr_video_writer **out) {
    const focr_media_api *api = media("video_writer_open");
    if (out != nullptr) *out = nullptr;
    return api ? relay(api, api->video_writer_open(path, fps, width, height, fourcc, out)) : FOCR_E_UNSUPPORTED;
}

extern "C" focr_status focr_video_writer_size(const focr_video_writer *writer, int32_t *width, int32_t *height) {
    const focr_media_api *api = media("video_writer_size");
    return api ? relay(api, api->video_writer_size(writer, width, height)) : FOCR_E_UNSUPPORTED;
}

extern "C" focr_status focr_video_writer_write(focr_video_writer *writer, const focr_image *frame) {
    const focr_media_api *api = media("video_writer_write");
    return api ? relay(api, api->video_writer_write(writer, frame)) : FOCR_E_UNSUPPORTED;
}

extern "C" focr_status focr_video_writer_close(focr_video_writer *writer) {
    const focr_media_api *api = media("video_writer_close");
    return api ? relay(api, api->video_writer_close(writer)) : FOCR_E_UNSUPPORTED;
}

extern "C" void focr_video_writer_destroy(focr_video_writer *writer) {
    if (writer == nullptr) return;
    if (const focr_media_api *api = media("video_writer_destroy")) api->video_writer_destroy(writer);
}
