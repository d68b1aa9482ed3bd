"""FrameOCR on Ray Data: OCR of large archives with long-lived ``frameocr serve --stdio`` workers.

Each Ray actor owns one ``frameocr serve --stdio --workers 1`` process, so its Tesseract engine
is loaded once, and speaks FrameOCR's JSON Lines protocol with it (``docs/serve.md``)::

    import ray
    from frameocr_ray import FrameOCR

    ray.init(num_cpus=2)                      # or ray.init(address="auto") on a cluster
    ds = ray.data.from_items([{"path": p} for p in paths])
    ds = ds.map_batches(FrameOCR, compute=ray.data.ActorPoolStrategy(size=2), batch_size=16,
                        fn_constructor_kwargs={"options": {"psm": 6}})

(``concurrency=2`` in place of ``compute=`` on Ray before 2.51.)

Every row gets ``text`` (str), ``confidence`` (mean word confidence 0…1, NaN when none),
``error`` (None, or ``"code: message"``) and ``result`` (the recognize command's JSON, or None).
A failing image is an error row, never a failed job; a worker process that dies is started again.
"""

from __future__ import annotations

import base64
import json
import math
import os
import select
import shutil
import subprocess
from typing import Any, Iterable, Mapping

__all__ = ["FrameOCR", "ServeWorker", "WorkerDied", "PROTOCOL_VERSION"]

PROTOCOL_VERSION = 1


class WorkerDied(RuntimeError):
    """The ``frameocr serve`` process ended, or gave no answer within the timeout."""


def _find_frameocr(executable: str | None) -> str:
    if executable:
        return executable
    if os.environ.get("FRAMEOCR"):
        return os.environ["FRAMEOCR"]
    found = shutil.which("frameocr")
    if found is None:
        raise FileNotFoundError("frameocr not found: pass executable= or set $FRAMEOCR")
    return found


