#!/usr/bin/env python3
"""tesserocr peer: the baseline `frameocr-bench` measures FrameOCR's batch recognition against.

The same work as the benchmark's FrameOCR side, done the way a Python user of tesserocr would do
it: N threads (default 2), one `PyTessBaseAPI(lang='eng', psm=PSM.SINGLE_BLOCK)` engine per
thread (tesserocr releases the GIL while Tesseract reads an image and recognizes it), the
source resolution set to 300 ppi, the images taken from one shared queue, largest first if the
caller lists them so. Run it with OMP_THREAD_LIMIT=1 in the environment (the bench does):
Debian's libtesseract otherwise starts OpenMP threads that fight the engines' own threads.

Python is used here, and only here, because the peer *is* a Python library; nothing of FrameOCR
depends on it. Build the venv with `make tesserocr` (tesserocr from PyPI source against Debian's
libtesseract 5.3.0, in .build/peers/venv).

Modes (`--mode`):
  iterate  Recognize(), then walk the result tree as FrameOCR does: every block, paragraph and
           line box, every line's confidence, every word's box, confidence and text (the text is
           the words joined: spaces between words, a newline between lines). The bench's row.
  text     GetUTF8Text() only: the text, no walk of the tree.

Usage:
  tesserocr_peer.py [--threads N] [--lang eng] [--psm 6] [--dpi 300] [--mode iterate|text]
                    [--rounds N] [--no-warmup] [--files-from LIST] FILE...
      Runs the batch --rounds times (after a warm-up recognition on each engine unless
      --no-warmup) and prints one JSON object: settings, each round's wall seconds (the batch
      only: engines are created and warmed before the clock starts), their median, and per
      image its text and word count.
  tesserocr_peer.py --serve [--threads N] … [--files-from LIST] FILE...
      For the bench: creates and warms the engines, prints one JSON line {"ready": true, …},
      then for each line it reads on stdin ("iterate" or "text") runs the batch once and prints
      one JSON line {"mode", "seconds", "texts", "errors"}; "quit" or end of input ends it.

The files are read by Leptonica (`SetImageFile`, i.e. pixRead). The bench hands it the 8-bit
gray PNGs of exactly the pixels FrameOCR gives Tesseract (see docs/benchmarks.md).
"""

import argparse
import json
import statistics
import sys
import threading
import time

try:
    import tesserocr
    from tesserocr import PSM, RIL, PyTessBaseAPI
except ImportError as error:  # the bench reads this line and says so in its note
    print(json.dumps({"ready": False, "error": f"cannot import tesserocr: {error}"}), flush=True)
    sys.exit(3)

# The levels FrameOCR's shim walks (focr_engine_recognize with includeSymbols false), outermost first.
LEVELS = (RIL.BLOCK, RIL.PARA, RIL.TEXTLINE, RIL.WORD)


def walk(api):
    """Walks the result tree as FrameOCR does; returns (text, word count).

    At each word: a block, paragraph or line that starts there gives its box (lines also their
    confidence); the word gives its box, confidence and text.
    """
    lines = []
    words = 0
    it = api.GetIterator()
    if it is None:
        return "", 0
    # The iterator is at its first word after Recognize(); an empty page has none.
    if it.Empty(RIL.WORD):
        return "", 0
    while True:
        for level in LEVELS:
            if level != RIL.WORD and not it.IsAtBeginningOf(level):
                continue
            box = it.BoundingBox(level)
            if box is None:
                continue
            if level == RIL.TEXTLINE:
                it.Confidence(level)
                lines.append([])
            elif level == RIL.WORD:
                it.Confidence(level)
                text = it.GetUTF8Text(level)
                if not lines:
                    lines.append([])
                lines[-1].append(text)
                words += 1
        if not it.Next(RIL.WORD):
            break
    return "\n".join(" ".join(w) for w in lines), words


