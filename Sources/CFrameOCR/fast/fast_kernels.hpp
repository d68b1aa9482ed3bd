// Internal to the shim: the row and tile kernels of the fast CPU path (fastpath.cpp drives them),
// one table per SIMD level. Every level computes the same bytes; the levels differ in speed only.
//
//   portable C++ (fast_scalar.cpp)  every architecture; the reference the others are tested against
//   SSE2 (fast_sse2.cpp)            x86-64 baseline, no runtime check needed
//   AVX2 (fast_avx2.cpp)            x86-64, functions compiled with target("avx2") and chosen at run
//                                   time by __builtin_cpu_supports("avx2") (no compiler flags)
//
// Reading and writing rules for every kernel: it reads exactly the bytes its arguments describe
// (`n` pixels of `scn` bytes from each row pointer) and writes exactly the bytes it is asked to
// write, so padding past a row's pixels and rows outside the image are never touched, however
// narrow the image.
#pragma once
#include <cstddef>
#include <cstdint>

namespace focr::fast {

/// SIMD levels, in increasing order of capability.
enum Level : int32_t { kPortable = 0, kSSE2 = 1, kAVX2 = 2 };

/// How OpenCV's `boxFilter` (normalized, 8-bit, the mean of cv::adaptiveThreshold MEAN_C)
/// rounds a box sum S of `area` pixels to its 8-bit mean m (OpenCV 4.x box_filter.simd.hpp):
/// - area ≤ 256 (block ≤ 15): sums are `ushort` and ColumnSum<ushort, uchar> divides by a fixed
///   point reciprocal: m = ((S + dd) · ds) >> 23 with ds ≈ 2^23 / area and dd ≈ area / 2, in every
///   column. (Not always round(S / area): for block 15, S = 225·254 + 113 gives 254.)
/// - area > 256: sums are `int` and ColumnSum<int, uchar> rounds half to even either
///   float(S) · float(1 / area) (columns its vector loops cover, x < vectorEnd = W − W % 8) or
///   S · (1.0 / area) in double (the scalar tail). Both equal round(S / area) for block ≤ 127.
struct MeanParams {
    int radius = 0;      // block / 2
    bool small = false;  // area ≤ 256
    uint16_t dd = 0;     // small: divDelta
    uint32_t ds = 0;     // small: divScale (< 2^20)
    float fscale = 0;    // large: (float)(1.0 / area)
    double dscale = 0;   // large: 1.0 / area
    int vectorEnd = 0;   // large: columns [0, vectorEnd) round in float, the rest in double

    MeanParams(int block, int width);
};

struct Kernels {
    Level level;

    /// Gray of `n` packed pixels of `scn` (1, 3 or 4) bytes: BT.601 in OpenCV's 15-bit fixed point
    /// (cv::cvtColor …2GRAY), blue at byte `bidx` (0 for BGR/BGRA, 2 for RGB/RGBA). scn 1 copies.
    void (*gray_row)(const uint8_t *src, int n, int scn, int bidx, uint8_t *dst);

    /// gray_row with non-temporal stores where `dst` is aligned to the vector size (SSE2, AVX2;
    /// the portable level stores plainly): the gray row goes to memory past the caches, so a frame
    /// too big for them does not evict the frame being read, and no line is read for ownership
    /// before it is written. Ends with a store fence, so other threads see the bytes.
    void (*gray_row_stream)(const uint8_t *src, int n, int scn, int bidx, uint8_t *dst);

    /// dst[i] = src[n − 1 − i] for `n` bytes (a mirrored row; src and dst do not overlap).
    void (*reverse_row)(const uint8_t *src, int n, uint8_t *dst);

