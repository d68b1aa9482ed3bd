#!/usr/bin/env bash
# The scene videos read live against their photos read as stills (docs/live.md#the-detector-on-live-frames):
# for each half of the corpus, makes the video (tools/scene-video.sh), reads its photos as stills,
# plays it in real time with an 80 ms budget and 2 workers with the text detector on and off, and
# prints words live / stills, frames over budget and the p99 of the total (tools/live-scene-score.py).
# Usage: tools/live-scene-eval.sh [DATA=../shared/data] [OUT=/tmp/live-scene-eval] [FRAMEOCR=.build/release/frameocr]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
data=${1:-../shared/data} out=${2:-/tmp/live-scene-eval} frameocr=${3:-.build/release/frameocr}
export OMP_THREAD_LIMIT=1
mkdir -p "$out"
for half in tuning held-out; do
  "$here/scene-video.sh" "$data" "$out" "$half" >/dev/null
  stills=()
  i=0
  while read -r photo; do
    "$frameocr" recognize "$photo" >"$out/still-$half-$i.txt" 2>/dev/null
    stills+=("$out/still-$half-$i.txt")
    i=$((i + 1))
  done <"$out/scene-$half.photos"
  for every in 15 0; do
    "$frameocr" video "$out/scene-$half.mp4" --realtime --budget 80ms --workers 2 --detect-every "$every" \
      --format jsonl >"$out/live-$half-$every.jsonl" 2>"$out/live-$half-$every.err"
    echo "== $half half, --detect-every $every"
    python3 "$here/live-scene-score.py" "$out/live-$half-$every.jsonl" "$out/scene-$half.words" "${stills[@]}" | tail -2
    grep '^detector:' "$out/live-$half-$every.err" || true
  done
done
