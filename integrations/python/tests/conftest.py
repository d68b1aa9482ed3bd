"""Shared fixtures for the package's tests (``make python-test``): the ``frameocr`` program
(``$FRAMEOCR``, else the release build), the repository's image fixtures, the CLI's own text for
an image (the reference every recognition here is checked against), and images as arrays."""

from __future__ import annotations

import functools
import os
import subprocess

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
FIXTURES = os.path.join(ROOT, "Tests", "FrameOCRTests", "Fixtures")
FRAMEOCR = os.environ.get("FRAMEOCR") or os.path.join(ROOT, ".build", "release", "frameocr")
os.environ["FRAMEOCR"] = FRAMEOCR
os.environ.setdefault("OMP_THREAD_LIMIT", "1")


def fixture(name: str) -> str:
    return os.path.join(FIXTURES, name)


@functools.lru_cache(maxsize=None)
def _cli_text(path: str, args: tuple[str, ...]) -> str:
    out = subprocess.run([FRAMEOCR, "recognize", path, *args], capture_output=True, text=True, check=True).stdout
    assert out.endswith("\n"), (path, out)
    return out[:-1]


def cli_text(path: str, *args: str) -> str:
    """What ``frameocr recognize PATH ARGS…`` prints: the reference text."""
    return _cli_text(os.fspath(path), tuple(args))


def load_rgb(path: str) -> np.ndarray:
    """An image file as an H×W×3 RGB uint8 array (Pillow; PNG is lossless, so these are the
    pixels the CLI reads from the same file)."""
    from PIL import Image
    with Image.open(path) as im:
        return np.asarray(im.convert("RGB")).copy()


def load_gray(path: str) -> np.ndarray:
    from PIL import Image
    with Image.open(path) as im:
        return np.asarray(im.convert("L")).copy()


def save_png(array: np.ndarray, path: str) -> str:
    """Writes an RGB or gray array as PNG (for the CLI's reference text of exactly those pixels)."""
    from PIL import Image
    Image.fromarray(np.ascontiguousarray(array)).save(path)
    return path


@pytest.fixture(scope="session")
def frameocr_path() -> str:
    assert os.access(FRAMEOCR, os.X_OK), f"build frameocr first (swift build -c release --product frameocr): {FRAMEOCR}"
    return FRAMEOCR


@pytest.fixture(scope="session")
def reader(frameocr_path):
    """One Reader for the tests that do not stop or break it."""
    import frameocr
    with frameocr.Reader(workers=2) as r:
        yield r
