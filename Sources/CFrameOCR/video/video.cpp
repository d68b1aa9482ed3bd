// Video files through OpenCV's videoio (cv::VideoCapture): frames out as owned BGR8 images.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include "common/status.hpp"
#include "focr.h"
#include "focr_video.h"
#include "image/decoded_image.hpp"

using namespace focr;

struct focr_video {
    cv::VideoCapture capture;
    std::string path;
    focr_video_info info{-1, 0, 0, 0};
    int64_t frames_read = 0;     // frames handed out so far
    double last_timestamp = -1;  // ms of the last frame handed out
    bool ended = false;
};

namespace {

/// The container's properties, with "unknown" made explicit (-1 frames, 0 fps).
focr_video_info read_info(cv::VideoCapture &capture) {
    focr_video_info info{-1, 0, 0, 0};
    const double count = capture.get(cv::CAP_PROP_FRAME_COUNT);
    if (std::isfinite(count) && count > 0) info.frame_count = (int64_t)std::llround(count);
    const double fps = capture.get(cv::CAP_PROP_FPS);
    if (std::isfinite(fps) && fps > 0 && fps < 1e6) info.fps = fps;
    const double w = capture.get(cv::CAP_PROP_FRAME_WIDTH), h = capture.get(cv::CAP_PROP_FRAME_HEIGHT);
    if (std::isfinite(w) && w > 0) info.width = (int32_t)std::lround(w);
    if (std::isfinite(h) && h > 0) info.height = (int32_t)std::lround(h);
    return info;
}

/// 8-bit BGR (or gray) whatever the backend delivered.
cv::Mat to_bgr8(cv::Mat m) {
    if (m.depth() != CV_8U) {
        cv::Mat e;
        m.convertTo(e, CV_8U, m.depth() == CV_16U ? 1.0 / 257.0 : 1.0);
        m = e;
    }
    if (m.channels() == 4) {
        cv::Mat e;
        cv::cvtColor(m, e, cv::COLOR_BGRA2BGR);
        m = e;
    } else if (m.channels() != 1 && m.channels() != 3) {
        throw std::runtime_error("video frame with " + std::to_string(m.channels()) + " channels");
    }
    return m;
}

}  // namespace

extern "C" focr_status focr_video_open(const char *path, focr_video **out) {
    return guarded("video_open", [&]() -> focr_status {
        if (out == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "video_open: out is NULL");
        *out = nullptr;
        if (path == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "video_open: path is NULL");
        struct stat st;
        if (::stat(path, &st) != 0) return fail(FOCR_E_IO, std::string(path) + ": " + std::strerror(errno));
        if (S_ISDIR(st.st_mode)) return fail(FOCR_E_IO, std::string(path) + ": is a directory");
        if (::access(path, R_OK) != 0) return fail(FOCR_E_IO, std::string(path) + ": " + std::strerror(errno));

        auto video = std::make_unique<focr_video>();
        video->path = path;
        // FFmpeg only: it reads every container and codec Debian ships. CAP_ANY would go on to
        // GStreamer and CAP_IMAGES, which fill stderr with warnings for a file that is no video.
        if (!video->capture.open(path, cv::CAP_FFMPEG))
            return fail(FOCR_E_DECODE, std::string(path) + ": not a video OpenCV's FFmpeg backend can open");
        video->info = read_info(video->capture);
        if (video->info.width <= 0 || video->info.height <= 0)
            return fail(FOCR_E_DECODE, std::string(path) + ": not a video (no frame size)");
        *out = video.release();
        return FOCR_OK;
    });
}

extern "C" focr_status focr_video_get_info(const focr_video *video, focr_video_info *info) {
    if (video == nullptr || info == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "video_get_info: NULL argument");
    *info = video->info;
    return FOCR_OK;
}

extern "C" focr_status focr_video_read(focr_video *video, focr_decoded_image **frame_out, double *timestamp_ms) {
    return guarded("video_read", [&]() -> focr_status {
        if (video == nullptr || frame_out == nullptr || timestamp_ms == nullptr)
            return fail(FOCR_E_INVALID_ARGUMENT, "video_read: NULL argument");
        *frame_out = nullptr;
        *timestamp_ms = 0;
        if (video->ended) return FOCR_OK;
        cv::Mat m;  // a fresh Mat: read() copies the decoder's frame into memory this frame owns
        if (!video->capture.read(m) || m.empty()) {
            video->ended = true;
            return FOCR_OK;
        }
        // Position of the frame just read; the fallback is index / fps (or 30 fps if unknown).
        const double fps = video->info.fps > 0 ? video->info.fps : 30.0;
        const double by_index = (double)video->frames_read * 1000.0 / fps;
        double t = video->capture.get(cv::CAP_PROP_POS_MSEC);
        if (!std::isfinite(t) || t < 0 || (video->frames_read > 0 && t <= video->last_timestamp)) t = by_index;
        if (video->frames_read > 0 && t <= video->last_timestamp) t = video->last_timestamp + 1000.0 / fps;

        auto image = std::make_unique<focr_decoded_image>();
        image->pixels = to_bgr8(m);
        video->frames_read += 1;
        video->last_timestamp = t;
        *timestamp_ms = t;
        *frame_out = image.release();
        return FOCR_OK;
    });
}

extern "C" void focr_video_destroy(focr_video *video) {
    if (video == nullptr) return;
    try {
        delete video;  // releases the capture
    } catch (...) {
    }
}
