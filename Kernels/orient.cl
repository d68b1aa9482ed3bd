// orient.cl — makes a stored image upright for an EXIF orientation (1…8), any pixel size.
//
// Output pixel (u, v) of the upright image reads stored pixel (x, y), w × h the stored size:
//   1 up (u, v)            2 upMirrored (w−1−u, v)      3 down (w−1−u, h−1−v)
//   4 downMirrored (u, h−1−v)   5 leftMirrored (v, u)   6 right (v, h−1−u)
//   7 rightMirrored (w−1−v, h−1−u)                      8 left (w−1−v, u)
// (the same maps as cv::rotate / cv::flip / cv::transpose, so results are bit-exact).
//
// Arguments (steps and offsets in bytes):
//   src, src_step, src_offset, src_rows, src_cols   stored image (h = src_rows, w = src_cols)
//   dst, dst_step, dst_offset, rows, cols           upright image (swapped size for 5…8)
//   orientation                                     1…8
//   pix                                             bytes per pixel: 1, 3 or 4
// Build option TILE (default 16): side of the local-memory tile used for gray transposes
// (orientations 5…8 with pix == 1), so both the reads and the writes of a work group are rows.

#ifndef TILE
#define TILE 16
#endif

inline int2 stored_coordinate(int u, int v, int w, int h, int orientation)
{
    switch (orientation) {
    case 2: return (int2)(w - 1 - u, v);
    case 3: return (int2)(w - 1 - u, h - 1 - v);
    case 4: return (int2)(u, h - 1 - v);
    case 5: return (int2)(v, u);
    case 6: return (int2)(v, h - 1 - u);
    case 7: return (int2)(w - 1 - v, h - 1 - u);
    case 8: return (int2)(w - 1 - v, u);
    default: return (int2)(u, v);
    }
}

__kernel void orient(__global const uchar *src, int src_step, int src_offset, int src_rows, int src_cols,
                     __global uchar *dst, int dst_step, int dst_offset, int rows, int cols,
                     int orientation, int pix)
{
    const int u = get_global_id(0), v = get_global_id(1);
    if (u >= cols || v >= rows) return;
    const int2 s = stored_coordinate(u, v, src_cols, src_rows, orientation);
    __global const uchar *p = src + src_offset + s.y * src_step + s.x * pix;
    __global uchar *q = dst + dst_offset + v * dst_step + u * pix;
    for (int c = 0; c < pix; ++c) q[c] = p[c];
}

// Gray transposing orientations (5…8) through a TILE × TILE local tile: the group reads a tile
// of stored rows and writes it as upright rows. Work-group size must be TILE × TILE; the global
// size covers the *stored* image.
__kernel void orient_transpose_gray(__global const uchar *src, int src_step, int src_offset, int src_rows, int src_cols,
                                    __global uchar *dst, int dst_step, int dst_offset, int rows, int cols,
                                    int orientation)
{
    __local uchar tile[TILE][TILE + 1];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int gx = get_group_id(0) * TILE, gy = get_group_id(1) * TILE;
    const int x = gx + lx, y = gy + ly;  // stored pixel this item reads
    if (x < src_cols && y < src_rows) tile[ly][lx] = src[src_offset + y * src_step + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    // Item (lx, ly) now writes the stored pixel (gx + ly, gy + lx): a transposed read of the tile.
    const int sx = gx + ly, sy = gy + lx;
    if (sx >= src_cols || sy >= src_rows) return;
    // Upright coordinate of stored (sx, sy), inverse of stored_coordinate for 5…8.
    int u, v;
    switch (orientation) {
    case 5: u = sy; v = sx; break;                          // x = v, y = u
    case 6: u = src_rows - 1 - sy; v = sx; break;           // x = v, y = h−1−u
    case 7: u = src_rows - 1 - sy; v = src_cols - 1 - sx; break;  // x = w−1−v, y = h−1−u
    default: u = sy; v = src_cols - 1 - sx; break;          // 8: x = w−1−v, y = u
    }
    dst[dst_offset + v * dst_step + u] = tile[lx][ly];
}
