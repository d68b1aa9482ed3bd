#!/usr/bin/env python3
"""Seeds for the libFuzzer harnesses of Tests/Fuzz. Standard library only.

    python3 Tests/Fuzz/seeds.py frame OUT_DIR FIXTURE
    python3 Tests/Fuzz/seeds.py serve OUT_DIR
    python3 Tests/Fuzz/seeds.py arguments OUT_DIR

- frame (fuzz_frame.cpp): for each pixel format, a descriptor header the harness reads as a valid
  frame (format, a small size, the format's plane count, strides with little padding) followed by
  a fixture file's bytes as pixels and parameters.
- serve (frameocr-fuzz serve): the longest line and the read size, then request lines in the forms
  docs/serve.md describes, with good and bad keys, blank lines and carriage returns.
- arguments (frameocr-fuzz arguments): the command (0 recognize, 1 video, 2 serve), then
  NUL-separated arguments of the forms docs/cli.md describes.
"""

import os
import struct
import sys


def frame(out: str, fixture: str) -> None:
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


REQUESTS = [
    '{"id": "7", "path": "a.png", "psm": 6}',
    '{"id": 8, "image": "iVBORw0KGgo=", "format": "text"}',
    '{"protocol": 1, "id": 9.5, "path": "b.tif", "roi": [10, 20, 300, 100], "strictRoi": true, "format": "tsv"}',
    '{"id": "n", "path": "c.jpg", "roiNormalized": "0.1,0.1,0.5,0.5", "orientation": "left", "noAuto": false}',
    '{"id": 10, "path": "d.png", "threshold": "gaussian:31:10:inv", "scale": 2, "lang": "eng", "oem": 1}',
    '{"id": 11, "path": "e.png", "scanRegion": [0, 0, 100, 25], "whitelist": "0123456789", "dpi": 300}',
    '{"id": 12, "path": "f.png", "alternates": 3, "backend": "cpu", "blacklist": "|", "format": "hocr"}',
    '{"id": true, "path": "x"}',
    '{"id": 13, "protocol": 2, "path": "x"}',
    '{"id": 14, "psm": "fourteen", "path": "x"}',
    '{"id": 15, "path": "x", "image": "AAAA"}',
    '{"id": 16, "unknown": 1, "path": "x"}',
    '[1, 2, 3]',
    'not json',
]

ARGUMENTS = [
    (0, ["a.png", "--psm", "6", "--format=json", "--roi", "10,20,300,100", "--strict-roi"]),
    (0, ["--from", "-", "--format", "jsonl", "--jobs", "2", "--threshold", "mean:15:5", "--max-pixels", "1000"]),
    (0, ["a.png", "--roi-normalized", "0.1,0.1,0.5,0.5", "--orientation", "left", "--no-auto", "--", "--b.png"]),
    (0, ["a.png", "--scan-region", "0,0,100,25", "--scale", "1.5", "--backend", "opencl", "--alternates", "2"]),
    (0, ["a.png", "--lang", "eng+deu", "--oem", "1", "--whitelist", "0123456789", "--dpi", "300", "--user-words", "w"]),
    (1, ["0", "--drop", "block", "--queue", "40", "--workers", "2", "--budget", "40ms", "--fps", "15"]),
    (1, ["rtsp:x", "--reconnect", "2", "--reconnect-delay", "200ms", "--stall-timeout", "off", "--frames", "5"]),
    (1, ["videotestsrc ! videoconvert ! appsink", "--whole-frames", "--realtime", "--open-timeout", "3s"]),
    (1, ["clip.mp4", "--min-text-height", "8", "--format", "jsonl", "--frame-rate", "25", "--drop", "latest"]),
    (2, ["--stdio", "--workers", "2", "--max-request-bytes", "1024", "--psm", "6", "--format", "text"]),
    (2, ["--stdio", "--threshold", "gaussian", "--no-auto", "--roi", "0,0,0,10", "--max-pixels", "1073741824"]),
]


def serve(out: str) -> None:
    for i, request in enumerate(REQUESTS):
        with open(os.path.join(out, f"request{i}"), "wb") as f:
            f.write(bytes([255, 64]) + (request + "\n").encode())
    with open(os.path.join(out, "lines"), "wb") as f:
        body = "\n".join(REQUESTS[:4]) + "\r\n\n  \t\n" + REQUESTS[4]
        f.write(bytes([10, 7]) + body.encode())  # lines of at most 56 bytes, read 8 at a time
    # Protocol 2: raw pixels after their lines (newlines and JSON inside the payloads), one cut
    # short by the end of the input.
    with open(os.path.join(out, "payloads"), "wb") as f:
        pixels = b'{"id":1}\n\x00\xff' * 4
        body = b""
        for i, (fmt, w, h) in enumerate([("gray8", 4, 5), ("bgra8", 2, 2), ("nv12", 4, 2), ("gray8", 8, 8)]):
            line = '{"protocol":2,"id":%d,"pixelFormat":"%s","width":%d,"height":%d,"bytes":%d}' % (
                i, fmt, w, h, len(pixels[:20]) if i < 3 else 64)
            body += line.encode() + b"\n" + pixels[:20]
        f.write(bytes([255, 13]) + body)


def arguments(out: str) -> None:
    for i, (command, args) in enumerate(ARGUMENTS):
        with open(os.path.join(out, f"arguments{i}"), "wb") as f:
            f.write(bytes([command]) + b"\0".join(a.encode() for a in args))


def main() -> None:
    kind, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    if kind == "frame":
        frame(out, sys.argv[3])
    elif kind == "serve":
        serve(out)
    elif kind == "arguments":
        arguments(out)
    else:
        sys.exit(f"seeds.py: unknown kind {kind}")


if __name__ == "__main__":
    main()
