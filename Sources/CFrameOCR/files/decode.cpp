// Image files decoded by Leptonica, which Tesseract loads anyway (focr_files.h:
// focr_image_decode_file, focr_image_decode_memory): the signature names the format, and only the
// formats FrameOCR names reach a decoder; the header's size is checked before any pixel is
// allocated; Leptonica's image becomes GRAY8 or BGR8 through the same conversion as OpenCV's
// (focr::to_gray_or_bgr8); a JPEG's EXIF orientation is applied here. What Leptonica does not read
// of those formats goes to OpenCV's imgcodecs in libFrameOCRMedia (focr_image_decode_opencv), so a
// process that reads stills Leptonica decodes never loads imgcodecs and GDAL.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include <allheaders.h>  // Leptonica: findFileFormatBuffer, pixReadHeaderMem, pixReadMem

#include "focr_common.h"
#include "focr_common/decoded_image.hpp"
#include "focr_common/limits.hpp"
#include "focr_common/status.hpp"
#include "focr_files.h"
#include "image/orient.hpp"

using namespace focr;

namespace {

/// The formats FrameOCR names, as Leptonica's findFileFormatBuffer tells them by their first
/// bytes; anything else is refused before any decoder sees it.
bool named_format(l_int32 format) {
    return format == IFF_PNG || format == IFF_JFIF_JPEG || L_FORMAT_IS_TIFF(format) || format == IFF_BMP ||
           format == IFF_PNM || format == IFF_WEBP || format == IFF_GIF || format == IFF_JP2;
}

/// Leptonica's name of a format ("png", "ps", "spix"), or "unknown".
std::string format_name(l_int32 format) {
    const char *extension = format == IFF_UNKNOWN ? nullptr : getFormatExtension(format);
    return extension != nullptr ? extension : "unknown";
}

uint32_t little_endian(const std::vector<uint8_t> &b, size_t at, int bytes) {
    uint32_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = v << 8 | b[at + (size_t)i];
    return v;
}

/// The size the header of a file of `format` claims, read without decoding; false for a header that
/// cannot be read this way (the decoded image is then checked instead). PNG (once its first chunk
/// is IHDR), JPEG, TIFF, PNM, WebP and JP2 headers are read by Leptonica's pixReadHeaderMem. For
/// BMP and GIF, pixReadHeaderMem decodes the whole image, so their two size fields are read here
/// (BMP: BITMAPCOREHEADER uint16 or BITMAPINFOHEADER int32 at byte 18, a negative height meaning
/// top-down rows; GIF: the logical screen, uint16 at byte 6).
bool header_size(const std::vector<uint8_t> &bytes, l_int32 format, uint64_t &width, uint64_t &height) {
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
        if (kind == 12) {  // BITMAPCOREHEADER: unsigned 16-bit sizes
            w = little_endian(bytes, 18, 2);
            h = little_endian(bytes, 20, 2);
        } else {
            w = (int32_t)little_endian(bytes, 18, 4);
            h = (int32_t)little_endian(bytes, 22, 4);
        }
        h = h < 0 ? -h : h;
    } else if (format == IFF_GIF) {
        if (bytes.size() < 10) return false;
        w = little_endian(bytes, 6, 2);
        h = little_endian(bytes, 8, 2);
    } else {
        l_int32 found = 0, lw = 0, lh = 0, bps = 0, spp = 0, cmap = 0;
        if (pixReadHeaderMem(bytes.data(), bytes.size(), &found, &lw, &lh, &bps, &spp, &cmap) != 0) return false;
        w = lw;
        h = lh;
    }
    if (w <= 0 || h <= 0) return false;
    width = (uint64_t)w;
    height = (uint64_t)h;
    return true;
}

