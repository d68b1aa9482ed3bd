/*
 * focr_media_calls.h — internal to FrameOCR's C code (not part of any module): the one list of the
 * calls that libFrameOCRMedia implements and the shim forwards, and the table that carries them.
 *
 * The image-file and video code needs OpenCV's imgcodecs and videoio, which load about 200 shared
 * libraries (GDAL, FFmpeg, GStreamer) and 50 MB, and the text detector and recognizer need OpenVINO
 * (focr_openvino.h, opened with dlopen on the first network). It
 * lives in a target of its own, CFrameOCRMedia: the library libFrameOCRMedia.so for this package's
 * programs, which the shim opens with dlopen on the first image file Leptonica does not read (or
 * image written), video, text detector or text
 * recognizer; linked in
 * statically for a package that depends on the FrameOCR product (the product lists the target).
 * Either way the shim reaches it only through the table below (Sources/CFrameOCR/loader/).
 *
 * Each call is written once, as one line of FOCR_MEDIA_CALLS:
 *
 *   X(return type, name, (parameters), (arguments))
 *
 * - the public function `focr_NAME`, declared and documented in focr_files.h, focr_video.h,
 *   focr_detect.h, focr_recognize.h or focr_openvino.h, is defined by the shim's loader from this line
 *   (loader/media_loader.cpp: FOCR_MEDIA_FORWARD), so the compiler checks the line against the public declaration;
 * - libFrameOCRMedia implements it as `focr_media_NAME` with the same parameters, declared from
 *   this line (CFrameOCRMedia/entry/media_calls.hpp) and defined in its room (files/, video/,
 *   detection/, recognition/), so the compiler checks the implementation against the line too;
 * - the table's field `NAME` and its filling (CFrameOCRMedia/entry/entry.cpp) come from this line.
 *
 * `(arguments)` names the parameters in order: the loader passes them on as they are. How the
 * loader forwards a call depends on its return type: a focr_status call first sets every handle
 * output (a `T **` parameter) to NULL, then fails with FOCR_E_UNAVAILABLE when the library cannot
 * be had, and copies the library's message into the shim's last error when the call fails; a
 * `void` call (a _destroy) does nothing for a NULL handle; a `const char *` call (a name) gives ""
 * for a NULL handle or without the library.
 *
 * Adding a call: one line here, its declaration and documentation in the public header, its
 * definition as focr_media_NAME in CFrameOCRMedia. Bump FOCR_MEDIA_API_VERSION whenever the list
 * changes: a library from another build is refused (its version or its table's size differs).
 */
#ifndef FOCR_MEDIA_CALLS_H
#define FOCR_MEDIA_CALLS_H

#include <stddef.h>
#include <stdint.h>

#include "focr_common.h"
#include "focr_detect.h"
#include "focr_dnn.h"
#include "focr_files.h"
#include "focr_openvino.h"
#include "focr_recognize.h"
#include "focr_video.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Bumped whenever the table changes: a library from another build is refused. */
#define FOCR_MEDIA_API_VERSION 15

