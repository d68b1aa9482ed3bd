"""FrameOCR from Python: text from images, numpy frames and live video, through one long-lived
``frameocr serve --stdio`` worker (the ``frameocr`` program does the reading; this package is
pure Python and needs only the standard library, numpy for arrays).

    import frameocr

    with frameocr.Reader(workers=2) as reader:
        print(reader.recognize("label.png").text)      # a path
        result = reader.recognize(frame)                # a numpy BGR frame from OpenCV: raw pixels
        for word in result.words:
            print(word.text, word.confidence, word.box.quad)
        for r in reader.video("/dev/video0", budget=0.04):
            for event in r.events:
                print(event)                           # "+ 1.20 #3 EXIT 12"

See docs/python.md in the FrameOCR repository.
"""

from .errors import (BadRequest, DecodeError, FrameOCRError, ImageTooLarge, InternalError, InvalidBuffer,
                     InvalidParameter, InvalidROI, IOFailure, NoOpenCLDevice, OpenCLDeviceUnsupported, OpenCLError,
                     OpenCVError, OutOfMemory, ReaderClosed, StreamStalled, TesseractError, Unsupported,
                     UnsupportedFormat, UnsupportedProtocol, VideoFailed, WorkerDied, WorkerTimeout)
from .frames import PIXEL_FORMATS, RawFrame, pixel_format
from .reader import Reader
from .result import (Alternate, Block, Box, Character, Decisions, Line, NormalizedBox, Rect, Result, Size, Timings,
                     Word)
from .video import Track, TrackEvent, VideoResult, VideoStream

__version__ = "0.1.0"

#: The newest worker protocol this package speaks (docs/serve.md): 2, raw frames; paths and
#: image bytes are sent as protocol 1, which every ``frameocr serve`` takes.
PROTOCOL_VERSION = 2

__all__ = [
    "Reader", "Result", "Block", "Line", "Word", "Character", "Alternate", "Box", "NormalizedBox", "Rect", "Size",
    "Timings", "Decisions", "RawFrame", "PIXEL_FORMATS", "pixel_format", "VideoStream", "VideoResult", "Track",
    "TrackEvent", "FrameOCRError", "BadRequest", "DecodeError", "ImageTooLarge", "InternalError", "InvalidBuffer",
    "InvalidParameter", "InvalidROI", "IOFailure", "NoOpenCLDevice", "OpenCLDeviceUnsupported", "OpenCLError",
    "OpenCVError", "OutOfMemory", "ReaderClosed", "StreamStalled", "TesseractError", "Unsupported",
    "UnsupportedFormat", "UnsupportedProtocol", "VideoFailed", "WorkerDied", "WorkerTimeout", "PROTOCOL_VERSION",
    "__version__",
]
