// Internal to the shim: 128-bit SSE2 building blocks shared by fast_sse2.cpp and fast_avx2.cpp.
// Everything here has internal linkage (an unnamed namespace) so that each file gets its own copy
// compiled for its own target (the AVX2 file includes this under target("avx2")): an inline
// function or constructor with external linkage would exist in two instruction sets under one
// name, and the linker could hand the AVX2 copy to the SSE2 code.
#pragma once
#if defined(__x86_64__) || defined(__i386__)
#include <emmintrin.h>

#include <cstdint>

namespace focr::fast::x86 {
namespace {

/// Transposes 16 rows of 16 bytes in place: afterwards r[i] byte j is what r[j] byte i was.
/// Four rounds of unpacks (8, 16, 32, 64 bits), 64 instructions.
static inline void transpose16x16(__m128i r[16]) {
    __m128i t[16];
    for (int k = 0; k < 8; ++k) {  // bytes of rows 2k, 2k+1
        t[2 * k] = _mm_unpacklo_epi8(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = _mm_unpackhi_epi8(r[2 * k], r[2 * k + 1]);
    }
    for (int g = 0; g < 4; ++g) {  // rows 4g…4g+3: t[4g..4g+3] → r[4g..4g+3]
        r[4 * g + 0] = _mm_unpacklo_epi16(t[4 * g + 0], t[4 * g + 2]);  // columns 0…3
        r[4 * g + 1] = _mm_unpackhi_epi16(t[4 * g + 0], t[4 * g + 2]);  // 4…7
        r[4 * g + 2] = _mm_unpacklo_epi16(t[4 * g + 1], t[4 * g + 3]);  // 8…11
        r[4 * g + 3] = _mm_unpackhi_epi16(t[4 * g + 1], t[4 * g + 3]);  // 12…15
    }
    for (int h = 0; h < 2; ++h) {  // rows 8h…8h+7: r[8h + q] (q < 4) with r[8h + 4 + q]
        for (int q = 0; q < 4; ++q) {
            t[8 * h + 2 * q] = _mm_unpacklo_epi32(r[8 * h + q], r[8 * h + 4 + q]);      // columns 4q, 4q+1
            t[8 * h + 2 * q + 1] = _mm_unpackhi_epi32(r[8 * h + q], r[8 * h + 4 + q]);  // 4q+2, 4q+3
        }
    }
    for (int k = 0; k < 8; ++k) {  // column 2k and 2k+1: rows 0…7 from t[k], rows 8…15 from t[8 + k]
        r[2 * k] = _mm_unpacklo_epi64(t[k], t[8 + k]);
        r[2 * k + 1] = _mm_unpackhi_epi64(t[k], t[8 + k]);
    }
}

/// The 16 bytes of `x` in reverse order.
static inline __m128i reverse16(__m128i x) {
    x = _mm_or_si128(_mm_slli_epi16(x, 8), _mm_srli_epi16(x, 8));  // swap the bytes of each word
    x = _mm_shufflelo_epi16(x, 0x1B);                              // reverse the words of each half
    x = _mm_shufflehi_epi16(x, 0x1B);
    return _mm_shuffle_epi32(x, 0x4E);  // swap the halves
}

/// Constants of the BT.601 fixed-point gray of 4-byte pixels: madd of the (byte 0, byte 2) words
/// and of the (byte 1, byte 3) words.
struct Gray4Constants {
    __m128i lowMask, c02, c13, half;
    explicit Gray4Constants(int bidx)
        : lowMask(_mm_set1_epi32(0x00FF00FF)),
          c02(bidx == 0 ? _mm_set1_epi32((9798 << 16) | 3735) : _mm_set1_epi32((3735 << 16) | 9798)),
          c13(_mm_set1_epi32(19235)), half(_mm_set1_epi32(1 << 14)) {}
};

/// Gray of 4 packed 4-byte pixels as 4 int32 (0…255).
static inline __m128i gray4(__m128i x, const Gray4Constants &k) {
    const __m128i b02 = _mm_and_si128(x, k.lowMask);  // words: byte 0, byte 2
    const __m128i b13 = _mm_srli_epi16(x, 8);         // words: byte 1, byte 3
    const __m128i s = _mm_add_epi32(_mm_madd_epi16(b02, k.c02), _mm_madd_epi16(b13, k.c13));
    return _mm_srli_epi32(_mm_add_epi32(s, k.half), 15);
}

/// Gray of 4 packed 3-byte pixels: the 12 bytes at the bottom of `x` (its top 4 bytes are
/// ignored) spread to one pixel per dword, byte 3 zero (pixel j moves from byte 3j to 4j: a
/// j-byte shift and a mask), then gray4. SSE2 has no byte shuffle; 11 instructions do its work.
static inline __m128i gray4_of3(__m128i x, const Gray4Constants &k) {
    const __m128i m0 = _mm_set_epi32(0, 0, 0, 0x00FFFFFF), m1 = _mm_set_epi32(0, 0, 0x00FFFFFF, 0);
    const __m128i m2 = _mm_set_epi32(0, 0x00FFFFFF, 0, 0), m3 = _mm_set_epi32(0x00FFFFFF, 0, 0, 0);
    const __m128i spread = _mm_or_si128(_mm_or_si128(_mm_and_si128(x, m0), _mm_and_si128(_mm_slli_si128(x, 1), m1)),
                                        _mm_or_si128(_mm_and_si128(_mm_slli_si128(x, 2), m2),
                                                     _mm_and_si128(_mm_slli_si128(x, 3), m3)));
    return gray4(spread, k);
}

/// Gray of 16 packed pixels of `Scn` (3 or 4) bytes at `p` as 16 bytes, four 16-byte loads of 4
/// pixels each. Scn 3 reads 52 bytes: the caller makes sure 4 bytes past the 16 pixels are still
/// pixel bytes of the row.
template <int Scn>
static inline __m128i gray16_of(const uint8_t *p, const Gray4Constants &k) {
    __m128i g[4];
    for (int i = 0; i < 4; ++i) {
        const __m128i x = _mm_loadu_si128((const __m128i *)(p + 4 * Scn * i));
        g[i] = Scn == 4 ? gray4(x, k) : gray4_of3(x, k);
    }
    return _mm_packus_epi16(_mm_packs_epi32(g[0], g[1]), _mm_packs_epi32(g[2], g[3]));
}

/// Gray of 16 packed 4-byte pixels (64 bytes) as 16 bytes.
static inline __m128i gray16(const uint8_t *p, const Gray4Constants &k) { return gray16_of<4>(p, k); }

/// Gray of 16 packed 3-byte pixels (48 bytes at `p`, reading 52) as 16 bytes.
static inline __m128i gray16_of3(const uint8_t *p, const Gray4Constants &k) { return gray16_of<3>(p, k); }

/// The comparison of cv::adaptiveThreshold on bytes, without widening (see Kernels::compare_row):
/// src + idelta > mean ⇔ (idelta ≥ 1) mean ⊖ src ≤ idelta − 1, (idelta ≤ 0) src ⊖ mean ≥ 1 − idelta,
/// with ⊖ the saturating byte subtraction.
struct CompareConstants {
    bool positive;   // idelta ≥ 1
    bool never;      // idelta ≤ −255: src + idelta > mean is never true
    uint8_t bound;   // positive: min(idelta − 1, 255); else 1 − idelta
    bool inverted;
    CompareConstants(int idelta, bool inv) : positive(idelta >= 1), never(idelta <= -255), inverted(inv) {
        bound = (uint8_t)(positive ? (idelta - 1 > 255 ? 255 : idelta - 1) : (never ? 255 : 1 - idelta));
    }
};

static inline __m128i compare16(__m128i s, __m128i m, const CompareConstants &k, __m128i bound, __m128i ones) {
    __m128i mask;
    if (k.positive) {
        const __m128i d = _mm_subs_epu8(m, s);
        mask = _mm_cmpeq_epi8(_mm_min_epu8(d, bound), d);
    } else if (k.never) {
        mask = _mm_setzero_si128();
    } else {
        const __m128i d = _mm_subs_epu8(s, m);
        mask = _mm_cmpeq_epi8(_mm_max_epu8(d, bound), d);
    }
    return k.inverted ? _mm_xor_si128(mask, ones) : mask;
}

}  // namespace
}  // namespace focr::fast::x86
#endif
