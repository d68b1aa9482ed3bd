// libFuzzer harness: raw frame descriptors built from the fuzz bytes — format, size, planes and
// strides — through the shim's validation, then the fused CPU chain (focr_fast_preprocess_method)
// and each op (gray, orient, adaptive threshold, resize, copy, BGR) with a fuzzed region,
// orientation, threshold and scale; then the scene-text calls: the outside of a fuzzed rectangle
// replaced (focr_replicate_outside) and the DB text detector (libFrameOCRMedia's detector.cpp,
// linked in) on the frame with fuzzed settings and result capacity, at a small input size. Each
// plane is allocated to its last byte (no slack: ASan reports a read past it), and the sizes are
// small so that each input runs in milliseconds. The detector needs the model `make deps`
// installs (or $FRAMEOCR_TEXT_DETECTOR); without it the harness stops at once, saying so.
// Built and run by `make fuzz` (Tests/Fuzz/run.sh).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <vector>

#include <cstdio>

#include "entry/media_calls.hpp"
#include "focr.h"
#include "focr_detect.h"
#include "focr_fast.h"

// libFrameOCRMedia's detector entry points (focr_media_text_detector_create, _detect: declared
// from the list of media calls, defined in Sources/CFrameOCRMedia/detection/detector.cpp) are
// linked into the harness so that they run instrumented (the shim's focr_text_detector_* would
// load the library instead).

