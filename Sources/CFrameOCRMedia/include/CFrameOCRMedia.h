// libFrameOCRMedia has no public headers: its calls are declared and documented in focr_files.h,
// focr_video.h, focr_detect.h and focr_recognize.h (CFrameOCRCommon), and the shim reaches them
// through the table of focr_media_calls.h (Sources/CFrameOCR/loader/media_loader.cpp).
