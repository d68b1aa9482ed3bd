// The fast CPU path's SSE2 kernels (the x86-64 baseline: no runtime check). See fast_kernels.hpp
// for what each computes; fast_scalar.cpp is the reference they equal byte for byte.
#include "fast_kernels.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <emmintrin.h>

#include <algorithm>
#include <cstring>

#include "fast_x86.hpp"
#include "fast_gauss_simd.hpp"

namespace focr::fast {
namespace {

using namespace x86;

void gray_row(const uint8_t *src, int n, int scn, int bidx, uint8_t *dst) {
    if (scn == 1) return (void)std::memcpy(dst, src, (size_t)n);
    const Gray4Constants k(bidx);
    int i = 0;
    if (scn == 4) {
        for (; i + 16 <= n; i += 16) _mm_storeu_si128((__m128i *)(dst + i), gray16(src + 4 * i, k));
    } else {
        // 16 pixels read 52 bytes: 2 more pixels must follow (18 · 3 = 54 ≥ 52).
        for (; i + 18 <= n; i += 16) _mm_storeu_si128((__m128i *)(dst + i), gray16_of3(src + 3 * i, k));
    }
    for (; i < n; ++i) dst[i] = gray_of(src + (size_t)scn * i, scn, bidx);
}

void gray_row_stream(const uint8_t *src, int n, int scn, int bidx, uint8_t *dst) {
    if (scn == 1) return (void)std::memcpy(dst, src, (size_t)n);
    // Plain stores up to the first 16-byte boundary of dst, streamed blocks of 16, the rest plain.
    int i = std::min(n, (int)((16 - (uintptr_t)dst % 16) % 16));
    gray_row(src, i, scn, bidx, dst);
    const Gray4Constants k(bidx);
    if (scn == 4) {
        for (; i + 16 <= n; i += 16) _mm_stream_si128((__m128i *)(dst + i), gray16(src + 4 * i, k));
    } else {
        for (; i + 18 <= n; i += 16) _mm_stream_si128((__m128i *)(dst + i), gray16_of3(src + 3 * i, k));
    }
    gray_row(src + (size_t)scn * i, n - i, scn, bidx, dst + i);
    _mm_sfence();
}

void reverse_row(const uint8_t *src, int n, uint8_t *dst) {
    int i = 0;
    for (; i + 16 <= n; i += 16)
        _mm_storeu_si128((__m128i *)(dst + i), reverse16(_mm_loadu_si128((const __m128i *)(src + n - 16 - i))));
    for (; i < n; ++i) dst[i] = src[n - 1 - i];
}

void transpose_tiles(const uint8_t *src, ptrdiff_t ustep, ptrdiff_t xstep, int scn, int bidx, int ublocks, int vtiles,
                     uint8_t *out, ptrdiff_t otile, ptrdiff_t ostep) {
    if (scn == 3) return portable_kernels().transpose_tiles(src, ustep, xstep, scn, bidx, ublocks, vtiles, out, otile, ostep);
    const Gray4Constants k(bidx);
    __m128i r[16];
    for (int a = 0; a < ublocks; ++a) {
        const uint8_t *rows = src + (ptrdiff_t)(16 * a) * ustep;
        for (int t = 0; t < vtiles; ++t) {
            const uint8_t *p = rows + t * xstep;
            if (scn == 1) {
                for (int j = 0; j < 16; ++j) r[j] = _mm_loadu_si128((const __m128i *)(p + (ptrdiff_t)j * ustep));
            } else {
                for (int j = 0; j < 16; ++j) r[j] = gray16(p + (ptrdiff_t)j * ustep, k);
            }
            transpose16x16(r);
            uint8_t *o = out + t * otile + 16 * a;
            for (int i = 0; i < 16; ++i) _mm_storeu_si128((__m128i *)(o + (ptrdiff_t)i * ostep), r[i]);
        }
    }
}

void colsum_add(uint16_t *cs, const uint8_t *row, int n) {
    const __m128i z = _mm_setzero_si128();
    int x = 0;
    for (; x + 16 <= n; x += 16) {
        const __m128i b = _mm_loadu_si128((const __m128i *)(row + x));
        __m128i *c = (__m128i *)(cs + x);
        _mm_storeu_si128(c, _mm_add_epi16(_mm_loadu_si128(c), _mm_unpacklo_epi8(b, z)));
        _mm_storeu_si128(c + 1, _mm_add_epi16(_mm_loadu_si128(c + 1), _mm_unpackhi_epi8(b, z)));
    }
    for (; x < n; ++x) cs[x] = (uint16_t)(cs[x] + row[x]);
}

void colsum_update(uint16_t *cs, const uint8_t *in, const uint8_t *out, int n) {
    const __m128i z = _mm_setzero_si128();
    int x = 0;
    for (; x + 16 <= n; x += 16) {
        const __m128i a = _mm_loadu_si128((const __m128i *)(in + x));
        const __m128i s = _mm_loadu_si128((const __m128i *)(out + x));
        __m128i *c = (__m128i *)(cs + x);
        const __m128i lo = _mm_sub_epi16(_mm_add_epi16(_mm_loadu_si128(c), _mm_unpacklo_epi8(a, z)), _mm_unpacklo_epi8(s, z));
        const __m128i hi = _mm_sub_epi16(_mm_add_epi16(_mm_loadu_si128(c + 1), _mm_unpackhi_epi8(a, z)), _mm_unpackhi_epi8(s, z));
        _mm_storeu_si128(c, lo);
        _mm_storeu_si128(c + 1, hi);
    }
    for (; x < n; ++x) cs[x] = (uint16_t)(cs[x] + in[x] - out[x]);
}

/// P[0] = 0, P[i + 1] = P[i] + cp[i] for i < len, in uint16 (wrapping).
void prefix16(const uint16_t *cp, int len, uint16_t *P) {
    P[0] = 0;
    __m128i carry = _mm_setzero_si128();
    int i = 0;
    for (; i + 8 <= len; i += 8) {
        __m128i x = _mm_loadu_si128((const __m128i *)(cp + i));
        x = _mm_add_epi16(x, _mm_slli_si128(x, 2));
        x = _mm_add_epi16(x, _mm_slli_si128(x, 4));
        x = _mm_add_epi16(x, _mm_slli_si128(x, 8));
        x = _mm_add_epi16(x, carry);
        _mm_storeu_si128((__m128i *)(P + i + 1), x);
        const __m128i last = _mm_shufflehi_epi16(x, 0xFF);  // words 4…7 = word 7
        carry = _mm_unpackhi_epi64(last, last);
    }
    for (; i < len; ++i) P[i + 1] = (uint16_t)(P[i] + cp[i]);
}

/// P[0] = 0, P[i + 1] = P[i] + cp[i] for i < len, in uint32 (wrapping).
void prefix32(const uint16_t *cp, int len, uint32_t *P) {
    P[0] = 0;
    const __m128i z = _mm_setzero_si128();
    __m128i carry = z;
    int i = 0;
    for (; i + 4 <= len; i += 4) {
        __m128i x = _mm_unpacklo_epi16(_mm_loadl_epi64((const __m128i *)(cp + i)), z);
        x = _mm_add_epi32(x, _mm_slli_si128(x, 4));
        x = _mm_add_epi32(x, _mm_slli_si128(x, 8));
        x = _mm_add_epi32(x, carry);
        _mm_storeu_si128((__m128i *)(P + i + 1), x);
        carry = _mm_shuffle_epi32(x, 0xFF);
    }
    for (; i < len; ++i) P[i + 1] = P[i] + cp[i];
}

void row_mean(const uint16_t *cp, int n, const MeanParams &p, uint32_t *scratch, uint8_t *mean) {
    const int k = 2 * p.radius + 1;
    if (p.small) {
        uint16_t *P = (uint16_t *)scratch;
        prefix16(cp, n + k - 1, P);
        // m = ((S + dd)·ds) >> 23 = (a·dsHigh + mulhi(a, dsLow)) >> 7 with a = S + dd: a·ds < 2^31,
        // so a·ds >> 16 < 2^15 and its two parts fit in 16 bits.
        const __m128i dd = _mm_set1_epi16((short)p.dd);
        const __m128i dsH = _mm_set1_epi16((short)(p.ds >> 16)), dsL = _mm_set1_epi16((short)(p.ds & 0xFFFF));
        int x = 0;
        for (; x + 8 <= n; x += 8) {
            const __m128i s = _mm_sub_epi16(_mm_loadu_si128((const __m128i *)(P + x + k)), _mm_loadu_si128((const __m128i *)(P + x)));
            const __m128i a = _mm_add_epi16(s, dd);
            const __m128i m = _mm_srli_epi16(_mm_add_epi16(_mm_mullo_epi16(a, dsH), _mm_mulhi_epu16(a, dsL)), 7);
            _mm_storel_epi64((__m128i *)(mean + x), _mm_packus_epi16(m, m));
        }
        for (; x < n; ++x) mean[x] = mean_of((uint16_t)(P[x + k] - P[x]), x, p);
        return;
    }
    uint32_t *P = scratch;
    prefix32(cp, n + k - 1, P);
    const __m128 scale = _mm_set1_ps(p.fscale);
    int x = 0;
    for (; x + 8 <= p.vectorEnd; x += 8) {
        const __m128i s0 = _mm_sub_epi32(_mm_loadu_si128((const __m128i *)(P + x + k)), _mm_loadu_si128((const __m128i *)(P + x)));
        const __m128i s1 = _mm_sub_epi32(_mm_loadu_si128((const __m128i *)(P + x + 4 + k)), _mm_loadu_si128((const __m128i *)(P + x + 4)));
        const __m128i m0 = _mm_cvtps_epi32(_mm_mul_ps(_mm_cvtepi32_ps(s0), scale));
        const __m128i m1 = _mm_cvtps_epi32(_mm_mul_ps(_mm_cvtepi32_ps(s1), scale));
        const __m128i m = _mm_packs_epi32(m0, m1);
        _mm_storel_epi64((__m128i *)(mean + x), _mm_packus_epi16(m, m));
    }
    for (; x < n; ++x) mean[x] = mean_of(P[x + k] - P[x], x, p);
}

void hsum_row(const uint8_t *g, int n, int r, uint16_t *P, uint16_t *h) {
    // P: prefix sums (uint16, wrapping) of the row padded with r copies of its end pixels.
    P[0] = 0;
    uint16_t acc = 0;
    for (int i = 0; i < r; ++i) P[i + 1] = acc = (uint16_t)(acc + g[0]);
    const __m128i z = _mm_setzero_si128();
    __m128i carry = _mm_set1_epi16((short)acc);
    int j = 0;
    for (; j + 16 <= n; j += 16) {
        const __m128i b = _mm_loadu_si128((const __m128i *)(g + j));
        __m128i lo = _mm_unpacklo_epi8(b, z), hi = _mm_unpackhi_epi8(b, z);
        lo = _mm_add_epi16(lo, _mm_slli_si128(lo, 2));
        hi = _mm_add_epi16(hi, _mm_slli_si128(hi, 2));
        lo = _mm_add_epi16(lo, _mm_slli_si128(lo, 4));
        hi = _mm_add_epi16(hi, _mm_slli_si128(hi, 4));
        lo = _mm_add_epi16(lo, _mm_slli_si128(lo, 8));
        hi = _mm_add_epi16(hi, _mm_slli_si128(hi, 8));
        lo = _mm_add_epi16(lo, carry);
        __m128i last = _mm_shufflehi_epi16(lo, 0xFF);
        hi = _mm_add_epi16(hi, _mm_unpackhi_epi64(last, last));
        _mm_storeu_si128((__m128i *)(P + r + 1 + j), lo);
        _mm_storeu_si128((__m128i *)(P + r + 9 + j), hi);
        last = _mm_shufflehi_epi16(hi, 0xFF);
        carry = _mm_unpackhi_epi64(last, last);
    }
    acc = P[r + j];
    for (; j < n; ++j) P[r + 1 + j] = acc = (uint16_t)(acc + g[j]);
    for (int i = 0; i < r; ++i) P[r + n + 1 + i] = acc = (uint16_t)(acc + g[n - 1]);
    const int k = 2 * r + 1;
    int x = 0;
    for (; x + 8 <= n; x += 8)
        _mm_storeu_si128((__m128i *)(h + x), _mm_sub_epi16(_mm_loadu_si128((const __m128i *)(P + x + k)),
                                                           _mm_loadu_si128((const __m128i *)(P + x))));
    for (; x < n; ++x) h[x] = (uint16_t)(P[x + k] - P[x]);
}

void vsum_add(uint32_t *S, const uint16_t *h, int n) {
    const __m128i z = _mm_setzero_si128();
    int x = 0;
    for (; x + 8 <= n; x += 8) {
        const __m128i v = _mm_loadu_si128((const __m128i *)(h + x));
        __m128i *s = (__m128i *)(S + x);
        _mm_storeu_si128(s, _mm_add_epi32(_mm_loadu_si128(s), _mm_unpacklo_epi16(v, z)));
        _mm_storeu_si128(s + 1, _mm_add_epi32(_mm_loadu_si128(s + 1), _mm_unpackhi_epi16(v, z)));
    }
    for (; x < n; ++x) S[x] += h[x];
}

void vsum_mean(uint32_t *S, const uint16_t *in, const uint16_t *out, int n, const MeanParams &p, uint8_t *mean) {
    const __m128 scale = _mm_set1_ps(p.fscale);
    const __m128i z = _mm_setzero_si128();
    int x = 0;
    for (; x + 8 <= p.vectorEnd; x += 8) {
        __m128i *s = (__m128i *)(S + x);
        __m128i s0 = _mm_loadu_si128(s), s1 = _mm_loadu_si128(s + 1);
        const __m128i m = _mm_packs_epi32(_mm_cvtps_epi32(_mm_mul_ps(_mm_cvtepi32_ps(s0), scale)),
                                          _mm_cvtps_epi32(_mm_mul_ps(_mm_cvtepi32_ps(s1), scale)));
        _mm_storel_epi64((__m128i *)(mean + x), _mm_packus_epi16(m, m));
        if (in) {
            const __m128i a = _mm_loadu_si128((const __m128i *)(in + x)), b = _mm_loadu_si128((const __m128i *)(out + x));
            s0 = _mm_sub_epi32(_mm_add_epi32(s0, _mm_unpacklo_epi16(a, z)), _mm_unpacklo_epi16(b, z));
            s1 = _mm_sub_epi32(_mm_add_epi32(s1, _mm_unpackhi_epi16(a, z)), _mm_unpackhi_epi16(b, z));
            _mm_storeu_si128(s, s0);
            _mm_storeu_si128(s + 1, s1);
        }
    }
    for (; x < n; ++x) {
        mean[x] = mean_of(S[x], x, p);
        if (in) S[x] += (uint32_t)in[x] - out[x];
    }
}

// MARK: Gaussian

void gauss_widen(const uint8_t *g, int n, int r, float *padded) {
    for (int i = 0; i < r; ++i) padded[i] = g[0];
    const __m128i z = _mm_setzero_si128();
    float *o = padded + r;
    int x = 0;
    for (; x + 16 <= n; x += 16) {
        const __m128i b = _mm_loadu_si128((const __m128i *)(g + x));
        const __m128i lo = _mm_unpacklo_epi8(b, z), hi = _mm_unpackhi_epi8(b, z);
        _mm_storeu_ps(o + x, _mm_cvtepi32_ps(_mm_unpacklo_epi16(lo, z)));
        _mm_storeu_ps(o + x + 4, _mm_cvtepi32_ps(_mm_unpackhi_epi16(lo, z)));
        _mm_storeu_ps(o + x + 8, _mm_cvtepi32_ps(_mm_unpacklo_epi16(hi, z)));
        _mm_storeu_ps(o + x + 12, _mm_cvtepi32_ps(_mm_unpackhi_epi16(hi, z)));
    }
    for (; x < n; ++x) o[x] = g[x];
    for (int i = 0; i < r; ++i) o[n + i] = g[n - 1];
}

/// fma_exact on two lanes held as doubles: p = a·b (exact), c → the rounded-to-odd double of
/// p + c (see fma_exact; p + c ≥ 0).
inline __m128 fma_odd2(__m128d p, __m128d c) {
    const __m128d hi = _mm_add_pd(p, c), bb = _mm_sub_pd(hi, p);
    const __m128d lo = _mm_add_pd(_mm_sub_pd(p, _mm_sub_pd(hi, bb)), _mm_sub_pd(c, bb));
    const __m128d zero = _mm_setzero_pd();
    // bits − 1 where lo < 0 (the mask is −1 as an integer), then | 1 where lo ≠ 0.
    __m128i bits = _mm_add_epi64(_mm_castpd_si128(hi), _mm_castpd_si128(_mm_cmplt_pd(lo, zero)));
    bits = _mm_or_si128(bits, _mm_and_si128(_mm_castpd_si128(_mm_cmpneq_pd(lo, zero)), _mm_set_epi32(0, 1, 0, 1)));
    return _mm_cvtpd_ps(_mm_castsi128_pd(bits));  // two floats in the low half
}

/// fma_exact(a, b, c) on 4 lanes (a·b + c rounded once), for a, b, c ≥ 0.
inline __m128 fma4(__m128 a, __m128 b, __m128 c) {
    const __m128 ah = _mm_movehl_ps(a, a), bh = _mm_movehl_ps(b, b), ch = _mm_movehl_ps(c, c);
    const __m128 lo = fma_odd2(_mm_mul_pd(_mm_cvtps_pd(a), _mm_cvtps_pd(b)), _mm_cvtps_pd(c));
    const __m128 hi = fma_odd2(_mm_mul_pd(_mm_cvtps_pd(ah), _mm_cvtps_pd(bh)), _mm_cvtps_pd(ch));
    return _mm_movelh_ps(lo, hi);
}

/// The vector type of the Gaussian's passes (fast_gauss_simd.hpp): 4 floats.
struct Vec4 {
    using reg = __m128;
    static constexpr int lanes = 4, rowVectors = 8, colVectors = 4;
    static reg load(const float *p) { return _mm_loadu_ps(p); }
    static void store(float *p, reg v) { _mm_storeu_ps(p, v); }
    static reg set1(float f) { return _mm_set1_ps(f); }
    static reg mul(reg a, reg b) { return _mm_mul_ps(a, b); }
    static reg add(reg a, reg b) { return _mm_add_ps(a, b); }
    /// s + w·x: fused (fma4, exact) or a rounded product and a rounded sum.
    template <bool Fused>
    static reg madd(reg s, reg w, reg x) {
        return Fused ? fma4(w, x, s) : _mm_add_ps(s, _mm_mul_ps(w, x));
    }
    static void store_bytes(uint8_t *d, reg v) {
        const __m128i m32 = _mm_cvtps_epi32(v);
        const int32_t four = _mm_cvtsi128_si32(_mm_packus_epi16(_mm_packs_epi32(m32, m32), m32));
        std::memcpy(d, &four, 4);
    }
    static void store_bytes4(uint8_t *d, reg a, reg b, reg c, reg e) {
        _mm_storeu_si128((__m128i *)d, _mm_packus_epi16(_mm_packs_epi32(_mm_cvtps_epi32(a), _mm_cvtps_epi32(b)),
                                                        _mm_packs_epi32(_mm_cvtps_epi32(c), _mm_cvtps_epi32(e))));
    }
};

void gauss_row(const float *padded, int n, const GaussParams &p, float *t) { simd::gauss_row<Vec4>(padded, n, p, t); }

void gauss_col(const float *const *rows, int n, int count, const GaussParams &p, uint8_t *mean, size_t mstep) {
    simd::gauss_col<Vec4>(rows, n, count, p, mean, mstep);
}

void gauss_col_float(const float *const *rows, int n, int count, const GaussParams &p, float *blurred,
                     size_t mstep) {
    simd::gauss_col<Vec4>(rows, n, count, p, blurred, mstep);
}

void compare_row(const uint8_t *src, const uint8_t *mean, int n, int idelta, bool inverted, uint8_t *dst) {
    const CompareConstants k(idelta, inverted);
    const __m128i bound = _mm_set1_epi8((char)k.bound), ones = _mm_set1_epi8(-1);
    int x = 0;
    for (; x + 16 <= n; x += 16) {
        const __m128i s = _mm_loadu_si128((const __m128i *)(src + x));
        const __m128i m = _mm_loadu_si128((const __m128i *)(mean + x));
        _mm_storeu_si128((__m128i *)(dst + x), compare16(s, m, k, bound, ones));
    }
    for (; x < n; ++x) dst[x] = compare_one(src[x], mean[x], idelta, inverted);
}

constexpr Kernels kSSE2Kernels = {kSSE2,     gray_row,   gray_row_stream, reverse_row, transpose_tiles,
                                  colsum_add, colsum_update, row_mean,     hsum_row,    vsum_add,
                                  vsum_mean,  gauss_widen, gauss_row,    gauss_col,   gauss_col_float,
                                  compare_row};

}  // namespace

const Kernels *sse2_kernels() { return &kSSE2Kernels; }

}  // namespace focr::fast

#else

namespace focr::fast {
const Kernels *sse2_kernels() { return nullptr; }
}  // namespace focr::fast

#endif