    /// Gray + transpose by 16 × 16 tiles, for the orientations that swap width and height.
    /// Tile (a, t), a < ublocks, t < vtiles, reads 16 stored rows from `src + (16a + j)·ustep +
    /// t·xstep` (j = 0…15; 16 pixels of `scn` bytes each) and writes their transpose: pixel i of
    /// stored row j goes to byte 16a + j of the output row at `out + t·otile + i·ostep`. Strides
    /// are signed: ustep < 0 walks the stored rows upwards (orientations 6, 7), xstep < 0 walks
    /// them right to left and ostep < 0 writes a tile's rows bottom up (7, 8). Each stored row is
    /// read in order, tile after tile (prefetch friendly); the 16-byte writes land on output lines
    /// that stay in cache from one tile column to the next.
    void (*transpose_tiles)(const uint8_t *src, ptrdiff_t ustep, ptrdiff_t xstep, int scn, int bidx, int ublocks,
                            int vtiles, uint8_t *out, ptrdiff_t otile, ptrdiff_t ostep);

    /// cs[x] += row[x] for x < n (column sums, uint16, wrapping).
    void (*colsum_add)(uint16_t *cs, const uint8_t *row, int n);
    /// cs[x] += in[x] − out[x] for x < n (the box moves down one row; uint16, wrapping).
    void (*colsum_update)(uint16_t *cs, const uint8_t *in, const uint8_t *out, int n);

    /// OpenCV's box mean of one row (blocks up to 15; see MeanParams): for x < n, S = cp[x] + … + cp[x + 2r] where
    /// `cp` holds n + 2r column sums with the border columns replicated; mean[x] = m(S).
    /// `scratch` holds at least (n + 2r + 1) uint32 values.
    void (*row_mean)(const uint16_t *cp, int n, const MeanParams &p, uint32_t *scratch, uint8_t *mean);

    /// Horizontal box sums of one gray row (blocks over 15): h[x] = g[x − r] + … + g[x + r] for
    /// x < n, columns clamped (replicated border); uint16 (at most 255 · 255). `scratch` holds at
    /// least n + 2r + 1 uint16 values.
    void (*hsum_row)(const uint8_t *g, int n, int r, uint16_t *scratch, uint16_t *h);
    /// S[x] += h[x] for x < n (vertical box sums, uint32).
    void (*vsum_add)(uint32_t *S, const uint16_t *h, int n);
    /// mean[x] = OpenCV's rounded mean of box sum S[x] (blocks over 15, see MeanParams), then,
    /// when `in` is not null, S[x] += in[x] − out[x] (the box moves down one row).
    void (*vsum_mean)(uint32_t *S, const uint16_t *in, const uint16_t *out, int n, const MeanParams &p, uint8_t *mean);

    /// cv::adaptiveThreshold's comparison: dst[x] = 255 when src[x] − mean[x] > −idelta (normal)
    /// or ≤ −idelta (inverted), else 0. `idelta` is ceil(C) (normal) or floor(C) (inverted),
    /// already clamped to −300…300 (beyond ±256 no comparison changes).
    void (*compare_row)(const uint8_t *src, const uint8_t *mean, int n, int idelta, bool inverted, uint8_t *dst);
};

const Kernels &portable_kernels();
/// nullptr where the level is not compiled (off x86).
const Kernels *sse2_kernels();
const Kernels *avx2_kernels();

// MARK: - Shared scalar helpers

/// BT.601 gray of one pixel in OpenCV's 15-bit fixed point (cv::cvtColor …2GRAY, 8-bit).
inline uint8_t gray_of(const uint8_t *p, int scn, int bidx) {
    if (scn == 1) return p[0];
    return (uint8_t)((p[bidx] * 3735 + p[1] * 19235 + p[2 - bidx] * 9798 + (1 << 14)) >> 15);
}

/// The mean of box sum `s` at column `x`, as OpenCV rounds it (see MeanParams).
uint8_t mean_of(uint32_t s, int x, const MeanParams &p);

/// Whether cv::adaptiveThreshold writes 255 for `src` and `mean` (see Kernels::compare_row).
inline uint8_t compare_one(int src, int mean, int idelta, bool inverted) {
    const bool above = src - mean > -idelta;
    return (above != inverted) ? 255 : 0;
}

}  // namespace focr::fast
