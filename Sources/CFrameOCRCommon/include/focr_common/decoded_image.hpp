// Internal to FrameOCR's C code (CFrameOCRCommon): the owned decoded image that libFrameOCRMedia
// hands out for image files (CFrameOCRMedia/files/files.cpp) and video frames
// (CFrameOCRMedia/video/reader.cpp), viewed and freed by decoded_image.cpp on either side.
#pragma once
#include <opencv2/core.hpp>

#include "focr_common.h"

/// Pixels the shim decoded and the caller owns (focr_decoded_image_destroy frees them).
struct focr_decoded_image {
    cv::Mat pixels;  // CV_8UC1 or CV_8UC3, continuous or not
};
