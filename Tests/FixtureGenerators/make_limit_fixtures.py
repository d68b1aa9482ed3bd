#!/usr/bin/env python3
"""Writes the size-limit fixtures (issue 15): PNG files whose IHDR claims a huge size over a few
bytes of image data, as a decompression bomb's header does. Standard library only.

    python3 Tests/FixtureGenerators/make_limit_fixtures.py   # writes Tests/FrameOCRTests/Fixtures/limits/

- png-60000x60000.png: 3,600,000,000 pixels claimed (over every limit, and OpenCV's 2^30).
- png-20000x20000.png: 400,000,000 (over the default 2^28, under the ceiling 2^30).
- png-70000x2.png: 140,000, but wider than FrameOCR's 65536 pixels.
"""

import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "FrameOCRTests", "Fixtures", "limits")


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit gray, no interlace
    # One filter byte and three gray pixels of row 0: a valid zlib stream, far too short.
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0\0\0\0"))
            + chunk(b"IEND", b""))


def main() -> None:
    os.makedirs(OUT, exist_ok=True)
    for w, h in [(60000, 60000), (20000, 20000), (70000, 2)]:
        with open(os.path.join(OUT, f"png-{w}x{h}.png"), "wb") as f:
            f.write(png(w, h))


if __name__ == "__main__":
    main()
