#!/usr/bin/env bash
# Makes a scene-text video to read live (docs/live.md#the-detector-on-live-frames): the five ICDAR
# 2015 street photos of one half of the corpus (tools/make_corpus_split.py's halves), the 1st,
# 3rd and 5th panned across (the photo 1.3× larger than the frame, the window moving left to
# right and down), the 2nd and 4th zoomed into (1.0× to 1.4× over the segment), then a car photo
# of the same half passing across a grey frame from left to right, its plate readable; 5 s each,
# 1280×720 at 20 fps, H.264. Writes OUT/scene-HALF.mp4, OUT/scene-HALF.words (the ground-truth
# words of the photos used, one per line, ICDAR's "###" left out) and OUT/scene-HALF.photos (the
# photos, for reading them as stills).
# Usage: tools/scene-video.sh [DATA=../shared/data] [OUT=/tmp/scene-video] [HALF=tuning|held-out]
set -euo pipefail
data=${1:-../shared/data} out=${2:-/tmp/scene-video} half=${3:-tuning}
case $half in
  tuning) photos=(img_1 img_2 img_4 img_6 img_8) car=car1 ;;
  held-out) photos=(img_3 img_5 img_7 img_9 img_10) car=car2 ;;
  *) echo "HALF: tuning or held-out" >&2; exit 2 ;;
esac
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fps=20 seconds=5
frames=$((fps * seconds))
: >"$out/scene-$half.words"
: >"$out/scene-$half.photos"
for i in 0 1 2 3 4; do
  photo="$data/icdar2015/${photos[i]}.jpg"
  echo "$photo" >>"$out/scene-$half.photos"
  # gt_img_N.txt: x1,y1,…,x4,y4,TEXT per line (a BOM on the first); ### marks unreadable text.
  sed 's/^\xEF\xBB\xBF//' "$data/icdar2015/gt_${photos[i]}.txt" | tr -d '\r' | cut -d, -f9- |
    grep -v '^###$' >>"$out/scene-$half.words" || true
  if ((i % 2 == 0)); then
    # A pan: the window crosses the 1.3× photo left to right and top to bottom.
    vf="scale=1664:936,crop=1280:720:'384*n/$frames':'216*n/$frames'"
  else
    # A zoom into the centre, 1.0× to 1.4×.
    vf="zoompan=z='1+0.4*on/$frames':d=$frames:x='iw/2-iw/zoom/2':y='ih/2-ih/zoom/2':s=1280x720:fps=$fps"
  fi
  ffmpeg -loglevel error -y -loop 1 -framerate $fps -t $seconds -i "$photo" -vf "$vf,format=yuv420p" \
    -r $fps -frames:v $frames -c:v libx264 -crf 20 "$work/part$i.mp4"
done
# The car: its photo 640 px wide, crossing a grey frame at 220 px a second.
echo "$data/license-plates/$car.jpg" >>"$out/scene-$half.photos"
cat "$data/license-plates/$car.gt.txt" >>"$out/scene-$half.words"
echo >>"$out/scene-$half.words"
ffmpeg -loglevel error -y -f lavfi -i "color=c=0x808080:s=1280x720:r=$fps:d=$seconds" \
  -loop 1 -framerate $fps -i "$data/license-plates/$car.jpg" \
  -filter_complex "[1:v]scale=640:-2[car];[0:v][car]overlay=x='-100+220*t':y='(H-h)/2':shortest=1,format=yuv420p" \
  -r $fps -frames:v $frames -c:v libx264 -crf 20 "$work/part5.mp4"
for i in 0 1 2 3 4 5; do echo "file '$work/part$i.mp4'"; done >"$work/list.txt"
ffmpeg -loglevel error -y -f concat -safe 0 -i "$work/list.txt" -c copy "$out/scene-$half.mp4"
sed -i '/^$/d' "$out/scene-$half.words"
echo "$out/scene-$half.mp4: $((6 * frames)) frames; $(wc -l <"$out/scene-$half.words") words"
