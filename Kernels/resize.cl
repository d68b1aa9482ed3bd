// resize.cl — gray downscale by an integer factor k in both axes (area averaging), the case of
// cv::resize(…, INTER_AREA) where the source is exactly k times the destination (OpenCV's
// "fast area" path), bit-exact:
//   k == 2:  dst = (a + b + c + d + 2) >> 2                       (round half up)
//   k >  2:  dst = round-half-to-even(sum / k²)                   (float sum·(1/k²), cvRound)
// Other factors and sizes are resized on the CPU with cv::resize.
//
// Arguments (steps and offsets in bytes):
//   src, src_step, src_offset     gray, (rows·k) × (cols·k)
//   dst, dst_step, dst_offset     gray, rows × cols
//   rows, cols                    destination size in pixels
//   k                             the factor, ≥ 2

__kernel void area_down(__global const uchar *src, int src_step, int src_offset,
                        __global uchar *dst, int dst_step, int dst_offset, int rows, int cols, int k)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= cols || y >= rows) return;
    int sum = 0;
    for (int j = 0; j < k; ++j) {
        __global const uchar *row = src + src_offset + (y * k + j) * src_step + x * k;
        for (int i = 0; i < k; ++i) sum += row[i];
    }
    const int area = k * k;
    int v;
    if (k == 2) {
        v = (sum + 2) >> 2;
    } else {
        const int q = sum / area, r = sum - q * area;
        v = 2 * r > area ? q + 1 : (2 * r < area ? q : q + (q & 1));
    }
    dst[dst_offset + y * dst_step + x] = (uchar)v;
}
