// Video files written through OpenCV's videoio (cv::VideoWriter, FFmpeg backend): BGR8 frames in.
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>

#include <opencv2/core.hpp>
#include <opencv2/videoio.hpp>

#include "entry/media_calls.hpp"
#include "focr_common.h"
#include "focr_common/descriptor.hpp"
#include "focr_common/status.hpp"
#include "focr_video.h"

using namespace focr;

struct focr_video_writer {
    cv::VideoWriter writer;
    std::string path;
    int32_t width = 0, height = 0;              // frames handed in
    int32_t file_width = 0, file_height = 0;    // frames in the file (even sides)
    cv::Mat padded;                             // scratch for odd sizes, kept between frames
    bool closed = false;
};

namespace {

/// The lowercase extension of `path` ("" when none).
std::string extension(const std::string &path) {
    const size_t slash = path.find_last_of('/');
    const size_t dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    std::string e = path.substr(dot + 1);
    for (char &c : e) c = (char)std::tolower((unsigned char)c);
    return e;
}

/// The default codec for an extension, or "" when there is none.
std::string default_fourcc(const std::string &ext) {
    if (ext == "mp4" || ext == "m4v" || ext == "mov" || ext == "mkv") return "mp4v";
    if (ext == "avi") return "MJPG";
    return "";
}

/// The directory `path` is in ("." for a bare name).
std::string directory_of(const std::string &path) {
    const size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

}  // namespace

extern "C" focr_status focr_media_video_writer_open(const char *path, double fps, int32_t width, int32_t height,
                                              const char *fourcc, focr_video_writer **out) {
    return guarded("video_writer_open", [&]() -> focr_status {
        if (out == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "video_writer_open: out is NULL");
        *out = nullptr;
        if (path == nullptr || path[0] == 0) return fail(FOCR_E_INVALID_ARGUMENT, "video_writer_open: no path");
        if (!std::isfinite(fps) || fps <= 0 || fps > 1000)
            return fail(FOCR_E_INVALID_ARGUMENT, "video_writer_open: fps " + std::to_string(fps) + " not in (0, 1000]");
        if (width < 1 || height < 1 || width > 65536 || height > 65536)
            return fail(FOCR_E_INVALID_ARGUMENT, "video_writer_open: size " + std::to_string(width) + "x" +
                                                     std::to_string(height) + " not in 1…65536");
        std::string codec;
        if (fourcc != nullptr) {
            codec = fourcc;
            bool printable = codec.size() == 4;
            for (char c : codec) printable = printable && c >= 32 && c <= 126;
            if (!printable)
                return fail(FOCR_E_INVALID_ARGUMENT, "video_writer_open: FourCC '" + codec + "' is not 4 characters");
        } else {
            codec = default_fourcc(extension(path));
            if (codec.empty())
                return fail(FOCR_E_UNSUPPORTED, std::string(path) +
                                                    ": no default codec for this extension (use .mp4, .m4v, .mov, "
                                                    ".mkv or .avi, or give a FourCC)");
        }
        struct stat st;
        if (::stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            return fail(FOCR_E_IO, std::string(path) + ": is a directory");
        const std::string dir = directory_of(path);
        if (::stat(dir.c_str(), &st) != 0) return fail(FOCR_E_IO, dir + ": " + std::strerror(errno));
        if (!S_ISDIR(st.st_mode)) return fail(FOCR_E_IO, dir + ": not a directory");
        if (::access(dir.c_str(), W_OK) != 0) return fail(FOCR_E_IO, dir + ": " + std::strerror(errno));

        auto w = std::make_unique<focr_video_writer>();
        w->path = path;
        w->width = width;
        w->height = height;
        w->file_width = width + (width & 1);
        w->file_height = height + (height & 1);
        const int code = cv::VideoWriter::fourcc(codec[0], codec[1], codec[2], codec[3]);
        if (!w->writer.open(path, cv::CAP_FFMPEG, code, fps, cv::Size(w->file_width, w->file_height), true))
            return fail(FOCR_E_UNSUPPORTED, std::string(path) + ": FFmpeg cannot write codec '" + codec +
                                                "' in this container");
        *out = w.release();
        return FOCR_OK;
    });
}

extern "C" focr_status focr_media_video_writer_size(const focr_video_writer *writer, int32_t *width, int32_t *height) {
    if (writer == nullptr || width == nullptr || height == nullptr)
        return fail(FOCR_E_INVALID_ARGUMENT, "video_writer_size: NULL argument");
    *width = writer->file_width;
    *height = writer->file_height;
    return FOCR_OK;
}

extern "C" focr_status focr_media_video_writer_write(focr_video_writer *writer, const focr_image *frame) {
    return guarded("video_writer_write", [&]() -> focr_status {
        if (writer == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "video_writer_write: writer is NULL");
        if (writer->closed) return fail(FOCR_E_INVALID_ARGUMENT, writer->path + ": the writer is closed");
        focr_status s = validate(frame, "frame");
        if (s != FOCR_OK) return s;
        if (frame->format != FOCR_FORMAT_BGR8 || frame->width != writer->width || frame->height != writer->height)
            return fail(FOCR_E_INVALID_ARGUMENT, "video_writer_write: frame is format " + std::to_string(frame->format) +
                                                     " " + std::to_string(frame->width) + "x" +
                                                     std::to_string(frame->height) + ", the writer takes BGR8 " +
                                                     std::to_string(writer->width) + "x" +
                                                     std::to_string(writer->height));
        const cv::Mat in = wrap_plane0(*frame);
        if (writer->file_width == writer->width && writer->file_height == writer->height) {
            writer->writer.write(in);
        } else {
            cv::copyMakeBorder(in, writer->padded, 0, writer->file_height - writer->height, 0,
                               writer->file_width - writer->width, cv::BORDER_REPLICATE);
            writer->writer.write(writer->padded);
        }
        return FOCR_OK;
    });
}

extern "C" focr_status focr_media_video_writer_close(focr_video_writer *writer) {
    return guarded("video_writer_close", [&]() -> focr_status {
        if (writer == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "video_writer_close: writer is NULL");
        if (writer->closed) return FOCR_OK;
        writer->closed = true;
        writer->writer.release();
        struct stat st;
        if (::stat(writer->path.c_str(), &st) != 0)
            return fail(FOCR_E_IO, writer->path + ": not there after closing: " + std::strerror(errno));
        return FOCR_OK;
    });
}

extern "C" void focr_media_video_writer_destroy(focr_video_writer *writer) {
    if (writer == nullptr) return;
    try {
        delete writer;  // cv::VideoWriter's destructor finishes the file
    } catch (...) {
    }
}