class ServeWorker:
    """One ``frameocr serve --stdio --workers 1`` process: one request written, one response read.

    With one worker the responses come in the order of the requests, so a request and its
    response are a round trip, and neither pipe can fill up.
    """

    def __init__(self, executable: str | None = None, args: Iterable[str] = (), timeout: float = 600.0):
        self.executable = _find_frameocr(executable)
        self.args = list(args)
        self.timeout = timeout
        self.process: subprocess.Popen | None = None
        self.starts = 0
        self._buffer = bytearray()

    @property
    def restarts(self) -> int:
        """How many times the process was started again after it died or went silent."""
        return max(0, self.starts - 1)

    def start(self) -> None:
        env = dict(os.environ)
        env.setdefault("OMP_THREAD_LIMIT", "1")  # one core per worker; Ray places the actors
        self.process = subprocess.Popen(
            [self.executable, "serve", "--stdio", "--workers", "1", *self.args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        self.starts += 1
        self._buffer = bytearray()

    def close(self) -> None:
        p, self.process = self.process, None
        if p is None:
            return
        try:
            p.stdin.close()
            p.wait(timeout=30)
        except Exception:
            p.kill()
            p.wait()

    def kill(self) -> None:
        p, self.process = self.process, None
        if p is not None:
            p.kill()
            p.wait()

    def _readline(self) -> bytes:
        fd = self.process.stdout.fileno()
        end = self._buffer.find(b"\n")
        while end < 0:
            ready, _, _ = select.select([fd], [], [], self.timeout)
            if not ready:
                raise WorkerDied(f"no response within {self.timeout} s")
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                raise WorkerDied(f"frameocr serve ended (exit status {self.process.poll()})")
            found = chunk.find(b"\n")
            if found >= 0:
                end = len(self._buffer) + found
            self._buffer += chunk
        line, self._buffer = self._buffer[:end], self._buffer[end + 1:]
        return bytes(line)

    def request(self, request: Mapping[str, Any]) -> dict:
        """Sends one request and returns its response; raises ``WorkerDied`` when the process
        is gone or silent (the process is then stopped: the next call starts a new one)."""
        return self.exchange(request)[0]

    def exchange(self, request: Mapping[str, Any]) -> tuple[dict, str | None]:
        """Like ``request``, and also returns the response's ``result`` as the JSON text the
        worker wrote (None in an error response), so that it need not be encoded again."""
        if self.process is None or self.process.poll() is not None:
            self.start()
        try:
            self.process.stdin.write((json.dumps(request) + "\n").encode())
            self.process.stdin.flush()
            # A line that is not a response counts as a dead worker.
            return _parse_response(self._readline())
        except (BrokenPipeError, OSError, WorkerDied, ValueError) as e:
            self.kill()
            raise WorkerDied(str(e)) from e


_DECODER = json.JSONDecoder()


def _parse_response(line: bytes) -> tuple[dict, str | None]:
    """A response line: (the response, the ``result`` member's JSON text as it came, or None).

    Walks the top-level object member by member with ``raw_decode`` so that the result's JSON,
    tens of kilobytes for a page, is parsed once and never encoded again. Raises ``ValueError``
    when the line is not one JSON object.
    """
    text = line.decode("utf-8")
    response: dict = {}
    raw_result = None
    i = _skip(text, 0)
    if text[i:i + 1] != "{":
        raise ValueError("a response is not a JSON object")
    i = _skip(text, i + 1)
    if text[i:i + 1] == "}":
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
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    return i


def _row(exchanged: tuple[dict, str | None] | None, failure: str | None) -> tuple[str, float, str | None, str | None]:
    if failure is not None:
        return "", math.nan, failure, None
    response, raw_result = exchanged
    if response.get("status") != "ok":
        err = response.get("error") or {}
        return "", math.nan, f"{err.get('code', 'unknown')}: {err.get('message', '')}", None
    result = response["result"]
    confidence = result.get("confidence")
    return result.get("text", ""), (math.nan if confidence is None else float(confidence)), None, raw_result


class FrameOCR:
    """A callable class for ``ray.data.Dataset.map_batches(FrameOCR, compute=ActorPoolStrategy(size=N))``.

    Takes a batch with a ``path`` column (image files every node can read) or a ``bytes`` column
    (image file bytes, as ``ray.data.read_binary_files`` makes them; ``bytes`` wins when both
    are there) and returns it with ``text``, ``confidence``, ``error`` and ``result`` added.

    - ``executable``: the ``frameocr`` binary (default ``$FRAMEOCR``, then ``PATH``).
    - ``options``: recognize's options for every request, as the protocol's keys
      (``{"psm": 6, "noAuto": True, "lang": "eng+deu"}``).
    - ``args``: extra command-line options for ``frameocr serve`` (server-side defaults such as
      ``["--tessdata", "/models"]``).
    - ``timeout``: seconds one image may take before its worker is counted dead.
    - ``retries``: how many times an image is sent again to a new process after its worker died.
    """

    def __init__(self, executable: str | None = None, options: Mapping[str, Any] | None = None,
                 args: Iterable[str] = (), timeout: float = 600.0, retries: int = 1):
        self.options = dict(options or {})
        for key in ("id", "path", "image", "format"):
            if key in self.options:
                raise ValueError(f"options may not set {key!r}")
        self.retries = retries
        self.worker = ServeWorker(executable, args, timeout)
        self.worker.start()

    def __del__(self):
        try:
            self.worker.close()
        except Exception:
            pass

    def recognize(self, path: str | None = None, data: bytes | None = None) -> tuple[str, float, str | None, str | None]:
        """One image: (text, confidence, error, result JSON)."""
        request = dict(self.options)
        if data is not None:
            request["image"] = base64.b64encode(bytes(data)).decode("ascii")
        elif path is not None:
            request["path"] = str(path)
        else:
            return _row(None, "badRequest: the row has no path and no bytes")
        request["id"] = 0
        last = None
        for _ in range(self.retries + 1):
            try:
                return _row(self.worker.exchange(request), None)
            except WorkerDied as e:
                last = e
        return _row(None, f"workerDied: {last}")

    def __call__(self, batch: dict) -> dict:
        paths = batch.get("path")
        blobs = batch.get("bytes")
        n = len(blobs) if blobs is not None else len(paths) if paths is not None else 0
        rows = [self.recognize(path=None if paths is None else paths[i],
                               data=None if blobs is None else blobs[i]) for i in range(n)]
        out = dict(batch)
        out["text"] = [r[0] for r in rows]
        out["confidence"] = [r[1] for r in rows]
        out["error"] = [r[2] for r in rows]
        out["result"] = [r[3] for r in rows]
        return out
