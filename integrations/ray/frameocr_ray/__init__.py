"""FrameOCR on Ray Data: OCR of large archives with long-lived ``frameocr serve --stdio`` workers.

Each Ray actor owns one ``frameocr serve --stdio --workers 1`` process, so its Tesseract engine
is loaded once, driven by the ``frameocr`` Python package (``integrations/python``,
``docs/python.md``): a :class:`frameocr.Reader` with one worker. This module only turns Ray's
batches into requests and results into columns::

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

import math
import os
import sys
from typing import Any, Iterable, Mapping

try:
    import frameocr
except ImportError:  # running from a checkout without `pip install ./integrations/python`
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python", "src"))
    import frameocr

from frameocr import FrameOCRError, Reader, WorkerDied

__all__ = ["FrameOCR", "WorkerDied"]


def _row_error(error: FrameOCRError) -> str:
    return f"{error.code}: {error.message}"


class FrameOCR:
    """A callable class for ``ray.data.Dataset.map_batches(FrameOCR, compute=ActorPoolStrategy(size=N))``.

    Takes a batch with a ``path`` column (image files every node can read) or a ``bytes`` column
    (image file bytes, as ``ray.data.read_binary_files`` makes them; ``bytes`` wins when both
    are there) and returns it with ``text``, ``confidence``, ``error`` and ``result`` added.

    - ``executable``: the ``frameocr`` binary (default ``$FRAMEOCR``, then ``PATH``).
    - ``options``: recognize's options for every request, as the protocol's keys or the
      package's keywords (``{"psm": 6, "noAuto": True, "lang": "eng+deu"}``).
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
        # lang and engine None: the server's defaults, or what `args` say.
        self.reader = Reader(workers=1, lang=None, engine=None, executable=executable, timeout=timeout,
                             retries=retries, args=args)

    def __del__(self):
        reader = getattr(self, "reader", None)
        if reader is not None:
            try:
                reader.close()
            except Exception:
                pass

    def recognize(self, path: str | None = None, data: bytes | None = None) -> tuple[str, float, str | None, str | None]:
        """One image: (text, confidence, error, result JSON as the worker wrote it)."""
        image = data if data is not None else path
        if image is None:
            return "", math.nan, "badRequest: the row has no path and no bytes", None
        try:
            result = self.reader.recognize(bytes(image) if data is not None else str(image), **self.options)
        except FrameOCRError as error:
            return "", math.nan, _row_error(error), None
        confidence = math.nan if result.confidence is None else float(result.confidence)
        return result.text, confidence, None, result.json()

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
