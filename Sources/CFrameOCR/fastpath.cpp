// The fast CPU path: gray + orientation in cache-sized tiles, then a running-sum adaptive mean
// threshold whose comparison needs no division; rows split across OpenCV's thread pool.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include <opencv2/core.hpp>

#include "focr_fast.h"
#include "status.hpp"

using namespace focr;

namespace {

constexpr int kTile = 32;

/// BT.601 in OpenCV's 15-bit fixed point (cv::cvtColor …2GRAY for 8-bit).
inline uint8_t gray_of(const uint8_t *p, int bidx) {
    return (uint8_t)((p[bidx] * 3735 + p[1] * 19235 + p[2 - bidx] * 9798 + (1 << 14)) >> 15);
}

/// One row of `n` packed pixels to gray (a loop the compiler vectorizes).
void gray_row(const uint8_t *src, int n, int scn, int bidx, uint8_t *dst) {
    if (scn == 1) {
        std::memcpy(dst, src, (size_t)n);
    } else if (scn == 4) {
        for (int i = 0; i < n; ++i) dst[i] = gray_of(src + 4 * i, bidx);
    } else {
        for (int i = 0; i < n; ++i) dst[i] = gray_of(src + 3 * i, bidx);
    }
}

/// Stored coordinate of upright pixel (u, v) for an image stored w × h (EXIF orientation).
inline void stored_of(int u, int v, int w, int h, int o, int &x, int &y) {
    switch (o) {
    case 2: x = w - 1 - u; y = v; break;
    case 3: x = w - 1 - u; y = h - 1 - v; break;
    case 4: x = u; y = h - 1 - v; break;
    case 5: x = v; y = u; break;
    case 6: x = v; y = h - 1 - u; break;
    case 7: x = w - 1 - v; y = h - 1 - u; break;
    case 8: x = w - 1 - v; y = u; break;
    default: x = u; y = v; break;
    }
}

/// Upright gray of `src` into `g` (W × H, step W). Orientations 1–4 go row by row; 5–8 go by
/// 32 × 32 tiles: a tile's stored rows are converted to gray into a small buffer (contiguous,
/// vectorized), then written transposed.
void upright_gray(const focr_image &src, int o, uint8_t *g, int W, int H) {
    const int w = src.width, h = src.height, scn = packed_bytes_per_pixel(src.format);
    const int bidx = (src.format == FOCR_FORMAT_RGBA8 || src.format == FOCR_FORMAT_RGB8) ? 2 : 0;
    const uint8_t *base = src.planes[0].data;
    const size_t step = src.planes[0].bytes_per_row;
    if (o <= 4) {
        cv::parallel_for_(cv::Range(0, H), [&](const cv::Range &r) {
            thread_local std::vector<uint8_t> row;
            row.resize((size_t)w);
            for (int v = r.start; v < r.end; ++v) {
                const int y = (o == 3 || o == 4) ? h - 1 - v : v;
                uint8_t *out = g + (size_t)v * W;
                if (o == 1 || o == 4) {
                    gray_row(base + y * step, w, scn, bidx, out);
                } else {
                    gray_row(base + y * step, w, scn, bidx, row.data());
                    for (int u = 0; u < w; ++u) out[u] = row[w - 1 - u];
                }
            }
        });
        return;
    }
    // Transposing orientations: stored (x, y) ↔ upright (u, v) with x from v and y from u.
    const int tilesU = (W + kTile - 1) / kTile, tilesV = (H + kTile - 1) / kTile;
    cv::parallel_for_(cv::Range(0, tilesV), [&](const cv::Range &r) {
        uint8_t tile[kTile][kTile];
        for (int tv = r.start; tv < r.end; ++tv) {
            const int v0 = tv * kTile, vn = std::min(kTile, H - v0);
            for (int tu = 0; tu < tilesU; ++tu) {
                const int u0 = tu * kTile, un = std::min(kTile, W - u0);
                // Stored rows y for u in [u0, u0+un) and columns x for v in [v0, v0+vn).
                int x0, y0, x1, y1;
                stored_of(u0, v0, w, h, o, x0, y0);
                stored_of(u0 + un - 1, v0 + vn - 1, w, h, o, x1, y1);
                const int xs = std::min(x0, x1), ys = std::min(y0, y1);
                // tile[j][i] = gray of stored (xs + i, ys + j): vn pixels per stored row, un rows.
                for (int j = 0; j < un; ++j) gray_row(base + (size_t)(ys + j) * step + (size_t)xs * scn, vn, scn, bidx, tile[j]);
                // Upright (u0 + du, v0 + dv) reads tile[j][i] with, per orientation:
                //   5: j = du, i = dv       6: j = un−1−du, i = dv
                //   7: j = un−1−du, i = vn−1−dv   8: j = du, i = vn−1−dv
                const bool flipJ = o == 6 || o == 7, flipI = o == 7 || o == 8;
                for (int dv = 0; dv < vn; ++dv) {
                    uint8_t *out = g + (size_t)(v0 + dv) * W + u0;
                    const int i = flipI ? vn - 1 - dv : dv;
                    if (flipJ) {
                        for (int du = 0; du < un; ++du) out[du] = tile[un - 1 - du][i];
                    } else {
                        for (int du = 0; du < un; ++du) out[du] = tile[du][i];
                    }
                }
            }
        }
    });
}

/// Adaptive mean threshold of `g` (W × H, step gstep) into dst, bit-exact with
/// cv::adaptiveThreshold(ADAPTIVE_THRESH_MEAN_C). With V the replicate-border box sum and area
/// odd, OpenCV's rounded mean m = round(V/area) has no ties, so
///   normal:   src − m > −ceil(C)   ⇔  2V < (2(src + ceil(C)) − 1)·area
///   inverted: src − m ≤ −floor(C)  ⇔  2V > (2(src + floor(C)) − 1)·area
/// which needs no division. Row sums h are running sums (uint16), column sums V are updated
/// with one added and one removed row per output row (vectorized).
void threshold_mean(const uint8_t *g, size_t gstep, int W, int H, int block, double c, bool inverted,
                    uint8_t *dst, size_t dstep) {
    const int r = block / 2, area = block * block;
    int idelta = inverted ? (int)std::floor(c) : (int)std::ceil(c);
    idelta = std::max(-300, std::min(300, idelta));  // beyond ±256 the comparison cannot change
    const int stripes = std::max(1, std::min(H / 64, cv::getNumThreads() * 2));
    cv::parallel_for_(cv::Range(0, stripes), [&](const cv::Range &range) {
        thread_local std::vector<uint16_t> ring;
        thread_local std::vector<uint32_t> colsum;
        const int rows = 2 * r + 2;
        ring.resize((size_t)rows * W);
        colsum.resize((size_t)W);
        auto hrow = [&](int y, uint16_t *out) {  // horizontal box sum of row clamp(y), replicate border
            const uint8_t *p = g + (size_t)std::max(0, std::min(H - 1, y)) * gstep;
            uint32_t s = 0;
            for (int k = -r; k <= r; ++k) s += p[std::max(0, std::min(W - 1, k))];
            int x = 0;
            const int safe = std::max(0, std::min(W, W - 1 - r));  // x + r + 1 ≤ W − 1 and x − r ≥ 0 below
            for (; x < std::min(r, safe); ++x) { out[x] = (uint16_t)s; s += p[x + r + 1] - p[0]; }
            for (; x < safe; ++x) { out[x] = (uint16_t)s; s += p[x + r + 1] - p[x - r]; }
            for (; x < W; ++x) {
                out[x] = (uint16_t)s;
                s += p[std::min(W - 1, x + r + 1)];
                s -= p[std::max(0, x - r)];
            }
        };
        for (int stripe = range.start; stripe < range.end; ++stripe) {
            const int ya = (int)((int64_t)H * stripe / stripes), yb = (int)((int64_t)H * (stripe + 1) / stripes);
            std::fill(colsum.begin(), colsum.end(), 0u);
            for (int k = -r; k <= r; ++k) {
                uint16_t *hr = ring.data() + (size_t)((ya + k + rows * 4) % rows) * W;
                hrow(ya + k, hr);
                for (int x = 0; x < W; ++x) colsum[x] += hr[x];
            }
            // Per source value, the bound 2V is compared with: (2·value + 2·idelta − 1)·area.
            int32_t bound[256];
            for (int v = 0; v < 256; ++v) bound[v] = (2 * v + 2 * idelta - 1) * area;
            for (int y = ya; y < yb; ++y) {
                const uint8_t *s = g + (size_t)y * gstep;
                uint8_t *d = dst + (size_t)y * dstep;
                const uint32_t *V = colsum.data();
                if (!inverted) {
                    for (int x = 0; x < W; ++x) d[x] = (int32_t)(2 * V[x]) < bound[s[x]] ? 255 : 0;
                } else {
                    for (int x = 0; x < W; ++x) d[x] = (int32_t)(2 * V[x]) > bound[s[x]] ? 255 : 0;
                }
                if (y + 1 < yb) {
                    // Row y + r + 1 takes the slot of row y − r − 1 (already out of the sum); the
                    // outgoing row y − r is subtracted as the incoming one is added.
                    uint16_t *incoming = ring.data() + (size_t)((y + r + 1 + rows * 4) % rows) * W;
                    const uint16_t *outgoing = ring.data() + (size_t)((y - r + rows * 4) % rows) * W;
                    hrow(y + r + 1, incoming);
                    uint32_t *cs = colsum.data();
                    for (int x = 0; x < W; ++x) cs[x] += (uint32_t)incoming[x] - (uint32_t)outgoing[x];
                }
            }
        }
    });
}

}  // namespace

