#!/usr/bin/env python3
"""make ray-test: FrameOCR on a local Ray (2 CPUs) over the repository's fixture images.

Every image comes back exactly once with the same text as ``frameocr recognize``, a corrupt
image and a missing file are error rows, a killed worker process is started again, and image
bytes read as the file does. Plain asserts: exit status 0 when all hold.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "integrations", "ray"))

import ocr_archive  # noqa: E402
from frameocr_ray import FrameOCR  # noqa: E402

FRAMEOCR = os.environ.get("FRAMEOCR") or os.path.join(ROOT, ".build", "release", "frameocr")
os.environ["FRAMEOCR"] = FRAMEOCR
FIXTURES = os.path.join(ROOT, "Tests", "FrameOCRTests", "Fixtures")
IMAGES = [os.path.join(FIXTURES, f) for f in (
    "testocr.png", "test_la.png", "phototest.tif", "simple-90.jpg", "boxed-form.png", "uneven-light.png",
    "skew-lines-cw2.5.png", "testocr.gif", "r01-mixed-polarity.png", "phototest-rotated-R.png")]


def cli_text(path: str) -> str:
    out = subprocess.run([FRAMEOCR, "recognize", path], capture_output=True, text=True,
                         env=dict(os.environ, OMP_THREAD_LIMIT="1"), check=True).stdout
    assert out.endswith("\n"), path
    return out[:-1]


def check_records() -> None:
    """A record splices the result's JSON text as the worker wrote it (the response walk that
    keeps that text is the package's, tested in integrations/python/tests/test_protocol.py)."""
    result = '{"text": "a \\"b\\"\\n\u00e9", "confidence": 0.5, "words": [{"box": [1, 2, 3, 4]}]}'
    record = json.loads(ocr_archive.record_line(
        {"path": "p\u00e9.png", "text": "t", "confidence": float("nan"), "error": None, "result": result}))
    assert record == {"path": "p\u00e9.png", "text": "t", "confidence": None, "error": None,
                      "result": json.loads(result)}, record
    record = json.loads(ocr_archive.record_line(
        {"path": "q", "text": "", "confidence": None, "error": "io: gone", "result": None}))
    assert record["result"] is None and record["error"] == "io: gone"


def main() -> int:
    check_records()
    assert os.access(FRAMEOCR, os.X_OK), f"build frameocr first: {FRAMEOCR}"
    expected = {p: cli_text(p) for p in IMAGES}
    tmp = tempfile.mkdtemp(prefix="frameocr-ray-")
    corrupt = os.path.join(tmp, "corrupt.png")
    with open(corrupt, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    missing = os.path.join(tmp, "missing.png")

    # The class alone: bytes read as the file does; a killed worker is started again.
    ocr = FrameOCR()
    with open(IMAGES[0], "rb") as f:
        data = f.read()
    text, confidence, error, result = ocr.recognize(data=data)
    assert error is None and text == expected[IMAGES[0]], (text, error)
    assert 0 < confidence <= 1 and json.loads(result)["text"] == text
    os.kill(ocr.reader.pid, signal.SIGKILL)
    text, _, error, _ = ocr.recognize(path=IMAGES[1])
    assert error is None and text == expected[IMAGES[1]], (text, error)
    assert ocr.reader.restarts == 1, ocr.reader.restarts
    batch = ocr({"path": [IMAGES[2], corrupt]})
    assert batch["text"][0] == expected[IMAGES[2]] and batch["error"][0] is None
    assert batch["error"][1].startswith("decode:"), batch["error"][1]
    del ocr

    # The script on Ray: 2 actors, a list file, JSON Lines out.
    listing = os.path.join(tmp, "list.txt")
    with open(listing, "w") as f:
        f.write("\n".join(IMAGES + [corrupt, missing]) + "\n")
    output = os.path.join(tmp, "out.jsonl")
    assert ocr_archive.main([listing, output, "--actors", "2"]) == 0
    with open(output) as f:
        rows = [json.loads(line) for line in f]
    paths = [r["path"] for r in rows]
    assert sorted(paths) == sorted(IMAGES + [corrupt, missing]), "every image exactly once"
    by_path = {r["path"]: r for r in rows}
    for p in IMAGES:
        assert by_path[p]["error"] is None, (p, by_path[p]["error"])
        assert by_path[p]["text"] == expected[p], (p, by_path[p]["text"], expected[p])
        assert by_path[p]["result"]["file"] == p
    assert by_path[corrupt]["error"].startswith("decode:"), by_path[corrupt]["error"]
    assert by_path[missing]["error"].startswith("io:"), by_path[missing]["error"]
    assert by_path[corrupt]["text"] == "" and by_path[corrupt]["result"] is None
    print(f"ray-test: {len(IMAGES)} images with the CLI's text, 2 error rows, a restarted worker: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
