"""The worker protocol's text side (docs/serve.md): finding the program, request options, and
reading a response line. No process and no thread here."""

from __future__ import annotations

import datetime
import json
import os
import re
import shutil
from typing import Any, Iterable, Mapping

from .errors import BadRequest

__all__ = ["find_frameocr", "request_options", "command_flags", "parse_response", "duration"]

#: Python names of the request options → the protocol's keys (docs/serve.md, "Requests").
#: Any other keyword is sent in camelCase as given, and the worker answers ``badRequest`` for a
#: key it does not know: a misspelt option is never ignored.
OPTION_KEYS = {
    "lang": "lang", "psm": "psm", "oem": "oem", "dpi": "dpi", "alternates": "alternates",
    "roi": "roi", "roi_normalized": "roiNormalized", "scan_region": "scanRegion",
    "orientation": "orientation", "threshold": "threshold", "whitelist": "whitelist",
    "blacklist": "blacklist", "backend": "backend", "scale": "scale", "strict_roi": "strictRoi",
    "no_auto": "noAuto",
}
#: Keys the package writes itself; an option may not set them.
RESERVED_KEYS = {"id", "protocol", "path", "image", "format", "pixelFormat", "width", "height", "bytesPerRow", "bytes"}

_CAMEL = re.compile(r"_([a-z0-9])")


def find_frameocr(executable: str | os.PathLike | None = None) -> str:
    """The ``frameocr`` program: ``executable`` when given, else ``$FRAMEOCR``, else ``PATH``.

    Raises ``FileNotFoundError`` when there is none.
    """
    if executable:
        return os.fspath(executable)
    if os.environ.get("FRAMEOCR"):
        return os.environ["FRAMEOCR"]
    found = shutil.which("frameocr")
    if found is None:
        raise FileNotFoundError(
            "the frameocr program was not found: put it on PATH, set $FRAMEOCR, or pass executable=")
    return found


def _region(value: Any) -> Any:
    if isinstance(value, str):
        return value
    values = list(value)
    if len(values) != 4:
        raise BadRequest(f"a region is four numbers (x, y, width, height), not {value!r}", stage=None)
    return [v.item() if hasattr(v, "item") else v for v in values]  # numpy scalars as numbers


def request_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Keyword options → protocol keys and JSON values (``roi=(x, y, w, h)`` → ``"roi": [x, y, w, h]``,
    ``orientation=6`` → ``"orientation": "6"``). ``None`` values are left out."""
    out: dict[str, Any] = {}
    for name, value in options.items():
        if value is None:
            continue
        key = OPTION_KEYS.get(name) or _CAMEL.sub(lambda m: m.group(1).upper(), name)
        if key in RESERVED_KEYS:
            raise BadRequest(f"{name!r} is set by the package, not an option", stage=None)
        if key in ("roi", "roiNormalized", "scanRegion"):
            value = _region(value)
        elif key == "orientation" and not isinstance(value, str):
            value = str(int(value))
        elif hasattr(value, "item") and not isinstance(value, (str, bytes)):  # numpy scalars
            value = value.item()
        out[key] = value
    return out


def duration(value: Any) -> str:
    """A duration for the command line: a number of seconds, a ``timedelta``, or a string as the
    CLI takes it (``"40ms"``, ``"0.5s"``, ``"none"``, ``"off"``)."""
    if isinstance(value, str):
        return value
    if isinstance(value, datetime.timedelta):
        value = value.total_seconds()
    ms = float(value) * 1000
    return f"{ms:.6f}".rstrip("0").rstrip(".") + "ms"


#: Options whose value is a duration on the command line.
DURATION_FLAGS = {"time_limit", "budget", "stall_timeout", "open_timeout", "reconnect_delay"}


def command_flags(options: Mapping[str, Any], skip: Iterable[str] = ()) -> list[str]:
    """Keyword options → command-line flags: ``psm=6`` → ``--psm 6``, ``no_auto=True`` →
    ``--no-auto`` (``False`` and ``None``: left out), ``roi=(0, 0, 10, 10)`` → ``--roi 0,0,10,10``,
    durations in seconds → milliseconds (``budget=0.04`` → ``--budget 40ms``)."""
    skip = set(skip)
    args: list[str] = []
    for name, value in options.items():
        if value is None or value is False or name in skip:
            continue
        flag = "--" + name.replace("_", "-")
        if value is True:
            args.append(flag)
            continue
        if name in DURATION_FLAGS:
            text = duration(value)
        elif isinstance(value, (list, tuple)):
            text = ",".join(str(v) for v in value)
        else:
            text = os.fspath(value) if isinstance(value, os.PathLike) else str(value)
        args += [flag, text]
    return args


_DECODER = json.JSONDecoder()


def parse_response(line: bytes | str) -> tuple[dict, str | None]:
    """A response line: (the response, the ``result`` member's JSON text as it came, or None).

    Walks the top-level object member by member with ``raw_decode`` so that the result's JSON
    (tens of kilobytes for a page) is parsed once, and its text kept for callers that store it
    as it came (the Ray integration). Raises ``ValueError`` when the line is not one JSON object.
    """
    text = line.decode("utf-8") if isinstance(line, (bytes, bytearray)) else line
    response: dict = {}
    raw_result = None
    i = _skip(text, 0)
    if text[i:i + 1] != "{":
        raise ValueError("a response is not a JSON object")
    i = _skip(text, i + 1)
    if text[i:i + 1] == "}":
        if _skip(text, i + 1) != len(text):
            raise ValueError("text after a response")
        return response, None
    while True:
        key, i = _DECODER.raw_decode(text, i)
        i = _skip(text, i)
        if not isinstance(key, str) or text[i:i + 1] != ":":
            raise ValueError("a response member has no key")
        start = _skip(text, i + 1)
        value, i = _DECODER.raw_decode(text, start)
        response[key] = value
        if key == "result":
            raw_result = text[start:i]
        i = _skip(text, i)
        if text[i:i + 1] == "}":
            if _skip(text, i + 1) != len(text):
                raise ValueError("text after a response")
            return response, raw_result
        if text[i:i + 1] != ",":
            raise ValueError("a response member is not followed by , or }")
        i = _skip(text, i + 1)


def _skip(text: str, i: int) -> int:
    n = len(text)
    while i < n and text[i] in " \t\r\n":
        i += 1
    return i