/* clang-format off */
#define FOCR_MEDIA_CALLS(X)                                                                                          \
    /* Image files through OpenCV (focr_files.h; CFrameOCRMedia/files/files.cpp) */                                  \
    X(focr_status, image_decode_opencv,                                                                              \
      (const uint8_t *bytes, size_t count, uint64_t max_pixels, focr_decoded_image **out),                           \
      (bytes, count, max_pixels, out))                                                                               \
    X(focr_status, image_write_file, (const focr_image *image, const char *path, int32_t quality),                  \
      (image, path, quality))                                                                                        \
    X(focr_status, image_encode,                                                                                     \
      (const focr_image *image, const char *extension, int32_t quality, uint8_t **bytes, size_t *count),             \
      (image, extension, quality, bytes, count))                                                                     \
    /* Video, read (focr_video.h; CFrameOCRMedia/video/reader.cpp) */                                                \
    X(focr_status, video_open, (const char *location, const focr_video_options *options, focr_video **out),         \
      (location, options, out))                                                                                      \
    X(focr_status, video_get_info, (const focr_video *video, focr_video_info *info), (video, info))                 \
    X(const char *, video_backend_name, (const focr_video *video), (video))                                          \
    X(focr_status, video_read, (focr_video *video, focr_decoded_image **frame_out, focr_video_frame_info *info),     \
      (video, frame_out, info))                                                                                      \
    X(focr_status, video_interrupt, (focr_video *video), (video))                                                    \
    X(void, video_destroy, (focr_video *video), (video))                                                             \
    /* Video, written (focr_video.h; CFrameOCRMedia/video/writer.cpp) */                                             \
    X(focr_status, video_writer_open,                                                                                \
      (const char *path, double fps, int32_t width, int32_t height, const char *fourcc, focr_video_writer **out),    \
      (path, fps, width, height, fourcc, out))                                                                       \
    X(focr_status, video_writer_size, (const focr_video_writer *writer, int32_t *width, int32_t *height),           \
      (writer, width, height))                                                                                       \
    X(focr_status, video_writer_write, (focr_video_writer *writer, const focr_image *frame), (writer, frame))       \
    X(focr_status, video_writer_close, (focr_video_writer *writer), (writer))                                        \
    X(void, video_writer_destroy, (focr_video_writer *writer), (writer))                                             \
    /* The text detector (focr_detect.h; CFrameOCRMedia/detection/detector.cpp) */                                   \
    X(focr_status, text_detector_create, (const char *model_path, int32_t device, focr_text_detector **out),       \
      (model_path, device, out))                                                                                     \
    X(void, text_detector_destroy, (focr_text_detector *detector), (detector))                                       \
    X(focr_status, text_detector_device, (const focr_text_detector *detector, focr_dnn_decision *decision),         \
      (detector, decision))                                                                                          \
    X(focr_status, text_detector_detect,                                                                             \
      (focr_text_detector *detector, const focr_image *src, const focr_detector_params *params,                      \
       focr_detected_text *out, int32_t capacity, int32_t *count),                                                   \
      (detector, src, params, out, capacity, count))                                                                \
    /* The text recognizer (focr_recognize.h; CFrameOCRMedia/recognition/recognizer.cpp) */                          \
    X(focr_status, text_recognizer_create,                                                                           \
      (const char *model_path, const char *keys_path, int32_t device, focr_text_recognizer **out),                   \
      (model_path, keys_path, device, out))                                                                          \
    X(void, text_recognizer_destroy, (focr_text_recognizer *recognizer), (recognizer))                               \
    X(focr_status, text_recognizer_device, (const focr_text_recognizer *recognizer, focr_dnn_decision *decision),   \
      (recognizer, decision))                                                                                        \
    X(focr_status, text_recognizer_key_count, (const focr_text_recognizer *recognizer, int32_t *count),             \
      (recognizer, count))                                                                                           \
    X(focr_status, text_recognizer_key, (const focr_text_recognizer *recognizer, int32_t index, const char **key),  \
      (recognizer, index, key))                                                                                      \
    X(focr_status, text_recognizer_recognize,                                                                        \
      (focr_text_recognizer *recognizer, const focr_image *src, const focr_recognizer_params *params,                \
       focr_recognized_char *out, int32_t capacity, focr_recognized_line *line),                                     \
      (recognizer, src, params, out, capacity, line))                                                               \
    X(focr_status, text_recognizer_recognize_batch,                                                                  \
      (focr_text_recognizer *recognizer, const focr_image *srcs, int32_t count, const focr_recognizer_params *params, \
       focr_recognized_char *out, int32_t capacity, focr_recognized_line *lines),                                    \
      (recognizer, srcs, count, params, out, capacity, lines))                                                      \
    /* The text-angle classifier (focr_recognize.h; CFrameOCRMedia/recognition/recognizer.cpp) */                    \
    X(focr_status, text_angle_classifier_create, (const char *model_path, focr_text_angle_classifier **out),        \
      (model_path, out))                                                                                             \
    X(void, text_angle_classifier_destroy, (focr_text_angle_classifier *classifier), (classifier))                   \
    X(focr_status, text_angle_classifier_classify,                                                                   \
      (focr_text_angle_classifier *classifier, const focr_image *src, float *upside_down),                          \
      (classifier, src, upside_down))                                                                                \
    X(focr_status, text_angle_classifier_classify_batch,                                                             \
      (focr_text_angle_classifier *classifier, const focr_image *srcs, int32_t count, float *upside_down),           \
      (classifier, srcs, count, upside_down))                                                                        \
    /* The neural runtime (focr_openvino.h; CFrameOCRMedia/openvino/runtime.cpp) */                                 \
    X(focr_status, openvino_runtime, (focr_openvino_info *info), (info))                                             \
    X(focr_status, openvino_configure, (const focr_openvino_config *config), (config))                              \
    X(focr_status, openvino_configuration, (focr_openvino_config *config), (config))
/* clang-format on */

/** The library's entry points, in the list's order, behind a version and the table's size. */
typedef struct focr_media_api {
    int32_t version; /* FOCR_MEDIA_API_VERSION as the library was built */
    size_t size;     /* sizeof(focr_media_api) as the library was built */
#define FOCR_MEDIA_API_FIELD(ret, name, params, args) ret(*name) params;
    FOCR_MEDIA_CALLS(FOCR_MEDIA_API_FIELD)
#undef FOCR_MEDIA_API_FIELD
    /** The library's own last error on the calling thread: when it is loaded with dlopen it has
        its own copy of focr_last_error, whose message the shim copies into its own. */
    const char *(*last_error)(void);
} focr_media_api;

/** libFrameOCRMedia's one exported symbol: its table (static, never NULL). */
const focr_media_api *focr_media_entry(void);

#ifdef __cplusplus
}
#endif

#endif /* FOCR_MEDIA_CALLS_H */
