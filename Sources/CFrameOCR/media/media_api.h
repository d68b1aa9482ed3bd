// Internal to the shim: the entry points of libFrameOCRMedia.so (Sources/CFrameOCRMedia), the
// image-file, video and text-detector code that needs OpenCV's imgcodecs, videoio and dnn. Those
// modules load about 200 shared libraries (GDAL, FFmpeg, GStreamer, protobuf) and 50 MB; the
// library is loaded with dlopen on the first image file or video opened or the first text
// detector made (media/media.cpp), so a process that does none of these never loads them. Each
// entry point has the contract of the focr.h / focr_video.h / focr_detect.h function of the same
// name without `media_`.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "focr.h"
#include "focr_detect.h"
#include "focr_video.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Bumped whenever the table changes: a library from another build is refused. */
#define FOCR_MEDIA_API_VERSION 3

typedef struct focr_media_api {
    int32_t version;
    size_t size; /* sizeof(focr_media_api) as the library was built */
    focr_status (*image_decode_file)(const char *path, uint64_t max_pixels, focr_decoded_image **out);
    focr_status (*image_decode_memory)(const uint8_t *bytes, size_t count, uint64_t max_pixels,
                                       focr_decoded_image **out);
    focr_status (*image_write_file)(const focr_image *image, const char *path);
    focr_status (*video_open)(const char *location, const focr_video_options *options, focr_video **out);
    focr_status (*video_get_info)(const focr_video *video, focr_video_info *info);
    const char *(*video_backend_name)(const focr_video *video);
    focr_status (*video_read)(focr_video *video, focr_decoded_image **frame_out, focr_video_frame_info *info);
    focr_status (*video_interrupt)(focr_video *video);
    void (*video_destroy)(focr_video *video);
    focr_status (*video_writer_open)(const char *path, double fps, int32_t width, int32_t height, const char *fourcc,
                                     focr_video_writer **out);
    focr_status (*video_writer_size)(const focr_video_writer *writer, int32_t *width, int32_t *height);
    focr_status (*video_writer_write)(focr_video_writer *writer, const focr_image *frame);
    focr_status (*video_writer_close)(focr_video_writer *writer);
    void (*video_writer_destroy)(focr_video_writer *writer);
    focr_status (*text_detector_create)(const char *model_path, focr_text_detector **out);
    void (*text_detector_destroy)(focr_text_detector *detector);
    focr_status (*text_detector_detect)(focr_text_detector *detector, const focr_image *src,
                                        const focr_detector_params *params, focr_detected_text *out, int32_t capacity,
                                        int32_t *count);
    /** The library's own last error on the calling thread (it keeps its own copy of focr_last_error). */
    const char *(*last_error)(void);
} focr_media_api;

/** The library's one exported symbol: its table (static, never NULL). */
const focr_media_api *focr_media_entry(void);

#ifdef __cplusplus
}
#endif
