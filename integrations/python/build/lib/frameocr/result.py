"""Results as dataclasses: the JSON of ``frameocr recognize --format json`` (docs/json.md) as
Python objects, and the JSON itself through ``to_dict()``.

Geometry is in upright-frame pixels (origin top-left; ``x``, ``y``, ``width``, ``height`` and a
``quad`` of four corners: top-left, top-right, bottom-right, bottom-left) with the same box
normalized to 0…1 of the frame in ``box.normalized``. Confidences are 0…1, or None where the
engine has none. The tree (blocks › lines › words › characters) is built from the JSON when it
is first asked for, so a caller who reads only ``text`` pays for nothing else.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Mapping, Optional, Tuple

__all__ = [
    "Box", "NormalizedBox", "Rect", "Size", "Alternate", "Character", "Word", "Line", "Block", "Timings",
    "Decisions", "Result",
]

Quad = Tuple[Tuple[float, float], Tuple[float, float], Tuple[float, float], Tuple[float, float]]


def _quad(value: Any) -> Quad:
    return tuple((p[0], p[1]) for p in value or ())  # type: ignore[return-value]


@dataclass(frozen=True)
class NormalizedBox:
    """A box as fractions 0…1 of the upright frame (rounded to 6 decimals by the worker)."""
    x: float
    y: float
    width: float
    height: float
    quad: Quad

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "NormalizedBox":
        return cls(d["x"], d["y"], d["width"], d["height"], _quad(d.get("quad")))


@dataclass(frozen=True)
class Box:
    """A box in upright-frame pixels (integers from ``recognize``; live tracking's boxes may be
    fractional), its four corners, and the same box normalized."""
    x: float
    y: float
    width: float
    height: float
    quad: Quad
    normalized: Optional[NormalizedBox]

    @classmethod
    def from_dict(cls, d: Mapping[str, Any] | None) -> "Box | None":
        if not d:
            return None
        n = d.get("normalized")
        return cls(d["x"], d["y"], d["width"], d["height"], _quad(d.get("quad")),
                   NormalizedBox.from_dict(n) if n else None)


@dataclass(frozen=True)
class Rect:
    """A rectangle in upright-frame pixels (the processed region, a crop)."""
    x: float
    y: float
    width: float
    height: float

    @classmethod
    def from_dict(cls, d: Mapping[str, Any] | None) -> "Rect | None":
        return cls(d["x"], d["y"], d["width"], d["height"]) if d else None


@dataclass(frozen=True)
class Size:
    """A frame's size in pixels."""
    width: int
    height: int


@dataclass(frozen=True)
class Alternate:
    """One choice for a character, best first (``alternates=N``, 1…3): its text and confidence."""
    text: str
    confidence: Optional[float]


@dataclass(frozen=True)
class Character:
    """A symbol as Tesseract read it, with its box and, when asked for, its alternates."""
    text: str
    confidence: Optional[float]
    box: Optional[Box]
    alternates: Tuple[Alternate, ...] = ()

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Character":
        return cls(d.get("text", ""), d.get("confidence"), Box.from_dict(d.get("box")),
                   tuple(Alternate(a.get("text", ""), a.get("confidence")) for a in d.get("alternates") or ()))


@dataclass(frozen=True)
class Word:
    """A word: its text, confidence, box, characters, and the engine that read it
    (``"tesseract"`` or ``"ctc"``)."""
    text: str
    confidence: Optional[float]
    box: Optional[Box]
    characters: Tuple[Character, ...] = ()
    engine: Optional[str] = None

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Word":
        return cls(d.get("text", ""), d.get("confidence"), Box.from_dict(d.get("box")),
                   tuple(Character.from_dict(s) for s in d.get("symbols") or ()), d.get("engine"))


