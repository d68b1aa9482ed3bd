// The fast CPU path: gray, orientation, gray + orientation, and the adaptive mean and Gaussian
// thresholds, written as SIMD kernels (fast_kernels.hpp: portable C++, SSE2, AVX2 chosen at run
// time) driven here over rows, 16 × 16 tiles and stripes split across OpenCV's thread pool
// (cv::parallel_for_). Every result is byte-identical to the OpenCV calls it replaces
// (cv::cvtColor …2GRAY, cv::rotate / cv::flip / cv::transpose, cv::adaptiveThreshold MEAN_C and
// GAUSSIAN_C); scratch memory is thread-local, so the steady state allocates nothing.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "focr_common/descriptor.hpp"
#include "focr_common/status.hpp"
#include "fast_kernels.hpp"
#include "fastpath.hpp"
#include "focr_fast.h"

using namespace focr;

namespace focr::fast {

// MARK: - SIMD level

namespace {

/// The best level this machine runs, capped by FRAMEOCR_SIMD (portable, sse2, avx2) when set.
int32_t machine_level() {
    static const int32_t level = [] {
        int32_t l = kPortable;
#if defined(__x86_64__) || defined(__i386__)
        l = kSSE2;
#if defined(__clang__) || defined(__GNUC__)
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && avx2_kernels() != nullptr) l = kAVX2;
#endif
#endif
        if (const char *env = std::getenv("FRAMEOCR_SIMD")) {
            const std::string e(env);
            int32_t cap = l;
            if (e == "portable" || e == "scalar" || e == "0") cap = kPortable;
            else if (e == "sse2" || e == "1") cap = kSSE2;
            else if (e == "avx2" || e == "2") cap = kAVX2;
            l = std::min(l, cap);
        }
        return l;
    }();
    return level;
}

thread_local int32_t thread_cap = -1;

}  // namespace

int32_t current_level() {
    const int32_t l = machine_level();
    return thread_cap >= 0 ? std::min(l, thread_cap) : l;
}

const Kernels &kernels() {
    const int32_t l = current_level();
    if (l >= kAVX2)
        if (const Kernels *k = avx2_kernels()) return *k;
    if (l >= kSSE2)
        if (const Kernels *k = sse2_kernels()) return *k;
    return portable_kernels();
}

// MARK: - Parallel loops

// Under TSan (make sanitize): OpenCV's thread pool (TBB here) is not instrumented, so TSan sees
// neither the fork (the caller's writes before cv::parallel_for_ happen before every stripe) nor
// the join (every stripe happens before parallel_for_ returns), and reports the stripes' reads
// of the caller's captures as races. These annotations state both edges, and nothing more: two
// stripes that touch the same bytes are still a race to TSan. Elsewhere they compile to nothing.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define FOCR_TSAN_ANNOTATIONS 1
extern "C" void __tsan_acquire(void *address);
extern "C" void __tsan_release(void *address);
#endif
#endif
#ifdef FOCR_TSAN_ANNOTATIONS
#define FOCR_TSAN_ACQUIRE(p) __tsan_acquire((void *)(p))
#define FOCR_TSAN_RELEASE(p) __tsan_release((void *)(p))
#else
#define FOCR_TSAN_ACQUIRE(p) ((void)0)
#define FOCR_TSAN_RELEASE(p) ((void)0)
#endif

namespace {

/// cv::parallel_for_ over a lambda without std::function (whose captures would be allocated on
/// every call): the body is a ParallelLoopBody that refers to the lambda on the caller's stack.
template <typename F>
struct LoopBody final : cv::ParallelLoopBody {
    const F *f;
    explicit LoopBody(const F &fn) : f(&fn) {}
    // The fork is released and acquired on the body's address, the join on its member's: one
    // address for both would also order each stripe after the stripes that ended before it.
    void operator()(const cv::Range &r) const override {
        FOCR_TSAN_ACQUIRE(this);  // the fork
        (*f)(r);
        FOCR_TSAN_RELEASE(&f);  // the join
    }
};

/// Runs f over [0, n) in `stripes` pieces, inline when there is only one.
template <typename F>
void parallel(int n, int stripes, const F &f) {
    if (n <= 0) return;
    if (stripes <= 1 || n == 1) {
        f(cv::Range(0, n));
        return;
    }
    const LoopBody<F> body(f);
    FOCR_TSAN_RELEASE(&body);
    cv::parallel_for_(cv::Range(0, n), body, std::min(stripes, n));
    FOCR_TSAN_ACQUIRE(&body.f);
}

/// Below this many pixels a job runs on the calling thread (waking the pool costs more).
constexpr size_t kParallelPixels = 1 << 16;

int pool_threads() { return std::max(1, cv::getNumThreads()); }

}  // namespace

