// Video through OpenCV's videoio (cv::VideoCapture): frames out as owned BGR8 images. Files are
// read on the caller's thread; cameras, streams and GStreamer pipelines on a reader thread that
// the caller waits for with a timeout (see focr_video.h for why and for the lifetime rules).
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include "entry/media_calls.hpp"
#include "focr_common.h"
#include "focr_common/decoded_image.hpp"
#include "focr_common/status.hpp"
#include "focr_video.h"
#include "focr_common/limits.hpp"

using namespace focr;

namespace {

using Clock = std::chrono::steady_clock;

/// FFmpeg's own open and read timeouts are set this much later than the watchdog's, so that a
/// stall is always seen by the watchdog first and FFmpeg then frees the reader soon after.
constexpr int ffmpeg_timeout_margin_ms = 250;
/// How long focr_video_destroy waits for a reader thread still inside OpenCV.
constexpr auto destroy_wait = std::chrono::seconds(1);

int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

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

/// What a live source's reader thread opens and how.
struct LiveRequest {
    std::string location;
    focr_video_kind kind;
    int api;                 // cv::CAP_…
    std::vector<int> params;  // open parameters (FFmpeg's timeouts)
};

/// Why a backend refused to open a live source, in words (OpenCV says no more than "no").
std::string open_failure(const LiveRequest &request) {
    switch (request.kind) {
        case FOCR_VIDEO_DEVICE:
            return request.location + ": V4L2 cannot open it as a camera (busy, no video capture, or no permission)";
        case FOCR_VIDEO_URL:
            return request.location +
                   ": OpenCV's FFmpeg backend cannot open the stream (connection refused, no such stream, or no "
                   "video it decodes)";
        default:
            return request.location +
                   ": GStreamer cannot start the pipeline (a syntax error, a missing element or plugin, or no "
                   "appsink)";
    }
}

/// The state a live handle shares with its reader thread, under `mutex`. The capture itself is
/// the thread's alone.
struct LiveReader {
    std::mutex mutex;
    std::condition_variable changed;
    // The handle's side.
    bool want_frame = false;   // a read is waiting for a frame
    bool abandoned = false;    // the handle is gone: release the capture and exit
    bool interrupted = false;  // focr_video_interrupt was called
    // The thread's side.
    bool open_done = false;
    focr_status open_status = FOCR_OK;
    std::string open_message;
    focr_video_info info{-1, 0, 0, 0};
    std::string backend;
    bool result_ready = false;
    bool got_frame = false;
    cv::Mat frame;
    double position_ms = -1;
    int64_t received_ns = 0;
    focr_status read_status = FOCR_OK;
    std::string read_message;
    bool finished = false;  // the capture is released; the thread is leaving
};

/// Converts what a capture call threw into a status and a message (the thread cannot use the
/// caller's thread-local last error: the caller records it when it takes the result).
focr_status caught(const char *where, std::string &message) {
    try {
        throw;
    } catch (const cv::Exception &e) {
        message = std::string(where) + ": OpenCV: " + e.what();
        return FOCR_E_OPENCV;
    } catch (const std::bad_alloc &) {
        message = std::string(where) + ": out of memory";
        return FOCR_E_OUT_OF_MEMORY;
    } catch (const std::exception &e) {
        message = std::string(where) + ": " + e.what();
        return FOCR_E_INTERNAL;
    } catch (...) {
        message = std::string(where) + ": unknown exception";
        return FOCR_E_INTERNAL;
    }
}

/// The reader thread: opens the capture, then reads one frame per request until abandoned.
void reader_main(std::shared_ptr<LiveReader> r, LiveRequest request) noexcept {
    try {
        cv::VideoCapture capture;
        focr_status status = FOCR_OK;
        std::string message;
        focr_video_info info{-1, 0, 0, 0};
        std::string backend;
        try {
            if (!capture.open(request.location, request.api, request.params)) {
                status = FOCR_E_IO;
                message = open_failure(request);
            } else {
                info = read_info(capture);
                backend = capture.getBackendName();
                // Cameras and pipelines have no length, whatever the backend reports.
                if (request.kind != FOCR_VIDEO_URL) info.frame_count = -1;
                if (info.width <= 0 || info.height <= 0) {
                    status = FOCR_E_DECODE;
                    message = request.location + ": no frame size (not a video source)";
                }
            }
        } catch (...) {
            status = caught("video_open", message);
        }
        const bool use_position = request.kind != FOCR_VIDEO_GSTREAMER;
        bool open = status == FOCR_OK;
        {
            std::lock_guard<std::mutex> lock(r->mutex);
            r->open_done = true;
            r->open_status = status;
            r->open_message = message;
            r->info = info;
            r->backend = backend;
            if (r->abandoned) open = false;
        }
        r->changed.notify_all();

        while (open) {
            {
                std::unique_lock<std::mutex> lock(r->mutex);
                r->changed.wait(lock, [&] { return r->want_frame || r->abandoned; });
                if (r->abandoned) break;
                r->want_frame = false;
            }
            cv::Mat m;  // a fresh Mat: read() copies the decoder's frame into memory this frame owns
            bool got = false;
            double position = -1;
            focr_status read_status = FOCR_OK;
            std::string read_message;
            try {
                got = capture.read(m) && !m.empty();
                if (got && use_position) {
                    position = capture.get(cv::CAP_PROP_POS_MSEC);
                    if (!std::isfinite(position) || position < 0) position = -1;
                }
            } catch (...) {
                read_status = caught("video_read", read_message);
            }
            const int64_t received = now_ns();
            {
                std::lock_guard<std::mutex> lock(r->mutex);
                r->result_ready = true;
                r->got_frame = got;
                r->frame = std::move(m);
                r->position_ms = position;
                r->received_ns = received;
                r->read_status = read_status;
                r->read_message = std::move(read_message);
            }
            r->changed.notify_all();
        }
        try {
            capture.release();
        } catch (...) {
        }
    } catch (...) {
    }
    try {
        {
            std::lock_guard<std::mutex> lock(r->mutex);
            r->finished = true;
            // An open that never reported (an exception above) must not leave the caller waiting.
            if (!r->open_done) {
                r->open_done = true;
                r->open_status = FOCR_E_INTERNAL;
                r->open_message = "video_open: the reader thread failed";
            }
        }
        r->changed.notify_all();
    } catch (...) {
    }
}

/// Tells the reader to leave and waits for it a little: joined when it has finished, detached
/// (it frees the capture itself when OpenCV lets go) when it is still inside a read or open.
void release_reader(const std::shared_ptr<LiveReader> &r, std::thread &thread) noexcept {
    try {
        bool finished;
        {
            std::unique_lock<std::mutex> lock(r->mutex);
            r->abandoned = true;
            r->changed.notify_all();
            finished = r->changed.wait_for(lock, destroy_wait, [&] { return r->finished; });
        }
        if (thread.joinable()) {
            if (finished)
                thread.join();
            else
                thread.detach();
        }
    } catch (...) {
        try {
            if (thread.joinable()) thread.detach();
        } catch (...) {
        }
    }
}

std::string milliseconds_text(int ms) { return std::to_string(ms) + " ms"; }

}  // namespace

