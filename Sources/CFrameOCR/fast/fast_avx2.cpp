// The fast CPU path's AVX2 kernels. Compiled for AVX2 and FMA through a target attribute on each
// function (no compiler flags: the package has no unsafeFlags), and only ever called after
// __builtin_cpu_supports said yes to both (fastpath.cpp). Floating-point contraction is off: a
// scalar a·b + s must never become an FMA behind the Gaussian's back (GaussParams); its FMAs are
// written as such. See fast_kernels.hpp for what each computes; fast_scalar.cpp is the reference
// they equal byte for byte.
#include "fast_kernels.hpp"

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

#include <algorithm>
#include <cstring>

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#endif

#if defined(__clang__)
#pragma clang fp contract(off)
#endif
#include "fast_x86.hpp"
#include "fast_gauss_simd.hpp"

namespace focr::fast {
namespace {

/// 256-bit counterparts of x86::Gray4Constants and x86::gray4: 8 pixels at a time.
struct Gray8Constants {
    __m256i lowMask, c02, c13, half;
    explicit Gray8Constants(int bidx)
        : lowMask(_mm256_set1_epi32(0x00FF00FF)),
          c02(bidx == 0 ? _mm256_set1_epi32((9798 << 16) | 3735) : _mm256_set1_epi32((3735 << 16) | 9798)),
          c13(_mm256_set1_epi32(19235)), half(_mm256_set1_epi32(1 << 14)) {}
};

inline __m256i gray8(__m256i x, const Gray8Constants &k) {
    const __m256i b02 = _mm256_and_si256(x, k.lowMask);
    const __m256i b13 = _mm256_srli_epi16(x, 8);
    const __m256i s = _mm256_add_epi32(_mm256_madd_epi16(b02, k.c02), _mm256_madd_epi16(b13, k.c13));
    return _mm256_srli_epi32(_mm256_add_epi32(s, k.half), 15);
}

/// Gray of 16 packed 4-byte pixels (64 bytes) as 16 bytes.
inline __m128i gray16(const uint8_t *p, const Gray8Constants &k) {
    const __m256i a = gray8(_mm256_loadu_si256((const __m256i *)p), k);         // pixels 0…7
    const __m256i b = gray8(_mm256_loadu_si256((const __m256i *)(p + 32)), k);  // 8…15
    const __m256i ab = _mm256_packs_epi32(a, b);  // words: 0…3, 8…11 | 4…7, 12…15
    const __m128i bytes = _mm_packus_epi16(_mm256_castsi256_si128(ab), _mm256_extracti128_si256(ab, 1));
    return _mm_shuffle_epi32(bytes, 0xD8);  // dwords 0…3, 8…11, 4…7, 12…15 → in order
}

/// 8 packed 3-byte pixels as 4-byte ones (byte 3 zero): 4 pixels from the 16 bytes at `p` in lane
/// 0 and 4 from those at `p + 12` in lane 1, spread by one byte shuffle. Reads 28 bytes.
inline __m256i spread8_of3(const uint8_t *p, __m256i shuffle) {
    const __m256i x = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)p)),
                                              _mm_loadu_si128((const __m128i *)(p + 12)), 1);
    return _mm256_shuffle_epi8(x, shuffle);
}

