"""FrameOCR's errors as Python exceptions: one class per error code of the worker protocol.

Every error the worker answers with (``docs/serve.md``, "Responses") is raised as the subclass of
:class:`FrameOCRError` for its ``code``; an unknown code (a newer worker) as ``FrameOCRError``
itself. Each also derives from the built-in exception a Python user would catch for it
(``OSError`` for ``io``, ``ValueError`` for a bad image or request, ``MemoryError``,
``TimeoutError``), so ``except OSError`` keeps working around FrameOCR.

Errors found in Python before anything is sent (an array of the wrong dtype or shape, an unknown
pixel format) use the library's own codes, ``invalidBuffer`` and ``unsupportedFormat``, with the
stage ``buffer``.
"""

from __future__ import annotations

from typing import Any, Mapping

__all__ = [
    "FrameOCRError", "InvalidParameter", "InvalidBuffer", "InvalidROI", "UnsupportedFormat", "Unsupported",
    "IOFailure", "DecodeError", "OpenCVError", "TesseractError", "OutOfMemory", "OpenCLError",
    "NoOpenCLDevice", "OpenCLDeviceUnsupported", "StreamStalled", "ImageTooLarge", "InternalError",
    "BadRequest", "UnsupportedProtocol", "WorkerDied", "WorkerTimeout", "ReaderClosed", "VideoFailed",
    "error_from_response",
]


class FrameOCRError(Exception):
    """An error of FrameOCR: ``code`` (the protocol's error code, e.g. ``"decode"``), ``stage``
    (the pipeline stage that failed, e.g. ``"load"``, or None) and ``message`` (what happened,
    in words). ``str(error)`` is ``"code (stage): message"``."""

    code: str = "unknown"

    def __init__(self, message: str, *, code: str | None = None, stage: str | None = None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.stage = stage

    def __str__(self) -> str:
        where = f" ({self.stage})" if self.stage else ""
        return f"{self.code}{where}: {self.message}"

    def __reduce__(self):  # picklable across processes (Ray, multiprocessing), code and stage kept
        return (_rebuild, (type(self), self.message, self.code, self.stage))


def _rebuild(cls, message, code, stage):
    return cls(message, code=code, stage=stage)


class InvalidParameter(FrameOCRError, ValueError):
    """An option is out of its documented range (the message names it)."""
    code = "invalidParameter"


class InvalidBuffer(FrameOCRError, ValueError):
    """A frame's size, stride, plane layout or element type is inconsistent. Raised in Python for
    a bad array (wrong dtype, wrong shape) before anything is sent."""
    code = "invalidBuffer"


class InvalidROI(FrameOCRError, ValueError):
    """A region of interest is empty, negative, or outside the frame (with ``strict_roi``)."""
    code = "invalidROI"


class UnsupportedFormat(FrameOCRError, ValueError):
    """A pixel format the operation does not take. Raised in Python for an unknown ``format=``."""
    code = "unsupportedFormat"


class Unsupported(FrameOCRError):
    """This ``frameocr`` cannot do the operation (e.g. its media library is missing)."""
    code = "unsupported"


class IOFailure(FrameOCRError, OSError):
    """A file, directory or camera is missing or unreadable, or a stream cannot be opened.
    Also an ``OSError``."""
    code = "io"


class DecodeError(FrameOCRError, ValueError):
    """A file exists but is not a decodable image (also image bytes that are not one)."""
    code = "decode"


class OpenCVError(FrameOCRError):
    """OpenCV raised an exception inside the worker."""
    code = "openCV"


class TesseractError(FrameOCRError):
    """Tesseract failed to load its models (e.g. a language that is not installed) or to read."""
    code = "tesseract"


class OutOfMemory(FrameOCRError, MemoryError):
    """The worker could not allocate memory."""
    code = "outOfMemory"


class OpenCLError(FrameOCRError):
    """An OpenCL call or kernel build failed."""
    code = "openCL"


class NoOpenCLDevice(FrameOCRError):
    """``backend="opencl"`` was asked for and there is no OpenCL device to run on."""
    code = "noOpenCLDevice"


class OpenCLDeviceUnsupported(FrameOCRError):
    """The OpenCL device lacks what FrameOCR's kernels need."""
    code = "openCLDeviceUnsupported"


class StreamStalled(FrameOCRError, TimeoutError):
    """A live video source delivered no frame within its stall timeout, or did not open."""
    code = "streamStalled"


class ImageTooLarge(FrameOCRError, ValueError):
    """An image or frame has more pixels than the worker's ``max_pixels``, or a frame's bytes
    are more than its ``max_request_bytes``."""
    code = "imageTooLarge"


class InternalError(FrameOCRError):
    """Anything else that failed inside the worker."""
    code = "internal"


class BadRequest(FrameOCRError, ValueError):
    """The worker could not take the request: an unknown option, a value of the wrong type, a
    request over ``max_request_bytes``; also a ``frameocr`` command line it refused (exit 2)."""
    code = "badRequest"


class UnsupportedProtocol(FrameOCRError):
    """The ``frameocr`` program speaks an older protocol: raw frames (numpy arrays) need protocol
    2 (``frameocr`` with ``serve`` protocol 2); paths and image bytes work with protocol 1."""
    code = "unsupportedProtocol"


class WorkerDied(FrameOCRError, RuntimeError):
    """The ``frameocr serve`` process ended (or was killed) while the request was in flight, and
    so did the one started for its retry; or it could not be started at all."""
    code = "workerDied"


class WorkerTimeout(WorkerDied, TimeoutError):
    """A request took longer than the reader's ``timeout`` twice (the first time its worker
    process was stopped and the request sent again to a new one)."""
    code = "workerTimeout"


class ReaderClosed(FrameOCRError, RuntimeError):
    """The :class:`~frameocr.Reader` was closed before or while the request was made."""
    code = "readerClosed"


class VideoFailed(FrameOCRError, RuntimeError):
    """``frameocr video`` ended with a failure (exit status 1: the source could not be opened or
    read to the end; 2: bad options). ``message`` is what it wrote on standard error."""
    code = "video"


_BY_CODE: dict[str, type[FrameOCRError]] = {
    cls.code: cls for cls in (
        InvalidParameter, InvalidBuffer, InvalidROI, UnsupportedFormat, Unsupported, IOFailure, DecodeError,
        OpenCVError, TesseractError, OutOfMemory, OpenCLError, NoOpenCLDevice, OpenCLDeviceUnsupported,
        StreamStalled, ImageTooLarge, InternalError, BadRequest, UnsupportedProtocol)
}


def error_from_response(error: Mapping[str, Any] | None) -> FrameOCRError:
    """The exception for a response's ``error`` object (``{"code", "stage", "message"}``)."""
    error = error or {}
    code = str(error.get("code") or "unknown")
    cls = _BY_CODE.get(code, FrameOCRError)
    return cls(str(error.get("message") or ""), code=code, stage=error.get("stage"))
