// The decoded images the shim hands out (focr_common.h): their view, their destruction, and the
// conversion of a decoder's pixels to them (focr_common/decoded_image.hpp). They
// are cv::Mat (core only), freed here whichever side made them: the program and
// libFrameOCRMedia.so use the same libopencv_core and the same operator delete.
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

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

cv::Mat focr::to_gray_or_bgr8(cv::Mat m) {
    if (m.depth() == CV_16U) {
        cv::Mat e;
        m.convertTo(e, CV_8U, 1.0 / 257.0);
        m = e;
    } else if (m.depth() == CV_32F || m.depth() == CV_64F) {
        cv::Mat e;
        m.convertTo(e, CV_8U, 255.0);
        m = e;
    } else if (m.depth() != CV_8U) {
        cv::Mat e;
        cv::normalize(m, e, 0, 255, cv::NORM_MINMAX, CV_8U);
        m = e;
    }
    const int cn = m.channels();
    if (cn == 2 || cn == 4) {
        // Flatten alpha onto white: out = round((c·a + 255·(255−a)) / 255).
        std::vector<cv::Mat> ch;
        cv::split(m, ch);
        cv::Mat alpha = ch.back();
        ch.pop_back();
        cv::Mat inv;
        cv::subtract(cv::Scalar(255), alpha, inv);
        for (auto &c : ch) {
            cv::Mat a16, c16, i16;
            c.convertTo(c16, CV_32S);
            alpha.convertTo(a16, CV_32S);
            inv.convertTo(i16, CV_32S);
            cv::Mat num = c16.mul(a16) + i16 * 255;
            num.convertTo(c, CV_8U, 1.0 / 255.0);
        }
        cv::Mat merged;
        cv::merge(ch, merged);
        m = merged;
    }
    if (m.channels() != 1 && m.channels() != 3)
        throw std::runtime_error("unsupported channel count " + std::to_string(m.channels()));
    return m;
}