@dataclass(frozen=True)
class Line:
    """A line: its words joined by one space, Tesseract's line confidence, its paragraph number."""
    text: str
    confidence: Optional[float]
    box: Optional[Box]
    words: Tuple[Word, ...] = ()
    paragraph: Optional[int] = None

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Line":
        return cls(d.get("text", ""), d.get("confidence"), Box.from_dict(d.get("box")),
                   tuple(Word.from_dict(w) for w in d.get("words") or ()), d.get("paragraph"))


@dataclass(frozen=True)
class Block:
    """A block of text: its lines joined by newlines (an empty line between paragraphs)."""
    text: str
    confidence: Optional[float]
    box: Optional[Box]
    lines: Tuple[Line, ...] = ()

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Block":
        return cls(d.get("text", ""), d.get("confidence"), Box.from_dict(d.get("box")),
                   tuple(Line.from_dict(x) for x in d.get("lines") or ()))


def _snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name)


@dataclass(frozen=True)
class Timings:
    """Milliseconds per stage (None: the stage's key was not in the result). ``total_ms`` is the
    whole recognition in the worker; the response's own ``ms`` (reading the request to writing
    the response) is :attr:`Result.elapsed_ms`."""
    total_ms: Optional[float] = None
    queue_wait_ms: Optional[float] = None
    color_conversion_ms: Optional[float] = None
    crop_ms: Optional[float] = None
    rotation_ms: Optional[float] = None
    scale_ms: Optional[float] = None
    threshold_ms: Optional[float] = None
    fused_ms: Optional[float] = None
    automatic_ms: Optional[float] = None
    detection_ms: Optional[float] = None
    recognition_ms: Optional[float] = None
    line_recognition_ms: Optional[float] = None
    other: Mapping[str, float] = field(default_factory=dict)
    """Keys this version does not know, as the worker wrote them."""

    @classmethod
    def from_dict(cls, d: Mapping[str, Any] | None) -> "Timings":
        known = set(cls.__dataclass_fields__) - {"other"}
        kwargs: dict[str, Any] = {}
        other: dict[str, float] = {}
        for key, value in (d or {}).items():
            name = _snake(key)
            if name in known:
                kwargs[name] = value
            else:
                other[key] = value
        return cls(**kwargs, other=other)