// MARK: - Gray + orientation

void orient_rows(const Kernels &k, const uint8_t *rows, size_t sstep, int w, int h, int scn, int bidx, int o, int y0,
                 int y1, uint8_t *dst, size_t dstep, uint8_t *scratchRow) {
    if (o <= 4) {
        // A stored row is an upright row: 1 and 4 convert/copy it, 2 and 3 mirror it; 3 and 4
        // put row y at h − 1 − y.
        for (int y = y0; y < y1; ++y) {
            const uint8_t *in = rows + (size_t)(y - y0) * sstep;
            uint8_t *out = dst + (size_t)(o >= 3 ? h - 1 - y : y) * dstep;
            if (o == 1 || o == 4) {
                k.gray_row(in, w, scn, bidx, out);
            } else if (scn == 1) {
                k.reverse_row(in, w, out);
            } else {
                k.gray_row(in, w, scn, bidx, scratchRow);
                k.reverse_row(scratchRow, w, out);
            }
        }
        return;
    }
    // A stored row is an upright column: stored row y is column u(y) (y for 5 and 8, h − 1 − y for
    // 6 and 7) and stored column x is row v(x) (x for 5 and 6, w − 1 − x for 7 and 8). Whole
    // groups of 16 rows go through transpose_tiles, which walks each group along its rows (the
    // frame is read row by row); 6/7 walk the rows upwards, 7/8 walk each row right to left and
    // write each tile's rows bottom up, so one kernel serves all four. The last w % 16 columns and
    // the rows past the last group of 16 go pixel by pixel.
    const bool upwards = o == 6 || o == 7, mirrored = o == 7 || o == 8;
    const int blocks = (y1 - y0) / 16, yt = y0 + 16 * blocks, vtiles = w / 16;
    auto u_of = [&](int y) { return upwards ? h - 1 - y : y; };
    auto pixelRow = [&](int y, int va, int vb) {  // stored row y into upright rows [va, vb) of its column
        const uint8_t *in = rows + (size_t)(y - y0) * sstep;
        uint8_t *out = dst + u_of(y);
        for (int v = va; v < vb; ++v) out[(size_t)v * dstep] = gray_of(in + (size_t)(mirrored ? w - 1 - v : v) * scn, scn, bidx);
    };
    if (blocks > 0 && vtiles > 0) {
        // Walk the covered rows in increasing u: from y0 down (5, 8) or from yt − 1 up (6, 7).
        const ptrdiff_t ustep = upwards ? -(ptrdiff_t)sstep : (ptrdiff_t)sstep;
        const uint8_t *first = rows + (size_t)(upwards ? yt - 1 - y0 : 0) * sstep + (size_t)(mirrored ? w - 16 : 0) * scn;
        const int u0 = std::min(u_of(y0), u_of(yt - 1));
        uint8_t *out0 = dst + (mirrored ? 15 * dstep : 0) + u0;
        k.transpose_tiles(first, ustep, mirrored ? -16 * scn : 16 * scn, scn, bidx, blocks, vtiles, out0,
                          16 * (ptrdiff_t)dstep, mirrored ? -(ptrdiff_t)dstep : (ptrdiff_t)dstep);
        for (int y = y0; y < yt; ++y) pixelRow(y, 16 * vtiles, w);  // rows below the last whole tile
    } else {
        for (int y = y0; y < yt; ++y) pixelRow(y, 0, w);
    }
    for (int y = yt; y < y1; ++y) pixelRow(y, 0, w);  // stored rows past the last group of 16
}

