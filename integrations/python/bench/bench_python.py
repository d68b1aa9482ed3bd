#!/usr/bin/env python3
"""Benchmark of the Python package: the clean corpus folders from numpy arrays, against the CLI,
pytesseract and tesserocr, in the same run; and raw frames against encoded PNG.

    bench_python.py [--data DIR] [--frameocr PATH] [--runs N] [--workers N] [--psm N]
                    [--limit N] [--peer-python PATH] [--pytesseract-threads N]
                    [--no-pytesseract] [--no-tesserocr] [--no-auto] [--frame-rounds N]
                    [--json FILE]

Prints one JSON object (and writes it to --json FILE when given). The images: every image with
an ``X.gt.txt`` beside it under DATA/{tesseract-test, uw3-lines, pytesseract, tesseract-js} (the
folders frameocr-bench's Ray and HTTP rows read), decoded once with Pillow into the arrays a
camera or OpenCV user holds: gray (``H×W``) for gray files, BGR (``H×W×3``) for colour ones, BGRA
(``H×W×4``) where the file has an alpha channel that is opaque everywhere; an alpha channel that
is not is flattened onto white, as ``frameocr`` does when it reads the file, so that both sides
read the same pixels. A JPEG's EXIF orientation goes with the array as the ``orientation``
option. Sides, each a whole batch per round, interleaved round by round, all with
OMP_THREAD_LIMIT=1:

- ``cli``: ``frameocr recognize --from LIST --format jsonl --jobs WORKERS`` (the reference: its
  text is what every other side is compared with; its time includes its start);
- ``package``: ``frameocr.Reader(workers=WORKERS)`` from the arrays (raw pixels, protocol 2), one
  thread submitting with WORKERS requests in flight; the reader is started (and its engines
  loaded) before the clock starts, its start measured apart (``startSeconds``);
- ``packagePNG``: the same arrays encoded as PNG in Python (Pillow, compress_level 1) and sent
  as image bytes: the cost of encoding against raw frames;
- ``pytesseract``: ``pytesseract.image_to_string(array, config="--psm PSM")`` on the same
  arrays (upright), one call at a time as it is used (``--pytesseract-threads N``: N at a time;
  each call writes the array as a PNG and starts the ``tesseract`` command);
- ``tesserocr``: in the venv ``make tesserocr`` builds (.build/peers/venv), WORKERS threads with
  one ``PyTessBaseAPI(lang="eng", psm=PSM)`` each, ``SetImageBytes`` with the same pixels (upright,
  RGB order), ``GetUTF8Text``; engines made and warmed before the clock.

The peers use PSM 6 (``--psm``; FrameOCR's default, which its automatic mode may change per
image). ``--no-auto``: the CLI and the package read with ``--no-auto --psm PSM`` too, the peers'
work (no automatic preprocessing, no orientation detection, no second readings). ``frame1080p``: a 1920×1080 BGRA frame (the fixture page pasted in) read in a region of
640×480, ``--frame-rounds`` times each way: raw (no copy in Python) against PNG-encoded.

Output keys: ``data``, ``images``, ``folders`` (images per folder), ``skipped``, ``workers``,
``runs``, ``psm``, ``noAuto``, ``frameocr``; per side (``cli``, ``package``, ``packagePNG``, ``pytesseract``,
``tesserocr``): ``seconds`` (median over runs), ``runsSeconds``, ``imagesPerSecond``,
``sameText`` (share of images whose text is the CLI's, exact), ``sameWords`` (the same after
whitespace is collapsed), ``mismatched`` (paths, first 20); ``package`` also ``startSeconds``,
``ratioToCLI`` (CLI seconds ÷ package seconds: ≥ 1 is as fast), ``copies`` (arrays the package had
to copy: 0 expected); ``packagePNG`` also ``encodeSeconds`` and ``ratioToRaw`` (raw seconds ÷ PNG
seconds); the peers ``packageSpeedup`` (their seconds ÷ the package's), ``threads``, or
``missing`` (why the side did not run). ``frame1080p``: ``rawMs``, ``pngMs`` (encode + request),
``pngEncodeMs``, ``rawWorkerMs`` and ``pngWorkerMs`` (the worker's own ``ms``), ``rawBytes``,
``pngBytes``, ``pythonCopies``, ``sameText``; all medians.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import io
import json
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
CLEAN = ("tesseract-test", "uw3-lines", "pytesseract", "tesseract-js")
EXTENSIONS = {"png", "tif", "tiff", "jpg", "jpeg", "bmp", "pbm", "pgm", "ppm", "pnm", "webp", "gif", "jp2"}


# ------------------------------------------------------------------ tesserocr side (peer venv)

def tesserocr_child(dump: str, threads: int, psm: int, lang: str) -> int:
    """Runs in the tesserocr venv (stdlib and tesserocr only): the frames from ``dump``, WORKERS
    engines, one batch; prints {"seconds", "texts", "setupSeconds", "tesserocr", "tesseract"}."""
    import tesserocr
    from tesserocr import PyTessBaseAPI

    frames = []
    with open(dump, "rb") as f:
        while True:
            head = f.read(16)
            if not head:
                break
            w, h, bpp, n = struct.unpack("<4I", head)
            frames.append((f.read(n), w, h, bpp))
    t0 = time.perf_counter()
    apis = [PyTessBaseAPI(lang=lang, psm=psm) for _ in range(threads)]

    def read(api, frame):
        data, w, h, bpp = frame
        api.SetImageBytes(data, w, h, bpp, w * bpp)
        api.SetSourceResolution(300)
        return api.GetUTF8Text()

    for api in apis:
        read(api, frames[0])
    setup = time.perf_counter() - t0
    texts = [""] * len(frames)

    def work(api, i):
        texts[i] = read(api, frames[i])

    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from tesserocr_peer import on_engines  # the peer's own queue of engines on threads

    seconds = on_engines(apis, len(frames), work)
    for api in apis:
        api.End()
    print(json.dumps({"seconds": seconds, "texts": texts, "setupSeconds": setup, "tesserocr": tesserocr.__version__,
                      "tesseract": tesserocr.tesseract_version().split()[1]}))
    return 0


# ------------------------------------------------------------------ the images

def clean_images(data: str) -> tuple[list[str], dict[str, int]]:
    """The clean folders' images with ground truth, folder by folder, sorted by (folder, path)."""
    images: list[str] = []
    counts: dict[str, int] = {}
    for name in CLEAN:
        top = os.path.join(data, name)
        if not os.path.isdir(top):
            continue
        found = []
        for root, dirs, files in os.walk(top):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            for f in files:
                stem, _, ext = f.rpartition(".")
                if f.startswith(".") or ext.lower() not in EXTENSIONS:
                    continue
                if os.path.isfile(os.path.join(root, stem + ".gt.txt")):
                    found.append((os.path.relpath(root, data), os.path.join(root, f)))
        found.sort()
        images += [p for _, p in found]
        counts[name] = len(found)
    return images, counts


