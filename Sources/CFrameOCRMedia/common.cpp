// The shim's error reporting and descriptor validation, compiled into libFrameOCRMedia.so too: the
// library is loaded with dlopen and cannot call into the program that loads it. Its errors reach
// the caller through focr_media_api.last_error (media/media.cpp copies the message).
#include "common/descriptor.cpp"
#include "common/status.cpp"