/// gray_row and gray_row_stream: `Stream` stores the 32-pixel blocks non-temporally from the first
/// 32-byte boundary of dst on (and fences at the end).
template <bool Stream>
void gray_row_t(const uint8_t *src, int n, int scn, int bidx, uint8_t *dst) {
    if (scn == 1) return (void)std::memcpy(dst, src, (size_t)n);
    const Gray8Constants k(bidx);
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    // packs, packus work per 128-bit lane: dwords come out as pixels 0-3, 8-11, 16-19, 24-27 |
    // 4-7, 12-15, 20-23, 28-31; one permute puts them in order.
    auto store32 = [&](uint8_t *d, __m256i a, __m256i b, __m256i c, __m256i e) {
        const __m256i bytes = _mm256_permutevar8x32_epi32(
            _mm256_packus_epi16(_mm256_packs_epi32(a, b), _mm256_packs_epi32(c, e)), order);
        if (Stream) _mm256_stream_si256((__m256i *)d, bytes);
        else _mm256_storeu_si256((__m256i *)d, bytes);
    };
    int i = 0;
    if (Stream) {
        i = std::min(n, (int)((32 - (uintptr_t)dst % 32) % 32));
        gray_row_t<false>(src, i, scn, bidx, dst);
    }
    if (scn == 4) {
        for (; i + 32 <= n; i += 32) {
            const uint8_t *p = src + 4 * i;
            store32(dst + i, gray8(_mm256_loadu_si256((const __m256i *)p), k),
                    gray8(_mm256_loadu_si256((const __m256i *)(p + 32)), k),
                    gray8(_mm256_loadu_si256((const __m256i *)(p + 64)), k),
                    gray8(_mm256_loadu_si256((const __m256i *)(p + 96)), k));
        }
        for (; i + 16 <= n; i += 16) _mm_storeu_si128((__m128i *)(dst + i), gray16(src + 4 * i, k));
    } else {
        const __m256i shuffle = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,  //
                                                 0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
        // 32 pixels read 100 bytes: 2 more pixels must follow (34 · 3 = 102 ≥ 100).
        for (; i + 34 <= n; i += 32) {
            const uint8_t *p = src + 3 * i;
            store32(dst + i, gray8(spread8_of3(p, shuffle), k), gray8(spread8_of3(p + 24, shuffle), k),
                    gray8(spread8_of3(p + 48, shuffle), k), gray8(spread8_of3(p + 72, shuffle), k));
        }
        const x86::Gray4Constants k4(bidx);
        for (; i + 18 <= n; i += 16) _mm_storeu_si128((__m128i *)(dst + i), x86::gray16_of3(src + 3 * i, k4));
    }
    for (; i < n; ++i) dst[i] = gray_of(src + (size_t)scn * i, scn, bidx);
    if (Stream) _mm_sfence();
}

void gray_row(const uint8_t *src, int n, int scn, int bidx, uint8_t *dst) { gray_row_t<false>(src, n, scn, bidx, dst); }
void gray_row_stream(const uint8_t *src, int n, int scn, int bidx, uint8_t *dst) { gray_row_t<true>(src, n, scn, bidx, dst); }

void reverse_row(const uint8_t *src, int n, uint8_t *dst) {
    const __m256i rev = _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,  //
                                         15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    int i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m256i x = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(src + n - 32 - i)), rev);
        _mm256_storeu_si256((__m256i *)(dst + i), _mm256_permute4x64_epi64(x, 0x4E));
    }
    for (; i < n; ++i) dst[i] = src[n - 1 - i];
}

