#!/usr/bin/env python3
"""Writes Sources/FrameOCREvaluation/corpus-split.tsv: every labelled image of the evaluation
corpus (../shared/data by default) in a tuning half or a held-out half, fixed once.

The rule: within each folder (the folder `frameocr eval` reports an image under, e.g.
`license-plates/crops`), images with an X.gt.txt beside them sorted by file name; even positions
(0, 2, 4, ...) are the tuning half, odd positions the held-out half. Run it again only when the
corpus gains folders: images already listed must keep their half (the script refuses to move one).

Usage: python3 tools/make_corpus_split.py [DATA_DIR]
"""
import os
import sys

IMAGE_EXTENSIONS = {"png", "tif", "tiff", "jpg", "jpeg", "bmp", "pgm", "ppm", "webp", "gif"}
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "Sources", "FrameOCREvaluation", "corpus-split.tsv")


def labelled(data):
    by_folder = {}
    for dirpath, dirnames, filenames in os.walk(data):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for name in filenames:
            stem, ext = os.path.splitext(name)
            if name.startswith(".") or ext[1:].lower() not in IMAGE_EXTENSIONS:
                continue
            if not os.path.exists(os.path.join(dirpath, stem + ".gt.txt")):
                continue
            folder = os.path.relpath(dirpath, data)
            by_folder.setdefault(folder, []).append(name)
    return by_folder


def main():
    data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "shared", "data")
    old = {}
    if os.path.exists(OUT):
        for line in open(OUT, encoding="utf-8"):
            if line.strip() and not line.startswith("#"):
                half, path = line.rstrip("\n").split("\t")
                old[path] = half
    rows = []
    for folder, names in sorted(labelled(data).items()):
        for i, name in enumerate(sorted(names)):
            path = f"{folder}/{name}"
            half = "tuning" if i % 2 == 0 else "held-out"
            if path in old and old[path] != half:
                sys.exit(f"{path}: listed as {old[path]}, the rule now says {half}; a listed image keeps its half")
            rows.append((old.get(path, half), path))
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("# The evaluation corpus split into a tuning half and a held-out half (issue 16), fixed.\n")
        f.write("# Written by tools/make_corpus_split.py: per folder, images sorted by name, even positions\n")
        f.write("# tuning, odd held-out. Thresholds are chosen on the tuning half only and checked on the\n")
        f.write("# held-out half. Columns: half<TAB>path relative to the corpus root (../shared/data).\n")
        for half, path in rows:
            f.write(f"{half}\t{path}\n")
    print(f"{len(rows)} images in {OUT}")


if __name__ == "__main__":
    main()
