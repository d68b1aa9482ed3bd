// The skew of the text lines (focr_auto.h): measured by Leptonica (focr_find_skew). The small
// rotation that corrects it, and the smoothing and padding that go with a turned image, are plain
// image operations (focr.h: image/rotate_small.cpp, image/smooth.cpp, image/borders.cpp).
#include <algorithm>
#include <cmath>
#include <memory>
#include <new>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <allheaders.h>  // Leptonica: pixFindSkewSweepAndSearch

#include "focr_common/descriptor.hpp"
#include "focr_common/status.hpp"
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
