// Internal to FrameOCR's C code (CFrameOCRCommon): size limits of decoded images and video frames
// (FOCR_E_TOO_LARGE), shared by the shim's decoder (CFrameOCR/files/decode.cpp), the media
// library's OpenCV decoder (CFrameOCRMedia/files/files.cpp) and its video reader (video/reader.cpp).
#pragma once

#include <cstdint>
#include <string>

#include "focr_common/status.hpp"
#include "focr_common.h"

namespace focr {

/// `n` with thousands separators: 3600000000 → "3,600,000,000".
inline std::string thousands(uint64_t n) {
    const std::string digits = std::to_string(n);
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

/// FOCR_E_TOO_LARGE, naming the size and the limit, when a `width`×`height` image (each at most
/// 2^31) is wider or taller than FOCR_MAX_IMAGE_SIDE or has more than `max_pixels` pixels; else
/// FOCR_OK. `what` says where the size comes from ("the header claims").
inline focr_status check_size(uint64_t width, uint64_t height, uint64_t max_pixels, const std::string &name,
                              const char *what) {
    const uint64_t pixels = width * height;
    if (width <= FOCR_MAX_IMAGE_SIDE && height <= FOCR_MAX_IMAGE_SIDE && pixels <= max_pixels) return FOCR_OK;
    std::string message = name + ": " + what + " " + std::to_string(width) + "x" + std::to_string(height) +
                          " pixels (" + thousands(pixels) + ")";
    if (width > FOCR_MAX_IMAGE_SIDE || height > FOCR_MAX_IMAGE_SIDE)
        message += ", wider or taller than FrameOCR's " + std::to_string(FOCR_MAX_IMAGE_SIDE) + " pixels";
    else
        message += ", more than the limit of " + thousands(max_pixels) + " pixels";
    return fail(FOCR_E_TOO_LARGE, message);
}

}  // namespace focr
