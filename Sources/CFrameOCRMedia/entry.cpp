// libFrameOCRMedia.so's one entry point: the table the shim's media/media.cpp loads.
#include "media/media_api.h"

extern "C" {
focr_status focr_media_image_decode_file(const char *, uint64_t, focr_decoded_image **);
focr_status focr_media_image_decode_memory(const uint8_t *, size_t, uint64_t, focr_decoded_image **);
focr_status focr_media_image_write_file(const focr_image *, const char *);
focr_status focr_media_video_open(const char *, const focr_video_options *, focr_video **);
focr_status focr_media_video_get_info(const focr_video *, focr_video_info *);
const char *focr_media_video_backend_name(const focr_video *);
focr_status focr_media_video_read(focr_video *, focr_decoded_image **, focr_video_frame_info *);
focr_status focr_media_video_interrupt(focr_video *);
void focr_media_video_destroy(focr_video *);
focr_status focr_media_video_writer_open(const char *, double, int32_t, int32_t, const char *, focr_video_writer **);
focr_status focr_media_video_writer_size(const focr_video_writer *, int32_t *, int32_t *);
focr_status focr_media_video_writer_write(focr_video_writer *, const focr_image *);
focr_status focr_media_video_writer_close(focr_video_writer *);
void focr_media_video_writer_destroy(focr_video_writer *);
focr_status focr_media_text_detector_create(const char *, focr_text_detector **);
void focr_media_text_detector_destroy(focr_text_detector *);
focr_status focr_media_text_detector_detect(focr_text_detector *, const focr_image *, const focr_detector_params *,
                                            focr_detected_text *, int32_t, int32_t *);
}

extern "C" const focr_media_api *focr_media_entry(void) {
    static const focr_media_api api = {
        FOCR_MEDIA_API_VERSION,
        sizeof(focr_media_api),
        focr_media_image_decode_file,
        focr_media_image_decode_memory,
        focr_media_image_write_file,
        focr_media_video_open,
        focr_media_video_get_info,
        focr_media_video_backend_name,
        focr_media_video_read,
        focr_media_video_interrupt,
        focr_media_video_destroy,
        focr_media_video_writer_open,
        focr_media_video_writer_size,
        focr_media_video_writer_write,
        focr_media_video_writer_close,
        focr_media_video_writer_destroy,
        focr_media_text_detector_create,
        focr_media_text_detector_destroy,
        focr_media_text_detector_detect,
        focr_last_error,
    };
    return &api;
}
