// libFrameOCRMedia.so has no public headers: the shim reaches it through media/media_api.h.
