#!/usr/bin/env python3
"""Writes lightbox-sign.png into Tests/FrameOCRTests/Fixtures/: a lightbox sign made for this
project (no third-party content) — three rows of tall, condensed, widely spaced capitals in
OpenCV's Hershey Duplex font on a white panel shaded towards one corner, with rails between the
rows, in front of a dark textured background with a dark object (a hand's stand-in) over the
panel's edge — the input of the text-line test in AutomaticPreprocessingTests.swift.

    pip install opencv-python-headless numpy
    python3 Tests/FixtureGenerators/make_sign_fixture.py
"""
import os
import sys

import cv2
import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "..", "FrameOCRTests", "Fixtures")
WORDS = ["OPEN", "DAILY", "COFFEE"]


def letter(ch, height):
    """One capital, black on white, `height` px tall and condensed to 0.35 of its height wide."""
    big = np.full((220, 220), 255, np.uint8)
    cv2.putText(big, ch, (20, 180), cv2.FONT_HERSHEY_DUPLEX, 5.0, 0, 16, cv2.LINE_AA)
    ys, xs = np.nonzero(big < 128)
    glyph = big[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    width = max(6, int(round(0.35 * height * glyph.shape[1] / glyph.shape[0] / 0.75)))
    return cv2.resize(glyph, (width, height), interpolation=cv2.INTER_AREA)


def sign():
    w, h = 960, 540
    rng = np.random.default_rng(7)
    # A dark, textured background (a sweater) and a darker table at the bottom.
    img = (45 + rng.normal(0, 12, (h, w))).clip(0, 255).astype(np.float32)
    img = cv2.GaussianBlur(img, (0, 0), 3)
    img[470:, :] = 30
    # The panel: white, darker towards the bottom left (light falls from the top right).
    x0, y0, x1, y1 = 60, 30, 700, 470
    yy, xx = np.mgrid[y0:y1, x0:x1]
    shade = 235 - 140 * ((yy - y0) / (y1 - y0)) * (1 - (xx - x0) / (x1 - x0))
    img[y0:y1, x0:x1] = shade
    rows = [(50, 175), (190, 315), (330, 455)]
    for top, bottom in rows:
        img[top - 5:top, x0:x1] = 70                  # the shadow of the rail above each row
        img[bottom:bottom + 15, x0:x1] = 250          # the rail
    for (top, bottom), word in zip(rows, WORDS):
        height = 100
        glyphs = [letter(c, height) for c in word]
        gap = int(0.45 * height)
        total = sum(g.shape[1] for g in glyphs) + gap * (len(glyphs) - 1)
        x = x0 + 80 + (x1 - x0 - 160 - total) // 2
        y = top + 3  # the letters' tops touch the shadow of the rail above
        for g in glyphs:
            region = img[y:y + height, x:x + g.shape[1]]
            region[:] = np.minimum(region, region * (g / 255.0) + 20 * (1 - g / 255.0))
            x += g.shape[1] + gap
    # A dark object over the panel's right edge, level with the rows.
    cv2.ellipse(img, (735, 300), (90, 60), -20, 0, 360, 55, -1)
    for k in range(4):
        cv2.ellipse(img, (660 + 12 * k, 255 + 28 * k), (45, 11), -10, 0, 360, 60 + 5 * k, -1)
    img = cv2.GaussianBlur(img, (0, 0), 0.8)
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(OUT, "lightbox-sign.png")
    cv2.imwrite(out, img.clip(0, 255).astype(np.uint8))


if __name__ == "__main__":
    sign()