namespace {

struct Reader {
    const uint8_t *data;
    size_t size, at = 0;
    uint8_t byte() { return at < size ? data[at++] : 0; }
    int32_t signed16() { return (int16_t)(byte() | byte() << 8); }
};

// The harness's own table, not the shim's (Sources/CFrameOCRCommon/descriptor.cpp): the memory behind a claim is
// sized independently of the code under test.
int bytes_per_sample(int32_t format, int plane) {
    switch (format) {
    case FOCR_FORMAT_GRAY8: return 1;
    case FOCR_FORMAT_BGRA8:
    case FOCR_FORMAT_RGBA8: return 4;
    case FOCR_FORMAT_BGR8:
    case FOCR_FORMAT_RGB8: return 3;
    case FOCR_FORMAT_NV12: return plane == 0 ? 1 : 2;
    default: return 1;
    }
}

/// A caller's image: planes the harness owns, each exactly its last row's end long.
struct Frame {
    focr_image image{};
    std::vector<std::vector<uint8_t>> planes;
    bool allocated[3] = {false, false, false};  // planes with memory behind their claims
};

/// Builds a descriptor from the reader; the claims (format, size, plane count, strides, plane
/// sizes) are the fuzzer's, so most are invalid on purpose. Each plane's memory is exactly what
/// its own claims need (the C API has no byte counts: the caller vouches for them, and the Swift
/// layer checks them against `byteCount`), so a read the claims do not cover is past the end.
Frame frame(Reader &r) {
    Frame f;
    f.image.format = r.byte() % 9 - 1;  // −1 … 7: unknown formats too
    f.image.width = r.signed16() % 300;
    f.image.height = r.signed16() % 300;
    f.image.plane_count = r.byte() % 5;
    for (int p = 0; p < 3; ++p) {
        focr_plane &pl = f.image.planes[p];
        const bool chroma = p > 0;
        const int w = chroma ? (f.image.width + 1) / 2 : f.image.width;
        const int h = chroma ? (f.image.height + 1) / 2 : f.image.height;
        pl.width = r.byte() % 16 == 0 ? w + (int)(r.byte() % 5) - 2 : w;
        pl.height = r.byte() % 16 == 0 ? h + (int)(r.byte() % 5) - 2 : h;
        const long row = (long)std::max(pl.width, 0) * bytes_per_sample(f.image.format, p);
        pl.bytes_per_row = (size_t)std::max(0L, row + (long)(r.byte() % 70) - 3);
        if (p >= f.image.plane_count || pl.width <= 0 || pl.height <= 0 || pl.bytes_per_row == 0) {
            pl.data = r.byte() % 2 ? nullptr : (void *)(uintptr_t)0x10;  // never dereferenced if refused
            continue;
        }
        const size_t bytes = pl.bytes_per_row * (size_t)(pl.height - 1) + (size_t)row;
        f.planes.emplace_back(std::max<size_t>(bytes, 1));
        for (size_t i = 0; i < f.planes.back().size(); ++i) f.planes.back()[i] = r.byte() ^ (uint8_t)i;
        pl.data = f.planes.back().data();
        f.allocated[p] = true;
    }
    return f;
}

/// A GRAY8 (or `format`) destination of `w`×`h` with a fuzzed pad, owned by `store`.
focr_image destination(Reader &r, int32_t format, int w, int h, std::vector<uint8_t> &store) {
    focr_image d{};
    d.format = format;
    d.width = w;
    d.height = h;
    d.plane_count = 1;
    const int bpp = bytes_per_sample(format, 0);
    d.planes[0].width = w;
    d.planes[0].height = h;
    d.planes[0].bytes_per_row = (size_t)std::max(w, 0) * bpp + r.byte() % 9;
    store.assign(w > 0 && h > 0 ? d.planes[0].bytes_per_row * (h - 1) + (size_t)w * bpp : 1, 0);
    d.planes[0].data = store.data();
    return d;
}

/// The installed detector, made once (its networks are kept between inputs, as in a program).
focr_text_detector *detector() {
    static focr_text_detector *made = [] {
        const char *env = std::getenv("FRAMEOCR_TEXT_DETECTOR");
        const char *path = env && *env ? env : "/usr/local/share/frameocr/ppocrv4-det.onnx";
        focr_text_detector *d = nullptr;
        if (focr_media_text_detector_create(path, FOCR_DNN_DEVICE_CPU, &d) != FOCR_OK) {
            std::fprintf(stderr, "fuzz_frame: no text detector at %s (`make text-detector` installs it): %s\n", path,
                         focr_last_error());
            std::abort();
        }
        return d;
    }();
    return made;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    Reader r{data, size};
    Frame f = frame(r);
    const focr_image &src = f.image;
    const int orientation = r.byte() % 10;  // 0 and 9 are invalid
    const int method = r.byte() % 3 - (r.byte() % 7 == 0);
    const int block = (int)(r.byte() % 40) - 3;
    const double c = (double)r.signed16() / 8.0;
    const int inverted = r.byte() % 2;
    const int swap = orientation >= 5 && orientation <= 8;
    const int uw = swap ? src.height : src.width, uh = swap ? src.width : src.height;
    std::vector<uint8_t> a, b;

    // The fused chain (packed formats; NV12/I420 as their Y plane, which the Swift layer
    // passes: only when that plane has memory, since the claim then changes to GRAY8's).
    focr_image in = src;
    if ((src.format == FOCR_FORMAT_NV12 || src.format == FOCR_FORMAT_I420) && f.allocated[0]) {
        in.format = FOCR_FORMAT_GRAY8;
        in.plane_count = 1;
    }
    focr_image dst = destination(r, FOCR_FORMAT_GRAY8, uw, uh, a);
    focr_fast_preprocess_method(&in, orientation, method, block, c, inverted, &dst);

    // Each op.
    dst = destination(r, FOCR_FORMAT_GRAY8, src.width, src.height, a);
    focr_convert_to_gray(&src, &dst);
    focr_image gray = dst;
    focr_image turned = destination(r, src.format, uw, uh, b);
    focr_orient(&src, &turned, orientation);
    std::vector<uint8_t> t;
    focr_image thresholded = destination(r, FOCR_FORMAT_GRAY8, src.width, src.height, t);
    focr_adaptive_threshold(&gray, &thresholded, method, inverted, block, c);
    const int rw = (int)(r.byte() % 64) - 2, rh = (int)(r.byte() % 64) - 2;
    std::vector<uint8_t> s;
    focr_image scaled = destination(r, src.format, rw, rh, s);
    focr_resize(&src, &scaled);
    std::vector<uint8_t> k;
    focr_image copied = destination(r, src.format, src.width, src.height, k);
    const bool valid = focr_copy(&src, &copied) == FOCR_OK;
    std::vector<uint8_t> g;
    focr_image bgr = destination(r, FOCR_FORMAT_BGR8, uw, uh, g);
    focr_convert_to_bgr(&src, orientation, r.byte() % 2, &bgr);

    // A region of interest: a sub-descriptor of plane 0 (packed formats), as cropped(to:) makes.
    if (valid && src.plane_count == 1) {
        const int x = r.byte() % (src.width + 2) - 1, y = r.byte() % (src.height + 2) - 1;
        const int w = r.byte() % (src.width + 2), h = r.byte() % (src.height + 2);
        focr_image roi = src;
        if (x >= 0 && y >= 0 && x + w <= src.width && y + h <= src.height) {
            roi.width = roi.planes[0].width = w;
            roi.height = roi.planes[0].height = h;
            roi.planes[0].data = static_cast<uint8_t *>(src.planes[0].data) + (size_t)y * src.planes[0].bytes_per_row +
                                 (size_t)x * bytes_per_sample(src.format, 0);
            std::vector<uint8_t> o;
            focr_image out = destination(r, FOCR_FORMAT_GRAY8, swap ? h : w, swap ? w : h, o);
            focr_fast_preprocess(&roi, orientation, block, c, inverted, &out);
        }
    }

    // Scene text: a rectangle's outside replaced by its edge, in place in the thresholded image
    // (GRAY8, the harness's), and the detector on the frame itself.
    focr_replicate_outside(&thresholded, (int)(r.byte() % 40) - 4, (int)(r.byte() % 40) - 4, (int)(r.byte() % 40) - 2,
                           (int)(r.byte() % 40) - 2);
    focr_detector_params p{};
    p.long_side = 32 * (1 + r.byte() % 3) - (r.byte() % 31 == 0);  // 32, 64, 96; 31 now and then
    p.binary_threshold = (float)(r.byte() % 12) / 10;               // 0…1.1: out of range at times
    p.box_threshold = (float)(r.byte() % 12) / 10;
    p.unclip_ratio = (float)(r.byte() % 10) - 1;
    p.max_candidates = r.byte() % 20;
    p.min_size = (float)(r.byte() % 5);
    const int capacity = (int)(r.byte() % 8) - 1;
    std::vector<focr_detected_text> found((size_t)std::max(capacity, 0));  // exactly capacity: no slack
    int32_t count = 0;
    focr_media_text_detector_detect(detector(), &src, &p, found.empty() ? nullptr : found.data(), capacity, &count);
    return 0;
}
