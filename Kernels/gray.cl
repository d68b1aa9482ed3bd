// gray.cl — packed color (BGRA, RGBA, BGR, RGB) to 8-bit gray, BT.601 in OpenCV's fixed point.
//
// gray = (B·3735 + G·19235 + R·9798 + 2^14) >> 15   (cv::cvtColor …2GRAY for 8-bit, bit-exact)
//
// Build options: none (channel count and blue index are arguments).
// Arguments (steps and offsets in bytes):
//   src, src_step, src_offset   packed pixels, `scn` bytes each
//   dst, dst_step, dst_offset   gray, 1 byte per pixel
//   rows, cols                  size in pixels
//   scn                         bytes per source pixel: 3 or 4
//   bidx                        index of blue in a pixel: 0 (BGR/BGRA) or 2 (RGB/RGBA)
// One work item per pixel; items outside rows × cols return at once.

__kernel void to_gray(__global const uchar *src, int src_step, int src_offset,
                      __global uchar *dst, int dst_step, int dst_offset,
                      int rows, int cols, int scn, int bidx)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= cols || y >= rows) return;
    __global const uchar *p = src + src_offset + y * src_step + x * scn;
    const int b = p[bidx], g = p[1], r = p[2 - bidx];
    dst[dst_offset + y * dst_step + x] = (uchar)((b * 3735 + g * 19235 + r * 9798 + (1 << 14)) >> 15);
}

// A plain copy of a gray region (an NV12/I420 Y plane, or a gray frame) — used where the next
// stage cannot read the source in place (the fused chain always reads in place).
__kernel void copy_gray(__global const uchar *src, int src_step, int src_offset,
                        __global uchar *dst, int dst_step, int dst_offset, int rows, int cols)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= cols || y >= rows) return;
    dst[dst_offset + y * dst_step + x] = src[src_offset + y * src_step + x];
}
