// Internal to the shim: the row and tile kernels of the fast CPU path (fastpath.cpp drives them),
// one table per SIMD level. Every level computes the same bytes; the levels differ in speed only.
//
//   portable C++ (fast_scalar.cpp)  every architecture; the reference the others are tested against
//   SSE2 (fast_sse2.cpp)            x86-64 baseline, no runtime check needed
//   AVX2 (fast_avx2.cpp)            x86-64, functions compiled with target("avx2,fma") and chosen at
//                                   run time by __builtin_cpu_supports("avx2") and ("fma") (no
//                                   compiler flags)
//
// The SSE2 and AVX2 files share the Gaussian's passes (fast_gauss_simd.hpp, templates over a
// 4- or 8-float vector type) and 128-bit helpers (fast_x86.hpp), each compiled for its own target.
//
// Reading and writing rules for every kernel: it reads exactly the bytes its arguments describe
// (`n` pixels of `scn` bytes from each row pointer) and writes exactly the bytes it is asked to
// write, so padding past a row's pixels and rows outside the image are never touched, however
// narrow the image.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

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

/// The arithmetic of cv::adaptiveThreshold's Gaussian mean (ADAPTIVE_THRESH_GAUSSIAN_C, OpenCV
/// 4.6): the gray image as float (CV_32F), cv::GaussianBlur(Size(block, block), σ 0,
/// BORDER_REPLICATE | BORDER_ISOLATED), then convertTo CV_8U. GaussianBlur runs OpenCV's separable
/// float filter: the row pass sums kx[0]·p[x − r] + kx[1]·p[x − r + 1] + … left to right
/// (RowFilter, RowVec_32f), the column pass the centre first and then the symmetric pairs,
/// ky[r]·t[y] + ky[r + 1]·(t[y + 1] + t[y − 1]) + … outwards (SymmColumnFilter,
/// SymmColumnVec_32f), every partial sum rounded to float. A width of 1 skips the row pass and a
/// height of 1 the column pass (GaussianBlur makes that kernel size 1, weight 1.0). convertTo
/// rounds half to even and saturates. Blocks 3, 5 and 7 have dyadic weights and every sum is exact.
///
/// `fused`: each multiply-add is one fused multiply-add (a·b + s rounded once), as OpenCV's AVX2
/// filters compute it (Debian's build: AVX2 dispatch with FMA3; their scalar tails are contracted
/// too), or a product rounded and then the sum rounded, as its SSE2/SSE4.1 builds do. Which one
/// OpenCV takes depends on the machine (cv::checkHardwareSupport(CV_CPU_AVX2)), and the results
/// differ in the last bit of the float — now and then in the rounded mean — so every level
/// computes both: AVX2 with FMA instructions, SSE2 and the portable code by an exact emulation
/// (fma_exact).
struct GaussParams {
    int rowRadius = 0;           // (row kernel size − 1) / 2; 0 for a width of 1
    int colRadius = 0;           // (column kernel size − 1) / 2; 0 for a height of 1
    const float *rowW = nullptr;  // 2·rowRadius + 1 weights, kx[0] first
    const float *colW = nullptr;  // 2·colRadius + 1 weights (the same kernel, or {1})
    bool fused = false;
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

    /// The float row of the Gaussian's row pass: padded[i] = g[clamp(i − r, 0, n − 1)] for
    /// i < n + 2r (the row with r replicated pixels on each side).
    void (*gauss_widen)(const uint8_t *g, int n, int r, float *padded);
    /// The row pass (see GaussParams): t[x] = Σ_{k = 0…2R} rowW[k]·padded[x + k], summed from k = 0,
    /// R = p.rowRadius, `padded` holding n + 2R values.
    void (*gauss_row)(const float *padded, int n, const GaussParams &p, float *t);
    /// The column pass and the conversion to bytes (see GaussParams) of `count` (1…4)
    /// consecutive output rows y … y + count − 1: with R = p.colRadius and rows[j] the row-pass
    /// row y − R + j (clamped; j < 2R + count), output row i is mean + i·mstep, mean[x] =
    /// saturate(round half even(colW[R]·rows[R + i][x] + Σ_{k = 1…R} colW[R + k]·(rows[R + i + k][x]
    /// + rows[R + i − k][x]))), summed outwards from the centre. Four rows at once share their
    /// loads: the window moves by one row per step of k for all of them.
    void (*gauss_col)(const float *const *rows, int n, int count, const GaussParams &p, uint8_t *mean, size_t mstep);
    /// gauss_col's sums before the rounding: the blurred float rows themselves, `mstep` floats
    /// apart (for tests, which then see every bit of OpenCV's GaussianBlur, not only the
    /// roundings that reach a byte).
    void (*gauss_col_float)(const float *const *rows, int n, int count, const GaussParams &p, float *blurred,
                            size_t mstep);

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

/// a·b + c rounded once to float (what an FMA instruction computes), for finite a, b, c ≥ 0 —
/// the Gaussian's weights, pixels and partial sums — without an FMA instruction: the product is
/// exact in double (24 + 24 bits), TwoSum gives the sum's exact error, the double is rounded to
/// odd with it, and rounding that to float is then the correctly rounded result (53 ≥ 24 + 2:
/// Boldo & Melquiond, "Emulation of FMA and correctly rounded sums: proved algorithms using
/// rounding to odd", 2008). A plain double sum would round twice and miss ties now and then.
inline float fma_exact(float a, float b, float c) {
    const double p = (double)a * (double)b, cd = c;
    const double hi = p + cd, bb = hi - p;
    const double lo = (p - (hi - bb)) + (cd - bb);
    uint64_t bits;
    std::memcpy(&bits, &hi, sizeof bits);
    // Round to odd: the neighbour of hi towards the exact value when hi is even (hi > 0 whenever
    // lo ≠ 0, as all terms are ≥ 0).
    if (lo != 0) bits = (bits - (lo < 0 ? 1 : 0)) | 1;
    double odd;
    std::memcpy(&odd, &bits, sizeof odd);
    return (float)odd;
}

/// s + a·b with the product rounded to float first (OpenCV's SSE2 filters). Two statements, and
/// contraction off, so no compiler fuses them into an FMA where the target has one.
inline float mul_then_add(float s, float a, float b) {
#if defined(__clang__)
#pragma clang fp contract(off)
#endif
    const float product = a * b;
    return s + product;
}

/// One multiply-add of the Gaussian: fused (fma_exact) or not (mul_then_add), see GaussParams.
inline float gauss_madd(float s, float a, float b, bool fused) { return fused ? fma_exact(a, b, s) : mul_then_add(s, a, b); }

/// The Gaussian mean as convertTo rounds a float to a byte: to nearest, ties to even, saturated.
inline uint8_t round_to_byte(float v) {
    const long m = std::lrintf(v);
    return (uint8_t)(m < 0 ? 0 : m > 255 ? 255 : m);
}

/// The mean of box sum `s` at column `x`, as OpenCV rounds it (see MeanParams).
uint8_t mean_of(uint32_t s, int x, const MeanParams &p);

/// Whether cv::adaptiveThreshold writes 255 for `src` and `mean` (see Kernels::compare_row).
inline uint8_t compare_one(int src, int mean, int idelta, bool inverted) {
    const bool above = src - mean > -idelta;
    return (above != inverted) ? 255 : 0;
}

}  // namespace focr::fast
