"""The Reader: results against the CLI's JSON, options, errors, limits, a killed worker, a
timeout, concurrency from threads and from asyncio, closing."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import threading
import time

import numpy as np
import pytest

import frameocr

from conftest import FRAMEOCR, cli_text, fixture, load_rgb

TEST_LA = fixture("test_la.png")
PHOTOTEST = fixture("phototest.tif")
TESTOCR = fixture("testocr.png")
SMALL = [fixture(n) for n in ("test_la.png", "r01-mixed-polarity.png", "testocr.png", "phototest.tif")]


def cli_json(path: str, *args: str) -> dict:
    out = subprocess.run([FRAMEOCR, "recognize", path, "--format", "json", *args], capture_output=True, check=True)
    return json.loads(out.stdout)


def _strip_timings(d):
    if isinstance(d, dict):
        return {k: _strip_timings(v) for k, v in d.items() if k not in ("timings",)}
    if isinstance(d, list):
        return [_strip_timings(x) for x in d]
    return d


# ------------------------------------------------------------------ results

def test_result_mirrors_the_cli_json(reader):
    expected = cli_json(PHOTOTEST)
    r = reader.recognize(PHOTOTEST)
    assert _strip_timings(r.to_dict()) == _strip_timings(expected)
    assert json.loads(r.json()) == r.to_dict()
    assert r.text == expected["text"] and r.confidence == expected["confidence"]
    assert r.status == "complete" and r.frame == frameocr.Size(640, 480)
    assert [b.text for b in r.blocks] == [b["text"] for b in expected["blocks"]]
    lines = [line for b in expected["blocks"] for line in b["lines"]]
    assert [line.text for line in r.lines] == [line["text"] for line in lines]
    assert " ".join(w.text for w in r.words) == " ".join(w["text"] for line in lines for w in line["words"])
    w0, e0 = r.words[0], lines[0]["words"][0]
    assert (w0.box.x, w0.box.y, w0.box.width, w0.box.height) == tuple(e0["box"][k] for k in ("x", "y", "width", "height"))
    assert w0.box.quad == tuple(tuple(p) for p in e0["box"]["quad"])
    assert w0.box.normalized.x == e0["box"]["normalized"]["x"]
    assert w0.engine == e0["engine"]
    assert "".join(c.text for c in w0.characters) == w0.text
    assert r.timings.total_ms > 0 and r.elapsed_ms >= r.timings.total_ms * 0.5
    assert r.decisions is not None and r.decisions.reasons == tuple(expected["preprocessing"]["reasons"])
    assert str(r) == r.text


def test_alternates_and_options(reader):
    r = reader.recognize(TEST_LA, alternates=2, psm=7, no_auto=True)
    assert r.text == cli_text(TEST_LA, "--alternates", "2", "--psm", "7", "--no-auto")
    assert r.decisions is None                          # no automatic preprocessing
    for c in r.characters:
        assert 1 <= len(c.alternates) <= 2 and c.alternates[0].text == c.text
    region = reader.recognize(TESTOCR, roi=(0, 0, 640, 100))
    assert region.region == frameocr.Rect(0, 0, 640, 100)
    assert region.text == cli_text(TESTOCR, "--roi", "0,0,640,100")
    assert reader.render(TEST_LA, "text") == cli_text(TEST_LA)
    assert reader.render(TEST_LA, "hocr").lstrip().startswith("<?xml")
    assert "\tThis" in reader.render(TEST_LA, "tsv")


def test_map_keeps_order_and_returns_errors(reader):
    paths = SMALL + [fixture("missing.png")] + SMALL[:2]
    out = list(reader.map(paths, return_exceptions=True))
    assert [o.text for o in out[:4]] == [cli_text(p) for p in SMALL]
    assert isinstance(out[4], frameocr.IOFailure) and isinstance(out[4], OSError)
    assert [o.text for o in out[5:]] == [cli_text(p) for p in SMALL[:2]]
    with pytest.raises(frameocr.IOFailure):
        list(reader.map([fixture("missing.png")]))


# ------------------------------------------------------------------ errors

def test_errors_are_typed(reader, tmp_path):
    corrupt = tmp_path / "corrupt.png"
    corrupt.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    with pytest.raises(frameocr.DecodeError) as info:
        reader.recognize(str(corrupt))
    assert info.value.code == "decode" and info.value.stage == "load" and "corrupt.png" in info.value.message
    with pytest.raises(frameocr.DecodeError):
        reader.recognize(b"not an image")
    with pytest.raises(frameocr.IOFailure) as info:
        reader.recognize(str(tmp_path / "missing.png"))
    assert info.value.code == "io" and isinstance(info.value, OSError)
    with pytest.raises(frameocr.BadRequest, match="unknown key 'bogusOption'"):
        reader.recognize(TEST_LA, bogus_option=1)
    with pytest.raises(frameocr.FrameOCRError) as info:
        reader.recognize(TEST_LA, psm=99)
    assert info.value.code in ("badRequest", "invalidParameter")
    # After all of these the worker still answers.
    assert reader.recognize(TEST_LA).text == "This is test message"
    import pickle
    e = pickle.loads(pickle.dumps(frameocr.DecodeError("bad", stage="load")))
    assert type(e) is frameocr.DecodeError and e.code == "decode" and str(e) == "decode (load): bad"


def test_limits_answered_and_the_stream_stays_in_step(frameocr_path):
    with frameocr.Reader(workers=1, max_pixels=100_000, max_request_bytes=300_000) as r:
        big = np.zeros((400, 400), np.uint8)                        # 160,000 pixels
        with pytest.raises(frameocr.ImageTooLarge):
            r.recognize(big)
        wide = np.zeros((200, 400, 4), np.uint8)                    # 80,000 pixels, 320,000 bytes
        with pytest.raises(frameocr.FrameOCRError) as info:
            r.recognize(wide)
        assert info.value.code in ("badRequest", "imageTooLarge")
        with pytest.raises(frameocr.ImageTooLarge):
            r.recognize(TESTOCR)                                    # 307,200 pixels, from its header
        assert r.recognize(TEST_LA).text == "This is test message"  # the payloads were skipped


def test_a_bad_server_option_is_a_bad_request(frameocr_path):
    with frameocr.Reader(workers=1, psm=99) as r:
        with pytest.raises(frameocr.BadRequest, match="psm"):
            r.recognize(TEST_LA)


def test_missing_program():
    with pytest.raises(frameocr.WorkerDied, match="cannot start"):
        frameocr.Reader(executable="/nonexistent/frameocr")


# ------------------------------------------------------------------ a worker that dies

def test_killed_worker_is_restarted(frameocr_path):
    with frameocr.Reader(workers=2) as r:
        assert r.recognize(TEST_LA).text == "This is test message"
        first = r.pid
        os.kill(first, signal.SIGKILL)          # killed while idle: the next request starts one
        time.sleep(0.3)
        assert r.recognize(TEST_LA).text == "This is test message"
        assert r.restarts == 1 and r.pid != first and "signal 9" in r.last_exit
        # Killed with two requests in flight: both are sent again to a new process.
        futures = [r.submit(PHOTOTEST), r.submit(TESTOCR)]
        time.sleep(0.05)
        os.kill(r.pid, signal.SIGKILL)
        assert [f.result(timeout=60).text for f in futures] == [cli_text(PHOTOTEST), cli_text(TESTOCR)]
        assert r.restarts == 2


def test_timeout_stops_the_worker_and_gives_up_after_the_retry(frameocr_path):
    with frameocr.Reader(workers=1, timeout=0.02) as r:
        with pytest.raises(frameocr.WorkerTimeout):
            r.recognize(PHOTOTEST)
        assert r.restarts >= 1
        r.timeout = None
        assert r.recognize(TEST_LA).text == "This is test message"


# ------------------------------------------------------------------ concurrency

def test_many_threads(reader):
    expected = {p: cli_text(p) for p in SMALL}
    frame = np.ascontiguousarray(load_rgb(TESTOCR)[..., ::-1])
    errors: list[BaseException] = []
    results: list[tuple[str, str]] = []
    lock = threading.Lock()

    def work(k: int) -> None:
        try:
            for i in range(3):
                p = SMALL[(k + i) % len(SMALL)]
                x = frame if (k + i) % 5 == 0 else p
                text = reader.recognize(x).text
                with lock:
                    results.append((TESTOCR if x is frame else p, text))
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    assert len(results) == 24
    for p, text in results:
        assert text == expected[p], p


def test_asyncio(reader):
    expected = {p: cli_text(p) for p in SMALL}
    frame = np.ascontiguousarray(load_rgb(TESTOCR)[..., ::-1])

    async def main():
        ticks = 0
        stop = asyncio.Event()

        async def ticker():
            nonlocal ticks
            while not stop.is_set():
                ticks += 1
                await asyncio.sleep(0.005)

        t = asyncio.create_task(ticker())
        items = SMALL * 3 + [frame, frame]
        results = await asyncio.gather(*(reader.recognize_async(x) for x in items))
        stop.set()
        await t
        return items, results, ticks

    items, results, ticks = asyncio.run(main())
    for x, r in zip(items, results):
        assert r.text == (expected[TESTOCR] if isinstance(x, np.ndarray) else expected[x])
    assert ticks > 20, "the event loop was blocked"


def test_async_context_and_close(frameocr_path):
    async def main():
        async with frameocr.Reader(workers=1) as r:
            text = (await r.recognize_async(TEST_LA)).text
        return r, text

    r, text = asyncio.run(main())
    assert text == "This is test message" and r.closed
    with pytest.raises(frameocr.ReaderClosed):
        r.recognize(TEST_LA)


def test_close_lets_requests_in_flight_finish(frameocr_path):
    r = frameocr.Reader(workers=2)
    pid = r.pid
    futures = [r.submit(p) for p in SMALL[:2]]
    r.close()
    assert [f.result(timeout=1).text for f in futures] == [cli_text(p) for p in SMALL[:2]]
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