void upright(const Kernels &k, const uint8_t *src, size_t sstep, int w, int h, int scn, int bidx, int o, uint8_t *dst,
             size_t dstep) {
    // Groups of 64 stored rows (for 5…8: 64 upright columns, whole cache lines of a 64-byte
    // aligned row, so threads rarely write one line).
    const int groups = (h + 63) / 64;
    const bool parallelize = (size_t)w * h >= kParallelPixels;
    parallel(groups, parallelize ? pool_threads() * 4 : 1, [&](const cv::Range &r) {
        thread_local std::vector<uint8_t> row;
        if (scn != 1 && (o == 2 || o == 3)) row.resize((size_t)w);  // only mirrored rows need it
        const int y0 = 64 * r.start, y1 = std::min(h, 64 * r.end);
        orient_rows(k, src + (size_t)y0 * sstep, sstep, w, h, scn, bidx, o, y0, y1, dst, dstep, row.data());
    });
}

void gray(const Kernels &k, const uint8_t *src, size_t sstep, int w, int h, int scn, int bidx, uint8_t *dst,
          size_t dstep) {
    const size_t pixels = (size_t)w * h;
    auto row = pixels >= kStreamPixels ? k.gray_row_stream : k.gray_row;
    const int groups = (h + 31) / 32;
    parallel(groups, pixels >= kParallelPixels ? pool_threads() * 4 : 1, [&](const cv::Range &r) {
        const int y1 = std::min(h, 32 * r.end);
        for (int y = 32 * r.start; y < y1; ++y) row(src + (size_t)y * sstep, w, scn, bidx, dst + (size_t)y * dstep);
    });
}

// MARK: - Adaptive mean threshold

bool threshold_mean_handles(int block, double c) { return block >= 3 && block % 2 == 1 && block <= 255 && std::fabs(c) <= 1e6; }

bool threshold_commutes_with_orientation(int block) { return block <= 127; }

