// Internal to the shim: the Gaussian's row and column passes (fast_kernels.hpp, GaussParams) written
// once over a vector type, for fast_sse2.cpp (4 floats) and fast_avx2.cpp (8 floats). Each file
// includes this inside its own target region with its own traits `V`; everything here has
// internal linkage (an unnamed namespace), as in fast_x86.hpp, so each instruction set gets its
// own copy under no shared name.
//
// V provides: `reg` and `lanes`; load, store, set1, mul, add; `madd<Fused>(s, w, x)` = s + w·x,
// one rounding (fused) or two; `store_bytes(dst, v)` (lanes bytes) and `store_bytes4(dst, a, b,
// c, d)` (4·lanes bytes): each lane rounded to nearest, ties to even (cvtps, the MXCSR default,
// as convertTo rounds), saturated to 0…255; `rowVectors` and `colVectors`, how many vectors of
// independent sums one block keeps in registers.
#pragma once
#include <cstddef>
#include <cstdint>

#include "fast_kernels.hpp"

namespace focr::fast::simd {
namespace {

/// Row-pass sums of N vectors from column x: each weight is broadcast once for N vectors of
/// columns, and N independent sums hide the multiply-add latency (OpenCV's loop keeps one, and
/// waits on it). N is a template argument so that the sums stay in registers.
template <class V, bool Fused, int N>
inline void gauss_row_block(const float *padded, int x, int taps, const float *w, float *t) {
    typename V::reg s[N];
    const typename V::reg w0 = V::set1(w[0]);
    for (int v = 0; v < N; ++v) s[v] = V::mul(w0, V::load(padded + x + V::lanes * v));
    for (int k = 1; k < taps; ++k) {
        const typename V::reg wk = V::set1(w[k]);
        const float *in = padded + x + k;
        for (int v = 0; v < N; ++v) s[v] = V::template madd<Fused>(s[v], wk, V::load(in + V::lanes * v));
    }
    for (int v = 0; v < N; ++v) V::store(t + x + V::lanes * v, s[v]);
}

template <class V, bool Fused>
void gauss_row_t(const float *padded, int n, const GaussParams &p, float *t) {
    if (n < V::lanes) return portable_kernels().gauss_row(padded, n, p, t);
    constexpr int N = V::rowVectors, L = V::lanes;
    const int taps = 2 * p.rowRadius + 1;
    int x = 0;
    for (; x + N * L <= n; x += N * L) gauss_row_block<V, Fused, N>(padded, x, taps, p.rowW, t);
    for (; x + L <= n; x += L) gauss_row_block<V, Fused, 1>(padded, x, taps, p.rowW, t);
    if (x < n) gauss_row_block<V, Fused, 1>(padded, n - L, taps, p.rowW, t);  // the last columns again
}

template <class V>
void gauss_row(const float *padded, int n, const GaussParams &p, float *t) {
    p.fused ? gauss_row_t<V, true>(padded, n, p, t) : gauss_row_t<V, false>(padded, n, p, t);
}

/// Column-pass sums of one output row, N vectors from column x (centre, then the pairs outwards).
template <class V, bool Fused, int N>
inline void gauss_col_block(const float *const *rows, int x, int r, const float *w, typename V::reg *s) {
    const typename V::reg w0 = V::set1(w[0]);
    for (int v = 0; v < N; ++v) s[v] = V::mul(w0, V::load(rows[r] + x + V::lanes * v));
    for (int k = 1; k <= r; ++k) {
        const typename V::reg wk = V::set1(w[k]);
        const float *a = rows[r + k] + x, *b = rows[r - k] + x;
        for (int v = 0; v < N; ++v)
            s[v] = V::template madd<Fused>(s[v], wk, V::add(V::load(a + V::lanes * v), V::load(b + V::lanes * v)));
    }
}

/// The column sums of four consecutive output rows, one vector from column x. At step k output
/// row i needs rows R + i ± k: the upper four are the previous step's upper rows moved up by one
/// plus one new row, the lower four likewise, so a step loads 2 rows for 4 outputs instead of 8 —
/// the loads, not the arithmetic, are what limits the one-row pass. Named registers, not arrays:
/// an array shifted in a loop ends up on the stack.
template <class V, bool Fused>
inline void gauss_col4_block(const float *const *rows, int x, int r, const float *w, typename V::reg s[4]) {
    using R = typename V::reg;
    const R w0 = V::set1(w[0]);
    R s0 = V::mul(w0, V::load(rows[r] + x)), s1 = V::mul(w0, V::load(rows[r + 1] + x));
    R s2 = V::mul(w0, V::load(rows[r + 2] + x)), s3 = V::mul(w0, V::load(rows[r + 3] + x));
    if (r > 0) {
        R u0 = V::load(rows[r + 1] + x), u1 = V::load(rows[r + 2] + x);  // row R + i + k
        R u2 = V::load(rows[r + 3] + x), u3 = V::load(rows[r + 4] + x);
        R d0 = V::load(rows[r - 1] + x), d1 = V::load(rows[r] + x);  // row R + i − k
        R d2 = u0, d3 = u1;
        for (int k = 1;; ++k) {
            const R wk = V::set1(w[k]);
            s0 = V::template madd<Fused>(s0, wk, V::add(u0, d0));
            s1 = V::template madd<Fused>(s1, wk, V::add(u1, d1));
            s2 = V::template madd<Fused>(s2, wk, V::add(u2, d2));
            s3 = V::template madd<Fused>(s3, wk, V::add(u3, d3));
            if (k == r) break;
            u0 = u1, u1 = u2, u2 = u3, u3 = V::load(rows[r + 4 + k] + x);
            d3 = d2, d2 = d1, d1 = d0, d0 = V::load(rows[r - 1 - k] + x);
        }
    }
    s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;
}

/// Stores one vector of sums: rounded bytes (Out = uint8_t) or the floats themselves.
template <class V, typename Out>
inline void store_sums(Out *dst, typename V::reg s) {
    if constexpr (sizeof(Out) == 1) V::store_bytes(dst, s);
    else V::store(dst, s);
}

/// One output row (gauss_col with count 1); n ≥ lanes.
template <class V, bool Fused, typename Out>
void gauss_col_t(const float *const *rows, int n, const GaussParams &p, Out *mean) {
    constexpr int N = V::colVectors, L = V::lanes;
    static_assert(N % 4 == 0, "byte rows are stored four vectors at a time");
    const int r = p.colRadius;
    const float *w = p.colW + r;
    typename V::reg s[N];
    int x = 0;
    for (; x + N * L <= n; x += N * L) {
        gauss_col_block<V, Fused, N>(rows, x, r, w, s);
        for (int q = 0; q < N; q += 4) {
            if constexpr (sizeof(Out) == 1) V::store_bytes4(mean + x + q * L, s[q], s[q + 1], s[q + 2], s[q + 3]);
            else for (int v = q; v < q + 4; ++v) V::store(mean + x + v * L, s[v]);
        }
    }
    for (; x < n; x += L) {
        if (x + L > n) x = n - L;  // the last columns again
        gauss_col_block<V, Fused, 1>(rows, x, r, w, s);
        store_sums<V>(mean + x, s[0]);
    }
}

/// Four output rows, `mstep` apart; n ≥ lanes.
template <class V, bool Fused, typename Out>
void gauss_col4_t(const float *const *rows, int n, const GaussParams &p, Out *mean, size_t mstep) {
    constexpr int L = V::lanes;
    const int r = p.colRadius;
    const float *w = p.colW + r;
    typename V::reg s[4];
    for (int x = 0; x < n; x += L) {
        if (x + L > n) x = n - L;  // the last columns again
        gauss_col4_block<V, Fused>(rows, x, r, w, s);
        for (int i = 0; i < 4; ++i) store_sums<V>(mean + i * mstep + x, s[i]);
    }
}

/// Kernels::gauss_col (Out = uint8_t) and gauss_col_float (Out = float).
template <class V, typename Out>
void gauss_col(const float *const *rows, int n, int count, const GaussParams &p, Out *mean, size_t mstep) {
    if (n < V::lanes) {
        if constexpr (sizeof(Out) == 1) return portable_kernels().gauss_col(rows, n, count, p, mean, mstep);
        else return portable_kernels().gauss_col_float(rows, n, count, p, mean, mstep);
    }
    if (count == 4) {
        p.fused ? gauss_col4_t<V, true>(rows, n, p, mean, mstep) : gauss_col4_t<V, false>(rows, n, p, mean, mstep);
        return;
    }
    for (int i = 0; i < count; ++i)
        p.fused ? gauss_col_t<V, true>(rows + i, n, p, mean + i * mstep)
                : gauss_col_t<V, false>(rows + i, n, p, mean + i * mstep);
}

}  // namespace
}  // namespace focr::fast::simd
