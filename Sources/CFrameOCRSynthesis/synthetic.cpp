// Generated test scenes (focr_synthetic.h): text in a TrueType font (cv::freetype) and images
// composed on a canvas (cv::warpAffine).
#include <cmath>
#include <cstring>
#include <string>

#include <opencv2/core.hpp>
#include <opencv2/freetype.hpp>
#include <opencv2/imgproc.hpp>

#include "focr_common/descriptor.hpp"
#include "focr_common/status.hpp"
#include "focr_synthetic.h"

using namespace focr;

namespace {

struct TextLayout {
    cv::Ptr<cv::freetype::FreeType2> font;
    cv::Size text;
    int baseline = 0;
    cv::Size image;
};

/// Checks the arguments, loads the font and measures the text; failures name `where`.
focr_status layout(const char *where, const char *utf8, const char *font_path, int32_t height, int32_t margin,
                   TextLayout &out) {
    const std::string w(where);
    if (utf8 == nullptr || font_path == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, w + ": text or font is NULL");
    const size_t n = std::strlen(utf8);
    if (n == 0 || n > 1024) return fail(FOCR_E_INVALID_ARGUMENT, w + ": text must be 1…1024 bytes");
    if (height < 4 || height > 1024) return fail(FOCR_E_INVALID_ARGUMENT, w + ": height not in 4…1024");
    if (margin < 0 || margin > 4096) return fail(FOCR_E_INVALID_ARGUMENT, w + ": margin not in 0…4096");
    out.font = cv::freetype::createFreeType2();
    try {
        out.font->loadFontData(font_path, 0);
    } catch (const cv::Exception &) {
        return fail(FOCR_E_IO, w + ": cannot load the font " + font_path);
    }
    out.text = out.font->getTextSize(utf8, height, -1, &out.baseline);
    if (out.text.width <= 0 || out.text.height <= 0)
        return fail(FOCR_E_INVALID_ARGUMENT, w + ": the text has no glyphs in this font");
    out.image = cv::Size(out.text.width + 2 * margin, out.text.height + out.baseline + 2 * margin);
    return FOCR_OK;
}

}  // namespace

extern "C" focr_status focr_text_size(const char *utf8, const char *font_path, int32_t height, int32_t margin,
                                      int32_t *width, int32_t *out_height) {
    return guarded("text_size", [&]() -> focr_status {
        if (width == nullptr || out_height == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "text_size: an output is NULL");
        *width = *out_height = 0;
        TextLayout l;
        focr_status s = layout("text_size", utf8, font_path, height, margin, l);
        if (s != FOCR_OK) return s;
        *width = l.image.width;
        *out_height = l.image.height;
        return FOCR_OK;
    });
}

extern "C" focr_status focr_render_text(const char *utf8, const char *font_path, int32_t height, int32_t margin,
                                        uint8_t ink, uint8_t paper, focr_image *dst) {
    return guarded("render_text", [&]() -> focr_status {
        focr_status s = validate(dst, "dst");
        if (s != FOCR_OK) return s;
        if (dst->format != FOCR_FORMAT_GRAY8) return fail(FOCR_E_INVALID_ARGUMENT, "render_text: dst must be GRAY8");
        TextLayout l;
        if ((s = layout("render_text", utf8, font_path, height, margin, l)) != FOCR_OK) return s;
        if (dst->width != l.image.width || dst->height != l.image.height)
            return fail(FOCR_E_INVALID_ARGUMENT, "render_text: dst is not the size focr_text_size gives");
        // FreeType2::putText draws on 3-channel images only (OpenCV 4.6): drawn in BGR, then gray.
        cv::Mat bgr(l.image, CV_8UC3, cv::Scalar::all(paper));
        // With bottomLeftOrigin false, FreeType2::putText puts the baseline `height` below the
        // origin; getTextSize's height is the text's extent above the baseline (its descent is
        // `baseline`): the text's top lands `margin` below the image's top.
        l.font->putText(bgr, utf8, cv::Point(margin, margin + l.text.height - height), height, cv::Scalar::all(ink), -1,
                        cv::LINE_AA, false);
        cv::Mat out = wrap_plane0(*dst);
        const uchar *before = out.data;
        cv::cvtColor(bgr, out, cv::COLOR_BGR2GRAY);
        if (out.data != before) return fail(FOCR_E_INTERNAL, "render_text: OpenCV reallocated the destination");
        return FOCR_OK;
    });
}

extern "C" focr_status focr_warp_affine(const focr_image *src, const double m[6], focr_image *dst) {
    return guarded("warp_affine", [&]() -> focr_status {
        focr_status s = validate_packed_pair(src, dst, "warp_affine");
        if (s != FOCR_OK) return s;
        if (m == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "warp_affine: the map is NULL");
        for (int i = 0; i < 6; ++i)
            if (!std::isfinite(m[i])) return fail(FOCR_E_INVALID_ARGUMENT, "warp_affine: the map is not finite");
        const double det = m[0] * m[4] - m[1] * m[3];
        if (!(std::fabs(det) > 1e-9)) return fail(FOCR_E_INVALID_ARGUMENT, "warp_affine: the map is singular");
        const cv::Mat in = wrap_plane0(*src);
        cv::Mat out = wrap_plane0(*dst);
        const uchar *before = out.data;
        const cv::Matx23d map(m[0], m[1], m[2], m[3], m[4], m[5]);
        cv::warpAffine(in, out, map, out.size(), cv::INTER_LINEAR, cv::BORDER_TRANSPARENT);
        if (out.data != before) return fail(FOCR_E_INTERNAL, "warp_affine: OpenCV reallocated the destination");
        return FOCR_OK;
    });
}
