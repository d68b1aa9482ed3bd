#!/usr/bin/env python3
"""Seeds for fuzz_frame (Tests/Fuzz/fuzz_frame.cpp): for each pixel format, a descriptor header
the harness reads as a valid frame (format, a small size, the format's plane count, strides with
little padding) followed by a fixture file's bytes as pixels and parameters. Standard library only.

    python3 Tests/Fuzz/seeds.py OUT_DIR FIXTURE
"""

import os
import struct
import sys


def main() -> None:
    out, fixture = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    with open(fixture, "rb") as f:
        body = f.read()[:6000]
    planes = {0: 1, 1: 1, 2: 1, 3: 1, 4: 1, 5: 2, 6: 3}
    for fmt, count in planes.items():
        for w, h in [(40, 30), (17, 9)]:
            # format byte: (b % 9) − 1; plane count: b % 5; per plane: no size change (b % 16 != 0),
            # no size change, stride pad (b % 70) − 3 → 0
            head = bytes([fmt + 1]) + struct.pack("<hh", w, h) + bytes([count])
            head += bytes([1, 1, 3]) * 3
            with open(os.path.join(out, f"format{fmt}-{w}x{h}"), "wb") as f:
                f.write(head + body)


if __name__ == "__main__":
    main()
