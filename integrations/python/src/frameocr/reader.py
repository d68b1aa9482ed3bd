"""The Reader: one long-lived ``frameocr serve --stdio`` process driven from Python.

How it works (docs/serve.md is the protocol, docs/python.md the user's guide):

- One process, ``frameocr serve --stdio --workers N``, started when the Reader is made. Its
  engines stay loaded, so a request costs its recognition only.
- At most ``max_in_flight`` (default N) requests are unanswered at once: a caller past that waits
  for a slot (back-pressure), so neither pipe fills and the worker never holds more than N.
- Requests are written under one lock, each as a JSON line (and, for a raw frame, its bytes);
  one reader thread per process reads the responses and completes each request's future by its
  ``id``. Any number of threads, and asyncio tasks, can call the Reader at once.
- A process that ends (killed, crashed) while requests are in flight is started again and those
  requests are sent again, each at most ``retries`` times (default once); a process that ends
  with nothing in flight is started again by the next request.
"""

from __future__ import annotations

import asyncio
import base64
import collections
import concurrent.futures
import itertools
import json
import os
import subprocess
import threading
import weakref
from typing import Any, Iterable, Iterator, Mapping

from ._protocol import command_flags, find_frameocr, parse_response, request_options
from .errors import (BadRequest, FrameOCRError, InvalidBuffer, ReaderClosed, UnsupportedProtocol, WorkerDied,
                     WorkerTimeout, error_from_response)
from .frames import RawFrame, frame_payload, is_array
from .result import Result

__all__ = ["Reader"]

#: ``serve`` options that ``video`` does not take.
_SERVE_ONLY = {"max_request_bytes", "time_limit"}
#: What a ``serve`` answers with when its result is a string rather than a JSON object.
_OUTPUTS = {"text", "tsv", "hocr"}


class _Request:
    """A request in flight: its line and payload (kept to send again after a worker died), its
    future, the process it was last written to, and how many times it was written."""

    __slots__ = ("id", "line", "payload", "future", "sent_to", "attempts")

    def __init__(self, rid: int, line: bytes, payload: Any):
        self.id = rid
        self.line = line
        self.payload = payload
        self.future: concurrent.futures.Future = concurrent.futures.Future()
        self.sent_to: _Process | None = None
        self.attempts = 0


class _Process:
    """One ``frameocr serve`` process, a thread reading its responses and one keeping the end of
    its standard error (serve writes nothing there per request; a failure to start says why)."""

    def __init__(self, reader: "Reader", argv: list[str], env: Mapping[str, str]):
        self.popen = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      env=dict(env))
        self.stdin = self.popen.stdin
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=20)
        owner = weakref.ref(reader)
        self.reading = threading.Thread(target=self._read, args=(owner,), name=f"frameocr-reader-{self.popen.pid}",
                                        daemon=True)
        self.stderr_thread = threading.Thread(target=self._read_stderr, name=f"frameocr-stderr-{self.popen.pid}",
                                              daemon=True)
        self.stderr_thread.start()
        self.reading.start()

    @property
    def pid(self) -> int:
        return self.popen.pid

    def _read(self, owner: "weakref.ref[Reader]") -> None:
        stdout = self.popen.stdout
        try:
            for line in stdout:
                reader = owner()
                if reader is None:
                    break
                reader._on_line(self, line)
                del reader
        except (OSError, ValueError):
            pass
        reader = owner()
        if reader is not None:
            reader._on_exit(self)
        else:
            self.kill()

    def _read_stderr(self) -> None:
        try:
            for line in self.popen.stderr:
                self.stderr_tail.append(line.decode("utf-8", "replace").rstrip("\n"))
        except (OSError, ValueError):
            pass

    def kill(self) -> None:
        try:
            self.popen.kill()
        except OSError:
            pass

    def describe(self) -> str:
        """How the process ended, with the end of its standard error."""
        code = self.popen.poll()
        how = ("still running" if code is None else
               f"killed by signal {-code}" if code < 0 else f"exit status {code}")
        self.stderr_thread.join(timeout=1)
        tail = " | ".join(line for line in self.stderr_tail if line.strip())
        return f"frameocr serve (pid {self.pid}) ended: {how}" + (f"; it said: {tail}" if tail else "")


