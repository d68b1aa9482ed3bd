"""Live reading of a video, camera or stream: ``frameocr video SOURCE --format jsonl`` as an
iterator of results with tracks and track events.

``frameocr video`` writes one JSON object per frame result (docs/cli.md, ``frameocr video``):
``frame``, ``timestampMs``, ``status``, ``gate``, ``text``, ``tracks``, ``linesRead``, ``backend``,
``timingsMs``, ``error`` and ``recognition``; with ``--events`` (which :meth:`Reader.video` passes
for live reading) also the processor's own track events (VisionKit's added / updated / removed,
and confirmed: the text format's ``+ ~ = -`` lines) as lines ``{"event", "frame", "track"}``
among them. The two come from the processor on two streams, so an event may be written just
before or just after the result of its frame: each result carries the events read since the
previous result, and the events after the last result (the removals at the end of the stream)
are :attr:`VideoStream.ended_events`.
"""

from __future__ import annotations

import asyncio
import collections
import json
import os
import signal
import subprocess
import tempfile
import threading
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, AsyncIterator, Iterator, Mapping, Optional, Tuple

from .errors import FrameOCRError, VideoFailed, error_from_response
from .result import Box, Result

__all__ = ["Track", "TrackEvent", "VideoResult", "VideoStream"]


@dataclass(frozen=True)
class Track:
    """A line of text followed from frame to frame: a stable ``id``, the consensus ``text`` of its
    readings, ``confidence`` and ``agreement`` (0…1), ``state`` (``"new"``, ``"confirmed"``,
    ``"lost"``), how many ``readings``, its ``box`` (upright-frame pixels and normalized; the text
    detector's quad for a scene line only it found), the stream timestamps in milliseconds it was
    first and last seen at, the ``engine`` of its latest reading (``"tesseract"`` or ``"ctc"``;
    None before one) and whether the text detector found it (``detected``)."""
    id: int
    text: str
    confidence: Optional[float]
    agreement: Optional[float]
    state: str
    readings: int
    box: Optional[Box]
    first_seen_ms: Optional[float]
    last_seen_ms: Optional[float]
    engine: Optional[str] = None
    detected: bool = False

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Track":
        return cls(int(d["id"]), d.get("text", ""), d.get("confidence"), d.get("agreement"), d.get("state", "new"),
                   int(d.get("readings", 0)), Box.from_dict(d.get("box")), d.get("firstSeenMs"), d.get("lastSeenMs"),
                   d.get("engine"), bool(d.get("detected", False)))


@dataclass(frozen=True)
class TrackEvent:
    """A change of the tracks, as the processor reported it: ``kind`` is ``"added"``,
    ``"updated"``, ``"confirmed"`` or ``"removed"``; ``track`` the track as it was then; ``frame``
    the track's last frame seen and ``timestamp_ms`` when it was last seen (a removal's: the
    frame it was last read in, not the frame it was removed at)."""
    kind: str
    track: Track
    frame: Optional[int]
    timestamp_ms: Optional[float]

    @property
    def symbol(self) -> str:
        """The text format's sign for it: ``+``, ``~``, ``=`` or ``-``."""
        return {"added": "+", "updated": "~", "confirmed": "=", "removed": "-"}[self.kind]

    def __str__(self) -> str:
        seconds = (self.timestamp_ms or 0) / 1000
        return f"{self.symbol} {seconds:.2f} #{self.track.id} {self.track.text}"


@dataclass(frozen=True)
class VideoResult:
    """One frame's result: ``frame`` (the frame's number), ``timestamp_ms``, ``status``
    (``"complete"``, ``"budgetExceeded"``, ``"failed"``…), ``gate`` (``"read"``, ``"reused"``,
    ``"blurred"``; None when reading whole frames), ``text`` (the tracks' texts, one per line),
    ``tracks``, ``events`` (what changed with this result), ``lines_read``, ``timings_ms`` (per
    stage), ``error`` (a :class:`FrameOCRError`, or None) and :attr:`recognition` (the frame's
    recognition tree as a :class:`Result`). ``to_dict()`` is the JSON object as written."""
    frame: int
    timestamp_ms: Optional[float]
    status: str
    text: str
    gate: Optional[str]
    tracks: Tuple[Track, ...]
    events: Tuple[TrackEvent, ...]
    lines_read: Optional[int]
    backend: Optional[str]
    timings_ms: Mapping[str, float]
    error: Optional[FrameOCRError]
    _raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @cached_property
    def recognition(self) -> Optional[Result]:
        r = self._raw.get("recognition")
        return Result.from_dict(r) if isinstance(r, dict) else None

    def to_dict(self) -> Mapping[str, Any]:
        return self._raw


def _error(value: Any) -> Optional[FrameOCRError]:
    if value is None:
        return None
    if isinstance(value, dict):
        return error_from_response(value)
    return FrameOCRError(str(value))


_DONE = object()