void threshold_mean(const Kernels &k, const Source &src, int W, int H, int block, double c, bool inverted, int orientation,
                    uint8_t *dst, size_t dstep) {
    // cv::adaptiveThreshold: idelta = ceil(C) (normal) or floor(C) (inverted); past ±256 nothing
    // changes, so clamp to keep the byte arithmetic of compare_row in range.
    int idelta = (int)(inverted ? std::floor(c) : std::ceil(c));
    idelta = std::max(-300, std::min(300, idelta));
    const MeanParams p(block, W);
    const int r = p.radius;
    const bool convert = src.scn != 1;
    const int ringRows = 2 * r + 2;  // rows y − r … y + r + 1: the box and the row entering it
    // Rows are written in place for orientations 1 and 4 (row y or h − 1 − y); for the others they
    // collect in a thread-local batch that orient_rows writes out every 32 rows (two tile rows).
    const bool direct = orientation == 1 || orientation == 4;
    constexpr int kBatch = 32;
    // Stripes of rows, each with its own running column sums; a stripe starts by summing 2r + 1
    // rows, so stripes stay several blocks tall.
    const bool parallelize = (size_t)W * H >= kParallelPixels;
    const int stripes = parallelize ? std::max(1, std::min(pool_threads() * 2, H / std::max(64, 4 * block))) : 1;
    // Two ways to the box sums. Blocks up to 15 (sums fit 16 bits): running column sums (uint16)
    // moved down one row at a time, summed along the row by a 16-bit prefix sum per output row.
    // Larger blocks: the sums along each source row (uint16, a 16-bit prefix sum) are made once,
    // when the row enters the box, and kept in a ring; the box sums (uint32) move down by adding
    // the entering row's sums and subtracting the leaving row's. Both give the exact integer sum.
    const bool rowSums = !p.small;
    parallel(stripes, stripes, [&](const cv::Range &range) {
        // Column sums with r replicated columns on each side (cp) or the ring of row sums and the
        // box sums (S), the prefix scratch, one row of means, for a color source a ring of gray
        // rows, and the batch of binary rows: all reused from frame to frame.
        thread_local std::vector<uint16_t> cp, sums;
        thread_local std::vector<uint32_t> scratch, S;
        thread_local std::vector<uint8_t> mean, ring, batch;
        thread_local std::vector<int> ringRow, sumsRow;
        scratch.resize((size_t)W + 2 * r + 1);
        mean.resize((size_t)W);
        if (rowSums) {
            sums.resize((size_t)ringRows * W);
            sumsRow.resize((size_t)ringRows);
            S.resize((size_t)W);
        } else {
            cp.resize((size_t)W + 2 * r);
        }
        if (convert) {
            ring.resize((size_t)ringRows * W);
            ringRow.resize((size_t)ringRows);
        }
        if (!direct) batch.resize((size_t)kBatch * W);
        // Row y of the gray image, y clamped (replicated border). A color row is converted when it
        // first enters the box and stays in the ring while the box holds it: slot y mod (2r + 2),
        // and the box with its incoming row spans 2r + 2 consecutive rows.
        auto rowAt = [&](int y) -> const uint8_t * {
            y = std::max(0, std::min(H - 1, y));
            const uint8_t *in = src.data + (size_t)y * src.step;
            if (!convert) return in;
            const int slot = y % ringRows;
            uint8_t *g = ring.data() + (size_t)slot * W;
            if (ringRow[slot] != y) {
                k.gray_row(in, W, src.scn, src.bidx, g);
                ringRow[slot] = y;
            }
            return g;
        };
        // The row sums of row y (clamped), made when the row enters the box, in the same kind of
        // ring.
        auto sumsAt = [&](int y) -> const uint16_t * {
            y = std::max(0, std::min(H - 1, y));
            const int slot = y % ringRows;
            uint16_t *h = sums.data() + (size_t)slot * W;
            if (sumsRow[slot] != y) {
                k.hsum_row(rowAt(y), W, r, (uint16_t *)scratch.data(), h);
                sumsRow[slot] = y;
            }
            return h;
        };
        uint16_t *cs = rowSums ? nullptr : cp.data() + r;
        for (int stripe = range.start; stripe < range.end; ++stripe) {
            const int ya = (int)((int64_t)H * stripe / stripes), yb = (int)((int64_t)H * (stripe + 1) / stripes);
            if (convert) std::fill(ringRow.begin(), ringRow.end(), -1);
            if (rowSums) {
                std::fill(sumsRow.begin(), sumsRow.end(), -1);
                std::fill(S.begin(), S.end(), 0u);
                for (int j = -r; j <= r; ++j) k.vsum_add(S.data(), sumsAt(ya + j), W);
            } else {
                std::fill(cs, cs + W, (uint16_t)0);
                for (int j = -r; j <= r; ++j) k.colsum_add(cs, rowAt(ya + j), W);
            }
            int batchStart = ya;
            for (int y = ya; y < yb; ++y) {
                if (rowSums) {
                    // The means of row y, and the box sums moved down to row y + 1.
                    const bool more = y + 1 < yb;
                    const uint16_t *in = more ? sumsAt(y + r + 1) : nullptr, *leaving = more ? sumsAt(y - r) : nullptr;
                    k.vsum_mean(S.data(), in, leaving, W, p, mean.data());
                } else {
                    std::fill(cp.data(), cs, cs[0]);         // replicate border, left
                    std::fill(cs + W, cs + W + r, cs[W - 1]);  // and right
                    k.row_mean(cp.data(), W, p, scratch.data(), mean.data());
                }
                uint8_t *out = direct ? dst + (size_t)(orientation == 1 ? y : H - 1 - y) * dstep
                                      : batch.data() + (size_t)(y - batchStart) * W;
                k.compare_row(rowAt(y), mean.data(), W, idelta, inverted, out);
                if (!direct && (y + 1 - batchStart == kBatch || y + 1 == yb)) {
                    orient_rows(k, batch.data(), (size_t)W, W, H, 1, 0, orientation, batchStart, y + 1, dst, dstep, nullptr);
                    batchStart = y + 1;
                }
                if (!rowSums && y + 1 < yb) k.colsum_update(cs, rowAt(y + r + 1), rowAt(y - r), W);
                if (y + r + 2 < H) {
                    // The row after next enters the box in one iteration: ask for its bytes now,
                    // so reading the frame overlaps with this row's arithmetic.
                    const uint8_t *next = src.data + (size_t)(y + r + 2) * src.step;
                    const size_t bytes = (size_t)W * src.scn;
                    for (size_t off = 0; off < bytes; off += 64) __builtin_prefetch(next + off, 0, 3);
                }
            }
        }
    });
}