class Reader:
    """Reads text from images and frames with one long-lived ``frameocr serve --stdio`` process.

    ``Reader(workers=2, lang="eng", engine="auto")`` starts ``frameocr serve --stdio --workers 2
    --lang eng --engine auto`` once; ``recognize`` then costs a recognition, not a process start
    and a model load. Use it from any number of threads, or from asyncio
    (:meth:`recognize_async`); close it with :meth:`close` or a ``with`` block.

    - ``workers``: requests recognized at once, each on its own thread with its own engine (1…64).
    - ``lang``: languages (``"eng+deu"``); a request's ``lang=`` overrides it. ``engine``:
      ``"tesseract"``, ``"ctc"`` or ``"auto"``. None for either: the program's default.
    - ``executable``: the ``frameocr`` program (default: ``$FRAMEOCR``, then ``PATH``).
    - ``server_options``: any option of ``frameocr serve`` / ``recognize``, as keywords: ``psm=6``,
      ``no_auto=True``, ``tessdata="/models"``, ``max_pixels=…``, ``max_request_bytes=…``,
      ``time_limit=2.0`` (seconds), ``alternates=2``. They set every request's defaults.
    - ``timeout``: seconds a request may take (None: no limit); past it the process is stopped and
      the request sent again to a new one, and a second time raises :class:`WorkerTimeout`.
    - ``retries``: how many times a request is sent again after its process died (default 1).
    - ``max_in_flight``: requests written but unanswered at most (default ``workers``).
    - ``env``: extra environment for the process. ``OMP_THREAD_LIMIT`` is 1 unless set there or in
      ``os.environ``: each worker is one thread, and Tesseract's OpenMP threads would fight them.
    - ``args``: extra command-line arguments for ``frameocr serve``.
    """

    def __init__(self, workers: int = 2, lang: str | None = "eng", engine: str | None = "auto",
                 executable: str | os.PathLike | None = None, *, timeout: float | None = None, retries: int = 1,
                 max_in_flight: int | None = None, env: Mapping[str, str] | None = None, args: Iterable[str] = (),
                 **server_options: Any):
        workers = int(workers)
        if not 1 <= workers <= 64:
            raise ValueError(f"workers is 1…64, not {workers}")
        self.executable = find_frameocr(executable)
        self.workers = workers
        self.lang = lang
        self.engine = engine
        self.timeout = timeout
        self.retries = max(0, int(retries))
        self._server_options = dict(server_options)
        self._extra_args = list(args)
        common = (["--lang", lang] if lang else []) + (["--engine", engine] if engine else [])
        self._argv = [self.executable, "serve", "--stdio", "--workers", str(workers), *common,
                      *command_flags(server_options), *self._extra_args]
        self._env = dict(os.environ)
        self._env.update(env or {})
        self._env.setdefault("OMP_THREAD_LIMIT", "1")
        self._lock = threading.Lock()          # the process, the requests in flight, closing
        self._write_lock = threading.Lock()    # one request written at a time
        self._slots = threading.BoundedSemaphore(max_in_flight or workers)
        self._pending: dict[int, _Request] = {}
        self._ids = itertools.count(1)
        self._proc: _Process | None = None
        self._closed = False
        self._protocol: int | None = None      # the worker's protocol version, once asked
        self._probe_lock = threading.Lock()
        self.starts = 0
        self.last_exit: str | None = None
        """How the last process that ended ended, or None."""
        with self._lock:
            self._start_locked()

    # ----------------------------------------------------------------- public API

    @property
    def pid(self) -> int | None:
        """The process id of the running ``frameocr serve``, None between a death and the next request."""
        p = self._proc
        return p.pid if p is not None else None

    @property
    def restarts(self) -> int:
        """How many times the process was started again after it ended."""
        return max(0, self.starts - 1)

    @property
    def closed(self) -> bool:
        return self._closed

    def recognize(self, image: Any, *, format: str | None = None, **options: Any) -> Result:
        """Reads one image and returns its :class:`Result`.

        ``image`` is a path (``str`` or ``os.PathLike``, read by the worker), the bytes of an image
        file (``bytes``/``bytearray``/``memoryview``: PNG, JPEG, TIFF, BMP, PGM/PPM, WebP), a numpy
        ``uint8`` array, or a :class:`RawFrame`. Arrays: H×W or H×W×1 gray, H×W×3 BGR (OpenCV's
        order; ``format="rgb8"`` for RGB), H×W×4 BGRA (``format="rgba8"``), or (H·3/2)×W with
        ``format="nv12"`` or ``"i420"``. They are sent as raw pixels (no encoding), a crop of a
        larger frame through its row stride without a copy (frames.py says when one copy is made).

        ``options``: recognize's options for this request (``psm=7``, ``lang="deu"``,
        ``roi=(x, y, w, h)``, ``roi_normalized=…``, ``scan_region=…``, ``orientation="right"`` or
        an EXIF number, ``threshold="gaussian"``, ``whitelist="0123456789"``, ``alternates=2``,
        ``no_auto=True``, ``strict_roi=True``, ``scale=2.0``, ``dpi=…``, ``oem=…``, ``backend=…``).

        Raises the :class:`~frameocr.FrameOCRError` subclass for the worker's error code
        (:class:`DecodeError`, :class:`IOFailure`, :class:`ImageTooLarge`, :class:`BadRequest`…),
        :class:`InvalidBuffer`/:class:`UnsupportedFormat` for a bad array before anything is sent,
        :class:`WorkerDied` when the process died twice under it.
        """
        header, payload = self._request(image, format, options)
        return self._wait(self._submit(header, payload))

    async def recognize_async(self, image: Any, *, format: str | None = None, **options: Any) -> Result:
        """:meth:`recognize` for asyncio: the event loop is never blocked (waiting for a slot and
        writing a frame run on the default executor; the answer completes the awaitable)."""
        header, payload = self._request(image, format, options)
        request = await asyncio.get_running_loop().run_in_executor(None, self._submit, header, payload)
        return await self._wait_async(request)

    def submit(self, image: Any, *, format: str | None = None, **options: Any) -> "concurrent.futures.Future[Result]":
        """Sends one image and returns a future of its :class:`Result` at once, or as soon as a slot
        is free (at most ``max_in_flight`` unanswered). The reader's ``timeout`` is not applied."""
        header, payload = self._request(image, format, options)
        return self._submit(header, payload).future

    def map(self, images: Iterable[Any], *, format: str | None = None, return_exceptions: bool = False,
            **options: Any) -> Iterator[Result | FrameOCRError]:
        """Reads many images from one thread with ``max_in_flight`` of them in flight, and yields
        their results in the order given. With ``return_exceptions`` a failing image yields its
        exception instead of raising it."""
        window: collections.deque[_Request] = collections.deque()

        def take() -> Result | FrameOCRError:
            request = window.popleft()
            try:
                return self._wait(request)
            except FrameOCRError as error:
                if return_exceptions:
                    return error
                raise

        for image in images:
            try:
                header, payload = self._request(image, format, options)
            except FrameOCRError as error:
                if not return_exceptions:
                    raise
                while window:
                    yield take()
                yield error
                continue
            window.append(self._submit(header, payload))
            while window and window[0].future.done():
                yield take()
        while window:
            yield take()

    def render(self, image: Any, output: str = "text", *, format: str | None = None, **options: Any) -> str:
        """Reads one image and returns the result as ``frameocr recognize --format OUTPUT`` writes
        it: ``"text"``, ``"tsv"`` (Tesseract's TSV) or ``"hocr"``."""
        if output not in _OUTPUTS:
            raise ValueError(f"output is one of {sorted(_OUTPUTS)}, not {output!r}")
        header, payload = self._request(image, format, options)
        header["format"] = output
        return self._wait(self._submit(header, payload))

    def video(self, source: Any, budget: Any = None, **options: Any):
        """Reads a video file, a directory of frames, a camera (``"/dev/video0"`` or ``0``), a
        stream URL or a GStreamer pipeline live, with ``frameocr video SOURCE --format jsonl``:
        returns a :class:`~frameocr.VideoStream`, an iterator (and async iterator) of
        :class:`~frameocr.VideoResult` with the tracks and their events.

        ``budget``: the latency budget per frame (seconds, a ``timedelta``, or ``"40ms"``).
        ``options``: the options of ``frameocr video`` as keywords (``frames=100``, ``fps=10``,
        ``realtime=True``, ``whole_frames=True``, ``min_text_height=12``, ``detect_every=15``, ``queue=2``,
        ``drop="block"``, ``stall_timeout=5``, ``reconnect=3``, ``annotate="out.mp4"``,
        ``http="127.0.0.1:8080"``) and recognition options (``psm=7``, ``roi=…``). The reader's
        ``workers``, ``lang``, ``engine`` and options apply unless given here. The process is
        the stream's own, apart from the reader's worker.
        """
        from .video import VideoStream

        merged: dict[str, Any] = {k: v for k, v in self._server_options.items() if k not in _SERVE_ONLY}
        merged.setdefault("workers", self.workers)
        if self.lang:
            merged["lang"] = self.lang
        if self.engine:
            merged["engine"] = self.engine
        merged.update(options)
        if budget is not None:
            merged["budget"] = budget
        source = str(source) if isinstance(source, int) else os.fspath(source)
        argv = [self.executable, "video", source, "--format", "jsonl", *command_flags(merged)]
        if not merged.get("whole_frames"):
            argv.append("--events")  # the processor's own track events, as lines among the results
        return VideoStream(argv, self._env)

    def close(self, timeout: float = 30.0) -> None:
        """Stops taking requests, lets those in flight finish (their callers get their results),
        ends the process (standard input closed: it finishes and exits; killed after
        ``timeout`` seconds). Closing twice does nothing."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            proc = self._proc
        if proc is None:
            return
        with self._write_lock:
            try:
                proc.stdin.close()
            except OSError:
                pass
        try:
            proc.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.popen.wait()
        if threading.current_thread() is not proc.reading:
            proc.reading.join(timeout=5)

    def __enter__(self) -> "Reader":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    async def __aenter__(self) -> "Reader":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await asyncio.get_running_loop().run_in_executor(None, self.close)

    def __del__(self) -> None:
        # Not closed: let the process finish and go (its standard input closed), without waiting.
        proc = getattr(self, "_proc", None)
        if proc is not None and not getattr(self, "_closed", True):
            try:
                proc.stdin.close()
            except Exception:
                pass

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"pid {self.pid}"
        return f"<frameocr.Reader {self.executable} workers={self.workers} {state}>"

    # ----------------------------------------------------------------- requests

    def _request(self, image: Any, format: str | None, options: Mapping[str, Any]) -> tuple[dict, Any]:
        """The request's keys and the bytes to send after its line (None: none). Checks
        everything that can be checked here, so a bad array raises before anything is sent."""
        header = request_options(options)
        if isinstance(image, RawFrame) or is_array(image):
            keys, payload, _ = frame_payload(image, format)
            header.update(keys)
            header["protocol"] = 2
            return header, payload
        if format is not None:
            raise BadRequest("format= is the pixel format of an array or RawFrame, not of a file", stage=None)
        if isinstance(image, (str, os.PathLike)):
            header["path"] = os.fspath(image)
        elif isinstance(image, (bytes, bytearray, memoryview)):
            header["image"] = base64.b64encode(image).decode("ascii")
        else:
            raise TypeError("recognize() takes a path, the bytes of an image file, a numpy array or a RawFrame, "
                            f"not {type(image).__name__}")
        return header, None

    def _start_locked(self) -> None:
        try:
            self._proc = _Process(self, self._argv, self._env)
        except OSError as error:
            self._proc = None
            raise WorkerDied(f"cannot start {self.executable}: {error}") from error
        self.starts += 1

    def _probe_protocol(self) -> int:
        """The worker's protocol version, asked once before the first raw frame: a request of
        protocol 2 with no image is a ``badRequest`` for a worker of protocol 2 and an
        ``unsupportedProtocol`` for one of protocol 1, which must never get a frame's bytes (it
        would read them as request lines)."""
        with self._probe_lock:
            if self._protocol is None:
                try:
                    self._wait(self._submit({"protocol": 2}, None))
                    self._protocol = 2
                except UnsupportedProtocol:
                    self._protocol = 1
                except (BadRequest, InvalidBuffer):
                    self._protocol = 2
            return self._protocol

    def _submit(self, header: dict, payload: Any) -> _Request:
        if self._closed:
            raise ReaderClosed("the reader is closed")
        if payload is not None and self._probe_protocol() < 2:
            raise UnsupportedProtocol(
                f"{self.executable} speaks protocol 1; raw frames (numpy arrays, RawFrame) need protocol 2: "
                "a newer frameocr, or the frame encoded as an image file", stage=None)
        self._slots.acquire()
        try:
            with self._lock:
                if self._closed:
                    raise ReaderClosed("the reader is closed")
                rid = next(self._ids)
                header["id"] = rid
                line = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
                request = _Request(rid, line, payload)
                if self._proc is None:
                    self._start_locked()
                self._pending[rid] = request
        except BaseException:
            self._slots.release()
            raise
        request.future.add_done_callback(self._release_slot)
        self._send(request)
        return request

    def _release_slot(self, _: Any) -> None:
        self._slots.release()

    def _send(self, request: _Request) -> None:
        """Writes the request to the current process unless it was written to it already. A write
        that fails (the process died) is left to that process's reader thread: it sees the end
        and sends the request again to the next process."""
        with self._write_lock:
            proc = self._proc
            if proc is None or request.sent_to is proc or request.future.done():
                return
            request.sent_to = proc
            request.attempts += 1
            try:
                proc.stdin.write(request.line)
                if request.payload is not None:
                    proc.stdin.write(request.payload)
                proc.stdin.flush()
            except (OSError, ValueError):
                pass

    def _wait(self, request: _Request) -> Any:
        if self.timeout is None:
            return request.future.result()
        while True:
            try:
                return request.future.result(self.timeout)
            except concurrent.futures.TimeoutError:
                if request.future.done():  # the request's own error is a TimeoutError too
                    raise
                self._expire(request)

    async def _wait_async(self, request: _Request) -> Any:
        future = asyncio.wrap_future(request.future)
        if self.timeout is None:
            return await future
        while True:
            try:
                return await asyncio.wait_for(asyncio.shield(future), self.timeout)
            except asyncio.TimeoutError:
                if future.done():
                    raise
                self._expire(request)

    def _expire(self, request: _Request) -> None:
        """A request ran past the timeout: its process is stopped (the request goes to the next
        one), or, when it had its retries, it fails with WorkerTimeout."""
        with self._lock:
            if request.future.done():
                return
            proc = request.sent_to
            if request.attempts > self.retries:
                self._pending.pop(request.id, None)
                failed = True
            else:
                failed = False
        if failed:
            _fail(request, WorkerTimeout(f"no answer within {self.timeout} s, {request.attempts} times"))
        if proc is not None:
            proc.kill()

    # ----------------------------------------------------------------- the reader thread

    def _on_line(self, proc: _Process, line: bytes) -> None:
        try:
            response, raw_result = parse_response(line)
        except ValueError:
            # Not a response: the process is not speaking the protocol; stop it (its requests go
            # to the next one).
            proc.kill()
            return
        rid = response.get("id")
        with self._lock:
            request = self._pending.pop(rid, None) if isinstance(rid, int) else None
            if request is None and rid is None:
                # A request the worker could not read the id of (a line over its limit): the
                # oldest one written to this process.
                mine = [r for r in self._pending.values() if r.sent_to is proc]
                if mine:
                    request = self._pending.pop(min(mine, key=lambda r: r.id).id)
        if request is None:
            return  # the answer to a request already given up on
        if response.get("status") == "ok":
            result = response.get("result")
            if isinstance(result, dict):
                value: Any = Result.from_dict(result, elapsed_ms=response.get("ms"), raw_json=raw_result)
            else:
                value = result
            _resolve(request, value)
        else:
            error = error_from_response(response.get("error"))
            if isinstance(error, UnsupportedProtocol):
                error = UnsupportedProtocol(
                    f"{error.message} — {self.executable} is older than protocol 2, which raw frames (numpy arrays, "
                    "RawFrame) need; paths and image bytes work with it", code=error.code, stage=error.stage)
            _fail(request, error)

    def _on_exit(self, proc: _Process) -> None:
        """``proc``'s standard output ended: it exited or was killed. Requests in flight go to a
        new process, each at most ``retries`` times more; the rest fail with WorkerDied."""
        try:
            proc.popen.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.popen.wait()
        how = proc.describe()
        retry: list[_Request] = []
        failed: list[tuple[_Request, FrameOCRError]] = []
        with self._lock:
            if self._proc is not proc:
                return
            self.last_exit = how
            self._proc = None
            requests = list(self._pending.values())
            if self._closed or not requests:
                for r in requests:
                    failed.append((r, ReaderClosed(f"the reader was closed; {how}") if self._closed else WorkerDied(how)))
                self._pending.clear()
            elif proc.popen.returncode == 2:
                # Exit status 2 is a usage error: the reader's own options are wrong. Retrying
                # would say the same.
                message = " ".join(line for line in proc.stderr_tail if line.strip()) or how
                for r in requests:
                    failed.append((r, BadRequest(message, stage=None)))
                self._pending.clear()
            else:
                for r in requests:
                    if r.attempts > self.retries:
                        self._pending.pop(r.id)
                        failed.append((r, WorkerDied(f"{how} (the request was sent {r.attempts} times)")))
                    else:
                        retry.append(r)
                if retry:
                    try:
                        self._start_locked()
                    except WorkerDied as error:
                        for r in retry:
                            self._pending.pop(r.id, None)
                            failed.append((r, error))
                        retry = []
        for r, error in failed:
            _fail(r, error)
        for r in retry:
            self._send(r)


def _resolve(request: _Request, value: Any) -> None:
    if not request.future.done():
        try:
            request.future.set_result(value)
        except concurrent.futures.InvalidStateError:
            pass


def _fail(request: _Request, error: BaseException) -> None:
    if not request.future.done():
        try:
            request.future.set_exception(error)
        except concurrent.futures.InvalidStateError:
            pass