@dataclass(frozen=True)
class Decisions:
    """What the automatic preprocessing measured and decided (the result's ``preprocessing``
    object; docs/json.md): the common figures as fields, every decision in words in ``reasons``,
    and the whole object in :meth:`to_dict` (and ``decisions["key"]``) for the rest."""
    reasons: Tuple[str, ...] = ()
    scale: Optional[float] = None
    stretch: Optional[float] = None
    skew_degrees: Optional[float] = None
    border: Optional[int] = None
    page_segmentation_mode: Optional[int] = None
    single_line: Optional[bool] = None
    text_height: Optional[float] = None
    contrast: Optional[float] = None
    regions: Optional[int] = None
    inverted_regions: Optional[int] = None
    orientation: Optional[Mapping[str, Any]] = None
    document_crop: Optional[Rect] = None
    dominant_line: Optional[Rect] = None
    text_lines: Tuple[Rect, ...] = ()
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any] | None) -> "Decisions | None":
        if d is None:
            return None
        return cls(
            reasons=tuple(d.get("reasons") or ()), scale=d.get("scale"), stretch=d.get("stretch"),
            skew_degrees=d.get("skewDegrees"), border=d.get("border"),
            page_segmentation_mode=d.get("pageSegmentationMode"), single_line=d.get("singleLine"),
            text_height=d.get("textHeight"), contrast=d.get("contrast"), regions=d.get("regions"),
            inverted_regions=d.get("invertedRegions"), orientation=d.get("orientation"),
            document_crop=Rect.from_dict(d.get("documentCrop")), dominant_line=Rect.from_dict(d.get("dominantLine")),
            text_lines=tuple(Rect.from_dict(r) for r in d.get("textLines") or ()), raw=d)

    def __getitem__(self, key: str) -> Any:
        return self.raw[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.raw.get(key, default)

    def to_dict(self) -> Mapping[str, Any]:
        return self.raw


@dataclass(frozen=True)
class Result:
    """What one image or frame read as.

    ``text`` (lines separated by ``\\n``, blocks by an empty line), ``confidence`` (mean word
    confidence 0…1, None when no word has text), ``status`` (``"complete"``, or
    ``"budgetExceeded"`` when a time limit cut it short), the tree (:attr:`blocks`, and
    :attr:`lines`, :attr:`words`, :attr:`characters` flattened), the frame's size, the region
    read, ``orientation`` (how the stored image was turned), :attr:`timings`, :attr:`decisions`
    (the automatic mode's, or None when it did not run), and ``file`` (the path, for a request by
    path). ``to_dict()`` is the JSON object as the worker wrote it; ``json()`` its text.
    """
    text: str
    confidence: Optional[float]
    status: str
    frame: Optional[Size]
    region: Optional[Rect]
    orientation: Optional[str]
    backend: Optional[str]
    file: Optional[str] = None
    elapsed_ms: Optional[float] = None
    """The worker's time for the request: reading it to writing the response (the response's ``ms``)."""
    _raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)
    _text: Optional[str] = field(default=None, repr=False, compare=False)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], *, elapsed_ms: float | None = None, raw_json: str | None = None) -> "Result":
        """A result from the JSON object of ``frameocr recognize --format json`` (or a response's
        ``result``); ``raw_json`` is its text when the caller has it."""
        frame = d.get("frame")
        return cls(
            text=d.get("text", ""), confidence=d.get("confidence"), status=d.get("status", "complete"),
            frame=Size(frame["width"], frame["height"]) if frame else None, region=Rect.from_dict(d.get("region")),
            orientation=d.get("orientation"), backend=d.get("backend"), file=d.get("file"),
            elapsed_ms=elapsed_ms, _raw=d, _text=raw_json)

    @cached_property
    def blocks(self) -> Tuple[Block, ...]:
        """The blocks, each with its lines, words and characters."""
        return tuple(Block.from_dict(b) for b in self._raw.get("blocks") or ())

    @property
    def lines(self) -> Tuple[Line, ...]:
        """Every line, in reading order."""
        return tuple(line for b in self.blocks for line in b.lines)

    @property
    def words(self) -> Tuple[Word, ...]:
        """Every word, in reading order."""
        return tuple(w for line in self.lines for w in line.words)

    @property
    def characters(self) -> Tuple[Character, ...]:
        """Every character (symbol), in reading order, with its alternates."""
        return tuple(c for w in self.words for c in w.characters)

    @cached_property
    def timings(self) -> Timings:
        return Timings.from_dict(self._raw.get("timings"))

    @cached_property
    def decisions(self) -> Optional[Decisions]:
        """The automatic preprocessing's measurements and decisions, None when it did not run."""
        return Decisions.from_dict(self._raw.get("preprocessing"))

    @property
    def region_clamped(self) -> bool:
        return bool(self._raw.get("regionClamped", False))

    @property
    def scale(self) -> Tuple[float, float]:
        """Output pixels per frame pixel, (x, y)."""
        s = self._raw.get("scale") or {}
        return (s.get("x", 1), s.get("y", 1))

    @property
    def skew_degrees(self) -> Optional[float]:
        """The skew turned back, degrees clockwise (None: not corrected)."""
        return self._raw.get("skewDegrees")

    @property
    def backend_fallback(self) -> Optional[str]:
        return self._raw.get("backendFallback")

    def to_dict(self) -> Mapping[str, Any]:
        """The JSON object as the worker wrote it (docs/json.md). Shared, not copied: do not
        change it."""
        return self._raw

    def json(self) -> str:
        """The JSON text of :meth:`to_dict`: as the worker wrote it when the result came from one."""
        return self._text if self._text is not None else json.dumps(self._raw, ensure_ascii=False)

    def __str__(self) -> str:
        return self.text
