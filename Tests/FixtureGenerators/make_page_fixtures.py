#!/usr/bin/env python3
"""Writes the page fixtures of DocumentReadingTests.swift into Tests/FrameOCRTests/Fixtures/:
inputs made for this project (no third-party content), text drawn with OpenCV's cv2.putText in
the Hershey Duplex font.

    pip install opencv-python-headless numpy     # or Debian's python3-opencv
    python3 Tests/FixtureGenerators/make_page_fixtures.py

uneven-light.png (1100×420, gray): five pangram lines (scale 0.9, thickness 2, baselines at
y = 70, 145, 220, 295, 370 from x = 30) on paper lit from the left: the paper's brightness falls
from 250 at the left edge to 80 at the right as 250 − 170·(x/W)^1.5, and the ink is 45 levels
darker than the paper under it (anti-aliased edges blended). One Otsu threshold keeps only the
right half of each line; a local threshold (Sauvola) keeps all of it. uneven-light.gt.txt holds
the five lines.

boxed-form.png (1000×760, gray): a receipt-like form — a heading (scale 0.9, thickness 2, at
(40, 50)) and ten rows of a label at x = 40 (scale 0.7) and a value in a 200×35 box at
x = 700…900 (the value at x = 720) whose baseline is moved by a fixed pseudo-random −12…12 px
from the label's (numpy's default_rng(0)); rows 62 px apart from y = 120. Read as one block,
the boxes and the uneven baselines break Tesseract's lines; read as sparse text, the labels come
back. boxed-form.gt.txt holds the heading, then each label and its value on a line; the label
boxes are listed in boxed-form.boxes.tsv (text, x, y, width, height in pixels: cv2.getTextSize
of each label at its origin) for the box test.
"""
import os

import cv2
import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "..", "FrameOCRTests", "Fixtures")
FONT = cv2.FONT_HERSHEY_DUPLEX


def uneven_light():
    w, h = 1100, 420
    lines = ["THE QUICK BROWN FOX JUMPS OVER THE DOG", "PACK MY BOX WITH FIVE DOZEN LIQUOR JUGS",
             "SPHINX OF BLACK QUARTZ JUDGE MY VOW", "HOW VEXINGLY QUICK DAFT ZEBRAS JUMP",
             "THE FIVE BOXING WIZARDS JUMP QUICKLY"]
    ink = np.full((h, w), 255, np.uint8)
    for i, text in enumerate(lines):
        cv2.putText(ink, text, (30, 70 + 75 * i), FONT, 0.9, 0, 2, cv2.LINE_AA)
    x = np.linspace(0, 1, w)[None, :]
    paper = (250 - 170 * x ** 1.5) * np.ones((h, 1))
    a = ink.astype(np.float64) / 255  # 1: paper, 0: ink, between: the stroke's edge
    img = paper * a + (paper - 45) * (1 - a)
    cv2.imwrite(os.path.join(OUT, "uneven-light.png"), np.clip(img, 0, 255).astype(np.uint8),
                [cv2.IMWRITE_PNG_COMPRESSION, 9])
    with open(os.path.join(OUT, "uneven-light.gt.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


def boxed_form():
    rng = np.random.default_rng(0)
    w, h = 1000, 760
    img = np.full((h, w), 255, np.uint8)
    heading = "CORNER MARKET 118 MAIN STREET"
    cv2.putText(img, heading, (40, 50), FONT, 0.9, 0, 2, cv2.LINE_AA)
    rows = [("INVOICE NUMBER", "48213"), ("DATE", "12/02/2018"), ("CASHIER", "MARIA"), ("BREAD", "2.99"),
            ("MILK", "1.49"), ("APPLES", "4.47"), ("COFFEE", "7.80"), ("TOTAL", "16.75"), ("CASH", "20.00"),
            ("CHANGE", "3.25")]
    gt, boxes = [heading], []
    for i, (label, value) in enumerate(rows):
        y = 120 + 62 * i
        cv2.putText(img, label, (40, y), FONT, 0.7, 0, 1, cv2.LINE_AA)
        (tw, th), base = cv2.getTextSize(label, FONT, 0.7, 1)
        boxes.append((label, 40, y - th, tw, th + base))
        yb = y + int(rng.integers(-12, 13))
        cv2.putText(img, value, (720, yb), FONT, 0.7, 0, 1, cv2.LINE_AA)
        cv2.rectangle(img, (700, yb - 25), (900, yb + 10), 0, 1)
        gt.append(label + " " + value)
    cv2.imwrite(os.path.join(OUT, "boxed-form.png"), img, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    with open(os.path.join(OUT, "boxed-form.gt.txt"), "w") as f:
        f.write("\n".join(gt) + "\n")
    with open(os.path.join(OUT, "boxed-form.boxes.tsv"), "w") as f:
        f.write("".join(f"{t}\t{x}\t{y}\t{bw}\t{bh}\n" for t, x, y, bw, bh in boxes))


if __name__ == "__main__":
    uneven_light()
    boxed_form()
