"""Every kind of input, every pixel format, crops of larger frames, and bad arrays: each read
against the CLI's own text for the same pixels (``frameocr recognize FILE``)."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

import frameocr
from frameocr.frames import frame_payload

from conftest import cli_text, fixture, load_gray, load_rgb, save_png

TESTOCR = fixture("testocr.png")  # 640×480 RGB: a page of printed text
TEST_LA = fixture("test_la.png")  # 400×80 gray with alpha: one line


# ------------------------------------------------------------------ files and bytes

def test_path_pathlike_and_bytes(reader):
    expected = cli_text(TEST_LA)
    assert expected == "This is test message"
    assert reader.recognize(TEST_LA).text == expected
    assert reader.recognize(pathlib.Path(TEST_LA)).text == expected
    data = pathlib.Path(TEST_LA).read_bytes()
    assert reader.recognize(data).text == expected
    assert reader.recognize(bytearray(data)).text == expected
    assert reader.recognize(memoryview(data)).text == expected
    r = reader.recognize(TEST_LA)
    assert r.file == TEST_LA and r.frame == frameocr.Size(400, 80)
    assert reader.recognize(data).file is None


# ------------------------------------------------------------------ packed pixel formats

@pytest.fixture(scope="module")
def page_rgb():
    return load_rgb(TESTOCR)


def test_bgr_rgb_bgra_rgba(reader, page_rgb):
    expected = cli_text(TESTOCR)
    assert expected.startswith("This is a lot of 12 point text")
    bgr = np.ascontiguousarray(page_rgb[..., ::-1])
    alpha = np.full(page_rgb.shape[:2] + (1,), 255, np.uint8)
    assert reader.recognize(bgr).text == expected                       # 3 channels: BGR, as OpenCV
    assert reader.recognize(bgr, format="bgr8").text == expected
    assert reader.recognize(page_rgb, format="rgb8").text == expected
    assert reader.recognize(page_rgb, format="RGB").text == expected     # aliases
    assert reader.recognize(np.concatenate([bgr, alpha], axis=2)).text == expected        # 4: BGRA
    assert reader.recognize(np.concatenate([page_rgb, alpha], axis=2), format="rgba8").text == expected


def test_gray_two_and_three_dimensions(reader, tmp_path):
    gray = load_gray(TESTOCR)
    expected = cli_text(save_png(gray, str(tmp_path / "gray.png")))
    assert reader.recognize(gray).text == expected
    assert reader.recognize(gray[:, :, None]).text == expected
    assert reader.recognize(gray, format="gray8").text == expected


def _two_colour_line():
    """Blue-ish text (0, 60, 255) on orange (255, 140, 0): 94 grey levels apart when the channels
    are read in their order (BT.601), and the same grey (111) when red and blue are swapped, so
    only the right pixel format reads it."""
    from PIL import Image, ImageDraw, ImageFont
    im = Image.new("RGB", (520, 110), (255, 140, 0))
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", 56)
    ImageDraw.Draw(im).text((24, 20), "EXIT 2026", fill=(0, 60, 255), font=font)
    return np.asarray(im).copy()


def test_channel_order_is_honoured(reader, tmp_path):
    rgb = _two_colour_line()
    expected = cli_text(save_png(rgb, str(tmp_path / "line.png")))
    assert expected == "EXIT 2026"
    assert reader.recognize(rgb, format="rgb8").text == expected
    assert reader.recognize(np.ascontiguousarray(rgb[..., ::-1])).text == expected          # BGR
    # The same bytes under the other order are one flat grey (but for the glyphs' anti-aliased
    # edges): the words are not read.
    for wrong in (reader.recognize(rgb).text, reader.recognize(rgb, format="bgr8").text):
        assert "EXIT" not in wrong and "2026" not in wrong, wrong


# ------------------------------------------------------------------ planar YUV 4:2:0

def _nv12(y: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    uv = np.empty((u.shape[0], u.shape[1] * 2), np.uint8)
    uv[:, 0::2], uv[:, 1::2] = u, v
    return np.vstack([y, uv])


def _i420(y: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    h, w = y.shape
    return np.vstack([y, u.reshape(h // 4, w), v.reshape(h // 4, w)])


def test_nv12_and_i420(reader, tmp_path):
    y = load_gray(TESTOCR)                      # 640×480: even sides
    h, w = y.shape
    u = np.full((h // 2, w // 2), 128, np.uint8)  # no colour
    v = u.copy()
    expected = cli_text(save_png(y, str(tmp_path / "luma.png")))
    nv12, i420 = _nv12(y, u, v), _i420(y, u, v)
    assert nv12.shape == i420.shape == (h * 3 // 2, w)
    assert reader.recognize(nv12, format="nv12").text == expected
    assert reader.recognize(i420, format="i420").text == expected
    assert reader.recognize(i420, format="yuv420p").text == expected


def test_raw_frame_without_numpy_types(reader, page_rgb):
    expected = cli_text(TESTOCR)
    h, w, _ = page_rgb.shape
    data = np.ascontiguousarray(page_rgb[..., ::-1]).tobytes()
    assert reader.recognize(frameocr.RawFrame(data, w, h, "bgr8")).text == expected
    # Rows padded to 2048 bytes, the last row not.
    padded = bytearray(2048 * (h - 1) + w * 3)
    for row in range(h):
        padded[row * 2048:row * 2048 + w * 3] = data[row * w * 3:(row + 1) * w * 3]
    assert reader.recognize(frameocr.RawFrame(padded, w, h, "bgr8", bytes_per_row=2048)).text == expected


# ------------------------------------------------------------------ crops of a larger frame

@pytest.fixture(scope="module")
def big_frame(page_rgb):
    """A 1100×800 BGR frame of noise with the page pasted at (x 203, y 101)."""
    rng = np.random.default_rng(7)
    frame = rng.integers(0, 256, size=(800, 1100, 3), dtype=np.uint8)
    frame[101:581, 203:843] = page_rgb[..., ::-1]
    return frame


def test_crop_goes_through_its_stride_without_a_copy(reader, big_frame, tmp_path):
    crop = big_frame[101:581, 203:843]
    assert not crop.flags.c_contiguous
    header, payload, copied = frame_payload(crop)
    assert not copied
    assert header["bytesPerRow"] == 1100 * 3 and header["width"] == 640 and header["height"] == 480
    assert header["bytes"] == 479 * 3300 + 640 * 3 == payload.nbytes
    sent = np.frombuffer(payload, np.uint8)
    assert np.shares_memory(sent, big_frame)                     # the frame's own memory
    assert sent.__array_interface__["data"][0] == crop.__array_interface__["data"][0]
    expected = cli_text(save_png(crop[..., ::-1], str(tmp_path / "crop.png")))
    assert expected == cli_text(TESTOCR)
    assert reader.recognize(crop).text == expected


def test_crops_of_gray_and_bgra_frames(reader, big_frame, tmp_path):
    bgra = np.concatenate([big_frame, np.full(big_frame.shape[:2] + (1,), 255, np.uint8)], axis=2)
    crop = bgra[101:581, 203:843]
    assert frame_payload(crop)[2] is False
    assert reader.recognize(crop).text == cli_text(TESTOCR)
    gray = np.ascontiguousarray(load_gray(TESTOCR))
    frame = np.zeros((600, 900), np.uint8)
    frame[50:530, 131:771] = gray
    crop = frame[50:530, 131:771]
    header, _, copied = frame_payload(crop)
    assert not copied and header["bytesPerRow"] == 900
    assert reader.recognize(crop).text == cli_text(save_png(crop, str(tmp_path / "g.png")))


def test_layouts_that_need_one_copy(reader, big_frame):
    expected = cli_text(TESTOCR)
    as_rgb = big_frame[101:581, 203:843, ::-1]    # channels reversed: a view with a negative step
    header, _, copied = frame_payload(as_rgb, "rgb8")
    assert copied and header["bytesPerRow"] == 640 * 3
    assert reader.recognize(as_rgb, format="rgb8").text == expected
    fortran = np.asfortranarray(big_frame[101:581, 203:843])
    assert frame_payload(fortran)[2] is True
    assert reader.recognize(fortran).text == expected


# ------------------------------------------------------------------ bad arrays: nothing sent

BAD = [
    (np.zeros((40, 60), np.float32), None, frameocr.InvalidBuffer, "dtype"),
    (np.zeros((40, 60, 3), np.uint16), None, frameocr.InvalidBuffer, "uint16"),
    (np.zeros((40, 60), bool), None, frameocr.InvalidBuffer, "bool"),
    (np.zeros((40, 60, 2), np.uint8), None, frameocr.InvalidBuffer, "H×W×3"),
    (np.zeros((2, 40, 60, 3), np.uint8), None, frameocr.InvalidBuffer, "H×W×3"),
    (np.zeros((40,), np.uint8), None, frameocr.InvalidBuffer, "H×W"),
    (np.zeros((0, 60, 3), np.uint8), None, frameocr.InvalidBuffer, "empty"),
    (np.zeros((40, 60, 3), np.uint8), "rgba8", frameocr.UnsupportedFormat, "3 channels"),
    (np.zeros((40, 60, 4), np.uint8), "gray8", frameocr.UnsupportedFormat, "4 channels"),
    (np.zeros((40, 60), np.uint8), "yuyv", frameocr.UnsupportedFormat, "unknown pixel format"),
    (np.zeros((40, 60), np.uint8), "nv12", frameocr.InvalidBuffer, "H and W even"),
    (np.zeros((60, 61), np.uint8), "i420", frameocr.InvalidBuffer, "H and W even"),
    (np.zeros((60, 40, 3), np.uint8), "nv12", frameocr.UnsupportedFormat, "2-D"),
]


@pytest.mark.parametrize("array,fmt,error,words", BAD, ids=[f"{a.dtype}{a.shape}-{f}" for a, f, _, _ in BAD])
def test_bad_arrays_raise_before_anything_is_sent(reader, monkeypatch, array, fmt, error, words):
    def sent(*_):
        raise AssertionError("a bad array was sent")
    monkeypatch.setattr(reader, "_submit", sent)
    with pytest.raises(error, match=words) as info:
        reader.recognize(array, format=fmt)
    assert info.value.stage == "buffer" and isinstance(info.value, ValueError)


def test_other_bad_inputs(reader, monkeypatch):
    monkeypatch.setattr(reader, "_submit", lambda *_: (_ for _ in ()).throw(AssertionError("sent")))
    with pytest.raises(TypeError, match="path, the bytes of an image file, a numpy array"):
        reader.recognize([[0, 1], [2, 3]])
    with pytest.raises(frameocr.BadRequest, match="pixel format of an array"):
        reader.recognize(TEST_LA, format="bgr8")
    with pytest.raises(frameocr.InvalidBuffer, match="needs 300 bytes"):
        reader.recognize(frameocr.RawFrame(b"\0" * 299, 10, 10, "bgr8"))
    with pytest.raises(frameocr.InvalidBuffer, match="bytes_per_row 20 < width"):
        reader.recognize(frameocr.RawFrame(b"\0" * 900, 10, 10, "bgr8", bytes_per_row=20))
    with pytest.raises(frameocr.InvalidBuffer, match="positive"):
        reader.recognize(frameocr.RawFrame(b"", 0, 10, "gray8"))
