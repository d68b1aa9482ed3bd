#!/usr/bin/env python3
"""Median CER of `frameocr recognize` and of the `tesseract` command over data folders.

Usage: scripts/compare-cer.py [--frameocr PATH] [--psm N] DIR...
Every image X.ext with X.gt.txt beside it is recognized by both; CER is the Levenshtein distance
over whitespace-normalized text divided by the reference length (as FrameOCR's TextMetrics).
The tesseract command runs with OMP_THREAD_LIMIT=1 (its fastest setting on a small machine).
"""
import argparse, os, statistics, subprocess, sys, time

EXTS = (".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".pgm", ".ppm", ".webp", ".gif")

def norm(s): return " ".join(s.split())

def lev(a, b):
    if not a: return len(b)
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]

def cer(h, r):
    h, r = norm(h), norm(r)
    return lev(h, r) / max(len(r), 1)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--frameocr", default=".build/release/frameocr")
    ap.add_argument("--psm", default=None, help="pass --psm to both (default: each tool's own default)")
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    rows = []
    files = []
    for top in a.dirs:
        for d, _, names in sorted(os.walk(top)):
            files += [(top, d, n) for n in sorted(names)]
    for top, d, name in files:
            base, ext = os.path.splitext(name)
            gt = os.path.join(d, base + ".gt.txt")
            if ext.lower() not in EXTS or not os.path.exists(gt): continue
            path = os.path.join(d, name)
            ref = open(gt, encoding="utf-8").read()
            psm = ["--psm", a.psm] if a.psm else []
            t0 = time.monotonic()
            ours = subprocess.run([a.frameocr, "recognize", path] + psm, capture_output=True, text=True)
            t1 = time.monotonic()
            theirs = subprocess.run(["tesseract", path, "-"] + psm, capture_output=True, text=True, env=env)
            t2 = time.monotonic()
            rows.append((os.path.basename(os.path.normpath(top)), os.path.relpath(path, top), cer(ours.stdout, ref) if ours.returncode == 0 else 1.0,
                         cer(theirs.stdout, ref) if theirs.returncode == 0 else 1.0, t1 - t0, t2 - t1))
    print(f"{'folder':16} {'image':34} {'frameocr':>9} {'tesseract':>9}")
    for r in rows: print(f"{r[0]:16} {r[1]:34} {r[2]:9.4f} {r[3]:9.4f}")
    for folder in sorted({r[0] for r in rows}) + ["ALL"]:
        sel = [r for r in rows if folder == "ALL" or r[0] == folder]
        print(f"{folder:16} n={len(sel):3}  median CER frameocr {statistics.median(r[2] for r in sel):.4f}  "
              f"tesseract {statistics.median(r[3] for r in sel):.4f}  "
              f"mean {statistics.mean(r[2] for r in sel):.4f} / {statistics.mean(r[3] for r in sel):.4f}")

if __name__ == "__main__":
    sys.exit(main())