def recognize(api, path, dpi, mode):
    """Reads `path` into `api` (Leptonica), recognizes it; returns (text, word count)."""
    api.SetImageFile(path)
    api.SetSourceResolution(dpi)
    if mode == "text":
        text = api.GetUTF8Text()
        return text, len(text.split())
    if not api.Recognize():
        raise RuntimeError(f"{path}: Recognize failed")
    return walk(api)


def on_engines(apis, count, work):
    """Runs `work(api, i)` for i in 0..<count, one thread per engine taking the next index from a
    shared counter (the queue); returns the wall seconds. Also the Python package's bench
    (integrations/python/bench/bench_python.py) runs its tesserocr side through it."""
    lock = threading.Lock()
    next_index = [0]

    def worker(api):
        while True:
            with lock:
                i = next_index[0]
                next_index[0] += 1
            if i >= count:
                return
            work(api, i)

    threads = [threading.Thread(target=worker, args=(api,)) for api in apis]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - start


def batch(apis, files, dpi, mode):
    """One batch over `files`, each engine on its own thread; returns (seconds, texts, words, errors)."""
    texts = [""] * len(files)
    words = [0] * len(files)
    errors = []
    lock = threading.Lock()

    def work(api, i):
        try:
            texts[i], words[i] = recognize(api, files[i], dpi, mode)
        except Exception as error:  # reported, never fatal: the bench counts it
            with lock:
                errors.append(f"{files[i]}: {error}")

    return on_engines(apis, len(files), work), texts, words, errors


def main():
    parser = argparse.ArgumentParser(description="tesserocr peer baseline for frameocr-bench")
    parser.add_argument("files", nargs="*")
    parser.add_argument("--files-from", help="a file with one image path per line")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--lang", default="eng")
    parser.add_argument("--psm", type=int, default=int(PSM.SINGLE_BLOCK))
    parser.add_argument("--dpi", type=int, default=300)
    parser.add_argument("--mode", choices=("iterate", "text"), default="iterate")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--no-warmup", action="store_true")
    parser.add_argument("--serve", action="store_true")
    a = parser.parse_args()
    files = list(a.files)
    if a.files_from:
        with open(a.files_from, encoding="utf-8") as f:
            files += [line.rstrip("\n") for line in f if line.strip()]
    if not files or a.threads < 1 or a.rounds < 1:
        parser.error("needs at least one file, --threads ≥ 1 and --rounds ≥ 1")

    t0 = time.perf_counter()
    apis = [PyTessBaseAPI(lang=a.lang, psm=a.psm) for _ in range(a.threads)]
    if not a.no_warmup:
        for api in apis:  # the first recognition on an engine sets up what later ones reuse
            recognize(api, files[0], a.dpi, a.mode)
    settings = {
        "peer": "tesserocr",
        "tesserocr": tesserocr.__version__,
        "tesseract": tesserocr.tesseract_version().split()[1],
        "threads": a.threads,
        "lang": a.lang,
        "psm": a.psm,
        "dpi": a.dpi,
        "images": len(files),
        "setupSeconds": time.perf_counter() - t0,
    }

    if a.serve:
        print(json.dumps({"ready": True, **settings}), flush=True)
        for line in sys.stdin:
            mode = line.strip()
            if mode in ("", "quit"):
                break
            if mode not in ("iterate", "text"):
                print(json.dumps({"error": f"unknown mode {mode!r}"}), flush=True)
                continue
            seconds, texts, _, errors = batch(apis, files, a.dpi, mode)
            print(json.dumps({"mode": mode, "seconds": seconds, "texts": texts, "errors": errors}), flush=True)
    else:
        rounds = []
        for _ in range(a.rounds):
            seconds, texts, words, errors = batch(apis, files, a.dpi, a.mode)
            rounds.append(seconds)
        report = {
            **settings,
            "mode": a.mode,
            "rounds": rounds,
            "seconds": statistics.median(rounds),
            "results": [{"file": f, "text": t, "words": w} for f, t, w in zip(files, texts, words)],
            "errors": errors,
        }
        print(json.dumps(report, ensure_ascii=False))
    for api in apis:
        api.End()
    return 0


if __name__ == "__main__":
    sys.exit(main())