struct focr_video {
    std::string location;
    focr_video_kind kind = FOCR_VIDEO_FILE;
    focr_video_info info{-1, 0, 0, 0};
    std::string backend;
    bool ended = false;
    std::atomic<bool> interrupted{false};
    // A file.
    cv::VideoCapture capture;
    int64_t frames_read = 0;     // frames handed out so far
    double last_timestamp = -1;  // ms of the last frame handed out
    // A live source.
    std::shared_ptr<LiveReader> reader;
    std::thread thread;
    int32_t read_timeout_ms = 0;
    uint64_t max_pixels = FOCR_MAX_IMAGE_PIXELS_CEILING;  // focr_video_options.max_pixels
    bool stalled = false;
    std::string stall_message;

    ~focr_video() {
        if (reader) release_reader(reader, thread);
    }
};

namespace {

focr_status open_file(const char *path, std::unique_ptr<focr_video> &video) {
    struct stat st;
    if (::stat(path, &st) != 0) return fail(FOCR_E_IO, std::string(path) + ": " + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) return fail(FOCR_E_IO, std::string(path) + ": is a directory");
    if (::access(path, R_OK) != 0) return fail(FOCR_E_IO, std::string(path) + ": " + std::strerror(errno));
    // FFmpeg only: it reads every container and codec Debian ships. CAP_ANY would go on to
    // GStreamer and CAP_IMAGES, which fill stderr with warnings for a file that is no video.
    if (!video->capture.open(path, cv::CAP_FFMPEG))
        return fail(FOCR_E_DECODE, std::string(path) + ": not a video OpenCV's FFmpeg backend can open");
    video->info = read_info(video->capture);
    if (video->info.width <= 0 || video->info.height <= 0)
        return fail(FOCR_E_DECODE, std::string(path) + ": not a video (no frame size)");
    video->backend = video->capture.getBackendName();
    return FOCR_OK;
}

focr_status open_live(const char *location, const focr_video_options &options, std::unique_ptr<focr_video> &video) {
    LiveRequest request{location, (focr_video_kind)options.kind, cv::CAP_ANY, {}};
    switch (request.kind) {
        case FOCR_VIDEO_DEVICE: {
            struct stat st;
            if (::stat(location, &st) != 0) return fail(FOCR_E_IO, request.location + ": " + std::strerror(errno));
            if (!S_ISCHR(st.st_mode))
                return fail(FOCR_E_IO, request.location + ": not a camera device (not a character device)");
            if (::access(location, R_OK | W_OK) != 0)
                return fail(FOCR_E_IO, request.location + ": " + std::strerror(errno));
            request.api = cv::CAP_V4L2;
            break;
        }
        case FOCR_VIDEO_URL:
            request.api = cv::CAP_FFMPEG;
            if (options.open_timeout_ms > 0) {
                request.params.push_back(cv::CAP_PROP_OPEN_TIMEOUT_MSEC);
                request.params.push_back(options.open_timeout_ms + ffmpeg_timeout_margin_ms);
            }
            if (options.read_timeout_ms > 0) {
                request.params.push_back(cv::CAP_PROP_READ_TIMEOUT_MSEC);
                request.params.push_back(options.read_timeout_ms + ffmpeg_timeout_margin_ms);
            }
            break;
        default:
            request.api = cv::CAP_GSTREAMER;
            break;
    }

    auto reader = std::make_shared<LiveReader>();
    std::thread thread(reader_main, reader, request);
    std::unique_lock<std::mutex> lock(reader->mutex);
    auto opened = [&] { return reader->open_done; };
    if (options.open_timeout_ms > 0) {
        if (!reader->changed.wait_for(lock, std::chrono::milliseconds(options.open_timeout_ms), opened)) {
            lock.unlock();
            release_reader(reader, thread);  // the reader frees the capture when the open returns
            return fail(FOCR_E_STALLED, request.location + ": not open within " +
                                            milliseconds_text(options.open_timeout_ms) +
                                            " (nothing received: is the sender or camera running?)");
        }
    } else {
        reader->changed.wait(lock, opened);
    }
    if (reader->open_status != FOCR_OK) {
        const focr_status status = reader->open_status;
        const std::string message = reader->open_message;
        lock.unlock();
        release_reader(reader, thread);
        return fail(status, message);
    }
    video->info = reader->info;
    video->backend = reader->backend;
    lock.unlock();
    video->reader = std::move(reader);
    video->thread = std::move(thread);
    video->read_timeout_ms = options.read_timeout_ms;
    return FOCR_OK;
}

focr_status read_file(focr_video *video, cv::Mat &m, double &t) {
    if (!video->capture.read(m) || m.empty()) {
        video->ended = true;
        return FOCR_OK;
    }
    // Position of the frame just read; the fallback is index / fps (or 30 fps if unknown).
    const double fps = video->info.fps > 0 ? video->info.fps : 30.0;
    const double by_index = (double)video->frames_read * 1000.0 / fps;
    t = video->capture.get(cv::CAP_PROP_POS_MSEC);
    if (!std::isfinite(t) || t < 0 || (video->frames_read > 0 && t <= video->last_timestamp)) t = by_index;
    if (video->frames_read > 0 && t <= video->last_timestamp) t = video->last_timestamp + 1000.0 / fps;
    return FOCR_OK;
}

focr_status read_live(focr_video *video, cv::Mat &m, focr_video_frame_info &info) {
    LiveReader &r = *video->reader;
    std::unique_lock<std::mutex> lock(r.mutex);
    if (r.interrupted) video->ended = true;
    if (video->ended) return FOCR_OK;
    r.want_frame = true;
    r.result_ready = false;
    r.changed.notify_all();
    const auto start = Clock::now();
    auto ready = [&] { return r.result_ready || r.interrupted; };
    const int32_t timeout = video->read_timeout_ms;
    if (timeout > 0) {
        if (!r.changed.wait_until(lock, start + std::chrono::milliseconds(timeout), ready)) {
            video->stalled = true;
            video->stall_message = video->location + ": no frame within " + milliseconds_text(timeout) +
                                   " (the stream stalled)";
            return fail(FOCR_E_STALLED, video->stall_message);
        }
    } else {
        r.changed.wait(lock, ready);
    }
    if (r.interrupted) {
        video->ended = true;
        return FOCR_OK;
    }
    r.result_ready = false;
    if (r.read_status != FOCR_OK) return fail(r.read_status, r.read_message);
    if (!r.got_frame) {
        // FFmpeg's own read timeout (set a little after the watchdog's) ends a stalled read with
        // "no frame", as the end of the stream does: told apart by the time it took.
        if (timeout > 0 && Clock::now() - start >= std::chrono::milliseconds(timeout)) {
            video->stalled = true;
            video->stall_message = video->location + ": no frame within " + milliseconds_text(timeout) +
                                   " (the stream stalled)";
            return fail(FOCR_E_STALLED, video->stall_message);
        }
        video->ended = true;
        return FOCR_OK;
    }
    m = std::move(r.frame);
    r.frame = cv::Mat();
    info.timestamp_ms = r.position_ms;
    info.received_ns = r.received_ns;
    return FOCR_OK;
}

}  // namespace