/// x86::transpose16x16 on two tiles at once: lane 0 of r[j] holds row j of one tile, lane 1
/// row j of the next; the unpacks work within lanes, so each lane is transposed on its own.
inline void transpose2x16x16(__m256i r[16]) {
    __m256i t[16];
    for (int k = 0; k < 8; ++k) {
        t[2 * k] = _mm256_unpacklo_epi8(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = _mm256_unpackhi_epi8(r[2 * k], r[2 * k + 1]);
    }
    for (int g = 0; g < 4; ++g) {
        r[4 * g + 0] = _mm256_unpacklo_epi16(t[4 * g + 0], t[4 * g + 2]);
        r[4 * g + 1] = _mm256_unpackhi_epi16(t[4 * g + 0], t[4 * g + 2]);
        r[4 * g + 2] = _mm256_unpacklo_epi16(t[4 * g + 1], t[4 * g + 3]);
        r[4 * g + 3] = _mm256_unpackhi_epi16(t[4 * g + 1], t[4 * g + 3]);
    }
    for (int h = 0; h < 2; ++h) {
        for (int q = 0; q < 4; ++q) {
            t[8 * h + 2 * q] = _mm256_unpacklo_epi32(r[8 * h + q], r[8 * h + 4 + q]);
            t[8 * h + 2 * q + 1] = _mm256_unpackhi_epi32(r[8 * h + q], r[8 * h + 4 + q]);
        }
    }
    for (int k = 0; k < 8; ++k) {
        r[2 * k] = _mm256_unpacklo_epi64(t[k], t[8 + k]);
        r[2 * k + 1] = _mm256_unpackhi_epi64(t[k], t[8 + k]);
    }
}

void transpose_tiles(const uint8_t *src, ptrdiff_t ustep, ptrdiff_t xstep, int scn, int bidx, int ublocks, int vtiles,
                     uint8_t *out, ptrdiff_t otile, ptrdiff_t ostep) {
    if (scn == 3) return portable_kernels().transpose_tiles(src, ustep, xstep, scn, bidx, ublocks, vtiles, out, otile, ostep);
    const Gray8Constants k(bidx);
    int a = 0;
    for (; a + 2 <= ublocks; a += 2) {  // two tile columns at once: stored rows 16a… (lane 0) and 16a+16… (lane 1)
        const uint8_t *rows = src + (ptrdiff_t)(16 * a) * ustep;
        const ptrdiff_t next = 16 * ustep;
        for (int t = 0; t < vtiles; ++t) {
            const uint8_t *p = rows + t * xstep;
            // Prefetch each of the 32 rows 512 bytes ahead (prefetches never fault): the hardware
            // prefetchers alone keep too few of these streams in flight.
            const ptrdiff_t ahead = xstep > 0 ? 512 : -512;
            for (int j = 0; j < 16; ++j) {
                _mm_prefetch((const char *)(p + (ptrdiff_t)j * ustep + ahead), _MM_HINT_T0);
                _mm_prefetch((const char *)(p + (ptrdiff_t)j * ustep + next + ahead), _MM_HINT_T0);
            }
            __m256i r[16];
            if (scn == 1) {
                for (int j = 0; j < 16; ++j) {
                    const uint8_t *row = p + (ptrdiff_t)j * ustep;
                    r[j] = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)row)),
                                                   _mm_loadu_si128((const __m128i *)(row + next)), 1);
                }
            } else {
                for (int j = 0; j < 16; ++j) {
                    const uint8_t *row = p + (ptrdiff_t)j * ustep;
                    r[j] = _mm256_inserti128_si256(_mm256_castsi128_si256(gray16(row, k)), gray16(row + next, k), 1);
                }
            }
            transpose2x16x16(r);
            uint8_t *o = out + t * otile + 16 * a;
            for (int i = 0; i < 16; ++i) _mm256_storeu_si256((__m256i *)(o + (ptrdiff_t)i * ostep), r[i]);
        }
    }
    if (a < ublocks) {  // an odd last tile column
        const uint8_t *rows = src + (ptrdiff_t)(16 * a) * ustep;
        for (int t = 0; t < vtiles; ++t) {
            const uint8_t *p = rows + t * xstep;
            __m128i r[16];
            for (int j = 0; j < 16; ++j) {
                const uint8_t *row = p + (ptrdiff_t)j * ustep;
                r[j] = scn == 1 ? _mm_loadu_si128((const __m128i *)row) : gray16(row, k);
            }
            x86::transpose16x16(r);
            uint8_t *o = out + t * otile + 16 * a;
            for (int i = 0; i < 16; ++i) _mm_storeu_si128((__m128i *)(o + (ptrdiff_t)i * ostep), r[i]);
        }
    }
}

void colsum_add(uint16_t *cs, const uint8_t *row, int n) {
    int x = 0;
    for (; x + 16 <= n; x += 16) {
        __m256i *c = (__m256i *)(cs + x);
        const __m256i b = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(row + x)));
        _mm256_storeu_si256(c, _mm256_add_epi16(_mm256_loadu_si256(c), b));
    }
    for (; x < n; ++x) cs[x] = (uint16_t)(cs[x] + row[x]);
}

void colsum_update(uint16_t *cs, const uint8_t *in, const uint8_t *out, int n) {
    int x = 0;
    for (; x + 16 <= n; x += 16) {
        __m256i *c = (__m256i *)(cs + x);
        const __m256i a = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(in + x)));
        const __m256i s = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(out + x)));
        _mm256_storeu_si256(c, _mm256_sub_epi16(_mm256_add_epi16(_mm256_loadu_si256(c), a), s));
    }
    for (; x < n; ++x) cs[x] = (uint16_t)(cs[x] + in[x] - out[x]);
}

