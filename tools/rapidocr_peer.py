#!/usr/bin/env python3
"""RapidOCR peer: the scene-text baseline `frameocr-bench` measures FrameOCR's scene reading against.

RapidOCR (rapidocr-onnxruntime on PyPI) runs PaddleOCR's PP-OCRv4 models through onnxruntime: a
DB text detector, an angle classifier and a CRNN recognizer, the pipeline a Python user would
reach for to read scene text. The peer reads the image files as RapidOCR's own users do (the path
given, decoded by RapidOCR), with its default settings (its config.yaml; onnxruntime's threads
default to the machine's cores), one engine, the images one after another. Each image's text is
its lines' texts joined by newlines, in RapidOCR's order.

Python is used here, and only here, because the peer *is* a Python library; nothing of FrameOCR
depends on it. Build the venv with `make rapidocr` (.build/peers/rapidocr-venv).

Usage:
  rapidocr_peer.py --serve [--files-from LIST] FILE...
      For the bench: creates the engine and warms it on the first file, prints one JSON line
      {"ready": true, "rapidocr": VERSION, ...}, then for each line it reads on stdin ("run")
      reads every file once and prints one JSON line {"mode", "seconds", "texts", "errors"}, the
      seconds the batch's wall time measured here; "quit" or end of input ends it.
"""

import argparse
import json
import sys
import time

try:
    from importlib.metadata import version

    from rapidocr_onnxruntime import RapidOCR
except ImportError as error:  # the bench reads this line and says so in its note
    print(json.dumps({"ready": False, "error": f"cannot import rapidocr_onnxruntime: {error}"}), flush=True)
    sys.exit(3)


def read(engine, path):
    """One image's text: RapidOCR's lines in its order, joined by newlines."""
    result, _ = engine(path)
    return "\n".join(line[1] for line in (result or []))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--serve", action="store_true")
    parser.add_argument("--files-from")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    files = list(args.files)
    if args.files_from:
        with open(args.files_from, encoding="utf-8") as f:
            files += [line.rstrip("\n") for line in f if line.strip()]
    if not args.serve or not files:
        parser.error("--serve and at least one file are needed")
    engine = RapidOCR()
    read(engine, files[0])  # warm-up: sessions made, first inference done
    print(json.dumps({"ready": True, "rapidocr": version("rapidocr-onnxruntime"),
                      "onnxruntime": version("onnxruntime"), "images": len(files)}), flush=True)
    for line in sys.stdin:
        mode = line.strip()
        if mode in ("quit", ""):
            break
        texts, errors = [], []
        start = time.perf_counter()
        for path in files:
            try:
                texts.append(read(engine, path))
            except Exception as error:  # reported per file, as the tesserocr peer does
                texts.append("")
                errors.append(f"{path}: {error}")
        seconds = time.perf_counter() - start
        print(json.dumps({"mode": mode, "seconds": seconds, "texts": texts, "errors": errors}), flush=True)


if __name__ == "__main__":
    main()
