#!/usr/bin/env python3
"""Scores a live reading of a scene video (tools/scene-video.sh) against the same engine's
readings of its photos as stills (docs/live.md#the-detector-on-live-frames).

Words are compared as tokens: runs of letters and digits, upper-cased, of two characters or more.
A ground-truth token is read live when some track of the run (any result's `tracks`) holds it,
and read as a still when the reading of its photo does. Prints the counts, the ratio live/stills,
the frames over budget and the p99 of the total latency.

Usage: tools/live-scene-score.py LIVE.jsonl WORDS STILLS...
  LIVE.jsonl  `frameocr video … --format jsonl` of the video
  WORDS       the video's .words file
  STILLS      `frameocr recognize PHOTO` outputs (plain text), one per photo
"""
import json
import re
import sys


def tokens(text):
    return {t.upper() for t in re.split(r"[^0-9A-Za-z]+", text) if len(t) >= 2}


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    live_path, words_path, stills = argv[0], argv[1], argv[2:]
    truth = set()
    with open(words_path, encoding="utf-8") as f:
        for line in f:
            truth |= tokens(line)
    live = set()
    totals = []
    over = 0
    frames = 0
    with open(live_path, encoding="utf-8") as f:
        for line in f:
            if not line.startswith("{"):
                continue
            row = json.loads(line)
            if "frame" not in row or "event" in row:
                continue
            frames += 1
            over += row.get("status") == "budgetExceeded"
            totals.append(row.get("timingsMs", {}).get("total", 0.0))
            for track in row.get("tracks") or []:
                live |= tokens(track.get("text", ""))
    still = set()
    for path in stills:
        with open(path, encoding="utf-8") as f:
            still |= tokens(f.read())
    live_hits, still_hits = sorted(truth & live), sorted(truth & still)
    totals.sort()
    p99 = totals[min(len(totals) - 1, int(0.99 * len(totals)))] if totals else 0.0
    ratio = len(live_hits) / len(still_hits) if still_hits else 0.0
    print(f"ground truth {len(truth)} words; stills read {len(still_hits)}: {' '.join(still_hits)}")
    print(f"live read {len(live_hits)}: {' '.join(live_hits)}")
    print(f"live/stills {ratio:.2f}; frames {frames}, over budget {over} ({100 * over / max(frames, 1):.1f} %), "
          f"p99 total {p99:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
