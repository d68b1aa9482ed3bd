// Image files through OpenCV's imgcodecs: the decoder for what Leptonica (the shim's
// CFrameOCR/files/decode.cpp) does not read of the formats FrameOCR names, and the writer of
// GRAY8/BGR8/BGRA8 files.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <cctype>
#include <memory>
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include "entry/media_calls.hpp"
#include "focr_common.h"
#include "focr_common/decoded_image.hpp"
#include "focr_common/descriptor.hpp"
#include "focr_common/limits.hpp"
#include "focr_common/status.hpp"
#include "focr_files.h"

using namespace focr;

namespace {

bool is_jpeg(const uint8_t *bytes, size_t count) {
    return count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF;
}

/// "DICM" at byte 128: the signature by which cv::imdecode picks its DICOM decoder (GDCM in
/// Debian's build) before the decoders of the formats FrameOCR names, whatever the first bytes
/// say. Debian's GDCM 3.0 stops the whole process with an assert() on malformed files (found by
/// Tests/Fuzz/fuzz_decode). The shim sends only files whose signature is a named format here, but
/// such a file can carry DICOM's too, so it is refused before OpenCV sees it.
bool claims_dicom(const uint8_t *bytes, size_t count) {
    return count >= 132 && bytes[128] == 'D' && bytes[129] == 'I' && bytes[130] == 'C' && bytes[131] == 'M';
}

focr_status decode(const uint8_t *bytes, size_t count, uint64_t max_pixels, focr_decoded_image **out) {
    if (out == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "image_decode_opencv: out is NULL");
    *out = nullptr;
    if (max_pixels < 1 || max_pixels > FOCR_MAX_IMAGE_PIXELS_CEILING)
        return fail(FOCR_E_INVALID_ARGUMENT, "image_decode_opencv: max_pixels " + std::to_string(max_pixels) +
                                                 " is outside 1…" + thousands(FOCR_MAX_IMAGE_PIXELS_CEILING));
    if (bytes == nullptr && count > 0) return fail(FOCR_E_INVALID_ARGUMENT, "image_decode_opencv: bytes is NULL");
    if (count == 0) return fail(FOCR_E_DECODE, "empty file");
    if (count > (size_t)INT32_MAX) return fail(FOCR_E_TOO_LARGE, "more than 2 GiB of encoded bytes");
    if (claims_dicom(bytes, count))
        return fail(FOCR_E_DECODE, "DICOM (\"DICM\" at byte 128) is not read: OpenCV's DICOM decoder aborts the "
                                   "process on malformed files");
    const cv::Mat raw(1, (int)count, CV_8UC1, const_cast<uint8_t *>(bytes));
    cv::Mat m;
    try {
        // JPEG has no alpha and (here) no 16-bit samples: decode with flags that let OpenCV apply
        // the EXIF orientation. Everything else keeps alpha and bit depth (IMREAD_UNCHANGED).
        m = is_jpeg(bytes, count) ? cv::imdecode(raw, cv::IMREAD_ANYCOLOR | cv::IMREAD_ANYDEPTH)
                                  : cv::imdecode(raw, cv::IMREAD_UNCHANGED);
    } catch (const cv::Exception &e) {
        if (e.func == "validateInputImageSize")
            return fail(FOCR_E_TOO_LARGE, "more pixels than OpenCV decodes (CV_IO_MAX_IMAGE_PIXELS, " +
                                              thousands(FOCR_MAX_IMAGE_PIXELS_CEILING) + ")");
        throw;
    }
    if (m.empty()) return fail(FOCR_E_DECODE, "not a decodable image (truncated or corrupt)");
    // The caller checked the header's size where it could be read; the decoded size is held to
    // the same limit whatever the header said.
    const focr_status s = check_size((uint64_t)m.cols, (uint64_t)m.rows, max_pixels, "the image", "decoded to");
    if (s != FOCR_OK) return s;
    const cv::Mat pixels = to_gray_or_bgr8(m);
    auto img = std::make_unique<focr_decoded_image>();
    img->pixels = pixels;
    *out = img.release();
    return FOCR_OK;
}

}  // namespace

