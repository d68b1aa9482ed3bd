#!/usr/bin/env python3
"""Writes the document-crop fixture used by DocumentCropTests.swift into Tests/FrameOCRTests/Fixtures/.

    python3 Tests/FixtureGenerators/make_document_fixture.py   # needs OpenCV's Python module and numpy

receipt-on-desk.png: an 800×600 gray photo-like frame: a dark textured desk (level about 70,
blotches of blurred noise ±25, a fine grain, a falloff towards the bottom right) with a white
receipt-like page (300×480, paper 238 falling to 214 towards its bottom) holding fourteen lines of
black text (cv2.putText, Hershey Duplex, scale 0.62, thickness 1, anti-aliased; each line's
baseline starts at x = 24, y as listed, in page pixels), the page turned 4° clockwise as
displayed about its center and placed with its center at (400, 300) (cv2.warpAffine, INTER_LINEAR,
composited with a mask turned the same way). A page point s lands at R(4°)·(s − c_page) + (400, 300).

receipt-on-desk.gt.txt is the text; receipt-on-desk.boxes.tsv lists, per word, `word x y width height`:
the bounding box, in frame pixels, of the word's drawn box (cv2.getTextSize, from the top of its
tallest letter to its baseline plus descent) turned with the page; its first line is `page x y
width height`, the bounding box of the turned page. The turn is made here, not by FrameOCR.
"""
import os

import cv2
import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "..", "FrameOCRTests", "Fixtures")
W, H = 800, 600
PW, PH = 300, 480
DEGREES = 4.0
CENTER = (400.0, 300.0)
FONT, SCALE, THICK = cv2.FONT_HERSHEY_DUPLEX, 0.62, 1
LINES = [
    (40, "HARBOR FOODS MARKET"),
    (70, "42 OCEAN AVE"),
    (115, "BREAD 3.49"),
    (145, "MILK 2.19"),
    (175, "EGGS 4.25"),
    (205, "APPLES 5.10"),
    (235, "COFFEE 8.75"),
    (265, "BUTTER 3.80"),
    (295, "CHEESE 6.30"),
    (325, "RICE 2.45"),
    (370, "SUBTOTAL 36.33"),
    (400, "TAX 2.18"),
    (430, "TOTAL 38.51"),
    (460, "THANK YOU"),
]

rng = np.random.default_rng(7)
# The desk: blotches (noise blurred at two scales), a grain, a falloff.
blotch = cv2.GaussianBlur(rng.normal(0, 1, (H, W)).astype(np.float32), (0, 0), 9)
blotch = blotch / (np.abs(blotch).max() + 1e-6) * 25
grain = cv2.GaussianBlur(rng.normal(0, 1, (H, W)).astype(np.float32), (0, 0), 1.2) * 6
yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
falloff = -20 * (xx / W + yy / H) / 2
desk = np.clip(78 + blotch + grain + falloff, 0, 255)

# The page, lit a little unevenly, and its text.
page = np.repeat(np.linspace(238, 214, PH, dtype=np.float32)[:, None], PW, axis=1)
ink = np.zeros((PH, PW), np.uint8)
words = []  # (word, corners in page pixels)
for y, text in LINES:
    cv2.putText(ink, text, (24, y), FONT, SCALE, 255, THICK, cv2.LINE_AA)
    x = 24
    space = cv2.getTextSize(" ", FONT, SCALE, THICK)[0][0]
    for word in text.split(" "):
        (tw, th), base = cv2.getTextSize(word, FONT, SCALE, THICK)
        words.append((word, np.array([[x, y - th], [x + tw, y - th], [x + tw, y + base], [x, y + base]], np.float64)))
        x += tw + space
page = page * (1 - ink.astype(np.float32) / 255) + 20 * ink.astype(np.float32) / 255

# Turn the page 4° clockwise as displayed (OpenCV's positive angle is counter-clockwise) about its
# center (pixel indices: ((PW − 1) / 2, (PH − 1) / 2)) onto the frame with its center at CENTER.
m = cv2.getRotationMatrix2D(((PW - 1) / 2, (PH - 1) / 2), -DEGREES, 1.0)
m[0, 2] += CENTER[0] - (PW - 1) / 2
m[1, 2] += CENTER[1] - (PH - 1) / 2
turned = cv2.warpAffine(page, m, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
mask = cv2.warpAffine(np.ones((PH, PW), np.float32), m, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                      borderValue=0)
frame = np.clip(desk * (1 - mask) + turned * mask, 0, 255).round().astype(np.uint8)
cv2.imwrite(os.path.join(OUT, "receipt-on-desk.png"), frame, [cv2.IMWRITE_PNG_COMPRESSION, 9])


def turned_box(corners):
    # Continuous coordinates of a pixel-index map: the same affine map (both centers move by ½).
    p = np.hstack([corners, np.ones((len(corners), 1))]) @ m.T
    x0, y0 = p.min(axis=0)
    x1, y1 = p.max(axis=0)
    return int(np.floor(x0)), int(np.floor(y0)), int(np.ceil(x1 - np.floor(x0))), int(np.ceil(y1 - np.floor(y0)))


with open(os.path.join(OUT, "receipt-on-desk.gt.txt"), "w") as f:
    f.write("\n".join(text for _, text in LINES) + "\n")
with open(os.path.join(OUT, "receipt-on-desk.boxes.tsv"), "w") as f:
    f.write("page\t%d\t%d\t%d\t%d\n" % turned_box(np.array([[0, 0], [PW, 0], [PW, PH], [0, PH]], np.float64)))
    for word, corners in words:
        f.write("%s\t%d\t%d\t%d\t%d\n" % ((word,) + turned_box(corners)))
