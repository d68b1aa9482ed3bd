// Image files through OpenCV's imgcodecs: decode to GRAY8 or BGR8, write GRAY8/BGR8/BGRA8.
#include <cerrno>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <allheaders.h>  // Leptonica: fallback decoder for formats OpenCV lacks (GIF)

#include "entry/media_calls.hpp"
#include "focr_common.h"
#include "focr_common/decoded_image.hpp"
#include "focr_common/descriptor.hpp"
#include "focr_common/status.hpp"
#include "focr_files.h"
#include "limits.hpp"

using namespace focr;

namespace {

bool is_jpeg(const std::vector<uint8_t> &bytes) {
    return bytes.size() >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF;
}

/// "DICM" at byte 128: the signature by which cv::imdecode picks its DICOM decoder (GDCM in
/// Debian's build), whatever the first bytes say. Debian's GDCM 3.0 stops the whole process with
/// an assert() on malformed files (found by Tests/Fuzz/fuzz_decode), so such bytes are refused
/// before OpenCV sees them. DICOM is no format FrameOCR reads.
bool claims_dicom(const std::vector<uint8_t> &bytes) {
    return bytes.size() >= 132 && bytes[128] == 'D' && bytes[129] == 'I' && bytes[130] == 'C' && bytes[131] == 'M';
}

/// Turns whatever imdecode gave (1…4 channels, 8/16/32-bit) into 8-bit GRAY or BGR.
cv::Mat normalize(cv::Mat m) {
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

/// Formats OpenCV's imgcodecs does not read (GIF in Debian's build): Leptonica decodes, and the
/// pixels come back through a lossless PNG in memory so one decode path handles every format.
cv::Mat decode_with_leptonica(const std::vector<uint8_t> &bytes) {
    setMsgSeverity(L_SEVERITY_NONE);
    PIX *pix = pixReadMem(bytes.data(), bytes.size());
    if (pix == nullptr) return cv::Mat();
    l_uint8 *png = nullptr;
    size_t png_size = 0;
    const l_int32 rc = pixWriteMem(&png, &png_size, pix, IFF_PNG);
    pixDestroy(&pix);
    if (rc != 0 || png == nullptr) return cv::Mat();
    cv::Mat m = cv::imdecode(cv::Mat(1, (int)png_size, CV_8UC1, png), cv::IMREAD_UNCHANGED);
    lept_free(png);
    return m;
}

uint32_t little_endian(const std::vector<uint8_t> &b, size_t at, int bytes) {
    uint32_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = v << 8 | b[at + (size_t)i];
    return v;
}

/// The size the file's header claims, read without decoding; false for a format or header that
/// cannot be read this way (the decoded image is then checked instead). The format comes from
/// Leptonica's findFileFormatBuffer. PNG (once its first chunk is IHDR), JPEG, TIFF, PNM, WebP
/// and JP2 headers are read by Leptonica's pixReadHeaderMem. For BMP and GIF, pixReadHeaderMem decodes the whole image, so
/// their two size fields are read here (BMP: BITMAPCOREHEADER int16 or BITMAPINFOHEADER int32 at
/// byte 18, a negative height meaning top-down rows; GIF: the logical screen, uint16 at byte 6).
bool header_size(const std::vector<uint8_t> &bytes, uint64_t &width, uint64_t &height) {
    uint8_t head[16] = {0};
    std::memcpy(head, bytes.data(), std::min(bytes.size(), sizeof head));
    l_int32 format = IFF_UNKNOWN;
    setMsgSeverity(L_SEVERITY_NONE);
    if (findFileFormatBuffer(head, &format) != 0) return false;
    int64_t w = 0, h = 0;
    if (format == IFF_PNG) {
        // Leptonica reads the size at bytes 16…23 without looking at the chunk there: only a
        // first chunk that is IHDR (as the PNG specification requires) is a header to trust.
        if (bytes.size() < 24 || std::memcmp(bytes.data() + 12, "IHDR", 4) != 0) return false;
    }
    if (format == IFF_BMP) {
        // The DIB header's own size names its kind: BITMAPCOREHEADER (12), OS/2 2.x (16, 64),
        // BITMAPINFOHEADER (40) and its V2–V5 successors (52, 56, 108, 124). Anything else is
        // no header whose size fields mean anything.
        static const uint32_t kinds[] = {12, 16, 40, 52, 56, 64, 108, 124};
        if (bytes.size() < 26) return false;
        const uint32_t kind = little_endian(bytes, 14, 4);
        if (std::find(std::begin(kinds), std::end(kinds), kind) == std::end(kinds)) return false;
        if (kind == 12) {
            w = (int16_t)little_endian(bytes, 18, 2);
            h = (int16_t)little_endian(bytes, 20, 2);
        } else {
            w = (int32_t)little_endian(bytes, 18, 4);
            h = (int32_t)little_endian(bytes, 22, 4);
        }
        h = h < 0 ? -h : h;
    } else if (format == IFF_GIF) {
        if (bytes.size() < 10) return false;
        w = little_endian(bytes, 6, 2);
        h = little_endian(bytes, 8, 2);
    } else if (format == IFF_PNG || format == IFF_JFIF_JPEG || L_FORMAT_IS_TIFF(format) || format == IFF_PNM ||
               format == IFF_WEBP || format == IFF_JP2) {
        l_int32 found = 0, lw = 0, lh = 0, bps = 0, spp = 0, cmap = 0;
        if (pixReadHeaderMem(bytes.data(), bytes.size(), &found, &lw, &lh, &bps, &spp, &cmap) != 0) return false;
        w = lw;
        h = lh;
    } else {
        return false;
    }
    if (w <= 0 || h <= 0) return false;
    width = (uint64_t)w;
    height = (uint64_t)h;
    return true;
}

focr_status decode(const std::vector<uint8_t> &bytes, const std::string &name, uint64_t max_pixels,
                   focr_decoded_image **out) {
    if (out == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "decode: out is NULL");
    *out = nullptr;
    if (max_pixels < 1 || max_pixels > FOCR_MAX_IMAGE_PIXELS_CEILING)
        return fail(FOCR_E_INVALID_ARGUMENT, "decode: max_pixels " + std::to_string(max_pixels) + " is outside 1…" +
                                                 thousands(FOCR_MAX_IMAGE_PIXELS_CEILING));
    if (bytes.empty()) return fail(FOCR_E_DECODE, name + ": empty file");
    if (claims_dicom(bytes))
        return fail(FOCR_E_DECODE, name + ": DICOM (\"DICM\" at byte 128) is not read: OpenCV's DICOM decoder "
                                          "aborts the process on malformed files");
    uint64_t width = 0, height = 0;
    if (header_size(bytes, width, height)) {
        const focr_status s = check_size(width, height, max_pixels, name, "the header claims");
        if (s != FOCR_OK) return s;
    }
    cv::Mat raw(1, (int)bytes.size(), CV_8UC1, const_cast<uint8_t *>(bytes.data()));
    cv::Mat m;
    try {
        // JPEG has no alpha and (here) no 16-bit samples: decode with flags that let OpenCV apply
        // the EXIF orientation. Everything else keeps alpha and bit depth (IMREAD_UNCHANGED).
        m = is_jpeg(bytes) ? cv::imdecode(raw, cv::IMREAD_ANYCOLOR | cv::IMREAD_ANYDEPTH)
                           : cv::imdecode(raw, cv::IMREAD_UNCHANGED);
    } catch (const cv::Exception &e) {
        // The header passed ours (or Leptonica could not read it) but not OpenCV's own ceiling.
        if (e.func == "validateInputImageSize")
            return fail(FOCR_E_TOO_LARGE, name + ": more pixels than OpenCV decodes (CV_IO_MAX_IMAGE_PIXELS, " +
                                              thousands(FOCR_MAX_IMAGE_PIXELS_CEILING) + ")");
        throw;
    }
    if (m.empty()) m = decode_with_leptonica(bytes);
    if (m.empty()) return fail(FOCR_E_DECODE, name + ": not a decodable image (unknown format or truncated)");
    // A format whose header Leptonica does not read is held to the same limit once decoded.
    const focr_status s = check_size((uint64_t)m.cols, (uint64_t)m.rows, max_pixels, name, "decoded to");
    if (s != FOCR_OK) return s;
    auto *img = new focr_decoded_image();
    img->pixels = normalize(m);
    *out = img;
    return FOCR_OK;
}

}  // namespace

extern "C" focr_status focr_media_image_decode_file(const char *path, uint64_t max_pixels, focr_decoded_image **out) {
    return guarded("decode_file", [&]() -> focr_status {
        if (path == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "decode_file: path is NULL");
        std::ifstream f(path, std::ios::binary);
        if (!f) return fail(FOCR_E_IO, std::string(path) + ": " + std::strerror(errno));
        std::vector<uint8_t> bytes;
        try {
            // libstdc++ reports a failed read (a directory: EISDIR, an I/O error) by throwing from
            // the stream buffer; that is an unreadable file (FOCR_E_IO), not an internal error.
            bytes.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
        } catch (const std::bad_alloc &) {
            throw;
        } catch (const std::exception &e) {
            return fail(FOCR_E_IO, std::string(path) + ": read error: " + e.what());
        }
        if (f.bad()) return fail(FOCR_E_IO, std::string(path) + ": read error");
        return decode(bytes, path, max_pixels, out);
    });
}

extern "C" focr_status focr_media_image_decode_memory(const uint8_t *bytes, size_t count, uint64_t max_pixels,
                                                      focr_decoded_image **out) {
    return guarded("decode_memory", [&]() -> focr_status {
        if (bytes == nullptr && count > 0) return fail(FOCR_E_INVALID_ARGUMENT, "decode_memory: bytes is NULL");
        return decode(std::vector<uint8_t>(bytes, bytes + count), "<memory>", max_pixels, out);
    });
}

extern "C" focr_status focr_media_image_write_file(const focr_image *image, const char *path) {
    return guarded("write_file", [&]() -> focr_status {
        focr_status s = validate(image, "image");
        if (s != FOCR_OK) return s;
        if (path == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "write_file: path is NULL");
        if (image->format != FOCR_FORMAT_GRAY8 && image->format != FOCR_FORMAT_BGR8 &&
            image->format != FOCR_FORMAT_BGRA8)
            return fail(FOCR_E_UNSUPPORTED, "write_file: only GRAY8, BGR8 and BGRA8 can be written");
        bool ok = false;
        try {
            ok = cv::imwrite(path, wrap_plane0(*image));
        } catch (const cv::Exception &e) {
            return fail(FOCR_E_IO, std::string(path) + ": " + e.what());
        }
        if (!ok) return fail(FOCR_E_IO, std::string(path) + ": could not write (unknown extension or unwritable)");
        return FOCR_OK;
    });
}