extern "C" focr_status focr_media_image_decode_opencv(const uint8_t *bytes, size_t count, uint64_t max_pixels,
                                                      focr_decoded_image **out) {
    return guarded("image_decode_opencv", [&]() -> focr_status { return decode(bytes, count, max_pixels, out); });
}

namespace {

/// Checks what focr_image_write_file and focr_image_encode take (`where` names the call).
focr_status check_encodable(const focr_image *image, int32_t quality, const char *where) {
    focr_status s = validate(image, "image");
    if (s != FOCR_OK) return s;
    if (quality < 0 || quality > 100)
        return fail(FOCR_E_INVALID_ARGUMENT,
                    std::string(where) + ": quality " + std::to_string(quality) + " must be in 0…100");
    if (image->format != FOCR_FORMAT_GRAY8 && image->format != FOCR_FORMAT_BGR8 && image->format != FOCR_FORMAT_BGRA8)
        return fail(FOCR_E_UNSUPPORTED, std::string(where) + ": only GRAY8, BGR8 and BGRA8 can be written");
    return FOCR_OK;
}

/// The encoder parameters for a file name or extension: the codec's own quality key, alone
/// (OpenCV's WebP encoder looks only at the first pair); formats without one ignore it.
std::vector<int> quality_parameters(const std::string &name, int32_t quality) {
    std::string ext = name.substr(std::min(name.size(), name.find_last_of('.') + 1));
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return (char)std::tolower(c); });
    const int key = ext == "webp" ? cv::IMWRITE_WEBP_QUALITY : cv::IMWRITE_JPEG_QUALITY;
    return quality > 0 ? std::vector<int>{key, quality} : std::vector<int>{};
}

}  // namespace

extern "C" focr_status focr_media_image_encode(const focr_image *image, const char *extension, int32_t quality,
                                               uint8_t **bytes, size_t *count) {
    return guarded("image_encode", [&]() -> focr_status {
        if (bytes == nullptr || count == nullptr || extension == nullptr)
            return fail(FOCR_E_INVALID_ARGUMENT, "image_encode: an argument is NULL");
        *bytes = nullptr;
        *count = 0;
        focr_status s = check_encodable(image, quality, "image_encode");
        if (s != FOCR_OK) return s;
        const std::string ext = extension[0] == '.' ? extension : std::string(".") + extension;
        std::vector<uchar> out;
        bool ok = false;
        try {
            ok = cv::imencode(ext, wrap_plane0(*image), out, quality_parameters(ext, quality));
        } catch (const cv::Exception &e) {
            return fail(FOCR_E_UNSUPPORTED, "image_encode: " + ext + ": " + e.what());
        }
        if (!ok) return fail(FOCR_E_UNSUPPORTED, "image_encode: OpenCV does not encode " + ext);
        uint8_t *copy = static_cast<uint8_t *>(std::malloc(std::max<size_t>(1, out.size())));
        if (copy == nullptr) return fail(FOCR_E_OUT_OF_MEMORY, "image_encode: out of memory");
        std::memcpy(copy, out.data(), out.size());
        *bytes = copy;
        *count = out.size();
        return FOCR_OK;
    });
}

extern "C" focr_status focr_media_image_write_file(const focr_image *image, const char *path, int32_t quality) {
    return guarded("write_file", [&]() -> focr_status {
        if (path == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "write_file: path is NULL");
        focr_status s = check_encodable(image, quality, "write_file");
        if (s != FOCR_OK) return s;
        bool ok = false;
        try {
            ok = cv::imwrite(path, wrap_plane0(*image), quality_parameters(path, quality));
        } catch (const cv::Exception &e) {
            return fail(FOCR_E_IO, std::string(path) + ": " + e.what());
        }
        if (!ok) return fail(FOCR_E_IO, std::string(path) + ": could not write (unknown extension or unwritable)");
        return FOCR_OK;
    });
}