/// Why Leptonica is not asked, or "" when it is. Found by decoding generated files of each format
/// with both decoders (Tests/CFrameOCRTests/files): Leptonica 1.82 keeps only the high byte of a
/// 16-bit PNG's samples (v >> 8, not v / 257 rounded as focr_files.h promises); it reads a 32-bit
/// BMP's pixels one byte off (red lost, alpha as blue) and does not read 16-bit ones; and it drops
/// a JPEG 2000's alpha channel where FrameOCR flattens it onto white.
const char *opencv_only(const std::vector<uint8_t> &bytes, l_int32 format) {
    if (format == IFF_PNG && bytes.size() > 24 && bytes[24] == 16) return "a 16-bit PNG";
    if (format == IFF_BMP && bytes.size() >= 30) {
        // The bit count follows the planes: byte 24 in a BITMAPCOREHEADER (12 bytes), else 28.
        const uint32_t bits = little_endian(bytes, little_endian(bytes, 14, 4) == 12 ? 24 : 28, 2);
        if (bits != 1 && bits != 4 && bits != 8 && bits != 24) return "a BMP of other than 1, 4, 8 or 24 bits a pixel";
    }
    if (format == IFF_JP2) {
        l_int32 found = 0, w = 0, h = 0, bps = 0, spp = 0, cmap = 0;
        if (pixReadHeaderMem(bytes.data(), bytes.size(), &found, &w, &h, &bps, &spp, &cmap) == 0 &&
            (spp == 2 || spp == 4))
            return "a JPEG 2000 with alpha";
    }
    return "";
}

struct PixOwner {
    PIX *pix = nullptr;
    explicit PixOwner(PIX *p) : pix(p) {}
    PixOwner(const PixOwner &) = delete;
    PixOwner &operator=(const PixOwner &) = delete;
    ~PixOwner() { pixDestroy(&pix); }
    /// Takes `replacement` (NULL when a conversion failed) in place of the current image.
    void replace(PIX *replacement) {
        pixDestroy(&pix);
        pix = replacement;
    }
};

/// Leptonica's image as a cv::Mat in OpenCV's channel order, for focr::to_gray_or_bgr8: a colormap
/// removed (a gray palette to 8-bit gray, as OpenCV reads a BMP's; a color one to RGB(A)),
/// 1/2/4-bit gray expanded to 8 bits (black 0, white 255), 16-bit gray as CV_16UC1, 32-bit as BGR
/// or BGRA (spp 4). Empty when a conversion fails. (OpenCV expands a PNG's gray palette to BGR
/// with B = G = R: the same values, one channel here.)
cv::Mat to_mat(PixOwner &p) {
    if (pixGetColormap(p.pix) != nullptr) p.replace(pixRemoveColormap(p.pix, REMOVE_CMAP_BASED_ON_SRC));
    if (p.pix == nullptr) return cv::Mat();
    const l_int32 depth = pixGetDepth(p.pix);
    if (depth == 1 || depth == 2 || depth == 4) p.replace(pixConvertTo8(p.pix, 0));
    if (depth == 24) p.replace(pixConvert24To32(p.pix));
    if (p.pix == nullptr) return cv::Mat();
    const int w = pixGetWidth(p.pix), h = pixGetHeight(p.pix), d = pixGetDepth(p.pix);
    const l_int32 wpl = pixGetWpl(p.pix);
    const l_uint32 *data = pixGetData(p.pix);
    if (d == 8 || d == 16) {
        cv::Mat m(h, w, d == 8 ? CV_8UC1 : CV_16UC1);
        for (int y = 0; y < h; ++y) {
            const l_uint32 *line = data + (size_t)y * (size_t)wpl;
            if (d == 8) {
                uint8_t *row = m.ptr<uint8_t>(y);
                for (int x = 0; x < w; ++x) row[x] = (uint8_t)GET_DATA_BYTE(line, x);
            } else {
                uint16_t *row = m.ptr<uint16_t>(y);
                for (int x = 0; x < w; ++x) row[x] = (uint16_t)GET_DATA_TWO_BYTES(line, x);
            }
        }
        return m;
    }
    if (d != 32) return cv::Mat();
    const bool alpha = pixGetSpp(p.pix) == 4;
    cv::Mat m(h, w, alpha ? CV_8UC4 : CV_8UC3);
    const int cn = m.channels();
    for (int y = 0; y < h; ++y) {
        const l_uint32 *line = data + (size_t)y * (size_t)wpl;
        uint8_t *row = m.ptr<uint8_t>(y);
        for (int x = 0; x < w; ++x) {
            const l_uint32 v = line[x];  // 0xRRGGBBAA
            uint8_t *px = row + (size_t)x * (size_t)cn;
            px[0] = (uint8_t)(v >> L_BLUE_SHIFT);
            px[1] = (uint8_t)(v >> L_GREEN_SHIFT);
            px[2] = (uint8_t)(v >> L_RED_SHIFT);
            if (alpha) px[3] = (uint8_t)(v >> L_ALPHA_SHIFT);
        }
    }
    return m;
}

