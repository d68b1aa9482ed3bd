// The fast CPU path's portable kernels (plain C++, any architecture): the reference the SIMD
// levels are tested against, and the path on machines without SSE2. See fast_kernels.hpp.
// Floating-point contraction is off in this file: the Gaussian's unfused multiply-adds must stay
// a rounded product and a rounded sum (fast_kernels.hpp, GaussParams).
#include <cmath>
#include <cstring>

#include "fast_kernels.hpp"

#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

namespace focr::fast {

MeanParams::MeanParams(int block, int width) {
    const int area = block * block;
    radius = block / 2;
    small = area <= 256;
    if (small) {
        // ColumnSum<ushort, uchar>: SHIFT 23, divScale and divDelta exactly as OpenCV derives them.
        const int d = area;
        double scalef = (double)(1 << 23) / d;
        int scale = (int)std::floor(scalef);
        scalef -= scale;
        int delta = d / 2;
        if (scalef < 0.5) delta++;
        else scale++;
        ds = (uint32_t)scale;
        dd = (uint16_t)delta;
    } else {
        dscale = 1.0 / area;
        fscale = (float)dscale;
        vectorEnd = width - width % 8;
    }
}

uint8_t mean_of(uint32_t s, int x, const MeanParams &p) {
    if (p.small) return (uint8_t)(((s + p.dd) * p.ds) >> 23);
    long m;
    if (x < p.vectorEnd) {
        const float f = (float)s * p.fscale;  // one float multiply, as v_cvt_f32(s) * v_scale
        m = std::lrintf(f);                   // v_round: to nearest, ties to even
    } else {
        m = std::lrint((double)s * p.dscale);  // saturate_cast<uchar>(double): cvRound
    }
    return (uint8_t)(m < 0 ? 0 : m > 255 ? 255 : m);
}

namespace {

void gray_row(const uint8_t *src, int n, int scn, int bidx, uint8_t *dst) {
    if (scn == 1) {
        std::memcpy(dst, src, (size_t)n);
    } else if (scn == 4) {
        for (int i = 0; i < n; ++i) dst[i] = gray_of(src + 4 * i, 4, bidx);
    } else {
        for (int i = 0; i < n; ++i) dst[i] = gray_of(src + 3 * i, 3, bidx);
    }
}

void reverse_row(const uint8_t *src, int n, uint8_t *dst) {
    for (int i = 0; i < n; ++i) dst[i] = src[n - 1 - i];
}

void transpose_tiles(const uint8_t *src, ptrdiff_t ustep, ptrdiff_t xstep, int scn, int bidx, int ublocks, int vtiles,
                     uint8_t *out, ptrdiff_t otile, ptrdiff_t ostep) {
    for (int a = 0; a < ublocks; ++a) {
        for (int t = 0; t < vtiles; ++t) {
            uint8_t tile[16][16];  // tile[j][i]: pixel i of stored row 16a + j
            for (int j = 0; j < 16; ++j) gray_row(src + (ptrdiff_t)(16 * a + j) * ustep + t * xstep, 16, scn, bidx, tile[j]);
            for (int i = 0; i < 16; ++i) {
                uint8_t *o = out + t * otile + (ptrdiff_t)i * ostep + 16 * a;
                for (int j = 0; j < 16; ++j) o[j] = tile[j][i];
            }
        }
    }
}

void colsum_add(uint16_t *cs, const uint8_t *row, int n) {
    for (int x = 0; x < n; ++x) cs[x] = (uint16_t)(cs[x] + row[x]);
}

void colsum_update(uint16_t *cs, const uint8_t *in, const uint8_t *out, int n) {
    for (int x = 0; x < n; ++x) cs[x] = (uint16_t)(cs[x] + in[x] - out[x]);
}

void row_mean(const uint16_t *cp, int n, const MeanParams &p, uint32_t *, uint8_t *mean) {
    const int k = 2 * p.radius + 1;
    uint32_t s = 0;
    for (int i = 0; i < k; ++i) s += cp[i];
    for (int x = 0; x < n; ++x) {
        mean[x] = mean_of(s, x, p);
        if (x + 1 < n) s += (uint32_t)cp[x + k] - cp[x];
    }
}

void hsum_row(const uint8_t *g, int n, int r, uint16_t *, uint16_t *h) {
    uint32_t s = 0;
    for (int i = -r; i <= r; ++i) s += g[i < 0 ? 0 : i >= n ? n - 1 : i];
    for (int x = 0; x < n; ++x) {
        h[x] = (uint16_t)s;
        const int in = x + r + 1, out = x - r;
        s += (uint32_t)g[in >= n ? n - 1 : in] - g[out < 0 ? 0 : out];
    }
}

void vsum_add(uint32_t *S, const uint16_t *h, int n) {
    for (int x = 0; x < n; ++x) S[x] += h[x];
}

void vsum_mean(uint32_t *S, const uint16_t *in, const uint16_t *out, int n, const MeanParams &p, uint8_t *mean) {
    for (int x = 0; x < n; ++x) {
        mean[x] = mean_of(S[x], x, p);
        if (in) S[x] += (uint32_t)in[x] - out[x];
    }
}

void gauss_widen(const uint8_t *g, int n, int r, float *padded) {
    for (int i = 0; i < r; ++i) padded[i] = g[0];
    for (int x = 0; x < n; ++x) padded[r + x] = g[x];
    for (int i = 0; i < r; ++i) padded[r + n + i] = g[n - 1];
}

void gauss_row(const float *padded, int n, const GaussParams &p, float *t) {
    const int taps = 2 * p.rowRadius + 1;
    for (int x = 0; x < n; ++x) {
        float s = p.rowW[0] * padded[x];
        for (int k = 1; k < taps; ++k) s = gauss_madd(s, p.rowW[k], padded[x + k], p.fused);
        t[x] = s;
    }
}

/// The column sum of column x (see Kernels::gauss_col).
inline float gauss_col_sum(const float *const *rows, int x, const GaussParams &p) {
    const int r = p.colRadius;
    const float *w = p.colW + r;  // w[k]: the weight k rows from the centre
    float s = w[0] * rows[r][x];
    for (int k = 1; k <= r; ++k) s = gauss_madd(s, w[k], rows[r + k][x] + rows[r - k][x], p.fused);
    return s;
}

void gauss_col(const float *const *rows, int n, int count, const GaussParams &p, uint8_t *mean, size_t mstep) {
    for (int i = 0; i < count; ++i)
        for (int x = 0; x < n; ++x) mean[i * mstep + x] = round_to_byte(gauss_col_sum(rows + i, x, p));
}

void gauss_col_float(const float *const *rows, int n, int count, const GaussParams &p, float *blurred,
                     size_t mstep) {
    for (int i = 0; i < count; ++i)
        for (int x = 0; x < n; ++x) blurred[i * mstep + x] = gauss_col_sum(rows + i, x, p);
}

void compare_row(const uint8_t *src, const uint8_t *mean, int n, int idelta, bool inverted, uint8_t *dst) {
    for (int x = 0; x < n; ++x) dst[x] = compare_one(src[x], mean[x], idelta, inverted);
}

constexpr Kernels kPortableKernels = {kPortable, gray_row,   gray_row,  reverse_row, transpose_tiles, colsum_add,
                                      colsum_update, row_mean, hsum_row, vsum_add, vsum_mean, gauss_widen, gauss_row,
                                      gauss_col, gauss_col_float, compare_row};

}  // namespace

const Kernels &portable_kernels() { return kPortableKernels; }

}  // namespace focr::fast