/// P[0] = 0, P[i + 1] = P[i] + cp[i] for i < len, in uint16 (wrapping).
void prefix16(const uint16_t *cp, int len, uint16_t *P) {
    P[0] = 0;
    __m256i carry = _mm256_setzero_si256();
    int i = 0;
    for (; i + 16 <= len; i += 16) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(cp + i));
        x = _mm256_add_epi16(x, _mm256_slli_si256(x, 2));  // prefix within each 128-bit lane
        x = _mm256_add_epi16(x, _mm256_slli_si256(x, 4));
        x = _mm256_add_epi16(x, _mm256_slli_si256(x, 8));
        const __m256i last = _mm256_shuffle_epi32(_mm256_shufflehi_epi16(x, 0xFF), 0xFF);  // each lane: its word 7
        x = _mm256_add_epi16(x, _mm256_permute2x128_si256(last, last, 0x08));        // lane 1 += lane 0's total
        const __m256i total = _mm256_permute2x128_si256(last, last, 0x11);           // lane 1's word 7, both lanes
        x = _mm256_add_epi16(x, carry);
        carry = _mm256_add_epi16(carry, _mm256_add_epi16(total, _mm256_permute2x128_si256(last, last, 0x00)));
        _mm256_storeu_si256((__m256i *)(P + i + 1), x);
    }
    for (; i < len; ++i) P[i + 1] = (uint16_t)(P[i] + cp[i]);
}

/// P[0] = 0, P[i + 1] = P[i] + cp[i] for i < len, in uint32 (wrapping).
void prefix32(const uint16_t *cp, int len, uint32_t *P) {
    P[0] = 0;
    __m256i carry = _mm256_setzero_si256();
    int i = 0;
    for (; i + 8 <= len; i += 8) {
        __m256i x = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(cp + i)));
        x = _mm256_add_epi32(x, _mm256_slli_si256(x, 4));
        x = _mm256_add_epi32(x, _mm256_slli_si256(x, 8));
        const __m256i last = _mm256_shuffle_epi32(x, 0xFF);  // each lane: its dword 3
        const __m256i lane0 = _mm256_permute2x128_si256(last, last, 0x00);
        x = _mm256_add_epi32(x, _mm256_permute2x128_si256(last, last, 0x08));
        const __m256i total = _mm256_add_epi32(lane0, _mm256_permute2x128_si256(last, last, 0x11));
        x = _mm256_add_epi32(x, carry);
        carry = _mm256_add_epi32(carry, total);
        _mm256_storeu_si256((__m256i *)(P + i + 1), x);
    }
    for (; i < len; ++i) P[i + 1] = P[i] + cp[i];
}