uint32_t read_uint(const uint8_t *p, int bytes, bool big_endian) {
    uint32_t v = 0;
    for (int i = 0; i < bytes; ++i) v = big_endian ? v << 8 | p[i] : v | (uint32_t)p[i] << (8 * i);
    return v;
}

/// A JPEG's EXIF orientation (1…8), or 1 when it has none or it cannot be read: the first APP1
/// segment that begins "Exif\0\0", its TIFF header ("II*\0" or "MM\0*"), IFD0's tag 0x0112 of type
/// SHORT. Every read is bounded by the segment; markers are walked until the scan begins (SOS).
int exif_orientation(const std::vector<uint8_t> &b) {
    size_t at = 2;  // after SOI
    while (at + 4 <= b.size()) {
        if (b[at] != 0xFF) return 1;
        const uint8_t marker = b[at + 1];
        if (marker == 0xFF) {  // fill byte
            ++at;
            continue;
        }
        if (marker == 0xDA || marker == 0xD9) return 1;  // start of scan, end of image
        if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) {  // markers without a length
            at += 2;
            continue;
        }
        const size_t length = read_uint(&b[at + 2], 2, true);  // includes its own two bytes
        if (length < 2 || at + 2 + length > b.size()) return 1;
        const uint8_t *segment = &b[at + 4];
        const size_t size = length - 2;
        if (marker == 0xE1 && size >= 6 + 8 && std::memcmp(segment, "Exif\0\0", 6) == 0) {
            const uint8_t *tiff = segment + 6;
            const size_t n = size - 6;
            const bool big = tiff[0] == 'M' && tiff[1] == 'M';
            if (!big && !(tiff[0] == 'I' && tiff[1] == 'I')) return 1;
            if (read_uint(tiff + 2, 2, big) != 42) return 1;
            const size_t ifd = read_uint(tiff + 4, 4, big);
            if (ifd > n || n - ifd < 2) return 1;
            const size_t entries = read_uint(tiff + ifd, 2, big);
            for (size_t i = 0; i < entries; ++i) {
                const size_t e = ifd + 2 + 12 * i;
                if (e > n || n - e < 12) return 1;
                if (read_uint(tiff + e, 2, big) != 0x0112) continue;
                if (read_uint(tiff + e + 2, 2, big) != 3) return 1;  // SHORT
                const uint32_t value = read_uint(tiff + e + 8, 2, big);
                return value >= 1 && value <= 8 ? (int)value : 1;
            }
            return 1;
        }
        at += 2 + length;
    }
    return 1;
}

/// Leptonica's messages on bad files off, once: every failure reaches the caller as a status.
void quiet_leptonica() {
    static const bool once = (setMsgSeverity(L_SEVERITY_NONE), true);
    (void)once;
}

/// The decoded image through OpenCV (libFrameOCRMedia), for `why`; errors carry `name`. A file
/// that only OpenCV reads (`opencv_only`) fails with OpenCV's status, FOCR_E_UNAVAILABLE
/// without the library; one Leptonica could not read (`leptonica_failed`: mostly truncated or
/// corrupt files) is FOCR_E_DECODE whatever OpenCV said.
focr_status decode_with_opencv(const std::vector<uint8_t> &bytes, const std::string &name, const char *why,
                               bool leptonica_failed, uint64_t max_pixels, focr_decoded_image **out) {
    const focr_status s = focr_image_decode_opencv(bytes.data(), bytes.size(), max_pixels, out);
    if (s == FOCR_OK) return FOCR_OK;
    const focr_status reported = leptonica_failed && s != FOCR_E_TOO_LARGE ? FOCR_E_DECODE : s;
    return fail(reported, name + ": " + why + "; OpenCV: " + focr_last_error());
}