class VideoStream:
    """A running ``frameocr video … --format jsonl``: iterate it (``for result in stream``, or
    ``async for``) for :class:`VideoResult` as they arrive, or :meth:`events` for the track events
    alone (the end-of-stream removals included).

    When the source ends the iteration ends; a source that failed (cannot be opened, stalled, a
    frame failed) raises :class:`VideoFailed` with what ``frameocr`` said. :meth:`close` (or leaving
    a ``with`` block) stops a live source early: ``frameocr`` gets SIGINT, as from Ctrl-C.
    After the end, :attr:`stats` holds ``--stats-json``'s figures (frames processed, dropped,
    per-stage latency, tracks added and removed, the source) and :attr:`ended_events` the
    removals at the end of the stream.
    """

    def __init__(self, argv: list[str], env: Mapping[str, str]):
        fd, self._stats_path = tempfile.mkstemp(prefix="frameocr-video-", suffix=".json")
        os.close(fd)
        self.argv = [*argv, "--stats-json", self._stats_path]
        self._popen = subprocess.Popen(self.argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(env))
        self._stderr: collections.deque[str] = collections.deque(maxlen=200)
        self._stderr_thread = threading.Thread(target=self._read_stderr, daemon=True,
                                               name=f"frameocr-video-stderr-{self._popen.pid}")
        self._stderr_thread.start()
        self._pending: list[TrackEvent] = []
        self._lock = threading.Lock()
        self._finished = False
        self._stopped = False
        self.stats: Optional[dict] = None
        self.returncode: Optional[int] = None
        self.ended_events: Tuple[TrackEvent, ...] = ()

    @property
    def pid(self) -> int:
        return self._popen.pid

    @property
    def report(self) -> str:
        """What ``frameocr video`` wrote on standard error: its latency report (and any warning)."""
        self._stderr_thread.join(timeout=0 if self.returncode is None else 5)
        return "\n".join(self._stderr)

    def _read_stderr(self) -> None:
        try:
            for line in self._popen.stderr:
                self._stderr.append(line.decode("utf-8", "replace").rstrip("\n"))
        except (OSError, ValueError):
            pass

    # ------------------------------------------------------------ iteration

    def _next(self) -> Any:
        with self._lock:
            if self._finished:
                return _DONE
            while True:
                try:
                    line = self._popen.stdout.readline()
                except (OSError, ValueError):
                    line = b""
                if not line:
                    self._finish()
                    return _DONE
                d = json.loads(line)
                if "event" not in d:
                    break
                # A track event: kept for the next result.
                track = Track.from_dict(d["track"])
                self._pending.append(TrackEvent(d["event"], track, d.get("frame"), track.last_seen_ms))
            tracks = tuple(Track.from_dict(t) for t in d.get("tracks") or ())
            frame = int(d.get("frame", 0))
            events, self._pending = tuple(self._pending), []
            return VideoResult(
                frame=frame, timestamp_ms=d.get("timestampMs"), status=d.get("status", "complete"),
                text=d.get("text", ""), gate=d.get("gate"), tracks=tracks, events=events,
                lines_read=d.get("linesRead"), backend=d.get("backend"), timings_ms=d.get("timingsMs") or {},
                error=_error(d.get("error")), _raw=d)

    def _finish(self) -> None:
        self.returncode = self._popen.wait()
        self._finished = True
        self.ended_events, self._pending = tuple(self._pending), []
        self._stderr_thread.join(timeout=5)
        try:
            with open(self._stats_path, encoding="utf-8") as f:
                self.stats = json.load(f)
        except (OSError, ValueError):
            self.stats = None
        finally:
            try:
                os.unlink(self._stats_path)
            except OSError:
                pass
        if self.returncode != 0 and not self._stopped:
            lines = [line for line in self._stderr if line.startswith("frameocr:")] or list(self._stderr)[-3:]
            message = " ".join(lines) or f"exit status {self.returncode}"
            raise VideoFailed(message, stage=None)

    def __iter__(self) -> Iterator[VideoResult]:
        return self

    def __next__(self) -> VideoResult:
        item = self._next()
        if item is _DONE:
            raise StopIteration
        return item

    def __aiter__(self) -> AsyncIterator[VideoResult]:
        return self

    async def __anext__(self) -> VideoResult:
        item = await asyncio.get_running_loop().run_in_executor(None, self._next)
        if item is _DONE:
            raise StopAsyncIteration
        return item

    def events(self) -> Iterator[TrackEvent]:
        """The track events alone, in order, the removals at the end of the stream included."""
        for result in self:
            yield from result.events
        yield from self.ended_events

    async def events_async(self) -> AsyncIterator[TrackEvent]:
        """:meth:`events` for ``async for``."""
        async for result in self:
            for event in result.events:
                yield event
        for event in self.ended_events:
            yield event

    # ------------------------------------------------------------ stopping

    def close(self, timeout: float = 10.0) -> None:
        """Stops the stream: SIGINT (``frameocr`` stops reading the source and finishes the frames
        it read), the results not read are let go, and after ``timeout`` seconds the process is
        killed. Nothing is raised for the exit status of a stream stopped here."""
        if self._finished:
            return
        self._stopped = True
        if self._popen.poll() is None:
            try:
                self._popen.send_signal(signal.SIGINT)
            except OSError:
                pass
        drain = threading.Thread(target=self._drain, daemon=True)
        drain.start()
        try:
            self._popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self._popen.kill()
            self._popen.wait()
        drain.join(timeout=5)
        with self._lock:
            if not self._finished:
                self._finish()

    def _drain(self) -> None:
        try:
            while self._popen.stdout.read(1 << 16):
                pass
        except (OSError, ValueError):
            pass

    def __enter__(self) -> "VideoStream":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    async def __aenter__(self) -> "VideoStream":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await asyncio.get_running_loop().run_in_executor(None, self.close)

    def __del__(self) -> None:
        popen = getattr(self, "_popen", None)
        if popen is not None and popen.poll() is None:
            try:
                popen.kill()
            except OSError:
                pass
