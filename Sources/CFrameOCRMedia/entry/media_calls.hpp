// Internal to libFrameOCRMedia: the declaration of every focr_media_NAME the library implements,
// generated from the one list (focr_media_calls.h, FOCR_MEDIA_CALLS), so that each room's
// definition (files/, video/, detection/, recognition/) is checked against the list by the
// compiler. Each has the contract of the public focr_NAME (focr_files.h, focr_video.h,
// focr_detect.h, focr_recognize.h).
#pragma once

#include "focr_media_calls.h"

extern "C" {
#define FOCR_MEDIA_DECLARE(ret, name, params, args) ret focr_media_##name params;
FOCR_MEDIA_CALLS(FOCR_MEDIA_DECLARE)
#undef FOCR_MEDIA_DECLARE
}
