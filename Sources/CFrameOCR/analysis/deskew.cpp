// Skew and the geometry around it (focr_auto.h): the skew of the text lines measured by
// Leptonica (focr_find_skew), the small rotation that corrects it (focr_rotate_small), and the
// smoothing and padding that go with a turned image (focr_smooth, focr_pad).
#include <algorithm>
#include <cmath>
#include <memory>
#include <new>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <allheaders.h>  // Leptonica: pixFindSkewSweepAndSearch

#include "common/descriptor.hpp"
#include "common/status.hpp"
#include "focr_auto.h"

using namespace focr;

namespace {

struct PixDeleter {
    void operator()(PIX *p) const { pixDestroy(&p); }
};
using PixPtr = std::unique_ptr<PIX, PixDeleter>;

/// A 1 bpp Leptonica image of `ink` (nonzero = 1, foreground). Leptonica keeps 1 bpp pixels in
/// native-endian 32-bit words, the leftmost pixel in the most significant bit (GET_DATA_BIT), so
/// whole words are composed here and no byte swapping is needed on either endianness.
PixPtr pix_from_mask(const cv::Mat &ink) {
    PixPtr pix(pixCreate(ink.cols, ink.rows, 1));
    if (!pix) throw std::bad_alloc();
    l_uint32 *data = pixGetData(pix.get());
    const int wpl = pixGetWpl(pix.get());
    for (int y = 0; y < ink.rows; ++y) {
        const uint8_t *row = ink.ptr<uint8_t>(y);
        l_uint32 *line = data + (size_t)y * wpl;
        for (int x0 = 0; x0 < ink.cols; x0 += 32) {
            l_uint32 word = 0;
            const int n = std::min(32, ink.cols - x0);
            for (int b = 0; b < n; ++b)
                if (row[x0 + b]) word |= 0x80000000u >> b;
            line[x0 >> 5] = word;
        }
    }
    return pix;
}

}  // namespace

extern "C" focr_status focr_find_skew(const focr_image *gray, float max_degrees, float *angle_degrees, float *confidence) {
    return guarded("find_skew", [&]() -> focr_status {
        if (angle_degrees == nullptr || confidence == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "find_skew: an output is NULL");
        *angle_degrees = 0;
        *confidence = 0;
        focr_status s = validate(gray, "gray");
        if (s != FOCR_OK) return s;
        if (gray->format != FOCR_FORMAT_GRAY8) return fail(FOCR_E_INVALID_ARGUMENT, "find_skew: gray must be GRAY8");
        if (!(max_degrees >= 1 && max_degrees <= 45)) return fail(FOCR_E_INVALID_ARGUMENT, "find_skew: max_degrees not in 1…45");
        const cv::Mat in = wrap_plane0(*gray);
        cv::Mat ink;
        cv::threshold(in, ink, 0, 255, cv::THRESH_BINARY_INV | cv::THRESH_OTSU);
        PixPtr pix = pix_from_mask(ink);
        const bool large = (long)in.cols * in.rows >= 1000000;
        setMsgSeverity(L_SEVERITY_NONE);  // "max found at sweep edge" and the like go to stderr otherwise
        l_float32 angle = 0, conf = 0;
        if (pixFindSkewSweepAndSearch(pix.get(), &angle, &conf, large ? 4 : 2, large ? 2 : 1, max_degrees, 1.0f, 0.01f) != 0)
            return FOCR_OK;  // no ink, or no valid measurement: 0 and 0
        // Leptonica's angle is the clockwise rotation that deskews: the lines are turned the other way.
        *angle_degrees = conf > 0 ? -angle : 0;
        *confidence = conf;
        return FOCR_OK;
    });
}

extern "C" focr_status focr_rotate_small(const focr_image *src, float degrees, uint8_t fill, focr_image *dst) {
    return guarded("rotate_small", [&]() -> focr_status {
        focr_status s = validate_packed_pair(src, dst, "rotate_small");
        if (s != FOCR_OK) return s;
        if (!(degrees >= -45 && degrees <= 45)) return fail(FOCR_E_INVALID_ARGUMENT, "rotate_small: degrees not in -45…45");
        const cv::Mat in = wrap_plane0(*src);
        cv::Mat out = wrap_plane0(*dst);
        const uchar *before = out.data;
        // Forward map in pixel indices (pixel centers): d = R·(s − c_src) + c_dst; the same map in
        // continuous coordinates, since both centers move by the same half pixel.
        const double t = (double)degrees * CV_PI / 180, c = std::cos(t), sn = std::sin(t);
        const double sx = (in.cols - 1) / 2.0, sy = (in.rows - 1) / 2.0;
        const double dx = (out.cols - 1) / 2.0, dy = (out.rows - 1) / 2.0;
        const cv::Matx23d m(c, -sn, dx - (c * sx - sn * sy), sn, c, dy - (sn * sx + c * sy));
        cv::warpAffine(in, out, m, out.size(), cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar::all(fill));
        if (out.data != before) return fail(FOCR_E_INTERNAL, "rotate_small: OpenCV reallocated the destination");
        return FOCR_OK;
    });
}

extern "C" focr_status focr_smooth(const focr_image *src, float sigma, focr_image *dst) {
    return guarded("smooth", [&]() -> focr_status {
        focr_status s = validate_gray_pair(src, dst, "smooth");
        if (s != FOCR_OK) return s;
        if (!(sigma >= 0.1f && sigma <= 10.0f)) return fail(FOCR_E_INVALID_ARGUMENT, "smooth: sigma not in 0.1…10");
        const cv::Mat in = wrap_plane0(*src);
        cv::Mat out = wrap_plane0(*dst);
        const uchar *before = out.data;
        cv::GaussianBlur(in, out, cv::Size(), sigma, sigma, cv::BORDER_REPLICATE);
        if (out.data != before) return fail(FOCR_E_INTERNAL, "smooth: OpenCV reallocated the destination");
        return FOCR_OK;
    });
}

extern "C" focr_status focr_pad(const focr_image *src, int32_t border, uint8_t value, focr_image *dst) {
    return guarded("pad", [&]() -> focr_status {
        focr_status s = validate_packed_pair(src, dst, "pad");
        if (s != FOCR_OK) return s;
        if (border < 0 || border > 4096) return fail(FOCR_E_INVALID_ARGUMENT, "pad: border not in 0…4096");
        if (dst->width != src->width + 2 * border || dst->height != src->height + 2 * border)
            return fail(FOCR_E_INVALID_ARGUMENT, "pad: destination must have the padded size");
        const cv::Mat in = wrap_plane0(*src);
        cv::Mat out = wrap_plane0(*dst);
        const uchar *before = out.data;
        cv::copyMakeBorder(in, out, border, border, border, border, cv::BORDER_CONSTANT, cv::Scalar::all(value));
        if (out.data != before) return fail(FOCR_E_INTERNAL, "pad: OpenCV reallocated the destination");
        return FOCR_OK;
    });
}
