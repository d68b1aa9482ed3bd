// Internal to the shim: an image made upright for an EXIF orientation, shared by the ops
// (image/operations.cpp: focr_orient, focr_convert_to_bgr) and the still decoder
// (files/decode.cpp: a JPEG's EXIF orientation).
#pragma once

#include <cstdint>

#include <opencv2/core.hpp>

namespace focr {

/// `in` as displayed for `orientation` (1…8, checked by the caller) into `out`, which gets the
/// upright size and `in`'s type: cv::rotate, cv::flip, cv::transpose. `out` must not be `in`.
void orient_mat(const cv::Mat &in, cv::Mat &out, int32_t orientation);

}  // namespace focr