extern "C" focr_status focr_media_video_open(const char *location, const focr_video_options *options, focr_video **out) {
    return guarded("video_open", [&]() -> focr_status {
        if (out == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "video_open: out is NULL");
        *out = nullptr;
        if (location == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "video_open: location is NULL");
        const focr_video_options opts = options ? *options : focr_video_options{FOCR_VIDEO_FILE, 0, 0, 0};
        if (opts.kind < FOCR_VIDEO_FILE || opts.kind > FOCR_VIDEO_GSTREAMER)
            return fail(FOCR_E_INVALID_ARGUMENT, "video_open: unknown kind " + std::to_string(opts.kind));
        if (opts.open_timeout_ms < 0 || opts.read_timeout_ms < 0)
            return fail(FOCR_E_INVALID_ARGUMENT, "video_open: negative timeout");
        if (opts.max_pixels > FOCR_MAX_IMAGE_PIXELS_CEILING)
            return fail(FOCR_E_INVALID_ARGUMENT, "video_open: max_pixels " + std::to_string(opts.max_pixels) +
                                                     " is over " + thousands(FOCR_MAX_IMAGE_PIXELS_CEILING));

        auto video = std::make_unique<focr_video>();
        video->location = location;
        video->kind = (focr_video_kind)opts.kind;
        video->max_pixels = opts.max_pixels == 0 ? FOCR_MAX_IMAGE_PIXELS_CEILING : opts.max_pixels;
        const focr_status status = opts.kind == FOCR_VIDEO_FILE ? open_file(location, video)
                                                                : open_live(location, opts, video);
        if (status != FOCR_OK) return status;
        // The size the container or backend claims, before any frame is decoded.
        const focr_status size = check_size((uint64_t)video->info.width, (uint64_t)video->info.height,
                                            video->max_pixels, video->location, "the stream claims frames of");
        if (size != FOCR_OK) return size;  // video (and a live reader) released here
        *out = video.release();
        return FOCR_OK;
    });
}