// MARK: - Adaptive Gaussian threshold

namespace {

/// cv::getGaussianKernel(block, 0, CV_32F) for the odd blocks 3…255, each made once per process
/// on first use (the only allocation: OpenCV's Mat, then and never again).
struct GaussianTable {
    std::mutex lock;
    bool ready[128] = {};
    float weights[128][255];
};

const float *gaussian_weights(int block) {
    static GaussianTable table;
    const int i = block / 2 - 1;  // 3 → 0, …, 255 → 126
    std::lock_guard<std::mutex> hold(table.lock);
    if (!table.ready[i]) {
        const cv::Mat k = cv::getGaussianKernel(block, 0, CV_32F);
        std::memcpy(table.weights[i], k.ptr<float>(), sizeof(float) * (size_t)block);
        table.ready[i] = true;
    }
    return table.weights[i];
}

/// Resizes a scratch vector that only ever grows: no allocation once it has held this many.
template <typename T>
T *scratch(std::vector<T> &v, size_t n) {
    if (v.size() < n) v.resize(n);
    return v.data();
}

}  // namespace

bool opencv_gaussian_fuses() {
#if defined(__x86_64__) || defined(__i386__)
    return cv::checkHardwareSupport(CV_CPU_AVX2);
#else
    return false;
#endif
}

bool threshold_gaussian_handles(int block, double c) {
#if defined(__x86_64__) || defined(__i386__)
    return block >= 3 && block % 2 == 1 && block <= 255 && std::fabs(c) <= 1e6;
#else
    (void)block;
    (void)c;
    return false;
#endif
}

