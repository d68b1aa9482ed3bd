#!/usr/bin/env bash
# Makes N photos of varied sizes from the .jpg photos of SRC (the memory rows of docs/openvino.md:
# `recognize --from LIST --jobs 2` over photos whose sizes all differ): photo i is the (i mod
# count)-th photo of SRC, scaled by 0.5–1.6 and its aspect changed by 0.85–1.15, both drawn from
# a fixed seed, written as OUT/varied-NNN.jpg with OUT/list.txt listing them.
# Usage: tools/varied-photos.sh SRC OUT [N=50] [SEED=42]
set -euo pipefail
src=$1 out=$2 n=${3:-50} seed=${4:-42}
mkdir -p "$out"
mapfile -t photos < <(ls "$src"/*.jpg | sort)
[ ${#photos[@]} -gt 0 ] || { echo "no .jpg in $src" >&2; exit 1; }
RANDOM=$seed
: >"$out/list.txt"
for ((i = 0; i < n; i++)); do
  photo=${photos[i % ${#photos[@]}]}
  scale=$(awk -v r=$RANDOM 'BEGIN { printf "%.3f", 0.5 + 1.1 * r / 32767 }')
  aspect=$(awk -v r=$RANDOM 'BEGIN { printf "%.3f", 0.85 + 0.3 * r / 32767 }')
  name=$(printf '%s/varied-%03d.jpg' "$out" "$i")
  ffmpeg -loglevel error -y -i "$photo" \
    -vf "scale=trunc(iw*$scale*$aspect/2)*2:trunc(ih*$scale/2)*2" -q:v 3 "$name"
  echo "$name" >>"$out/list.txt"
done
echo "$n photos in $out (list.txt)"
