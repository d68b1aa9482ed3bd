#!/usr/bin/env bash
# Makes camera-like frames of printed labels (two lines of codes on a sheet) for routing
# decisions: OUT/label-NN.jpg and OUT/label-NN.gt.txt, N frames from SEED. Each frame varies the
# background (flat, a light ramp, blurred plasma clutter, a crop of BACKGROUND_DIR's photos when
# given), the label's font, size, paper, turn and place, a vignette, and JPEG quality.
#   tools/label-frames.sh OUT N SEED [BACKGROUND_DIR]
# Needs ImageMagick (apt-get install imagemagick). Not used by the tests: the tests draw their own.
set -euo pipefail
out=$1; n=$2; seed=$3; backgrounds=${4:-}
mkdir -p "$out"
RANDOM=$seed
fonts=(DejaVu-Sans DejaVu-Sans-Bold DejaVu-Serif DejaVu-Sans-Mono DejaVu-Sans-Condensed-Bold DejaVu-Serif-Bold)
first=("LOT" "REF" "SN" "BATCH" "PART" "ITEM")
second=("EXP" "MFG" "BEST BEFORE" "USE BY" "QTY" "PACKED")
photos=()
if [ -n "$backgrounds" ]; then mapfile -t photos < <(find "$backgrounds" -name '*.jpg' | sort); fi
pick() { local -n a=$1; echo "${a[$((RANDOM % ${#a[@]}))]}"; }
for ((i = 0; i < n; i++)); do
  name=$(printf "label-%02d" "$i")
  if ((RANDOM % 2)); then w=640; h=480; else w=1280; h=720; fi
  l1="$(pick first) $((RANDOM % 9000 + 1000))-$(printf "\\x$(printf %x $((65 + RANDOM % 26)))")"
  l2="$(pick second) 20$((RANDOM % 10 + 24))-$(printf %02d $((RANDOM % 12 + 1)))"
  font=$(pick fonts)
  size=$(( (h / 480) * (22 + RANDOM % 20) ))
  paper=$(printf "#%02x%02x%02x" $((225 + RANDOM % 30)) $((220 + RANDOM % 30)) $((205 + RANDOM % 40)))
  ink=$(printf "#%02x%02x%02x" $((RANDOM % 60)) $((RANDOM % 60)) $((RANDOM % 60)))
  turn=$(( RANDOM % 11 - 5 ))
  kind=$((RANDOM % (${#photos[@]} > 0 ? 4 : 3)))
  case $kind in
    0) bg=(-size ${w}x${h} xc:"#$(printf %02x%02x%02x $((60 + RANDOM % 120)) $((60 + RANDOM % 120)) $((60 + RANDOM % 120)))") ;;
    1) bg=(-size ${w}x${h} gradient:"#303030-#b0a898") ;;
    2) bg=(-size ${w}x${h} -seed $RANDOM plasma:fractal -blur 0x2) ;;
    3) bg=("$(pick photos)" -resize "${w}x${h}^" -gravity center -extent ${w}x${h} +gravity) ;;
  esac
  # The label: its two lines with margins of half a line.
  label=(\( +size -background "$paper" -fill "$ink" -font "$font" -pointsize "$size" -interline-spacing $((size / 3))
         label:"$l1\n$l2" -bordercolor "$paper" -border $((size / 2 + 4)) -background none -rotate "$turn" \))
  x=$(( (w / 6) + RANDOM % (w / 3) )); y=$(( (h / 4) + RANDOM % (h / 5) ))
  convert "${bg[@]}" "${label[@]}" -geometry +$x+$y -composite \
    \( -size ${w}x${h} radial-gradient:white-"gray$((55 + RANDOM % 40))" \) -compose multiply -composite \
    -attenuate 0.25 +noise Gaussian -quality $((70 + RANDOM % 26)) "$out/$name.jpg"
  printf "%s\n%s\n" "$l1" "$l2" > "$out/$name.gt.txt"
done