extern "C" focr_status focr_fast_preprocess(const focr_image *src, int32_t orientation, int32_t block_size, double c,
                                            int32_t inverted, focr_image *dst) {
    return guarded("fast_preprocess", [&]() -> focr_status {
        focr_status s = validate(src, "src");
        if (s != FOCR_OK) return s;
        if ((s = validate(dst, "dst")) != FOCR_OK) return s;
        if (packed_bytes_per_pixel(src->format) == 0)
            return fail(FOCR_E_INVALID_ARGUMENT, "fast_preprocess: planar source; pass its Y plane as GRAY8");
        if (orientation < 1 || orientation > 8) return fail(FOCR_E_INVALID_ARGUMENT, "fast_preprocess: orientation not in 1…8");
        const bool swaps = orientation >= 5;
        const int W = swaps ? src->height : src->width, H = swaps ? src->width : src->height;
        if (dst->format != FOCR_FORMAT_GRAY8 || dst->width != W || dst->height != H)
            return fail(FOCR_E_INVALID_ARGUMENT, "fast_preprocess: destination must be GRAY8 of the upright size");
        const bool threshold = block_size > 0;
        if (threshold && (block_size < 3 || block_size % 2 == 0 || block_size > 255))
            return fail(FOCR_E_INVALID_ARGUMENT, "fast_preprocess: blockSize " + std::to_string(block_size) +
                                                     " must be odd and in 3…255");
        if (threshold && !std::isfinite(c)) return fail(FOCR_E_INVALID_ARGUMENT, "fast_preprocess: C must be finite");
        uint8_t *d = dst->planes[0].data;
        const size_t dstep = dst->planes[0].bytes_per_row;
        if (!threshold) {
            // Gray + upright straight into the destination (its rows may be padded: go via rows).
            if (dstep == (size_t)W) {
                upright_gray(*src, orientation, d, W, H);
            } else {
                thread_local std::vector<uint8_t> g;
                g.resize((size_t)W * H);
                upright_gray(*src, orientation, g.data(), W, H);
                for (int y = 0; y < H; ++y) std::memcpy(d + y * dstep, g.data() + (size_t)y * W, (size_t)W);
            }
            return FOCR_OK;
        }
        if (src->format == FOCR_FORMAT_GRAY8 && orientation == 1) {
            // Already upright gray: threshold in place of the source, no intermediate.
            threshold_mean(src->planes[0].data, src->planes[0].bytes_per_row, W, H, block_size, c, inverted != 0, d, dstep);
            return FOCR_OK;
        }
        thread_local std::vector<uint8_t> g;
        g.resize((size_t)W * H);
        upright_gray(*src, orientation, g.data(), W, H);
        threshold_mean(g.data(), (size_t)W, W, H, block_size, c, inverted != 0, d, dstep);
        return FOCR_OK;
    });
}