void gaussian(const Kernels &k, const uint8_t *src, size_t sstep, int W, int H, int block, const GaussianOutput &out) {
    int idelta = (int)(out.inverted ? std::floor(out.c) : std::ceil(out.c));
    idelta = std::max(-300, std::min(300, idelta));
    static const float one = 1.0f;
    const float *w = gaussian_weights(block);
    GaussParams p;
    p.fused = out.fused < 0 ? opencv_gaussian_fuses() : out.fused != 0;
    // GaussianBlur makes the kernel 1 wide for a width of 1 and 1 tall for a height of 1.
    p.rowRadius = W > 1 ? block / 2 : 0;
    p.rowW = W > 1 ? w : &one;
    p.colRadius = H > 1 ? block / 2 : 0;
    p.colW = H > 1 ? w : &one;
    // The column kernel makes up to four output rows at once from 2r + 4 row-pass rows.
    constexpr int kRowsAtOnce = 4;
    const int window = 2 * p.colRadius + kRowsAtOnce, ringRows = window;
    // Stripes of rows, each starting with the 2r + 1 row passes its first output row needs. (Whole
    // rows: column tiles that keep the ring in L1 were slower here, 26 against 21 ms for 40 frames
    // of 1920 × 1080 at block 31 — the ring stays in L2, and strided row segments cost more.)
    const bool parallelize = (size_t)W * H >= kParallelPixels;
    const int stripes = parallelize ? std::max(1, std::min(pool_threads() * 2, H / std::max(64, 4 * block))) : 1;
    parallel(stripes, stripes, [&](const cv::Range &range) {
        // The padded float row, a ring of 2r + 4 row-pass rows (slot y mod 2r + 4: the column
        // window of four output rows holds 2r + 4 consecutive rows), the window's row pointers and
        // four rows of means: thread-local, grown only when a frame is larger than any before.
        thread_local std::vector<float> padded, ring;
        thread_local std::vector<int> ringRow;
        thread_local std::vector<const float *> windowRows;
        thread_local std::vector<uint8_t> mean;
        float *pad = scratch(padded, (size_t)W + 2 * p.rowRadius);
        float *rows = scratch(ring, (size_t)ringRows * W);
        int *rowOf = scratch(ringRow, (size_t)ringRows);
        const float **win = scratch(windowRows, (size_t)window);
        uint8_t *m = scratch(mean, (size_t)kRowsAtOnce * W);
        // The row pass of row y (clamped: the replicated border), made when the row enters the
        // column window and kept while the window holds it.
        auto rowAt = [&](int y) -> const float * {
            y = std::max(0, std::min(H - 1, y));
            const int slot = y % ringRows;
            float *t = rows + (size_t)slot * W;
            if (rowOf[slot] != y) {
                k.gauss_widen(src + (size_t)y * sstep, W, p.rowRadius, pad);
                k.gauss_row(pad, W, p, t);
                rowOf[slot] = y;
            }
            return t;
        };
        for (int stripe = range.start; stripe < range.end; ++stripe) {
            const int ya = (int)((int64_t)H * stripe / stripes), yb = (int)((int64_t)H * (stripe + 1) / stripes);
            std::fill(rowOf, rowOf + ringRows, -1);
            for (int y = ya; y < yb; y += kRowsAtOnce) {
                const int count = std::min(kRowsAtOnce, yb - y);
                for (int j = 0; j < 2 * p.colRadius + count; ++j) win[j] = rowAt(y - p.colRadius + j);
                uint8_t *o = (uint8_t *)out.data + (size_t)y * out.step;
                switch (out.kind) {
                case GaussianOutput::kThreshold:
                    k.gauss_col(win, W, count, p, m, (size_t)W);
                    for (int i = 0; i < count; ++i)
                        k.compare_row(src + (size_t)(y + i) * sstep, m + (size_t)i * W, W, idelta, out.inverted,
                                      o + i * out.step);
                    break;
                case GaussianOutput::kMean: k.gauss_col(win, W, count, p, o, out.step); break;
                case GaussianOutput::kBlurred:
                    k.gauss_col_float(win, W, count, p, (float *)o, out.step / sizeof(float));
                    break;
                }
            }
        }
    });
}

void threshold_gaussian(const Kernels &k, const uint8_t *src, size_t sstep, int W, int H, int block, double c,
                        bool inverted, uint8_t *dst, size_t dstep) {
    GaussianOutput out;
    out.data = dst;
    out.step = dstep;
    out.c = c;
    out.inverted = inverted;
    gaussian(k, src, sstep, W, H, block, out);
}

}  // namespace focr::fast

// MARK: - Entry points

namespace {

/// Whether the pixel bytes of `a` (plane 0) and `b` (plane 0) can overlap.
bool overlaps(const focr_image &a, const focr_image &b) {
    auto span = [](const focr_image &i, const uint8_t *&lo, const uint8_t *&hi) {
        const int bpp = std::max(1, packed_bytes_per_pixel(i.format));
        lo = plane_bytes(i.planes[0]);
        hi = lo + i.planes[0].bytes_per_row * (size_t)(i.height - 1) + (size_t)i.width * bpp;
    };
    const uint8_t *a0, *a1, *b0, *b1;
    span(a, a0, a1);
    span(b, b0, b1);
    return b0 < a1 && a0 < b1;
}

}  // namespace

extern "C" int32_t focr_fast_simd_level(void) { return fast::current_level(); }

extern "C" int32_t focr_fast_limit_simd_level(int32_t level) {
    fast::thread_cap = level < 0 ? -1 : level;
    return fast::current_level();
}

extern "C" focr_status focr_fast_preprocess(const focr_image *src, int32_t orientation, int32_t block_size, double c,
                                            int32_t inverted, focr_image *dst) {
    return focr_fast_preprocess_method(src, orientation, FOCR_THRESHOLD_MEAN, block_size, c, inverted, dst);
}