def load(path: str):
    """(the array a camera or OpenCV user holds, its EXIF orientation or None, the upright array
    in RGB order for the peers, bytes per pixel of that)."""
    import numpy as np
    from PIL import Image

    with Image.open(path) as im:
        im.load()
        orientation = im.getexif().get(274) if im.format == "JPEG" else None
        if orientation == 1:
            orientation = None
        mode = im.mode
        if mode == "P":
            palette = im.convert("RGBA")
            rgba = np.asarray(palette)
            gray = bool((rgba[..., 0] == rgba[..., 1]).all() and (rgba[..., 1] == rgba[..., 2]).all())
            im2 = palette.convert("LA") if gray else palette
        elif mode in ("1", "L", "I;16", "I"):
            im2 = im.convert("L") if mode != "I;16" else Image.fromarray((np.asarray(im) / 257).round().astype(np.uint8))
        elif mode in ("LA", "RGBA", "RGB"):
            im2 = im
        else:
            im2 = im.convert("RGB")
        a = np.asarray(im2)
        if a.ndim == 3 and a.shape[2] in (2, 4):
            alpha = a[..., -1]
            if (alpha == 255).all():
                a = a[..., :-1] if a.shape[2] == 2 else a
            else:  # flattened onto white, as frameocr's file loader does
                c = a[..., :-1].astype(np.uint32)
                al = alpha[..., None].astype(np.uint32)
                a = np.rint((c * al + 255 * (255 - al)) / 255).astype(np.uint8)
        if a.ndim == 3 and a.shape[2] == 1:
            a = a[..., 0]
        if a.ndim == 3:
            frame = np.ascontiguousarray(a[..., [2, 1, 0, 3][:a.shape[2]]])   # RGB(A) → BGR(A)
            peer = a
        else:
            frame = np.ascontiguousarray(a)
            peer = frame
        if orientation:
            peer = _upright(peer, orientation)  # the peers have no orientation option: upright pixels
        return frame, orientation, np.ascontiguousarray(peer)


