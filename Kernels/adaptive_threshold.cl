// adaptive_threshold.cl — cv::adaptiveThreshold on the GPU: a separable local mean (box for
// ADAPTIVE_THRESH_MEAN_C, Gaussian for ADAPTIVE_THRESH_GAUSSIAN_C) with BORDER_REPLICATE, then
// OpenCV's comparison:
//   normal:   dst = (src − mean >  −ceil(C))  ? 255 : 0      (THRESH_BINARY)
//   inverted: dst = (src − mean <= −floor(C)) ? 255 : 0      (THRESH_BINARY_INV)
// Mean: the box sum is exact (integers) and rounded as OpenCV's normalized boxFilter rounds it
// (to nearest; with an odd area there are no ties), so the mean path is bit-exact.
// Gaussian: OpenCV blurs a float copy with the float kernel of getGaussianKernel(blockSize, 0);
// the host passes that kernel (`weights`), and both passes accumulate in float in OpenCV's order
// (rows: k = 0…n−1; columns: centre first, then symmetric pairs); the float mean is rounded to
// nearest-even as convertTo does.
//
// Arguments (steps and offsets in bytes; the intermediate is `float`/`int`, `cols` per row):
//   src, src_step, src_offset, rows, cols   gray input (region of interest by offset)
//   tmp                                     rows × cols intermediate (int for box, float for Gaussian)
//   dst, dst_step, dst_offset               gray output, same size
//   radius                                  (blockSize − 1) / 2
//   weights                                 Gaussian: blockSize floats; unused for the box
//   idelta                                  ceil(C) (normal) or floor(C) (inverted)
//   inverted                                0 or 1
// Build options: none.

inline int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

inline uchar decide(int s, int mean, int idelta, int inverted)
{
    const int d = s - mean;
    return inverted ? (d <= -idelta ? 255 : 0) : (d > -idelta ? 255 : 0);
}

// Row pass of the box, one work item per row with a running sum (O(1) per pixel):
// tmp[y][x] = Σ src[y][clamp(x+k)], k = −radius…radius.
__kernel void box_rows(__global const uchar *src, int src_step, int src_offset, int rows, int cols,
                       __global int *tmp, int radius)
{
    const int y = get_global_id(0);
    if (y >= rows) return;
    __global const uchar *row = src + src_offset + y * src_step;
    __global int *out = tmp + y * cols;
    int s = 0;
    for (int k = -radius; k <= radius; ++k) s += row[clampi(k, 0, cols - 1)];
    for (int x = 0; x < cols; ++x) {
        out[x] = s;
        s += row[clampi(x + radius + 1, 0, cols - 1)] - row[clampi(x - radius, 0, cols - 1)];
    }
}

// Column pass of the box and the threshold, one work item per column with a running sum (reads
// of neighbouring items are neighbouring addresses).
__kernel void box_cols_threshold(__global const uchar *src, int src_step, int src_offset, int rows, int cols,
                                 __global const int *tmp, __global uchar *dst, int dst_step, int dst_offset,
                                 int radius, int idelta, int inverted)
{
    const int x = get_global_id(0);
    if (x >= cols) return;
    const int area = (2 * radius + 1) * (2 * radius + 1);
    int s = 0;
    for (int k = -radius; k <= radius; ++k) s += tmp[clampi(k, 0, rows - 1) * cols + x];
    for (int y = 0; y < rows; ++y) {
        const int mean = (2 * s + area) / (2 * area);  // round to nearest (no ties: area is odd)
        dst[dst_offset + y * dst_step + x] = decide(src[src_offset + y * src_step + x], mean, idelta, inverted);
        s += tmp[clampi(y + radius + 1, 0, rows - 1) * cols + x] - tmp[clampi(y - radius, 0, rows - 1) * cols + x];
    }
}

// Row pass of the Gaussian, in float: tmp[y][x] = Σ_k w[k]·src[y][clamp(x+k−radius)], k = 0…n−1.
__kernel void gauss_rows(__global const uchar *src, int src_step, int src_offset, int rows, int cols,
                         __global float *tmp, int radius, __constant float *weights)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= cols || y >= rows) return;
    __global const uchar *row = src + src_offset + y * src_step;
    float s = 0.0f;
    for (int k = 0; k <= 2 * radius; ++k) s += weights[k] * (float)row[clampi(x + k - radius, 0, cols - 1)];
    tmp[y * cols + x] = s;
}

// Column pass of the Gaussian (centre, then symmetric pairs, as OpenCV's SymmColumnFilter) and the
// threshold.
__kernel void gauss_cols_threshold(__global const uchar *src, int src_step, int src_offset, int rows, int cols,
                                   __global const float *tmp, __global uchar *dst, int dst_step, int dst_offset,
                                   int radius, __constant float *weights, int idelta, int inverted)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= cols || y >= rows) return;
    float s = weights[radius] * tmp[y * cols + x];
    for (int k = 1; k <= radius; ++k)
        s += weights[radius + k] * (tmp[clampi(y + k, 0, rows - 1) * cols + x] + tmp[clampi(y - k, 0, rows - 1) * cols + x]);
    const int mean = clampi(convert_int_rte(s), 0, 255);
    dst[dst_offset + y * dst_step + x] = decide(src[src_offset + y * src_step + x], mean, idelta, inverted);
}