extern "C" focr_status focr_media_video_get_info(const focr_video *video, focr_video_info *info) {
    if (video == nullptr || info == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "video_get_info: NULL argument");
    *info = video->info;
    return FOCR_OK;
}

extern "C" const char *focr_media_video_backend_name(const focr_video *video) {
    return video == nullptr ? "" : video->backend.c_str();
}

extern "C" focr_status focr_media_video_read(focr_video *video, focr_decoded_image **frame_out,
                                       focr_video_frame_info *info) {
    return guarded("video_read", [&]() -> focr_status {
        if (video == nullptr || frame_out == nullptr || info == nullptr)
            return fail(FOCR_E_INVALID_ARGUMENT, "video_read: NULL argument");
        *frame_out = nullptr;
        *info = focr_video_frame_info{-1, 0};
        if (video->stalled) return fail(FOCR_E_STALLED, video->stall_message);
        if (video->interrupted.load()) video->ended = true;
        if (video->ended) return FOCR_OK;
        cv::Mat m;
        focr_status status;
        if (video->reader) {
            status = read_live(video, m, *info);
        } else {
            double t = 0;
            status = read_file(video, m, t);
            info->timestamp_ms = t;
            info->received_ns = now_ns();
        }
        if (status != FOCR_OK || m.empty()) return status;
        // A stream whose frames grow after the open: that frame is refused, the next is read.
        const focr_status size = check_size((uint64_t)m.cols, (uint64_t)m.rows, video->max_pixels, video->location,
                                            "a frame of");
        if (size != FOCR_OK) return size;

        auto image = std::make_unique<focr_decoded_image>();
        image->pixels = to_bgr8(m);
        if (!video->reader) {
            video->frames_read += 1;
            video->last_timestamp = info->timestamp_ms;
        }
        *frame_out = image.release();
        return FOCR_OK;
    });
}

extern "C" focr_status focr_media_video_interrupt(focr_video *video) {
    return guarded("video_interrupt", [&]() -> focr_status {
        if (video == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "video_interrupt: NULL argument");
        video->interrupted.store(true);
        if (video->reader) {
            {
                std::lock_guard<std::mutex> lock(video->reader->mutex);
                video->reader->interrupted = true;
            }
            video->reader->changed.notify_all();
        }
        return FOCR_OK;
    });
}

extern "C" void focr_media_video_destroy(focr_video *video) {
    if (video == nullptr) return;
    try {
        delete video;  // releases the capture, or lets the reader thread go
    } catch (...) {
    }
}
