// The decoded images the shim hands out (focr_common.h): their view and their destruction. They
// are cv::Mat (core only), freed here whichever side made them: the program and
// libFrameOCRMedia.so use the same libopencv_core and the same operator delete.
#include <cstring>

#include <opencv2/core.hpp>

#include "focr_common.h"
#include "focr_common/decoded_image.hpp"

extern "C" focr_image focr_decoded_image_view(const focr_decoded_image *image) {
    focr_image v;
    std::memset(&v, 0, sizeof v);
    if (image == nullptr) return v;
    const cv::Mat &m = image->pixels;
    v.format = m.channels() == 1 ? FOCR_FORMAT_GRAY8 : FOCR_FORMAT_BGR8;
    v.width = m.cols;
    v.height = m.rows;
    v.plane_count = 1;
    v.planes[0] = focr_plane{m.data, m.step[0], m.cols, m.rows};
    return v;
}

extern "C" void focr_decoded_image_destroy(focr_decoded_image *image) { delete image; }