def _upright(a, orientation: int):
    import numpy as np
    ops = {2: lambda x: x[:, ::-1], 3: lambda x: x[::-1, ::-1], 4: lambda x: x[::-1],
           5: lambda x: np.swapaxes(x, 0, 1), 6: lambda x: np.rot90(x, -1), 7: lambda x: np.rot90(x, 1)[::-1],
           8: lambda x: np.rot90(x, 1)}
    return ops.get(orientation, lambda x: x)(a)


def words(text: str) -> str:
    return " ".join(text.split())


def compare(paths: list[str], texts: list[str], reference: dict[str, str]) -> dict:
    same = [reference.get(p) == t.rstrip() for p, t in zip(paths, texts)]
    same_words = [words(reference.get(p) or "") == words(t) for p, t in zip(paths, texts)]
    return {"sameText": sum(same) / len(paths), "sameWords": sum(same_words) / len(paths),
            "mismatched": [p for p, s in zip(paths, same) if not s][:20]}


# ------------------------------------------------------------------ the sides

def run_cli(frameocr: str, listing: str, workers: int, out: str, env: dict, extra: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([frameocr, "recognize", "--from", listing, "--format", "jsonl", "--jobs", str(workers),
                    "--output", out, *extra], env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def cli_texts(out: str) -> dict[str, str]:
    texts = {}
    with open(out, encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            texts[row["file"]] = row.get("text", "")
    return texts


def run_package(reader, items) -> tuple[float, list[str]]:
    start = time.perf_counter()
    futures = [reader.submit(frame, **({"orientation": str(o)} if o else {})) for frame, o, _ in items]
    texts = []
    for f in futures:
        try:
            texts.append(f.result().text)
        except Exception as error:  # noqa: BLE001 - counted as a mismatch
            texts.append(f"<{error}>")
    return time.perf_counter() - start, texts


def encode_png(frame) -> bytes:
    from PIL import Image
    if frame.ndim == 3:
        frame = frame[..., [2, 1, 0, 3][:frame.shape[2]]]   # BGR(A) → RGB(A), as Pillow takes it
    buf = io.BytesIO()
    Image.fromarray(frame).save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


def run_package_png(reader, items) -> tuple[float, float, list[str]]:
    start = time.perf_counter()
    encode = 0.0
    futures = []
    for frame, o, _ in items:
        t = time.perf_counter()
        data = encode_png(frame)
        encode += time.perf_counter() - t
        futures.append(reader.submit(data, **({"orientation": str(o)} if o else {})))
    texts = []
    for f in futures:
        try:
            texts.append(f.result().text)
        except Exception as error:  # noqa: BLE001
            texts.append(f"<{error}>")
    return time.perf_counter() - start, encode, texts


def run_pytesseract(items, workers: int, psm: int) -> tuple[float, list[str]]:
    import pytesseract
    start = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        texts = list(pool.map(lambda item: pytesseract.image_to_string(item[2], config=f"--psm {psm}"), items))
    return time.perf_counter() - start, texts


def write_dump(items, path: str) -> None:
    with open(path, "wb") as f:
        for _, _, peer in items:
            h, w = peer.shape[:2]
            bpp = 1 if peer.ndim == 2 else peer.shape[2]
            data = peer.tobytes()
            f.write(struct.pack("<4I", w, h, bpp, len(data)))
            f.write(data)


def run_tesserocr(python: str, dump: str, workers: int, psm: int, env: dict) -> dict:
    out = subprocess.run([python, os.path.abspath(__file__), "--tesserocr-child", dump, "--workers", str(workers),
                          "--psm", str(psm)], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"tesserocr side failed: {out.stderr.strip()[-500:]}")
    return json.loads(out.stdout)


def frame_1080p(reader, rounds: int) -> dict:
    """A 1920×1080 BGRA frame with the fixture page at (200, 100), read in that 640×480 region,
    raw and as PNG, ``rounds`` times each after a warm-up."""
    import numpy as np
    from frameocr.frames import frame_payload

    page, _, _ = load(os.path.join(ROOT, "Tests", "FrameOCRTests", "Fixtures", "testocr.png"))
    frame = np.full((1080, 1920, 4), 255, np.uint8)
    frame[100:580, 200:840, :3] = page
    roi = (200, 100, 640, 480)
    _, payload, copied = frame_payload(frame)
    raw, png, enc, raw_worker, png_worker = [], [], [], [], []
    texts = set()
    png_bytes = 0
    for i in range(rounds + 1):
        t = time.perf_counter()
        r = reader.recognize(frame, roi=roi)
        t1 = time.perf_counter()
        data = encode_png(frame)
        t2 = time.perf_counter()
        p = reader.recognize(data, roi=roi)
        t3 = time.perf_counter()
        png_bytes = len(data)
        texts.add((r.text, p.text))
        if i == 0:
            continue
        raw.append((t1 - t) * 1000)
        png.append((t3 - t1) * 1000)
        enc.append((t2 - t1) * 1000)
        raw_worker.append(r.elapsed_ms)
        png_worker.append(p.elapsed_ms)
    med = statistics.median
    return {"rounds": rounds, "rawMs": med(raw), "pngMs": med(png), "pngEncodeMs": med(enc),
            "rawWorkerMs": med(raw_worker), "pngWorkerMs": med(png_worker), "rawBytes": payload.nbytes,
            "pngBytes": png_bytes, "pythonCopies": int(copied), "sameText": len(texts) == 1 and
            all(a == b for a, b in texts)}


# ------------------------------------------------------------------ main

def side(seconds: list[float], n: int) -> dict:
    s = statistics.median(seconds)
    return {"seconds": s, "runsSeconds": seconds, "imagesPerSecond": n / s}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=os.path.join(ROOT, "..", "shared", "data"))
    ap.add_argument("--frameocr", default=os.environ.get("FRAMEOCR") or os.path.join(ROOT, ".build", "release", "frameocr"))
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--psm", type=int, default=6, help="the peers' page segmentation mode (default 6)")
    ap.add_argument("--limit", type=int, default=0, help="only the first N images (0: all)")
    ap.add_argument("--peer-python", default=os.path.join(ROOT, ".build", "peers", "venv", "bin", "python"))
    ap.add_argument("--pytesseract-threads", type=int, default=1,
                    help="pytesseract calls at a time (default 1, as it is used)")
    ap.add_argument("--no-pytesseract", action="store_true")
    ap.add_argument("--no-tesserocr", action="store_true")
    ap.add_argument("--no-auto", action="store_true", help="CLI and package: --no-auto --psm PSM, as the peers")
    ap.add_argument("--frame-rounds", type=int, default=10)
    ap.add_argument("--json", default=None, help="also write the JSON to this file")
    ap.add_argument("--tesserocr-child", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.tesserocr_child:
        return tesserocr_child(a.tesserocr_child, a.workers, a.psm, "eng")

    sys.path.insert(0, os.path.join(ROOT, "integrations", "python", "src"))  # the tree's package first
    import frameocr

    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    os.environ["OMP_THREAD_LIMIT"] = "1"
    data = os.path.abspath(a.data)
    paths, counts = clean_images(data)
    if a.limit:
        paths = paths[:a.limit]
    if not paths:
        print(json.dumps({"error": f"no clean folder ({', '.join(CLEAN)}) under {data}"}))
        return 1
    items, kept, skipped = [], [], []
    for p in paths:
        try:
            items.append(load(p))
            kept.append(p)
        except Exception as error:  # noqa: BLE001 - reported in the output
            skipped.append(f"{p}: {error}")
    paths, n = kept, len(kept)
    scratch = tempfile.mkdtemp(prefix="frameocr-bench-python-")
    listing = os.path.join(scratch, "images.txt")
    with open(listing, "w", encoding="utf-8") as f:
        f.write("\n".join(paths) + "\n")
    cli_out = os.path.join(scratch, "cli.jsonl")
    report: dict = {"data": data, "images": n, "folders": counts, "skipped": skipped, "workers": a.workers,
                    "runs": a.runs, "psm": a.psm, "frameocr": a.frameocr}

    t = time.perf_counter()
    same_work = {"no_auto": True, "psm": a.psm} if a.no_auto else {}
    report["noAuto"] = a.no_auto
    reader = frameocr.Reader(workers=a.workers, executable=a.frameocr, **same_work)
    reader.recognize(items[0][0])  # engines loaded, protocol asked
    start_seconds = time.perf_counter() - t
    copies = sum(frameocr.frames.frame_payload(frame)[2] for frame, _, _ in items)

    pyt_missing = "--no-pytesseract" if a.no_pytesseract else None
    if pyt_missing is None:
        try:
            import pytesseract
            pytesseract.get_tesseract_version()
        except Exception as error:  # noqa: BLE001
            pyt_missing = f"pytesseract: {error}"
    tro_missing = "--no-tesserocr" if a.no_tesserocr else None
    if tro_missing is None and not os.access(a.peer_python, os.X_OK):
        tro_missing = f"no {a.peer_python} (make tesserocr builds it)"
    dump = os.path.join(scratch, "frames.bin")
    if tro_missing is None:
        write_dump(items, dump)

    times: dict[str, list[float]] = {k: [] for k in ("cli", "package", "packagePNG", "pytesseract", "tesserocr")}
    encode_seconds: list[float] = []
    texts: dict[str, list[str]] = {}
    tro_info: dict = {}
    for _ in range(a.runs):
        extra = ["--no-auto", "--psm", str(a.psm)] if a.no_auto else []
        times["cli"].append(run_cli(a.frameocr, listing, a.workers, cli_out, env, extra))
        seconds, texts["package"] = run_package(reader, items)
        times["package"].append(seconds)
        seconds, encode, texts["packagePNG"] = run_package_png(reader, items)
        times["packagePNG"].append(seconds)
        encode_seconds.append(encode)
        if pyt_missing is None:
            seconds, texts["pytesseract"] = run_pytesseract(items, a.pytesseract_threads, a.psm)
            times["pytesseract"].append(seconds)
        if tro_missing is None:
            try:
                tro_info = run_tesserocr(a.peer_python, dump, a.workers, a.psm, env)
                times["tesserocr"].append(tro_info["seconds"])
                texts["tesserocr"] = tro_info["texts"]
            except (RuntimeError, ValueError) as error:
                tro_missing = str(error)
    reference = cli_texts(cli_out)
    report["cli"] = side(times["cli"], n)
    package = side(times["package"], n)
    package.update(compare(paths, texts["package"], reference), startSeconds=start_seconds,
                   ratioToCLI=report["cli"]["seconds"] / package["seconds"], copies=copies)
    report["package"] = package
    png = side(times["packagePNG"], n)
    png.update(compare(paths, texts["packagePNG"], reference), encodeSeconds=statistics.median(encode_seconds),
               ratioToRaw=package["seconds"] / png["seconds"])
    report["packagePNG"] = png
    for name, missing in (("pytesseract", pyt_missing), ("tesserocr", tro_missing)):
        if missing is not None or not times[name]:
            report[name] = {"missing": missing or "did not run"}
            continue
        peer = side(times[name], n)
        threads = a.pytesseract_threads if name == "pytesseract" else a.workers
        peer.update(compare(paths, texts[name], reference), threads=threads, psm=a.psm,
                    packageSpeedup=peer["seconds"] / package["seconds"])
        if name == "tesserocr":
            peer.update(setupSeconds=tro_info.get("setupSeconds"), version=tro_info.get("tesserocr"),
                        tesseract=tro_info.get("tesseract"))
        report[name] = peer
    report["frame1080p"] = frame_1080p(reader, a.frame_rounds)
    reader.close()
    text = json.dumps(report, indent=2, ensure_ascii=False)
    print(text)
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
