// Internal to FrameOCR's C code (CFrameOCRCommon): the owned decoded image handed out for image
// files (the shim's CFrameOCR/files/decode.cpp, Leptonica; libFrameOCRMedia's
// CFrameOCRMedia/files/files.cpp, OpenCV) and video frames (CFrameOCRMedia/video/reader.cpp),
// viewed and freed by decoded_image.cpp on either side, and the one conversion every decoder's
// pixels go through.
#pragma once
#include <opencv2/core.hpp>

#include "focr_common.h"

/// Pixels the shim decoded and the caller owns (focr_decoded_image_destroy frees them).
struct focr_decoded_image {
    cv::Mat pixels;  // CV_8UC1 or CV_8UC3, continuous or not
};

namespace focr {

/// Whatever a decoder gave (1…4 channels, 8/16/32-bit, 64-bit float) as 8-bit GRAY or BGR, as
/// focr_files.h promises: 16-bit samples scaled by 1/257 and rounded, float samples by 255,
/// other depths stretched to 0…255; a last channel of 2 or 4 is alpha, flattened onto white
/// (round((c·a + 255·(255 − a)) / 255)). Throws std::runtime_error for another channel count.
cv::Mat to_gray_or_bgr8(cv::Mat m);

}  // namespace focr
