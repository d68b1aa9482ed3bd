"""The protocol's text side without a worker: response lines, options as request keys and as
command-line flags, errors by code."""

from __future__ import annotations

import datetime

import numpy as np
import pytest

import frameocr
from frameocr._protocol import command_flags, duration, parse_response, request_options
from frameocr.errors import error_from_response


def test_parse_response_keeps_the_result_text():
    result = '{"text": "a \\"b\\"\\n\u00e9", "confidence": 0.5, "words": [{"box": [1, 2, 3, 4]}]}'
    for version in (1, 2):
        line = (f'{{"protocol":{version},"id":"x\\",\\"result\\":1","status":"ok","ms":2.5,"result":' + result
                + '}').encode()
        response, raw = parse_response(line)
        assert raw == result and response["id"] == 'x","result":1' and response["result"]["confidence"] == 0.5
    response, raw = parse_response(b' { "status" : "error" , "error" : {"code": "io"} } \n')
    assert raw is None and response["error"]["code"] == "io"
    for bad in (b"", b"[1]", b'{"a":1} x', b'{"a" 1}', b'{"a":1', b'{1:2}', b'{"a":1,}', b"\xff", b"{} x"):
        with pytest.raises(ValueError):
            parse_response(bad)


def test_request_options():
    assert request_options({"psm": 7, "scan_region": (10, 20, 80, 30), "no_auto": True, "lang": None}) == {
        "psm": 7, "scanRegion": [10, 20, 80, 30], "noAuto": True}
    assert request_options({"orientation": 6, "roi": "1,2,3,4", "roi_normalized": np.array([0, 0, 0.5, 0.5])}) == {
        "orientation": "6", "roi": "1,2,3,4", "roiNormalized": [0.0, 0.0, 0.5, 0.5]}
    assert request_options({"some_new_key": np.int64(3)}) == {"someNewKey": 3}
    with pytest.raises(frameocr.BadRequest):
        request_options({"path": "x"})
    with pytest.raises(frameocr.BadRequest):
        request_options({"roi": (1, 2, 3)})


def test_command_flags_and_durations():
    assert command_flags({"psm": 6, "no_auto": True, "strict_roi": False, "roi": (0, 0, 10, 10), "tessdata": None,
                          "time_limit": 2, "budget": datetime.timedelta(milliseconds=40)}) == [
        "--psm", "6", "--no-auto", "--roi", "0,0,10,10", "--time-limit", "2000ms", "--budget", "40ms"]
    assert duration(0.04) == "40ms" and duration(1.5) == "1500ms" and duration("none") == "none"
    assert duration(0.0005) == "0.5ms"


def test_errors_by_code():
    e = error_from_response({"code": "imageTooLarge", "stage": "buffer", "message": "too big"})
    assert type(e) is frameocr.ImageTooLarge and e.code == "imageTooLarge" and e.stage == "buffer"
    assert str(e) == "imageTooLarge (buffer): too big"
    e = error_from_response({"code": "somethingNew", "message": "x"})
    assert type(e) is frameocr.FrameOCRError and e.code == "somethingNew"
    assert issubclass(frameocr.IOFailure, OSError) and issubclass(frameocr.WorkerTimeout, TimeoutError)
    assert issubclass(frameocr.WorkerTimeout, frameocr.WorkerDied)


def test_result_from_a_dict():
    d = {"text": "A", "confidence": None, "status": "complete", "frame": {"width": 4, "height": 2},
         "blocks": [{"text": "A", "confidence": None, "box": None, "lines": [
             {"text": "A", "confidence": 0.9, "paragraph": 0, "box": {
                 "x": 0, "y": 0, "width": 2, "height": 2, "quad": [[0, 0], [2, 0], [2, 2], [0, 2]],
                 "normalized": {"x": 0, "y": 0, "width": 0.5, "height": 1,
                                "quad": [[0, 0], [0.5, 0], [0.5, 1], [0, 1]]}},
              "words": [{"text": "A", "confidence": 0.9, "engine": "ctc", "box": None, "symbols": [
                  {"text": "A", "confidence": 0.9, "box": None,
                   "alternates": [{"text": "A", "confidence": 0.9}, {"text": "4", "confidence": 0.01}]}]}]}]}]}
    r = frameocr.Result.from_dict(d)
    assert r.confidence is None and r.frame == frameocr.Size(4, 2) and r.decisions is None
    assert r.lines[0].box.quad[2] == (2, 2) and r.lines[0].box.normalized.width == 0.5
    assert r.words[0].engine == "ctc" and r.characters[0].alternates[1] == frameocr.Alternate("4", 0.01)
    assert r.to_dict() is d and r.timings.total_ms is None
