#!/usr/bin/env python3
"""RapidOCR peer: the scene-text baselines `frameocr-bench` measures FrameOCR's scene reading against.

RapidOCR runs PaddleOCR's models (a DB text detector, an angle classifier and a CRNN recognizer):
the pipeline a Python user would reach for to read scene text. Two generations are measured, each
in its own venv that `make rapidocr` builds:

- rapidocr-onnxruntime 1.4.4 (.build/peers/rapidocr-venv): PP-OCRv4 on onnxruntime, the models
  its wheel ships (the files FrameOCR installs from that wheel), its default settings.
- rapidocr 3.10.0 (.build/peers/rapidocr3-venv), with onnxruntime and OpenVINO beside it:
  `--engine onnxruntime` or `--engine openvino` runs its detector, classifier and recognizer on
  that runtime, on the model files given by `--det`, `--cls`, `--rec` and `--keys` (the bench
  passes FrameOCR's own, so both sides run the same networks); its other settings are its
  defaults (config.yaml: the detector's 736-px shorter side, thresholds, batch of 6 lines;
  threads: every core).

The peer reads the image files as RapidOCR's own users do (the path given, decoded by RapidOCR),
one engine, the images one after another. Each image's text is its lines' texts joined by
newlines, in RapidOCR's order.

Python is used here, and only here, because the peer *is* a Python library; nothing of FrameOCR
depends on it.

Usage:
  rapidocr_peer.py --serve [--engine onnxruntime|openvino] [--det F --cls F --rec F --keys F]
                   [--files-from LIST] FILE...
      For the bench: creates the engine and warms it on the first file, prints one JSON line
      {"ready": true, "rapidocr": VERSION, "engine": NAME, "engineVersion": VERSION, ...}, then
      for each line it reads on stdin ("run") reads every file once and prints one JSON line
      {"mode", "seconds", "texts", "errors"}, the seconds the batch's wall time measured here;
      "quit" or end of input ends it. 1.4.4 takes only --engine onnxruntime and no model file.
"""

import argparse
import json
import sys
import time
from importlib.metadata import version


def not_ready(error):
    """The line the bench reads (and quotes in its note) when the peer cannot run."""
    print(json.dumps({"ready": False, "error": error}), flush=True)
    sys.exit(3)


def engine_for(args):
    """(read, ready fields): RapidOCR 3.x when its package is there, else 1.4.4."""
    try:
        from rapidocr import EngineType, RapidOCR
    except ImportError:
        RapidOCR = None
    if RapidOCR is not None:
        kind = {"onnxruntime": EngineType.ONNXRUNTIME, "openvino": EngineType.OPENVINO}[args.engine]
        params = {"Global.log_level": "error"}
        for part in ("Det", "Cls", "Rec"):
            params[part + ".engine_type"] = kind
        for part, path in (("Det.model_path", args.det), ("Cls.model_path", args.cls),
                           ("Rec.model_path", args.rec), ("Rec.rec_keys_path", args.keys)):
            if path:
                params[part] = path
        engine = RapidOCR(params=params)

        def read(path):
            result = engine(path)
            return "\n".join(result.txts or ())

        return read, {"rapidocr": version("rapidocr"), "engine": args.engine,
                      "engineVersion": version(args.engine)}
    try:
        from rapidocr_onnxruntime import RapidOCR as RapidOCR1
    except ImportError as error:
        not_ready(f"cannot import rapidocr or rapidocr_onnxruntime: {error}")
    if args.engine != "onnxruntime" or any((args.det, args.cls, args.rec, args.keys)):
        not_ready("rapidocr-onnxruntime runs onnxruntime on its own models only")
    engine = RapidOCR1()

    def read(path):
        result, _ = engine(path)
        return "\n".join(line[1] for line in (result or []))

    return read, {"rapidocr": version("rapidocr-onnxruntime"), "engine": "onnxruntime",
                  "engineVersion": version("onnxruntime")}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--serve", action="store_true")
    parser.add_argument("--engine", choices=("onnxruntime", "openvino"), default="onnxruntime")
    for name in ("det", "cls", "rec", "keys"):
        parser.add_argument("--" + name)
    parser.add_argument("--files-from")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    files = list(args.files)
    if args.files_from:
        with open(args.files_from, encoding="utf-8") as f:
            files += [line.rstrip("\n") for line in f if line.strip()]
    if not args.serve or not files:
        parser.error("--serve and at least one file are needed")
    read, fields = engine_for(args)
    read(files[0])  # warm-up: sessions made, first inference done
    print(json.dumps({"ready": True, **fields, "images": len(files)}), flush=True)
    for line in sys.stdin:
        mode = line.strip()
        if mode in ("quit", ""):
            break
        texts, errors = [], []
        start = time.perf_counter()
        for path in files:
            try:
                texts.append(read(path))
            except Exception as error:  # reported per file, as the tesserocr peer does
                texts.append("")
                errors.append(f"{path}: {error}")
        seconds = time.perf_counter() - start
        print(json.dumps({"mode": mode, "seconds": seconds, "texts": texts, "errors": errors}), flush=True)


if __name__ == "__main__":
    main()
