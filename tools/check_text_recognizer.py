#!/usr/bin/env python3
"""Checks the text-line recognizer under OpenVINO, FrameOCR's runtime, against onnxruntime, the
runtime its model was published for: the same greedy CTC decoding on every generated crop, or the
check fails (`make text-recognizer-check`, in CI).

The crops are drawn here (no fixture files): words, plates and digits in OpenCV's Hershey fonts,
dark on light and light on dark, on noisy and textured backgrounds, some blurred, some through
JPEG, at heights that give input widths from 32 to 1200 columns, each both at its own width and
padded to 320 as PaddleOCR pads. The model runs under onnxruntime and under OpenVINO (the pinned
wheel's Python binding, compiled with FrameOCR's properties: f32, CPU pinning off; one compiled
model for every width, as FrameOCR runs it), each in the Python given by --worker-python (the
RapidOCR peer's venv, with the wheel's `openvino` package on PYTHONPATH), which runs this script
as its worker (`--worker RUNTIME IN.npz OUT.npz`). The drawing runs in this Python (Debian's
python3-opencv).

With --classifier it checks the text-angle classifier too: the same crops, upright and turned
180°, the same class and probabilities within 1e-4.

Usage: check_text_recognizer.py --model REC.onnx --keys KEYS.txt --worker-python PYTHON
                                [--classifier CLS.onnx]
"""
import argparse
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

HEIGHT = 48
WORDS = ["OPEN", "Carpark", "EXIT 24", "AB12 CDE", "7XKL 093", "0123456789", "Hello, World!",
         "SALE -50%", "www.example.com", "Main St.", "KEEP CLEAR", "M", "No 5", "£4.99 each",
         "DAVIDSON", "america", "03/09/2009", "QUEEN'S ROAD CENTRAL", "Tel: 2345 6789", "HK"]


def crops(cv2):
    """(name, BGR image) pairs, the same on every run (a fixed seed)."""
    rng = np.random.default_rng(2026)
    fonts = [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
             cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN]
    out = []
    for i, word in enumerate(WORDS):
        for variant in range(2):
            font = fonts[(i + variant) % len(fonts)]
            scale = 0.6 + 1.4 * rng.random()
            thick = 1 + int(rng.integers(0, 3))
            (w, h), base = cv2.getTextSize(word, font, scale, thick)
            pad = int(rng.integers(2, 12))
            img = np.empty((h + base + 2 * pad, w + 2 * pad, 3), np.uint8)
            dark = (i + variant) % 3 != 2
            ground = rng.integers(150, 256, 3) if dark else rng.integers(0, 90, 3)
            img[:] = ground
            noise = rng.normal(0, 6 + 12 * variant, img.shape)
            img = np.clip(img + noise, 0, 255).astype(np.uint8)
            if variant:
                for _ in range(3):
                    p = tuple(int(v) for v in rng.integers(0, max(img.shape[:2]), 2))
                    q = tuple(int(v) for v in rng.integers(0, max(img.shape[:2]), 2))
                    cv2.line(img, p, q, tuple(int(c) for c in rng.integers(0, 256, 3)), 1)
            ink = tuple(int(c) for c in (rng.integers(0, 80, 3) if dark else rng.integers(180, 256, 3)))
            cv2.putText(img, word, (pad, pad + h), font, scale, ink, thick, cv2.LINE_AA)
            if variant:
                img = cv2.GaussianBlur(img, (3, 3), 0.8)
                ok, jpg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 40])
                img = cv2.imdecode(jpg, cv2.IMREAD_COLOR)
            out.append((f"{i:02d}.{variant} {word!r}", img))
    return out


def blob(cv2, img, pad_to):
    """PaddleOCR's input: height 48, the width kept in proportion (at most 1200), (x/255 - 0.5)/0.5
    in BGR, zeros on the right up to `pad_to` columns."""
    h, w = img.shape[:2]
    rw = max(8, min(1200, math.ceil(HEIGHT * w / h)))
    r = (cv2.resize(img, (rw, HEIGHT)).astype(np.float32) / 255 - 0.5) / 0.5
    b = np.zeros((1, 3, HEIGHT, max(rw, pad_to)), np.float32)
    b[0, :, :, :rw] = r.transpose(2, 0, 1)
    return b


def decode(p, keys):
    best = p[0].argmax(1)
    text, previous = [], 0
    for c in best:
        if c != previous and c != 0:
            text.append(keys[c])
        previous = c
    return "".join(text)


def worker(runtime, source, inputs, outputs):
    """`source`'s output for each blob of `inputs` under `runtime` (onnxruntime or openvino)."""
    data = np.load(inputs)
    if runtime == "onnxruntime":
        import onnxruntime as ort
        session = ort.InferenceSession(source, providers=["CPUExecutionProvider"])
        name = session.get_inputs()[0].name
        run = lambda b: session.run(None, {name: b})[0]
    else:
        import openvino as ov
        # FrameOCR's properties (Sources/CFrameOCRMedia/openvino/runtime.cpp).
        compiled = ov.Core().compile_model(source, "CPU", {
            "INFERENCE_PRECISION_HINT": "f32", "ENABLE_CPU_PINNING": "NO", "NUM_STREAMS": "1"})
        request = compiled.create_infer_request()
        run = lambda b: request.infer([b])[0].copy()
    np.savez(outputs, **{k: run(data[k]) for k in data.files})


