/*
 * focr_video.h — FrameOCR's C shim: reading video frame by frame (OpenCV videoio) from a file, a
 * camera, a network stream or a GStreamer pipeline.
 *
 * A pure-C interface over `cv::VideoCapture`. The kind of source picks the backend:
 * - a file: `cv::CAP_FFMPEG` (MP4, MOV, MKV, AVI, WebM… with whatever codecs the installed
 *   libavcodec decodes; a still image opens as a video of one frame);
 * - a camera device (`/dev/video0`): `cv::CAP_V4L2`;
 * - a network stream (`rtsp://`, `http://`, `https://`, `udp://`, `tcp://`…): `cv::CAP_FFMPEG`,
 *   with `CAP_PROP_OPEN_TIMEOUT_MSEC` and `CAP_PROP_READ_TIMEOUT_MSEC` set from the options;
 * - a GStreamer pipeline that ends in `appsink`: `cv::CAP_GSTREAMER`.
 * C++17 inside libFrameOCRMedia.so (Sources/CFrameOCRMedia/video/reader.cpp), which the shim's
 * loader (Sources/CFrameOCR/loader/media_loader.cpp) finds in the process or opens with dlopen on
 * the first call: videoio brings FFmpeg and GStreamer (about 240 shared libraries), which a process
 * that opens no video never loads. When the library is neither linked in nor found, the calls here
 * fail with FOCR_E_UNAVAILABLE (focr_video_backend_name gives "", the _destroy calls do nothing)
 * and say where it was looked for.
 *
 * Files are read on the calling thread. A live source (camera, stream, pipeline) is opened and
 * read on a reader thread of its own, so that the caller can wait for it with a timeout (the
 * watchdog): OpenCV's GStreamer backend blocks for ever in open and read when no buffer comes,
 * V4L2 waits up to its select timeout (10 s), FFmpeg up to its own timeouts. The reader thread
 * reads only when asked (no read-ahead), so a live handle delivers frames as a file handle does.
 *
 * The writer (`focr_video_writer`, `cv::VideoWriter` with the FFmpeg backend) is in
 * Sources/CFrameOCRMedia/video/writer.cpp.
 *
 * Ownership and lifetime rules
 * ----------------------------
 * - `focr_video` is an opaque handle made by focr_video_open and freed by focr_video_destroy.
 *   `focr_video_destroy(NULL)` is a no-op. A handle is NOT thread-safe: use it from one thread
 *   at a time (it may move between threads). The one exception is focr_video_interrupt, which
 *   may be called from any thread while another reads.
 * - Every frame focr_video_read hands out is a new, owned `focr_decoded_image` (declared in
 *   focr_common.h): the caller frees it with focr_decoded_image_destroy, at any time and from any
 *   thread, before or after the handle is destroyed. Frames never share memory with one
 *   another or with the handle, so a frame may be kept (queued, processed on another thread)
 *   while the next ones are read. This is the one allocation per frame the shim makes: the
 *   decoded pixels themselves, which the caller holds for as long as it needs them.
 * - End of stream is not an error: focr_video_read returns FOCR_OK and sets `*frame_out` to
 *   NULL. Reading again after the end keeps returning the same.
 * - A live source that delivers nothing within its timeout fails with FOCR_E_STALLED, and so
 *   does every later read of that handle: destroy it, and open the source again to reconnect.
 * - focr_video_destroy of a live handle stops its reader thread. A reader still inside OpenCV
 *   (a stalled read) is waited for up to one second — FFmpeg's own timeouts, set a little
 *   after the watchdog's, end such a read — and is otherwise left to finish on its own: it then
 *   frees the capture itself. A GStreamer pipeline that never delivers again keeps its thread
 *   and its capture until the process ends (OpenCV gives no way to cancel its blocking read).
 * - `focr_video_writer` is an opaque handle made by focr_video_writer_open and freed by
 *   focr_video_writer_destroy (which closes the file if focr_video_writer_close was not
 *   called); `focr_video_writer_destroy(NULL)` is a no-op. NOT thread-safe, like focr_video.
 *   Frames handed to focr_video_writer_write are borrowed for the call (encoded before it
 *   returns). The handle keeps one scratch frame for sizes it pads (below): no allocation per
 *   frame.
 * - Every entry point returns a focr_status; on failure focr_last_error() (focr_common.h)
 *   explains it for the calling thread. No C++ exception ever leaves the shim.
 */
#ifndef FOCR_VIDEO_H
#define FOCR_VIDEO_H

#include <stdint.h>

#include "focr_common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct focr_video focr_video;

/** What focr_video_open opens: the kind of source, which decides the backend and the checks. */
typedef enum focr_video_kind {
    FOCR_VIDEO_FILE = 0,      /* a video file (CAP_FFMPEG), read on the calling thread */
    FOCR_VIDEO_DEVICE = 1,    /* a V4L2 camera device path such as /dev/video0 (CAP_V4L2) */
    FOCR_VIDEO_URL = 2,       /* a network stream: rtsp, http(s), udp, tcp… (CAP_FFMPEG) */
    FOCR_VIDEO_GSTREAMER = 3  /* a GStreamer pipeline description ending in appsink (CAP_GSTREAMER) */
} focr_video_kind;