extern "C" focr_status focr_fast_preprocess_method(const focr_image *src, int32_t orientation, int32_t method,
                                                   int32_t block_size, double c, int32_t inverted, focr_image *dst) {
    return guarded("fast_preprocess", [&]() -> focr_status {
        focr_status s = validate(src, "src");
        if (s != FOCR_OK) return s;
        if ((s = validate(dst, "dst")) != FOCR_OK) return s;
        const int scn = packed_bytes_per_pixel(src->format);
        if (scn == 0) return fail(FOCR_E_INVALID_ARGUMENT, "fast_preprocess: planar source; pass its Y plane as GRAY8");
        if (orientation < 1 || orientation > 8) return fail(FOCR_E_INVALID_ARGUMENT, "fast_preprocess: orientation not in 1…8");
        const bool swaps = orientation >= 5;
        const int W = swaps ? src->height : src->width, H = swaps ? src->width : src->height;
        if (dst->format != FOCR_FORMAT_GRAY8 || dst->width != W || dst->height != H)
            return fail(FOCR_E_INVALID_ARGUMENT, "fast_preprocess: destination must be GRAY8 of the upright size");
        const bool threshold = block_size > 0;
        if (threshold && (block_size < 3 || block_size % 2 == 0))
            return fail(FOCR_E_INVALID_ARGUMENT, "fast_preprocess: blockSize " + std::to_string(block_size) +
                                                     " must be odd and >= 3");
        if (threshold && !std::isfinite(c)) return fail(FOCR_E_INVALID_ARGUMENT, "fast_preprocess: C must be finite");
        if (threshold && method != FOCR_THRESHOLD_MEAN && method != FOCR_THRESHOLD_GAUSSIAN)
            return fail(FOCR_E_INVALID_ARGUMENT, "fast_preprocess: unknown method " + std::to_string(method));
        const bool gaussian = threshold && method == FOCR_THRESHOLD_GAUSSIAN;
        if (overlaps(*src, *dst)) return fail(FOCR_E_INVALID_ARGUMENT, "fast_preprocess: source and destination overlap");
        const fast::Kernels &k = fast::kernels();
        const int bidx = blue_index(src->format);
        const uint8_t *in = plane_bytes(src->planes[0]);
        const size_t istep = src->planes[0].bytes_per_row;
        uint8_t *d = plane_bytes(dst->planes[0]);
        const size_t dstep = dst->planes[0].bytes_per_row;
        if (!threshold) {
            fast::upright(k, in, istep, src->width, src->height, scn, bidx, orientation, d, dstep);
            return FOCR_OK;
        }
        const fast::Source source{in, istep, scn, bidx};
        if (!gaussian && fast::threshold_mean_handles(block_size, c) &&
            (orientation == 1 || fast::threshold_commutes_with_orientation(block_size))) {
            // Threshold in the stored orientation and orient the binary rows on the way out: the
            // frame is streamed row by row once (a color row becomes gray as it enters the box),
            // and no intermediate image is written.
            fast::threshold_mean(k, source, src->width, src->height, block_size, c, inverted != 0, orientation, d, dstep);
            return FOCR_OK;
        }
        // Blocks over 127 with a rotation or flip: OpenCV's rounding of the mean depends on the
        // column (MeanParams), so make the gray region upright first and threshold that, as the
        // OpenCV chain does. The Gaussian likewise: its float sums run along rows first, so they
        // do not commute with a transpose. (Also the way to OpenCV's own threshold, below.)
        thread_local std::vector<uint8_t> upright;
        const uint8_t *g = in;
        size_t gstep = istep;
        if (!(scn == 1 && orientation == 1)) {
            upright.resize((size_t)W * H);
            fast::upright(k, in, istep, src->width, src->height, scn, bidx, orientation, upright.data(), (size_t)W);
            g = upright.data();
            gstep = (size_t)W;
        }
        if (gaussian && fast::threshold_gaussian_handles(block_size, c)) {
            fast::threshold_gaussian(k, g, gstep, W, H, block_size, c, inverted != 0, d, dstep);
            return FOCR_OK;
        }
        if (!gaussian && fast::threshold_mean_handles(block_size, c)) {
            fast::threshold_mean(k, fast::Source{g, gstep, 1, 0}, W, H, block_size, c, inverted != 0, 1, d, dstep);
            return FOCR_OK;
        }
        // A block over 255 pixels or |C| over 10^6 (or the Gaussian off x86): OpenCV itself.
        cv::Mat gm(H, W, CV_8UC1, const_cast<uint8_t *>(g), gstep), out(H, W, CV_8UC1, d, dstep);
        cv::adaptiveThreshold(gm, out, 255, gaussian ? cv::ADAPTIVE_THRESH_GAUSSIAN_C : cv::ADAPTIVE_THRESH_MEAN_C,
                              inverted ? cv::THRESH_BINARY_INV : cv::THRESH_BINARY, block_size, c);
        if (out.data != d) return fail(FOCR_E_INTERNAL, "fast_preprocess: OpenCV reallocated the destination");
        return FOCR_OK;
    });
}

