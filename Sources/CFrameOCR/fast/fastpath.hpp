// Internal to the shim: the fast CPU path's drivers (fastpath.cpp), for the per-op entry points
// in image/operations.cpp. See fast_kernels.hpp for the kernels and focr_fast.h for the public side.
#pragma once
#include <cstddef>
#include <cstdint>

#include "fast_kernels.hpp"

namespace focr::fast {

/// The SIMD level calls from this thread use: the machine's best, capped by FRAMEOCR_SIMD and by
/// focr_fast_limit_simd_level on this thread.
int32_t current_level();
/// The kernels of current_level().
const Kernels &kernels();

/// Gray + upright: the `w` × `h` packed image at `src` (`scn` 1, 3 or 4 bytes per pixel, blue at
/// byte `bidx`; rows `sstep` bytes apart) as displayed for EXIF `orientation` (1…8), into the
/// GRAY8 image at `dst` (W × H, swapped for 5…8; rows `dstep` bytes apart). Equals cv::cvtColor
/// …2GRAY then cv::rotate / cv::flip / cv::transpose (focr_orient's mapping). Reads only pixel
/// bytes, writes only the destination's W × H pixels. Parallel over groups of stored rows.
void upright(const Kernels &k, const uint8_t *src, size_t sstep, int w, int h, int scn, int bidx, int orientation,
             uint8_t *dst, size_t dstep);

/// Gray of the `w` × `h` packed image at `src` (`scn` 3 or 4 bytes per pixel, blue at byte
/// `bidx`; rows `sstep` bytes apart) into the GRAY8 image at `dst` (rows `dstep` apart): the bytes
/// of cv::cvtColor …2GRAY (BT.601, 15-bit fixed point). Parallel over groups of rows from 64K
/// pixels on, as cvtColor is; from kStreamPixels on the rows are stored non-temporally
/// (Kernels::gray_row_stream). Reads only pixel bytes, writes only the W × H pixels.
void gray(const Kernels &k, const uint8_t *src, size_t sstep, int w, int h, int scn, int bidx, uint8_t *dst,
          size_t dstep);

/// From this many pixels on, gray() streams its rows past the caches: a destination of 4 MiB
/// and up (3840 × 2160 and larger; 1920 × 1080 is 2 MiB) would not stay in them for the next step
/// anyway, and writing it around them leaves them to the frame being read — 3840 × 2160 BGRA
/// converts in 1.0 instead of 1.6 ms here, while 1920 × 1080 gains nothing from it.
constexpr size_t kStreamPixels = (size_t)4 << 20;

/// The part of upright() that stored rows [y0, y1) make (`rows` points at stored row y0): upright
/// rows for orientations 1…4, upright columns for 5…8. `scratchRow` (w bytes) is needed for 2 and
/// 3 with scn ≠ 1 only. Runs on the calling thread.
void orient_rows(const Kernels &k, const uint8_t *rows, size_t sstep, int w, int h, int scn, int bidx, int orientation,
                 int y0, int y1, uint8_t *dst, size_t dstep, uint8_t *scratchRow);

/// Whether threshold_mean covers these parameters (block odd 3…255, |C| ≤ 10^6); otherwise call
/// cv::adaptiveThreshold.
bool threshold_mean_handles(int block, double c);

/// Whether thresholding commutes with every orientation: the box is square and centred, so its
/// sum does not depend on the orientation, and for blocks up to 127 OpenCV's rounded mean is
/// round(S / area) in every column (MeanParams), so threshold(orient(g)) == orient(threshold(g)).
bool threshold_commutes_with_orientation(int block);

/// A packed image read row by row as gray: `scn` 1 (used as is), 3 or 4 (converted, blue at byte
/// `bidx`), rows `step` bytes apart.
struct Source {
    const uint8_t *data;
    size_t step;
    int scn;
    int bidx;
};

/// cv::adaptiveThreshold(gray(src), …, 255, ADAPTIVE_THRESH_MEAN_C, inverted ? THRESH_BINARY_INV :
/// THRESH_BINARY, block, c), byte for byte, written to `dst` as orient_rows would for
/// `orientation` (1: as is). W × H is the source's size; the border is replicated and the mean
/// rounded as OpenCV's box filter rounds it (MeanParams). A color source is converted as
/// cv::cvtColor …2GRAY would, each row once, into a thread-local ring of 2r + 2 gray rows.
/// Orientations other than 1 equal thresholding the upright image only when
/// threshold_commutes_with_orientation(block). `src` and `dst` must not overlap. Needs
/// threshold_mean_handles(block, c).
void threshold_mean(const Kernels &k, const Source &src, int W, int H, int block, double c, bool inverted, int orientation,
                    uint8_t *dst, size_t dstep);

/// Whether cv::adaptiveThreshold's Gaussian, called now, would fuse its multiply-adds (OpenCV's
/// AVX2 filters; see GaussParams): cv::checkHardwareSupport(CV_CPU_AVX2), which follows
/// cv::setUseOptimized and OPENCV_CPU_DISABLE as OpenCV's own dispatch does.
bool opencv_gaussian_fuses();

/// Whether threshold_gaussian covers these parameters (x86: block odd 3…255, |C| ≤ 10^6);
/// otherwise call cv::adaptiveThreshold. Off x86 never: OpenCV's float filters there (NEON, and
/// its own choice of fused multiply-adds) are not what GaussParams describes.
bool threshold_gaussian_handles(int block, double c);

/// cv::adaptiveThreshold(src, dst, 255, ADAPTIVE_THRESH_GAUSSIAN_C, inverted ? THRESH_BINARY_INV :
/// THRESH_BINARY, block, c), byte for byte: the gray `W` × `H` image at `src` (rows `sstep`
/// apart) into `dst` (rows `dstep` apart). OpenCV's Gaussian mean exactly (GaussParams: the same
/// float operations in the same order, fused where OpenCV fuses them, opencv_gaussian_fuses)
/// and the same comparison as the mean method (Kernels::compare_row). One pass over the image
/// in stripes: each source row becomes a float row (the row pass) once, when it enters the
/// column window, in a thread-local ring of 2r + 1 rows; each output row is the column pass
/// over the window, rounded, compared and written. No allocation once the scratch has grown to
/// the frame (and the block's weights, cv::getGaussianKernel, are made once per process).
/// `src` and `dst` must not overlap. Needs threshold_gaussian_handles(block, c).
void threshold_gaussian(const Kernels &k, const uint8_t *src, size_t sstep, int W, int H, int block, double c,
                        bool inverted, uint8_t *dst, size_t dstep);

/// What gaussian() writes per row: the threshold (threshold_gaussian), or for tests the rounded
/// mean (bytes) or the blurred float row itself, at `data` with rows `step` bytes apart.
struct GaussianOutput {
    enum Kind { kThreshold, kMean, kBlurred } kind = kThreshold;
    void *data = nullptr;
    size_t step = 0;
    double c = 0;           // kThreshold
    bool inverted = false;  // kThreshold
    int fused = -1;         // −1: as OpenCV does now (opencv_gaussian_fuses); 0, 1: forced (tests)
};

/// threshold_gaussian's pass, writing `out`.
void gaussian(const Kernels &k, const uint8_t *src, size_t sstep, int W, int H, int block, const GaussianOutput &out);

}  // namespace focr::fast
