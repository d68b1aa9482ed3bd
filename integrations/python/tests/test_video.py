"""Live video: ``reader.video`` over the repository's clip (a 320×120 sign reading "FRAME OCR 42"
that slides across, 50 frames at 25 fps), as an iterator and an async iterator, with tracks and
their events; a source that cannot be opened; a stream stopped early."""

from __future__ import annotations

import asyncio
import time

import pytest

import frameocr

from conftest import fixture

CLIP = fixture("frame_ocr_42.mp4")


def test_video_results_tracks_and_events(reader):
    # The text detector off: it finds the frame counter in the corner too (the next test).
    with reader.video(CLIP, budget=2.0, drop="block", detect_every=0) as stream:
        results = list(stream)
    assert len(results) == 50                                   # --drop block: every frame
    assert [r.frame for r in results] == list(range(50))
    assert all(r.status == "complete" and r.error is None for r in results)
    read = [r for r in results if r.gate == "read"]
    assert read and all(r.text == "FRAME OCR 42" for r in read)
    track_ids = {t.id for r in results for t in r.tracks}
    assert track_ids == {1}
    last = results[-1].tracks[0]
    assert last.text == "FRAME OCR 42" and last.state == "confirmed" and last.readings >= 2
    assert last.box.width > 200 and 0 < last.box.normalized.width <= 1
    events = [e for r in results for e in r.events] + list(stream.ended_events)
    assert [(e.kind, e.track.text) for e in events] == [
        ("added", "FRAME OCR 42"), ("confirmed", "FRAME OCR 42"), ("removed", "FRAME OCR 42")]
    assert str(events[0]).startswith("+ 0.00 #1 FRAME OCR 42")
    assert results[0].recognition.text == "FRAME OCR 42"
    assert stream.stats["processed"] == 50 and stream.stats["tracksAdded"] == 1
    assert stream.returncode == 0


def test_video_detector_tracks(reader):
    # The detector (on by default) finds the frame counter, 14 px digits in the corner: tracks
    # read by the CTC recognizer, their box the detector's in the corner; the sign stays
    # Tesseract's. At the clip's own pace, so that the detector's runs come while its frames do.
    with reader.video(CLIP, drop="block", realtime=True) as stream:
        results = list(stream)
    tracks = {t.id: t for r in results for t in r.tracks}
    sign = [t for t in tracks.values() if t.text == "FRAME OCR 42"]
    assert len(sign) == 1 and sign[0].engine == "tesseract"
    counters = [t for t in tracks.values() if t.text != "FRAME OCR 42"]
    assert counters and any(t.detected for t in counters)
    assert all(t.engine == "ctc" and 1 <= len(t.text) <= 3 and t.box.normalized.x > 0.85 for t in counters)
    assert stream.stats["detector"]["runs"] >= 2 and stream.stats["detector"]["failed"] == 0


def test_video_events_only_and_async(reader):
    events = list(reader.video(CLIP, frames=20).events())
    assert [e.kind for e in events][0] == "added" and events[-1].kind == "removed"

    async def main():
        out = []
        async with reader.video(CLIP, whole_frames=True, drop="block", frames=10) as stream:
            async for r in stream:
                out.append(r)
        return out

    results = asyncio.run(main())
    assert len(results) == 10 and all(r.gate is None for r in results)
    assert all("FRAME OCR 42" in r.text for r in results)


def test_video_source_that_cannot_be_opened(reader, tmp_path):
    with pytest.raises(frameocr.VideoFailed, match="No such file"):
        list(reader.video(str(tmp_path / "missing.mp4")))
    with pytest.raises(frameocr.VideoFailed, match="--budget"):
        list(reader.video(CLIP, budget="soon"))


def test_video_stopped_early(reader):
    start = time.monotonic()
    stream = reader.video(CLIP, realtime=True)      # 2 s of video at its own pace
    first = next(iter(stream))
    assert first.frame == 0
    stream.close()
    assert time.monotonic() - start < 1.8
    assert stream.returncode is not None
    assert list(stream) == []
