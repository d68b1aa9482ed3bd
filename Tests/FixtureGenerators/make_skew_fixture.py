#!/usr/bin/env python3
"""Writes the skew fixture used by SkewCorrectionTests.swift into Tests/FrameOCRTests/Fixtures/.

    python3 Tests/FixtureGenerators/make_skew_fixture.py     # needs OpenCV's Python module (python3-opencv)

skew-lines-cw2.5.png: a 720×460 white card with six lines of black text (cv2.putText, Hershey
Duplex, scale 1, thickness 2; each line's baseline starts at x = 60, y as listed), turned 2.5°
clockwise as displayed about the card's center (360, 230) with cv2.warpAffine (INTER_LINEAR,
white outside), onto an 800×540 canvas: 40 px of white on every side keep the corners. A point
s of the card lands at R(2.5°)·(s − (360, 230)) + (400, 270). skew-lines.gt.txt is the text.
The turn is made here, not by FrameOCR, so the test of the angle's sign does not depend on the
code it tests.
"""
import os

import cv2
import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "..", "FrameOCRTests", "Fixtures")
LINES = [
    (70, "CORNER MARKET 118 MAIN ST"),
    (125, "2 x BREAD LOAF 5.98"),
    (180, "1 x MILK 2L 3.49"),
    (235, "3 x APPLES 4.47"),
    (330, "TOTAL 13.94"),
    (410, "THANK YOU FOR SHOPPING"),
]
W, H, MARGIN, DEGREES = 720, 460, 40, 2.5

card = np.full((H, W), 255, np.uint8)
for y, text in LINES:
    cv2.putText(card, text, (60, y), cv2.FONT_HERSHEY_DUPLEX, 1.0, 0, 2, cv2.LINE_AA)
# Pixel indices: the card's center is ((W − 1) / 2, (H − 1) / 2). OpenCV's positive angle is
# counter-clockwise, so a clockwise turn is −DEGREES; the margin is a translation.
m = cv2.getRotationMatrix2D(((W - 1) / 2, (H - 1) / 2), -DEGREES, 1.0)
m[:, 2] += MARGIN
turned = cv2.warpAffine(card, m, (W + 2 * MARGIN, H + 2 * MARGIN), flags=cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_CONSTANT, borderValue=255)
cv2.imwrite(os.path.join(OUT, "skew-lines-cw2.5.png"), turned, [cv2.IMWRITE_PNG_COMPRESSION, 9])
with open(os.path.join(OUT, "skew-lines.gt.txt"), "w") as f:
    f.write("\n".join(text for _, text in LINES) + "\n")