void row_mean(const uint16_t *cp, int n, const MeanParams &p, uint32_t *scratch, uint8_t *mean) {
    const int k = 2 * p.radius + 1;
    if (p.small) {
        uint16_t *P = (uint16_t *)scratch;
        prefix16(cp, n + k - 1, P);
        // As in the SSE2 kernel: m = (a·dsHigh + mulhi(a, dsLow)) >> 7 with a = S + dd.
        const __m256i dd = _mm256_set1_epi16((short)p.dd);
        const __m256i dsH = _mm256_set1_epi16((short)(p.ds >> 16)), dsL = _mm256_set1_epi16((short)(p.ds & 0xFFFF));
        int x = 0;
        for (; x + 16 <= n; x += 16) {
            const __m256i s = _mm256_sub_epi16(_mm256_loadu_si256((const __m256i *)(P + x + k)),
                                               _mm256_loadu_si256((const __m256i *)(P + x)));
            const __m256i a = _mm256_add_epi16(s, dd);
            const __m256i m = _mm256_srli_epi16(_mm256_add_epi16(_mm256_mullo_epi16(a, dsH), _mm256_mulhi_epu16(a, dsL)), 7);
            _mm_storeu_si128((__m128i *)(mean + x),
                             _mm_packus_epi16(_mm256_castsi256_si128(m), _mm256_extracti128_si256(m, 1)));
        }
        for (; x < n; ++x) mean[x] = mean_of((uint16_t)(P[x + k] - P[x]), x, p);
        return;
    }
    uint32_t *P = scratch;
    prefix32(cp, n + k - 1, P);
    const __m256 scale = _mm256_set1_ps(p.fscale);
    int x = 0;
    for (; x + 16 <= p.vectorEnd; x += 16) {
        const __m256i s0 = _mm256_sub_epi32(_mm256_loadu_si256((const __m256i *)(P + x + k)),
                                            _mm256_loadu_si256((const __m256i *)(P + x)));
        const __m256i s1 = _mm256_sub_epi32(_mm256_loadu_si256((const __m256i *)(P + x + 8 + k)),
                                            _mm256_loadu_si256((const __m256i *)(P + x + 8)));
        const __m256i m0 = _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_cvtepi32_ps(s0), scale));
        const __m256i m1 = _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_cvtepi32_ps(s1), scale));
        const __m256i m = _mm256_permute4x64_epi64(_mm256_packs_epi32(m0, m1), 0xD8);  // words in order
        _mm_storeu_si128((__m128i *)(mean + x), _mm_packus_epi16(_mm256_castsi256_si128(m), _mm256_extracti128_si256(m, 1)));
    }
    const __m128 scale4 = _mm_set1_ps(p.fscale);
    for (; x + 8 <= p.vectorEnd; x += 8) {
        const __m128i s0 = _mm_sub_epi32(_mm_loadu_si128((const __m128i *)(P + x + k)), _mm_loadu_si128((const __m128i *)(P + x)));
        const __m128i s1 = _mm_sub_epi32(_mm_loadu_si128((const __m128i *)(P + x + 4 + k)), _mm_loadu_si128((const __m128i *)(P + x + 4)));
        const __m128i m = _mm_packs_epi32(_mm_cvtps_epi32(_mm_mul_ps(_mm_cvtepi32_ps(s0), scale4)),
                                          _mm_cvtps_epi32(_mm_mul_ps(_mm_cvtepi32_ps(s1), scale4)));
        _mm_storel_epi64((__m128i *)(mean + x), _mm_packus_epi16(m, m));
    }
    for (; x < n; ++x) mean[x] = mean_of(P[x + k] - P[x], x, p);
}

void hsum_row(const uint8_t *g, int n, int r, uint16_t *P, uint16_t *h) {
    // As the SSE2 kernel: P holds prefix sums (uint16, wrapping) of the row padded with r copies
    // of its end pixels, 16 at a time.
    P[0] = 0;
    uint16_t acc = 0;
    for (int i = 0; i < r; ++i) P[i + 1] = acc = (uint16_t)(acc + g[0]);
    __m256i carry = _mm256_set1_epi16((short)acc);
    int j = 0;
    for (; j + 16 <= n; j += 16) {
        __m256i x = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(g + j)));
        x = _mm256_add_epi16(x, _mm256_slli_si256(x, 2));  // prefix within each 128-bit lane
        x = _mm256_add_epi16(x, _mm256_slli_si256(x, 4));
        x = _mm256_add_epi16(x, _mm256_slli_si256(x, 8));
        const __m256i last = _mm256_shuffle_epi32(_mm256_shufflehi_epi16(x, 0xFF), 0xFF);  // each lane: its word 7
        x = _mm256_add_epi16(x, _mm256_permute2x128_si256(last, last, 0x08));        // lane 1 += lane 0's total
        x = _mm256_add_epi16(x, carry);
        carry = _mm256_add_epi16(carry, _mm256_add_epi16(_mm256_permute2x128_si256(last, last, 0x11),
                                                         _mm256_permute2x128_si256(last, last, 0x00)));
        _mm256_storeu_si256((__m256i *)(P + r + 1 + j), x);
    }
    acc = P[r + j];
    for (; j < n; ++j) P[r + 1 + j] = acc = (uint16_t)(acc + g[j]);
    for (int i = 0; i < r; ++i) P[r + n + 1 + i] = acc = (uint16_t)(acc + g[n - 1]);
    const int k = 2 * r + 1;
    int x = 0;
    for (; x + 16 <= n; x += 16)
        _mm256_storeu_si256((__m256i *)(h + x), _mm256_sub_epi16(_mm256_loadu_si256((const __m256i *)(P + x + k)),
                                                                 _mm256_loadu_si256((const __m256i *)(P + x))));
    for (; x < n; ++x) h[x] = (uint16_t)(P[x + k] - P[x]);
}

