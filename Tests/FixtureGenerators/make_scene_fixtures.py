#!/usr/bin/env python3
"""Writes dominant-line-plate.png into Tests/FrameOCRTests/Fixtures/: a licence-plate-like image
made for this project (no third-party content) — a large plate number in OpenCV's Hershey Duplex
font amid a frame, a state name, a slogan, a sticker and a screw head — the input of the
dominant-line test in AutomaticPreprocessingTests.swift.

    pip install opencv-python-headless numpy
    python3 Tests/FixtureGenerators/make_scene_fixtures.py
"""
import os

import cv2
import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "..", "FrameOCRTests", "Fixtures")


def plate():
    w, h = 320, 160
    img = np.zeros((h, w, 3), np.uint8)
    for y in range(h):  # a light vertical gradient, as a printed plate's background
        img[y, :] = (235 - y // 8, 225 - y // 10, 205 - y // 12)
    cv2.rectangle(img, (4, 4), (w - 5, h - 5), (90, 40, 20), 5)
    cv2.putText(img, "CALIFORNIA", (92, 30), cv2.FONT_HERSHEY_DUPLEX, 0.6, (40, 40, 170), 1, cv2.LINE_AA)
    cv2.rectangle(img, (14, 14), (52, 34), (40, 160, 230), -1)
    cv2.putText(img, "JUL", (18, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (20, 20, 20), 1, cv2.LINE_AA)
    cv2.circle(img, (w - 30, 22), 7, (120, 120, 120), -1)
    # The number: tall and condensed, as plates are.
    number = np.full((90, 520, 3), 255, np.uint8)
    cv2.putText(number, "4GHT925", (4, 80), cv2.FONT_HERSHEY_DUPLEX, 3.0, (110, 50, 20), 7, cv2.LINE_AA)
    number = cv2.resize(number, (272, 90), interpolation=cv2.INTER_AREA)
    region = img[42:132, 24:296]
    mask = number.min(axis=2) < 200
    region[mask] = number[mask]
    cv2.putText(img, "dmv.ca.gov", (118, 148), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (40, 40, 170), 1, cv2.LINE_AA)
    cv2.imwrite(os.path.join(OUT, "dominant-line-plate.png"), img)


if __name__ == "__main__":
    plate()
