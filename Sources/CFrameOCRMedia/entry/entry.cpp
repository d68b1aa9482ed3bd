// libFrameOCRMedia's one entry point: the table of its calls (focr_media_calls.h), filled from the
// one list, which the shim's loader (Sources/CFrameOCR/loader/media_loader.cpp) finds in the
// process or through dlsym after dlopen.
#include "entry/media_calls.hpp"
#include "focr_media_calls.h"

extern "C" const focr_media_api *focr_media_entry(void) {
    static const focr_media_api api = {
        FOCR_MEDIA_API_VERSION,
        sizeof(focr_media_api),
#define FOCR_MEDIA_ENTRY(ret, name, params, args) focr_media_##name,
        FOCR_MEDIA_CALLS(FOCR_MEDIA_ENTRY)
#undef FOCR_MEDIA_ENTRY
        focr_last_error,
    };
    return &api;
}
