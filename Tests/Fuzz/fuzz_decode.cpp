// libFuzzer harness: encoded image bytes through the decoder PixelBuffer(encoded:) and
// PixelBuffer(contentsOfFile:) use (the shim's focr_image_decode_memory, CFrameOCR/files/
// decode.cpp: the format told by its signature, the header's size checked against the limit,
// Leptonica, a JPEG's EXIF orientation, OpenCV's cv::imdecode for what Leptonica does not read,
// normalized to GRAY8 or BGR8). The media code is linked in, so the OpenCV fallback runs under
// the sanitizers too. Every pixel of a decoded image is read, so a short or wrong descriptor shows
// under ASan. Built and run by `make fuzz` (Tests/Fuzz/run.sh).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "focr_common.h"
#include "focr_common/decoded_image.hpp"
#include "focr_files.h"

// 2^22 pixels (a 2048×2048 frame): keeps every accepted decode far under the fuzzer's RSS limit,
// so an image the limit lets through cannot pass as an out-of-memory "crash".
static const uint64_t kMaxPixels = 1u << 22;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    focr_decoded_image *image = nullptr;
    const focr_status status = focr_image_decode_memory(data, size, kMaxPixels, &image);
    if (status != FOCR_OK) {
        if (image != nullptr) abort();  // an error never hands out an image
        return 0;
    }
    // What focr_decoded_image_view (CFrameOCRCommon's decoded_image.cpp) describes, read here directly.
    const cv::Mat &m = image->pixels;
    const int bytes_per_pixel = m.channels();
    if (m.cols <= 0 || m.rows <= 0 || (uint64_t)m.cols * (uint64_t)m.rows > kMaxPixels || m.depth() != CV_8U ||
        (bytes_per_pixel != 1 && bytes_per_pixel != 3) || m.step[0] < (size_t)m.cols * bytes_per_pixel)
        abort();  // a decoded image is always 8-bit GRAY or BGR within the limit
    unsigned sum = 0;
    for (int y = 0; y < m.rows; ++y)
        for (int x = 0; x < m.cols * bytes_per_pixel; ++x) sum += m.data[(size_t)y * m.step[0] + x];
    delete image;
    return sum == 0xFFFFFFFFu ? 1 : 0;  // keeps the reads
}