void vsum_add(uint32_t *S, const uint16_t *h, int n) {
    int x = 0;
    for (; x + 8 <= n; x += 8) {
        __m256i *s = (__m256i *)(S + x);
        _mm256_storeu_si256(s, _mm256_add_epi32(_mm256_loadu_si256(s), _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(h + x)))));
    }
    for (; x < n; ++x) S[x] += h[x];
}

void vsum_mean(uint32_t *S, const uint16_t *in, const uint16_t *out, int n, const MeanParams &p, uint8_t *mean) {
    const __m256 scale = _mm256_set1_ps(p.fscale);
    int x = 0;
    for (; x + 16 <= p.vectorEnd; x += 16) {
        __m256i *s = (__m256i *)(S + x);
        __m256i s0 = _mm256_loadu_si256(s), s1 = _mm256_loadu_si256(s + 1);
        const __m256i m0 = _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_cvtepi32_ps(s0), scale));
        const __m256i m1 = _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_cvtepi32_ps(s1), scale));
        const __m256i m = _mm256_permute4x64_epi64(_mm256_packs_epi32(m0, m1), 0xD8);  // words in order
        _mm_storeu_si128((__m128i *)(mean + x), _mm_packus_epi16(_mm256_castsi256_si128(m), _mm256_extracti128_si256(m, 1)));
        if (in) {
            const __m128i *a = (const __m128i *)(in + x), *b = (const __m128i *)(out + x);
            s0 = _mm256_sub_epi32(_mm256_add_epi32(s0, _mm256_cvtepu16_epi32(_mm_loadu_si128(a))), _mm256_cvtepu16_epi32(_mm_loadu_si128(b)));
            s1 = _mm256_sub_epi32(_mm256_add_epi32(s1, _mm256_cvtepu16_epi32(_mm_loadu_si128(a + 1))),
                                  _mm256_cvtepu16_epi32(_mm_loadu_si128(b + 1)));
            _mm256_storeu_si256(s, s0);
            _mm256_storeu_si256(s + 1, s1);
        }
    }
    for (; x + 8 <= p.vectorEnd; x += 8) {
        __m256i *s = (__m256i *)(S + x);
        __m256i s0 = _mm256_loadu_si256(s);
        const __m256i m0 = _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_cvtepi32_ps(s0), scale));
        const __m128i m = _mm_packs_epi32(_mm256_castsi256_si128(m0), _mm256_extracti128_si256(m0, 1));
        _mm_storel_epi64((__m128i *)(mean + x), _mm_packus_epi16(m, m));
        if (in) {
            s0 = _mm256_sub_epi32(_mm256_add_epi32(s0, _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(in + x)))),
                                  _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(out + x))));
            _mm256_storeu_si256(s, s0);
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
    float *o = padded + r;
    int x = 0;
    for (; x + 16 <= n; x += 16) {
        const __m128i b = _mm_loadu_si128((const __m128i *)(g + x));
        _mm256_storeu_ps(o + x, _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(b)));
        _mm256_storeu_ps(o + x + 8, _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_unpackhi_epi64(b, b))));
    }
    for (; x < n; ++x) o[x] = g[x];
    for (int i = 0; i < r; ++i) o[n + i] = g[n - 1];
}

