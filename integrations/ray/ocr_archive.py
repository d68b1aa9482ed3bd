#!/usr/bin/env python3
"""OCR of an archive of images on Ray Data with FrameOCR.

    ocr_archive.py INPUTS… OUTPUT [--actors N] [--batch-size N] [--option KEY=VALUE]…
                   [--address auto] [--frameocr PATH]

INPUTS: folders (searched recursively for images), globs (quoted: "scans/**/*.png") or text files
with one path per line (``.txt``/``.lst``). OUTPUT: ``.jsonl`` (one file, rows as they come) or
``.parquet`` (a folder of Parquet files, Ray's own writer). Every row holds ``path``, ``text``,
``confidence``, ``error`` and ``result`` (the recognize command's JSON). A failing image is an
error row; the run still succeeds. See docs/scale-out.md.
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from frameocr_ray import FrameOCR  # noqa: E402

IMAGE_EXTENSIONS = {".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".pgm", ".ppm", ".pnm", ".webp", ".gif"}


def expand(inputs: list[str]) -> list[str]:
    """The image paths of folders, globs and list files, in order, each once."""
    paths: list[str] = []
    for item in inputs:
        if os.path.isdir(item):
            for root, _, files in os.walk(item):
                paths += [os.path.join(root, f) for f in sorted(files)
                          if os.path.splitext(f)[1].lower() in IMAGE_EXTENSIONS]
        elif os.path.isfile(item) and os.path.splitext(item)[1].lower() in {".txt", ".lst"}:
            with open(item, encoding="utf-8") as f:
                paths += [line.strip() for line in f if line.strip()]
        elif any(c in item for c in "*?["):
            paths += sorted(glob.glob(item, recursive=True))
        elif os.path.isfile(item):
            paths.append(item)
        else:
            raise SystemExit(f"ocr_archive.py: {item}: no such file, folder or glob match")
    seen: set[str] = set()
    return [p for p in paths if not (p in seen or seen.add(p))]


def option(text: str) -> tuple[str, object]:
    key, _, value = text.partition("=")
    try:
        parsed = json.loads(value)  # numbers, true/false, [x,y,w,h]
    except ValueError:
        parsed = value
    return key, parsed


def record_line(row) -> str:
    """One JSON Lines record: path, text, confidence (null for NaN), error, and the result the
    worker wrote, spliced in as it came rather than decoded and encoded again (tens of KB)."""
    c = row["confidence"]
    head = json.dumps({"path": row["path"], "text": row["text"],
                       "confidence": None if c is None or (isinstance(c, float) and math.isnan(c)) else c,
                       "error": row["error"]}, ensure_ascii=False)
    return head[:-1] + ', "result": ' + (row["result"] or "null") + "}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="+", help="folders, globs or list files, then OUTPUT")
    ap.add_argument("--actors", type=int, default=2, help="FrameOCR workers (Ray actors), default 2")
    ap.add_argument("--batch-size", type=int, default=4, help="images per batch sent to an actor (default 4: small batches keep both actors busy to the end)")
    ap.add_argument("--option", action="append", default=[], type=option,
                    help="a recognize option as the protocol's KEY=VALUE, e.g. psm=6 noAuto=true")
    ap.add_argument("--address", default=None, help='a Ray cluster to join ("auto"); default: start one here')
    ap.add_argument("--num-cpus", type=int, default=None, help="CPUs of the local Ray instance")
    ap.add_argument("--frameocr", default=None, help="the frameocr binary (default $FRAMEOCR, then PATH)")
    ap.add_argument("--summary", default=None,
                    help="also write {images, errors, seconds, initSeconds} as JSON to this file (the benchmark's)")
    args = ap.parse_args(argv)
    if len(args.inputs) < 2:
        ap.error("give INPUTS… and OUTPUT")
    *inputs, output = args.inputs
    if not (output.endswith(".jsonl") or output.endswith(".parquet")):
        ap.error("OUTPUT must end in .jsonl or .parquet")
    paths = expand(inputs)
    if not paths:
        raise SystemExit("ocr_archive.py: no images found")

    import ray

    import frameocr_ray
    import frameocr  # the Python package (integrations/python), found by frameocr_ray

    # Both packages travel to every worker node with the job; the frameocr binary must be on each
    # node (its PATH, or $FRAMEOCR, which is passed on).
    env = {"PYTHONUNBUFFERED": "1"}
    for name in ("FRAMEOCR", "OMP_THREAD_LIMIT", "TESSDATA_PREFIX"):
        if os.environ.get(name):
            env[name] = os.environ[name]
    runtime_env = {"py_modules": [frameocr_ray, frameocr], "env_vars": env}
    init_start = time.monotonic()
    if args.address:
        ray.init(address=args.address, log_to_driver=False, runtime_env=runtime_env)
    else:
        ray.init(num_cpus=args.num_cpus or args.actors, include_dashboard=False, log_to_driver=False,
                 runtime_env=runtime_env)
    ray.data.DataContext.get_current().enable_progress_bars = False
    start = time.monotonic()
    init_seconds = start - init_start
    ds = ray.data.from_items([{"path": p} for p in paths])
    ds = ds.map_batches(FrameOCR, compute=ray.data.ActorPoolStrategy(size=args.actors),
                        batch_size=args.batch_size, num_cpus=1,
                        fn_constructor_kwargs={"executable": args.frameocr, "options": dict(args.option)})
    errors = 0
    if output.endswith(".jsonl"):
        with open(output, "w", encoding="utf-8") as f:
            for row in ds.iter_rows():
                errors += row["error"] is not None
                f.write(record_line(row) + "\n")
    else:
        ds = ds.materialize()
        errors = ds.filter(lambda r: r["error"] is not None).count()
        ds.write_parquet(output)
    seconds = time.monotonic() - start
    if args.summary:
        with open(args.summary, "w") as f:
            json.dump({"images": len(paths), "errors": errors, "seconds": seconds, "initSeconds": init_seconds}, f)
    print(f"ocr_archive.py: {len(paths)} images, {errors} errors, {seconds:.1f} s "
          f"({len(paths) / seconds:.2f} images/s) -> {output}", file=sys.stderr)
    ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