/** How to open a source. Zero-initialized: a file, no timeouts. */
typedef struct focr_video_options {
    int32_t kind;            /* a focr_video_kind */
    int32_t open_timeout_ms; /* live kinds: the open must finish within it, else FOCR_E_STALLED;
                                0: wait as long as the backend does. Ignored for files. */
    int32_t read_timeout_ms; /* live kinds: a read must deliver a frame within it, else
                                FOCR_E_STALLED; 0: wait as long as the backend does. Ignored for
                                files. */
    uint64_t max_pixels;     /* the largest frame accepted, width × height in pixels, up to
                                FOCR_MAX_IMAGE_PIXELS_CEILING (0: that ceiling). A source whose
                                claimed frame size is over it (or over FOCR_MAX_IMAGE_SIDE on a
                                side) fails to open with FOCR_E_TOO_LARGE; a frame over it fails
                                that read with FOCR_E_TOO_LARGE. */
} focr_video_options;

/** What the container or backend says about a video. Values it does not give are marked. */
typedef struct focr_video_info {
    int64_t frame_count; /* frames in the file as the container reports it, or -1 when unknown;
                            an estimate for some containers (the decoder may deliver a few fewer).
                            Always -1 for devices and pipelines; for a URL, known only for a
                            remote file (a live stream has none) */
    double fps;          /* frames per second as reported, or 0 when unknown */
    int32_t width;       /* pixels of a decoded frame */
    int32_t height;      /* pixels of a decoded frame */
} focr_video_info;

/** What focr_video_read says about the frame it hands out. */
typedef struct focr_video_frame_info {
    double timestamp_ms; /* file: the presentation time in ms from the start (CAP_PROP_POS_MSEC,
                            or index × 1000 / fps where missing or not increasing; always strictly
                            increasing). Live: the backend's time of the frame in ms
                            (CAP_PROP_POS_MSEC: FFmpeg's presentation time from the start of the
                            stream, V4L2's driver timestamp), or -1 where the backend gives none
                            (GStreamer, whose position query OpenCV itself calls unreliable,
                            opencv#19025); not checked for order */
    int64_t received_ns; /* the monotonic clock (std::chrono::steady_clock) in ns when the frame
                            was read; one clock for every handle of the process */
} focr_video_frame_info;

/**
 * Opens `location` for reading, first frame next: a file path, a device path, a URL or a
 * pipeline description, as `options->kind` says (`options` NULL: a file). `*out` is set on
 * success and must be freed with focr_video_destroy.
 * Errors: FOCR_E_IO (a file or device missing or unreadable, a directory, not a character
 * device; a stream or pipeline the backend cannot open: connection refused, no such stream, a
 * missing GStreamer element), FOCR_E_DECODE (FFmpeg cannot open a file as a video, e.g. a text
 * file or a truncated MP4; a live source with no frame size), FOCR_E_STALLED (a live source's
 * open did not finish within `open_timeout_ms`), FOCR_E_INVALID_ARGUMENT (NULL pointers, an
 * unknown kind, negative timeouts).
 */
focr_status focr_video_open(const char *location, const focr_video_options *options, focr_video **out);

/** Fills `*info` (frame count, frame rate, frame size). */
focr_status focr_video_get_info(const focr_video *video, focr_video_info *info);

/** The backend OpenCV opened the source with ("FFMPEG", "V4L2", "GSTREAMER"), valid for the
    handle's lifetime. Never NULL for a valid handle. */
const char *focr_video_backend_name(const focr_video *video);

/**
 * Decodes the next frame. On success `*frame_out` is an owned BGR8 image (GRAY8 for a backend
 * that delivers one channel), freed with focr_decoded_image_destroy, and `*info` says when it
 * was taken (see focr_video_frame_info). At the end of the stream, and after
 * focr_video_interrupt, `*frame_out` is NULL and the status FOCR_OK.
 * Errors: FOCR_E_STALLED (a live source delivered no frame within `read_timeout_ms`, counted
 * from this call; the handle stays stalled), FOCR_E_DECODE (a frame could not be decoded),
 * FOCR_E_OPENCV, FOCR_E_OUT_OF_MEMORY.
 */
focr_status focr_video_read(focr_video *video, focr_decoded_image **frame_out, focr_video_frame_info *info);

/**
 * Ends the source from any thread: a read waiting for a live frame returns at once (FOCR_OK,
 * no frame), and every read after it reports the end. Safe to call while another thread is in
 * focr_video_read, and more than once; the handle must stay alive until both calls return.
 */
focr_status focr_video_interrupt(focr_video *video);

/** Closes the source and frees the handle (see the lifetime rules above). Frames already read
    stay valid. */
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
