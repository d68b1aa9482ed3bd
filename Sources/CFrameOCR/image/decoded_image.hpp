// Internal to the shim: the owned decoded image handed out by image/files.cpp and video/video.cpp.
#pragma once
#include <opencv2/core.hpp>

/// Pixels the shim decoded and the caller owns (focr_decoded_image_destroy frees them).
struct focr_decoded_image {
    cv::Mat pixels;  // CV_8UC1 or CV_8UC3, continuous or not
};