def outputs(python, runtime, model, blobs):
    """`model`'s outputs under `runtime` for each named blob: this script run as its worker in
    `python`, the blobs passed through a temporary .npz."""
    with tempfile.TemporaryDirectory() as tmp:
        inputs, results = os.path.join(tmp, "in.npz"), os.path.join(tmp, "out.npz")
        np.savez(inputs, **blobs)
        subprocess.run([python, os.path.abspath(__file__), "--model", model, "--worker", runtime, inputs, results],
                       check=True)
        return dict(np.load(results))


def classifier_blob(cv2, img):
    """PP-OCR's classifier input: 48 rows, at most 192 columns, normalized as the recognizer's,
    zeros on the right up to 192."""
    h, w = img.shape[:2]
    rw = max(1, min(192, math.ceil(HEIGHT * w / h)))
    r = (cv2.resize(img, (rw, HEIGHT)).astype(np.float32) / 255 - 0.5) / 0.5
    b = np.zeros((1, 3, HEIGHT, 192), np.float32)
    b[0, :, :, :rw] = r.transpose(2, 0, 1)
    return b


def check_classifier(cv2, args):
    """The text-angle classifier under OpenVINO against onnxruntime: the same class (upright or
    180°) and probabilities within 1e-4 on every crop, upright and turned 180°, or the check fails."""
    blobs = {}
    for name, img in crops(cv2):
        blobs[f"{name} 0"] = classifier_blob(cv2, img)
        blobs[f"{name} 180"] = classifier_blob(cv2, cv2.rotate(img, cv2.ROTATE_180))
    reference = outputs(args.worker_python, "onnxruntime", args.classifier, blobs)
    ours = outputs(args.worker_python, "openvino", args.classifier, blobs)
    differ, worst = [], 0.0
    for k in blobs:
        got, want = ours[k], reference[k]
        if got.shape != want.shape:
            differ.append(f"{k}: output {got.shape}, onnxruntime {want.shape}")
            continue
        worst = max(worst, float(np.abs(got - want).max()))
        if got.argmax() != want.argmax() or np.abs(got - want).max() > 1e-4:
            differ.append(f"{k}: OpenVINO {got.ravel()}, onnxruntime {want.ravel()}")
    print(f"text-angle classifier: {len(blobs) - len(differ)} of {len(blobs)} crops classified alike; "
          f"largest probability difference {worst:.1e}")
    if differ:
        print("\n".join(differ))
        sys.exit(1)


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--model")
    a.add_argument("--keys")
    a.add_argument("--worker-python")
    a.add_argument("--classifier")
    a.add_argument("--worker", nargs=3)
    args = a.parse_args()
    if args.worker:
        return worker(args.worker[0], args.model, *args.worker[1:])
    import cv2
    if args.classifier:
        check_classifier(cv2, args)
    keys = [""] + open(args.keys, encoding="utf-8").read().split("\n")[:-1] + [" "]
    blobs = {}
    for name, img in crops(cv2):
        for pad_to in (0, 320):
            blobs[f"{name} w{pad_to}"] = blob(cv2, img, pad_to)
    # Wide lines, beyond the widths drawn: a crop tiled up to 1200 columns, and the narrowest input.
    blobs["tiled w0"] = np.tile(blobs[next(iter(blobs))], (1, 1, 1, 12))[:, :, :, :1200].copy()
    blobs["narrowest w0"] = blobs[next(iter(blobs))][:, :, :, :8].copy()
    reference = outputs(args.worker_python, "onnxruntime", args.model, blobs)
    ours = outputs(args.worker_python, "openvino", args.model, blobs)
    differ, worst = [], 0.0
    for k in blobs:
        got, want = ours[k], reference[k]
        if got.shape != want.shape:
            differ.append(f"{k}: output {got.shape}, onnxruntime {want.shape}")
            continue
        worst = max(worst, float(np.abs(got - want).max()))
        if decode(got, keys) != decode(want, keys):
            differ.append(f"{k}: OpenVINO reads {decode(got, keys)!r}, onnxruntime {decode(want, keys)!r}")
    print(f"text recognizer: {len(blobs) - len(differ)} of {len(blobs)} crops decoded alike under OpenVINO and "
          f"onnxruntime (widths {min(b.shape[3] for b in blobs.values())}-{max(b.shape[3] for b in blobs.values())}); "
          f"largest probability difference {worst:.1e}")
    if differ:
        print("\n".join(differ))
        sys.exit(1)


if __name__ == "__main__":
    main()