/// The vector type of the Gaussian's passes (fast_gauss_simd.hpp): 8 floats.
struct Vec8 {
    using reg = __m256;
    static constexpr int lanes = 8, rowVectors = 8, colVectors = 8;  // 8 sums: two FMA pipes of 4 cycles
    static reg load(const float *p) { return _mm256_loadu_ps(p); }
    static void store(float *p, reg v) { _mm256_storeu_ps(p, v); }
    static reg set1(float f) { return _mm256_set1_ps(f); }
    static reg mul(reg a, reg b) { return _mm256_mul_ps(a, b); }
    static reg add(reg a, reg b) { return _mm256_add_ps(a, b); }
    /// s + w·x: one FMA instruction (fused), or a rounded product and a rounded sum (two
    /// instructions; the compiler never contracts separate intrinsics).
    template <bool Fused>
    static reg madd(reg s, reg w, reg x) {
        return Fused ? _mm256_fmadd_ps(w, x, s) : _mm256_add_ps(s, _mm256_mul_ps(w, x));
    }
    static void store_bytes(uint8_t *d, reg v) {
        const __m256i m32 = _mm256_cvtps_epi32(v);
        const __m128i w16 = _mm_packs_epi32(_mm256_castsi256_si128(m32), _mm256_extracti128_si256(m32, 1));
        _mm_storel_epi64((__m128i *)d, _mm_packus_epi16(w16, w16));
    }
    static void store_bytes4(uint8_t *d, reg a, reg b, reg c, reg e) {
        // packs, packus work per 128-bit lane; one permute puts the dwords in order.
        const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
        const __m256i words01 = _mm256_packs_epi32(_mm256_cvtps_epi32(a), _mm256_cvtps_epi32(b));
        const __m256i words23 = _mm256_packs_epi32(_mm256_cvtps_epi32(c), _mm256_cvtps_epi32(e));
        _mm256_storeu_si256((__m256i *)d, _mm256_permutevar8x32_epi32(_mm256_packus_epi16(words01, words23), order));
    }
};

void gauss_row(const float *padded, int n, const GaussParams &p, float *t) { simd::gauss_row<Vec8>(padded, n, p, t); }

void gauss_col(const float *const *rows, int n, int count, const GaussParams &p, uint8_t *mean, size_t mstep) {
    simd::gauss_col<Vec8>(rows, n, count, p, mean, mstep);
}

void gauss_col_float(const float *const *rows, int n, int count, const GaussParams &p, float *blurred,
                     size_t mstep) {
    simd::gauss_col<Vec8>(rows, n, count, p, blurred, mstep);
}

void compare_row(const uint8_t *src, const uint8_t *mean, int n, int idelta, bool inverted, uint8_t *dst) {
    const x86::CompareConstants k(idelta, inverted);
    const __m256i bound = _mm256_set1_epi8((char)k.bound), ones = _mm256_set1_epi8(-1);
    int x = 0;
    for (; x + 32 <= n; x += 32) {
        const __m256i s = _mm256_loadu_si256((const __m256i *)(src + x));
        const __m256i m = _mm256_loadu_si256((const __m256i *)(mean + x));
        __m256i mask;
        if (k.positive) {
            const __m256i d = _mm256_subs_epu8(m, s);
            mask = _mm256_cmpeq_epi8(_mm256_min_epu8(d, bound), d);
        } else if (k.never) {
            mask = _mm256_setzero_si256();
        } else {
            const __m256i d = _mm256_subs_epu8(s, m);
            mask = _mm256_cmpeq_epi8(_mm256_max_epu8(d, bound), d);
        }
        _mm256_storeu_si256((__m256i *)(dst + x), k.inverted ? _mm256_xor_si256(mask, ones) : mask);
    }
    const __m128i bound16 = _mm_set1_epi8((char)k.bound), ones16 = _mm_set1_epi8(-1);
    for (; x + 16 <= n; x += 16) {
        const __m128i s = _mm_loadu_si128((const __m128i *)(src + x));
        const __m128i m = _mm_loadu_si128((const __m128i *)(mean + x));
        _mm_storeu_si128((__m128i *)(dst + x), x86::compare16(s, m, k, bound16, ones16));
    }
    for (; x < n; ++x) dst[x] = compare_one(src[x], mean[x], idelta, inverted);
}

const Kernels kAVX2Kernels = {kAVX2,      gray_row,      gray_row_stream, reverse_row, transpose_tiles,
                              colsum_add, colsum_update, row_mean,        hsum_row,    vsum_add,
                              vsum_mean,  gauss_widen,   gauss_row,       gauss_col,   gauss_col_float,
                              compare_row};

}  // namespace
}  // namespace focr::fast

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

// Outside the AVX2 region: callable on any x86-64 (it only hands out the table).
namespace focr::fast {
const Kernels *avx2_kernels() { return &kAVX2Kernels; }
}  // namespace focr::fast

#else

namespace focr::fast {
const Kernels *avx2_kernels() { return nullptr; }
}  // namespace focr::fast

#endif
