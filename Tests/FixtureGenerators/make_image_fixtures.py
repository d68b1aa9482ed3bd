#!/usr/bin/env python3
"""Writes the small image fixtures used by ImageLoadingTests.swift into Tests/FrameOCRTests/Fixtures/.

    pip install pillow numpy
    python3 Tests/FixtureGenerators/make_image_fixtures.py

PNGs are written by hand (zlib + chunks) so that colour type and bit depth are exactly as named;
the JPEG uses Pillow (for the EXIF block). Expected decoded values are in ImageLoadingTests.swift.
"""
import os
import struct
import zlib

import numpy as np
from PIL import Image

OUT = os.path.join(os.path.dirname(__file__), "..", "FrameOCRTests", "Fixtures")


def png(name, width, height, color_type, bit_depth, rows):
    """rows: list of bytes objects, one per row, already in PNG sample order (big-endian 16-bit)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + r for r in rows)  # filter type 0 on every row
    data = (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b""))
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


# 4×2 RGBA, 8-bit (colour type 6): alpha 0, 255, 128, 64 / 0, 255, 128, 200.
rgba = [
    [(200, 100, 50, 0), (200, 100, 50, 255), (200, 100, 50, 128), (10, 20, 30, 64)],
    [(0, 0, 0, 0), (0, 0, 0, 255), (255, 255, 255, 128), (90, 180, 30, 200)],
]
png("rgba_4x2.png", 4, 2, 6, 8, [bytes(c for px in row for c in px) for row in rgba])

# 4×2 gray, 16-bit (colour type 0).
gray16 = [[0, 257, 65535, 32896], [1000, 40000, 12345, 300]]
png("gray16_4x2.png", 4, 2, 0, 16, [b"".join(struct.pack(">H", v) for v in row) for row in gray16])

# 2×1 RGB, 16-bit (colour type 2).
rgb16 = [[(65535, 0, 32896), (2570, 5140, 1000)]]
png("rgb16_2x1.png", 2, 1, 2, 16, [b"".join(struct.pack(">HHH", *px) for px in row) for row in rgb16])

# 2×1 gray + alpha, 8-bit (colour type 4): (100, α 0), (100, α 128).
png("gray_alpha_2x1.png", 2, 1, 4, 8, [bytes([100, 0, 100, 128])])

# 32×16 gray JPEG stored sideways with EXIF orientation 6 (rotate 90° clockwise to display).
# Stored quadrants (16×8 each, aligned to JPEG blocks): top-left 30, top-right 220,
# bottom-left 100, bottom-right 160.
a = np.zeros((16, 32), dtype=np.uint8)
a[:8, :16], a[:8, 16:], a[8:, :16], a[8:, 16:] = 30, 220, 100, 160
img = Image.fromarray(a, mode="L")
exif = Image.Exif()
exif[0x0112] = 6
img.save(os.path.join(OUT, "exif_orientation6.jpg"), quality=95, exif=exif.tobytes())
