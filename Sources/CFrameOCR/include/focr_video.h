/*
 * focr_video.h — FrameOCR's C shim: reading video files frame by frame, and writing them
 * (OpenCV videoio).
 *
 * A pure-C interface over `cv::VideoCapture` with OpenCV's FFmpeg backend (`cv::CAP_FFMPEG`):
 * MP4, MOV, MKV, AVI, WebM… with whatever codecs the installed libavcodec decodes. A still image
 * opens as a video of one frame. C++17 inside video/video.cpp. The writer (`focr_video_writer`,
 * `cv::VideoWriter` with the same backend) is in video/writer.cpp.
 *
 * Ownership and lifetime rules
 * ----------------------------
 * - `focr_video` is an opaque handle made by focr_video_open and freed by focr_video_destroy.
 *   `focr_video_destroy(NULL)` is a no-op. A handle is NOT thread-safe: use it from one thread
 *   at a time (it may move between threads).
 * - Every frame focr_video_read hands out is a new, owned `focr_decoded_image` (declared in
 *   focr.h): the caller frees it with focr_decoded_image_destroy, at any time and from any
 *   thread, before or after the handle is destroyed. Frames never share memory with one
 *   another or with the handle, so a frame may be kept (queued, processed on another thread)
 *   while the next ones are read. This is the one allocation per frame the shim makes: the
 *   decoded pixels themselves, which the caller holds for as long as it needs them.
 * - End of stream is not an error: focr_video_read returns FOCR_OK and sets `*frame_out` to
 *   NULL. Reading again after the end keeps returning the same.
 * - `focr_video_writer` is an opaque handle made by focr_video_writer_open and freed by
 *   focr_video_writer_destroy (which closes the file if focr_video_writer_close was not
 *   called); `focr_video_writer_destroy(NULL)` is a no-op. NOT thread-safe, like focr_video.
 *   Frames handed to focr_video_writer_write are borrowed for the call (encoded before it
 *   returns). The handle keeps one scratch frame for sizes it pads (below): no allocation per
 *   frame.
 * - Every entry point returns a focr_status; on failure focr_last_error() (focr.h) explains it
 *   for the calling thread. No C++ exception ever leaves the shim.
 */
#ifndef FOCR_VIDEO_H
#define FOCR_VIDEO_H

#include <stdint.h>

#include "focr.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct focr_video focr_video;

/** What the container says about a video. Values the container does not give are marked. */
typedef struct focr_video_info {
    int64_t frame_count; /* frames in the file as the container reports it, or -1 when unknown;
                            an estimate for some containers (the decoder may deliver a few fewer) */
    double fps;          /* frames per second as reported, or 0 when unknown */
    int32_t width;       /* pixels of a decoded frame */
    int32_t height;      /* pixels of a decoded frame */
} focr_video_info;

/**
 * Opens a video file for reading, first frame next. `*out` is set on success and must be freed
 * with focr_video_destroy.
 * Errors: FOCR_E_IO (missing, unreadable, or a directory), FOCR_E_DECODE (FFmpeg cannot open it
 * as a video, e.g. a text file or a truncated MP4), FOCR_E_INVALID_ARGUMENT (NULL pointers).
 */
focr_status focr_video_open(const char *path, focr_video **out);

/** Fills `*info` (frame count, frame rate, frame size). */
focr_status focr_video_get_info(const focr_video *video, focr_video_info *info);

/**
 * Decodes the next frame. On success `*frame_out` is an owned BGR8 image (GRAY8 only for a
 * backend that delivers one channel), freed with focr_decoded_image_destroy, and
 * `*timestamp_ms` its presentation time in milliseconds from the start of the stream:
 * `CAP_PROP_POS_MSEC` as the container gives it, or `index × 1000 / fps` where that is
 * missing or does not increase (timestamps handed out always strictly increase). At the end of
 * the stream `*frame_out` is NULL and the status FOCR_OK.
 * Errors: FOCR_E_DECODE (a frame could not be decoded), FOCR_E_OPENCV, FOCR_E_OUT_OF_MEMORY.
 */
focr_status focr_video_read(focr_video *video, focr_decoded_image **frame_out, double *timestamp_ms);

/** Closes the file and frees the handle. Frames already read stay valid. */
void focr_video_destroy(focr_video *video);

/* MARK: - Writing */

typedef struct focr_video_writer focr_video_writer;

/**
 * Creates (or truncates) the video file `path` for frames of `width` × `height` pixels at `fps`
 * frames per second: cv::VideoWriter with cv::CAP_FFMPEG, colour. The container comes from the
 * extension (FFmpeg's choice); the codec is `fourcc` (4 characters, e.g. "mp4v", "avc1",
 * "MJPG") or, when NULL, by the extension: .mp4, .m4v, .mov, .mkv → "mp4v" (MPEG-4 part 2);
 * .avi → "MJPG" (any case). 4:2:0 codecs need even sizes: an odd width or height is written one
 * pixel larger, the last column or row repeated (cv::copyMakeBorder, BORDER_REPLICATE), and
 * focr_video_writer_size says what the file holds. `*out` is set on success.
 * Errors: FOCR_E_INVALID_ARGUMENT (NULL pointers; fps not finite or outside (0, 1000]; a size
 * outside 1…65536; a fourcc that is not 4 printable characters), FOCR_E_IO (the directory is
 * missing or not writable, or `path` is a directory), FOCR_E_UNSUPPORTED (an extension with no
 * default codec and no fourcc given, or a container/codec pair FFmpeg cannot open).
 */
focr_status focr_video_writer_open(const char *path, double fps, int32_t width, int32_t height, const char *fourcc,
                                   focr_video_writer **out);

/** The size of the frames in the file (the size given, odd sides rounded up to even). */
focr_status focr_video_writer_size(const focr_video_writer *writer, int32_t *width, int32_t *height);

/**
 * Encodes one frame: `frame` is BGR8 of exactly the size given to focr_video_writer_open (any
 * bytes_per_row). Frames are shown at the writer's fps, one after another.
 * Errors: FOCR_E_INVALID_ARGUMENT (a bad descriptor, another format or size, a closed writer),
 * FOCR_E_OPENCV.
 */
focr_status focr_video_writer_write(focr_video_writer *writer, const focr_image *frame);

/**
 * Finishes the file (flushes the encoder, writes the container's index: cv::VideoWriter::release).
 * Calling it again does nothing. Errors: FOCR_E_IO when the file is not there afterwards.
 */
focr_status focr_video_writer_close(focr_video_writer *writer);

/** Closes the file if still open and frees the handle. */
void focr_video_writer_destroy(focr_video_writer *writer);

#ifdef __cplusplus
}
#endif

#endif /* FOCR_VIDEO_H */