namespace {

/// The checks of the Gaussian's test entry points: GRAY8 `src`, a block the fast path handles.
focr_status check_gaussian_source(const focr_image *src, int32_t block_size, const char *op) {
    focr_status s = validate(src, "src");
    if (s != FOCR_OK) return s;
    if (src->format != FOCR_FORMAT_GRAY8) return fail(FOCR_E_INVALID_ARGUMENT, std::string(op) + ": source must be GRAY8");
    if (!fast::threshold_gaussian_handles(block_size, 0))
        return fail(FOCR_E_UNSUPPORTED, std::string(op) + ": blockSize " + std::to_string(block_size) +
                                            " not odd in 3…255, or not on x86");
    return FOCR_OK;
}

}  // namespace

extern "C" focr_status focr_fast_gaussian_mean(const focr_image *src, int32_t block_size, focr_image *dst) {
    return guarded("fast_gaussian_mean", [&]() -> focr_status {
        focr_status s = check_gaussian_source(src, block_size, "fast_gaussian_mean");
        if (s != FOCR_OK) return s;
        if ((s = validate(dst, "dst")) != FOCR_OK) return s;
        if (dst->format != FOCR_FORMAT_GRAY8 || dst->width != src->width || dst->height != src->height)
            return fail(FOCR_E_INVALID_ARGUMENT, "fast_gaussian_mean: destination must be GRAY8 of the source's size");
        if (overlaps(*src, *dst)) return fail(FOCR_E_INVALID_ARGUMENT, "fast_gaussian_mean: source and destination overlap");
        fast::GaussianOutput out;
        out.kind = fast::GaussianOutput::kMean;
        out.data = plane_bytes(dst->planes[0]);
        out.step = dst->planes[0].bytes_per_row;
        fast::gaussian(fast::kernels(), plane_bytes(src->planes[0]), src->planes[0].bytes_per_row, src->width,
                       src->height, block_size, out);
        return FOCR_OK;
    });
}

extern "C" focr_status focr_fast_gaussian_blur(const focr_image *src, int32_t block_size, int32_t fused, float *dst,
                                               size_t dst_stride, size_t dst_count) {
    return guarded("fast_gaussian_blur", [&]() -> focr_status {
        focr_status s = check_gaussian_source(src, block_size, "fast_gaussian_blur");
        if (s != FOCR_OK) return s;
        if (dst == nullptr || dst_stride < (size_t)src->width ||
            dst_count < dst_stride * (size_t)(src->height - 1) + (size_t)src->width)
            return fail(FOCR_E_INVALID_ARGUMENT, "fast_gaussian_blur: destination too small for the source's size");
        fast::GaussianOutput out;
        out.kind = fast::GaussianOutput::kBlurred;
        out.data = dst;
        out.step = dst_stride * sizeof(float);
        out.fused = fused < 0 ? -1 : fused != 0;
        fast::gaussian(fast::kernels(), plane_bytes(src->planes[0]), src->planes[0].bytes_per_row, src->width,
                       src->height, block_size, out);
        return FOCR_OK;
    });
}

extern "C" int32_t focr_fast_gaussian_fuses(void) { return fast::opencv_gaussian_fuses() ? 1 : 0; }