focr_status decode(const std::vector<uint8_t> &bytes, const std::string &name, uint64_t max_pixels,
                   focr_decoded_image **out) {
    if (out == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "decode: out is NULL");
    *out = nullptr;
    if (max_pixels < 1 || max_pixels > FOCR_MAX_IMAGE_PIXELS_CEILING)
        return fail(FOCR_E_INVALID_ARGUMENT, "decode: max_pixels " + std::to_string(max_pixels) + " is outside 1…" +
                                                 thousands(FOCR_MAX_IMAGE_PIXELS_CEILING));
    if (bytes.empty()) return fail(FOCR_E_DECODE, name + ": empty file");
    quiet_leptonica();
    uint8_t head[16] = {0};
    std::memcpy(head, bytes.data(), std::min(bytes.size(), sizeof head));
    l_int32 format = IFF_UNKNOWN;
    if (findFileFormatBuffer(head, &format) != 0 || !named_format(format))
        return fail(FOCR_E_DECODE, name + ": not an image format FrameOCR reads (" + format_name(format) +
                                       "); it reads PNG, JPEG, TIFF, BMP, PNM, WebP, GIF and JPEG 2000");
    uint64_t width = 0, height = 0;
    if (header_size(bytes, format, width, height)) {
        const focr_status s = check_size(width, height, max_pixels, name, "the header claims");
        if (s != FOCR_OK) return s;
    }
    if (const char *why = opencv_only(bytes, format); *why != '\0')
        return decode_with_opencv(bytes, name, why, false, max_pixels, out);
    PixOwner pix(pixReadMem(bytes.data(), bytes.size()));
    if (pix.pix == nullptr)
        return decode_with_opencv(bytes, name, "not a decodable image to Leptonica (truncated or corrupt)", true,
                                  max_pixels, out);
    // A format whose header could not be read is held to the same limit once decoded.
    const focr_status s = check_size((uint64_t)pixGetWidth(pix.pix), (uint64_t)pixGetHeight(pix.pix), max_pixels, name,
                                     "decoded to");
    if (s != FOCR_OK) return s;
    const cv::Mat m = to_mat(pix);
    if (m.empty())
        return decode_with_opencv(bytes, name, "a pixel layout Leptonica's converters lack", true, max_pixels, out);
    pix.replace(nullptr);
    // Leptonica has turned a TIFF upright by its orientation tag; a JPEG's EXIF orientation is ours.
    cv::Mat pixels = to_gray_or_bgr8(m);
    if (format == IFF_JFIF_JPEG) {
        const int orientation = exif_orientation(bytes);
        if (orientation > 1) {
            cv::Mat turned;
            orient_mat(pixels, turned, orientation);
            pixels = turned;
        }
    }
    auto img = std::make_unique<focr_decoded_image>();
    img->pixels = pixels;
    *out = img.release();
    return FOCR_OK;
}

}  // namespace

extern "C" focr_status focr_image_decode_file(const char *path, uint64_t max_pixels, focr_decoded_image **out) {
    return guarded("decode_file", [&]() -> focr_status {
        if (out != nullptr) *out = nullptr;
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

extern "C" focr_status focr_image_decode_memory(const uint8_t *bytes, size_t count, uint64_t max_pixels,
                                                focr_decoded_image **out) {
    return guarded("decode_memory", [&]() -> focr_status {
        if (out != nullptr) *out = nullptr;
        if (bytes == nullptr && count > 0) return fail(FOCR_E_INVALID_ARGUMENT, "decode_memory: bytes is NULL");
        return decode(std::vector<uint8_t>(bytes, bytes + count), "<memory>", max_pixels, out);
    });
}
