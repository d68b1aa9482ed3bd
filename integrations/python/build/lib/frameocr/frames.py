"""Raw frames: numpy arrays and plain buffers as the worker protocol's raw pixels (protocol 2).

A frame goes to the worker as a JSON line that describes it (``pixelFormat``, ``width``,
``height``, ``bytesPerRow``, ``bytes``) followed by its bytes, written from the array's own memory
(no encoding, no base64). Where the copies are:

- a C-contiguous array, or a crop of one (``frame[y0:y1, x0:x1]``: rows strided, the pixels of a
  row contiguous): **no copy in Python**. The bytes from the crop's first pixel to the end of its
  last row are handed to ``write(2)`` as one memoryview, with the parent's row stride as
  ``bytesPerRow``; the columns outside the crop between its rows travel along and are skipped
  by the worker.
- any other layout (a column step ``frame[:, ::2]``, channels reversed ``frame[..., ::-1]``, rows
  upside down ``frame[::-1]``, a Fortran-ordered array) and NV12/I420 arrays that are not
  C-contiguous: **one copy**, ``numpy.ascontiguousarray`` in :func:`frame_payload`.

The bytes then cross the pipe: the kernel copies them into the pipe and the worker's ``read(2)``
into its one reused buffer, which it wraps as the frame without a further copy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import InvalidBuffer, UnsupportedFormat

__all__ = ["RawFrame", "PIXEL_FORMATS", "pixel_format", "frame_payload"]

#: The protocol's pixel formats → bytes per pixel (0: planar YUV 4:2:0).
PIXEL_FORMATS = {"gray8": 1, "bgr8": 3, "rgb8": 3, "bgra8": 4, "rgba8": 4, "nv12": 0, "nv12FullRange": 0, "i420": 0}

_ALIASES = {
    "gray": "gray8", "grey": "gray8", "grey8": "gray8", "l": "gray8", "y8": "gray8", "mono8": "gray8",
    "bgr": "bgr8", "rgb": "rgb8", "bgra": "bgra8", "rgba": "rgba8", "bgrx": "bgra8", "rgbx": "rgba8",
    "yuv420p": "i420", "iyuv": "i420", "yu12": "i420", "yuv420": "i420", "nv12fullrange": "nv12FullRange",
}


def pixel_format(name: str) -> str:
    """The protocol's name for a pixel format (``"BGR"`` → ``"bgr8"``, ``"yuv420p"`` → ``"i420"``).

    Raises :class:`UnsupportedFormat` for a name it does not know.
    """
    if not isinstance(name, str):
        raise UnsupportedFormat(f"format= is a string such as 'bgr8', not {name!r}", stage="buffer")
    key = name.strip().lower().replace("-", "").replace("_", "")
    key = _ALIASES.get(key, key)
    if key not in PIXEL_FORMATS:
        raise UnsupportedFormat(
            f"unknown pixel format {name!r}: one of {', '.join(PIXEL_FORMATS)}", stage="buffer")
    return key


def planar_size(width: int, height: int) -> int:
    """Bytes of an NV12 or I420 frame with unpadded planes: Y, then 2 × ⌈w/2⌉ × ⌈h/2⌉ of chroma."""
    return width * height + 2 * ((width + 1) // 2) * ((height + 1) // 2)


@dataclass(frozen=True)
class RawFrame:
    """Pixels in a buffer you hand over as they are, for callers without numpy (or with odd-sized
    NV12/I420): ``data`` is any contiguous buffer (``bytes``, ``bytearray``, ``memoryview``,
    ``mmap``), ``format`` one of :data:`PIXEL_FORMATS`; ``bytes_per_row`` (packed formats only)
    the stride of a row, at least ``width`` × bytes per pixel (default exactly that). NV12 and
    I420 are unpadded planes one after another (Y, then UV interleaved or U then V).
    The buffer is read while the request is written; do not change it before the call returns."""

    data: Any
    width: int
    height: int
    format: str
    bytes_per_row: int | None = None


def _positive(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) and not hasattr(value, "__index__"):
        raise InvalidBuffer(f"{name} is a positive integer, not {value!r}", stage="buffer")
    value = int(value)
    if value <= 0:
        raise InvalidBuffer(f"{name} is a positive integer, not {value}", stage="buffer")
    return value


def _raw_frame(frame: RawFrame) -> tuple[dict, memoryview, bool]:
    fmt = pixel_format(frame.format)
    width, height = _positive("width", frame.width), _positive("height", frame.height)
    try:
        data = memoryview(frame.data)
    except TypeError:
        raise InvalidBuffer(f"RawFrame.data is a buffer (bytes, bytearray, memoryview), not {type(frame.data).__name__}",
                            stage="buffer") from None
    if not data.contiguous:
        raise InvalidBuffer("RawFrame.data is not one contiguous buffer", stage="buffer")
    data = data.cast("B") if data.format != "B" or data.ndim != 1 else data
    bpp = PIXEL_FORMATS[fmt]
    header: dict[str, Any] = {"pixelFormat": fmt, "width": width, "height": height}
    if bpp == 0:
        if frame.bytes_per_row is not None and frame.bytes_per_row != width:
            raise InvalidBuffer(f"{fmt}: planes are unpadded (bytes_per_row is the width, {width})", stage="buffer")
        need = planar_size(width, height)
    else:
        bpr = width * bpp if frame.bytes_per_row is None else _positive("bytes_per_row", frame.bytes_per_row)
        if bpr < width * bpp:
            raise InvalidBuffer(f"bytes_per_row {bpr} < width × {bpp} = {width * bpp}", stage="buffer")
        header["bytesPerRow"] = bpr
        need = (height - 1) * bpr + width * bpp
    if data.nbytes < need:
        raise InvalidBuffer(f"a {width}×{height} {fmt} frame needs {need} bytes, the buffer has {data.nbytes}",
                            stage="buffer")
    header["bytes"] = need
    return header, data[:need], False


def _numpy():
    try:
        import numpy
    except ImportError:  # pragma: no cover - numpy is optional
        return None
    return numpy


def is_array(x: Any) -> bool:
    """Whether ``x`` is a numpy array (without importing numpy when it is not loaded)."""
    import sys
    np = sys.modules.get("numpy")
    return np is not None and isinstance(x, np.ndarray)


def frame_payload(x: Any, format: str | None = None) -> tuple[dict, memoryview, bool]:
    """A frame's request keys (``pixelFormat``, ``width``, ``height``, ``bytesPerRow``, ``bytes``),
    the bytes to send after the line, and whether they had to be copied.

    ``x`` is a numpy ``uint8`` array — H×W or H×W×1 gray, H×W×3 (``bgr8`` unless ``format`` says
    ``rgb8``), H×W×4 (``bgra8`` unless ``rgba8``), or (H·3/2)×W for ``format="nv12"``/``"i420"``
    (even width and height) — or a :class:`RawFrame`.

    Raises :class:`InvalidBuffer` (wrong dtype, shape or size) or :class:`UnsupportedFormat` (an
    unknown format, or one that does not fit the array's channels) before anything is sent.
    """
    if isinstance(x, RawFrame):
        return _raw_frame(x)
    np = _numpy()
    if np is None or not isinstance(x, np.ndarray):
        raise InvalidBuffer(f"a frame is a numpy array or a RawFrame, not {type(x).__name__}", stage="buffer")
    fmt = None if format is None else pixel_format(format)
    if x.dtype != np.uint8:
        hint = " (a bool mask: (mask * 255).astype(np.uint8))" if x.dtype == np.bool_ else \
            " (convert it: np.clip(a, 0, 255).astype(np.uint8))"
        raise InvalidBuffer(f"a frame's dtype is uint8 (0…255 per channel), not {x.dtype}{hint}", stage="buffer")
    if x.ndim not in (2, 3) or x.ndim == 3 and x.shape[2] not in (1, 3, 4):
        raise InvalidBuffer(
            f"a frame is H×W (gray), H×W×1, H×W×3 or H×W×4, or (H·3/2)×W for NV12/I420; not {x.shape}", stage="buffer")
    if 0 in x.shape:
        raise InvalidBuffer(f"an empty frame: shape {x.shape}", stage="buffer")
    channels = 1 if x.ndim == 2 else x.shape[2]

    if PIXEL_FORMATS.get(fmt) == 0:
        if x.ndim != 2:
            raise UnsupportedFormat(f"{fmt} is a 2-D array of (H·3/2)×W bytes, not shape {x.shape}", stage="buffer")
        rows, width = x.shape
        if rows % 3 or width % 2:
            raise InvalidBuffer(
                f"a {fmt} array is (H·3/2)×W with H and W even, not {rows}×{width} (odd sizes: pass a RawFrame)",
                stage="buffer")
        copied = not x.flags.c_contiguous
        if copied:
            x = np.ascontiguousarray(x)  # the one copy: planes must be unpadded and back to back
        height = rows * 2 // 3
        header = {"pixelFormat": fmt, "width": width, "height": height, "bytes": x.nbytes}
        return header, memoryview(x).cast("B"), copied

    expected = {1: ("gray8",), 3: ("bgr8", "rgb8"), 4: ("bgra8", "rgba8")}[channels]
    if fmt is None:
        fmt = expected[0]
    elif fmt not in expected:
        raise UnsupportedFormat(
            f"format {fmt!r} does not fit an array of {channels} channel{'s' if channels > 1 else ''} "
            f"(shape {x.shape}): {' or '.join(expected)}", stage="buffer")
    height, width = x.shape[0], x.shape[1]
    row_bytes = width * channels
    row_stride = x.strides[0]
    pixel_ok = width == 1 or x.strides[1] == channels
    channel_ok = channels == 1 or x.strides[2] == 1
    copied = not (pixel_ok and channel_ok and (height == 1 or row_stride >= row_bytes))
    if copied:
        x = np.ascontiguousarray(x)  # the one copy: the pixels of a row are not one run of bytes
        row_stride = row_bytes
    bytes_per_row = row_bytes if height == 1 else row_stride
    span = (height - 1) * bytes_per_row + row_bytes
    if x.flags.c_contiguous:
        payload = memoryview(x).cast("B")
    else:
        # The crop's bytes as they lie in the parent: from its first pixel to the end of its last
        # row, one run of memory with the parent's stride between rows. No copy: a view.
        flat = np.lib.stride_tricks.as_strided(x, shape=(span,), strides=(1,), writeable=False)
        payload = memoryview(flat)
    header = {"pixelFormat": fmt, "width": width, "height": height, "bytesPerRow": bytes_per_row, "bytes": span}
    return header, payload, copied
