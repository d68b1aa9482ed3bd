#!/usr/bin/env bash
# make fuzz FUZZ_SECONDS=N: builds the libFuzzer harnesses of Tests/Fuzz and runs each for N
# seconds (default 60).
#
# - fuzz_decode: encoded image bytes through the shim's decoder (Sources/CFrameOCR/files/decode.cpp:
#   Leptonica) and its OpenCV fallback (Sources/CFrameOCRMedia/files/files.cpp), the shim and the
#   whole media code linked in (the loader finds its table in the process).
# - fuzz_frame: raw frame descriptors through the shim's validation, the fused chain, each op
#   (Sources/CFrameOCRCommon, Sources/CFrameOCR), focr_replicate_outside and the text detector
#   (Sources/CFrameOCRMedia/detection/detector.cpp and dnn/target.cpp, linked in; it needs the
#   model `make deps` installs; on the CPU).
#   Both are C++, built with the Swift toolchain's clang (-fsanitize=fuzzer,address,undefined:
#   libFuzzer, ASan and UBSan ship with it), compiling the shim's sources directly (not through
#   SwiftPM: the harnesses need the sanitizer flags on every object).
# - serve, arguments: the Swift harnesses of Tests/Fuzz/Swift (the frameocr-fuzz product), built
#   by SwiftPM with --sanitize fuzzer --sanitize address (swiftc has no UBSan on Linux) into
#   .build/fuzz-swift; FRAMEOCR_FUZZ_HARNESS picks the harness. serve: request lines through the
#   worker's line reader and parser; arguments: the options of recognize, video and serve.
#
# The corpus of each harness grows in .build/fuzz/corpus/NAME from one run to the next (seeded
# from the fixtures), crashes go to .build/fuzz/artifacts/, and .build/fuzz/NAME.log keeps
# libFuzzer's output; the summary line of each run gives executions, edges (cov) and features
# (ft). FUZZ_BUILD_ONLY=1 builds them and stops. The harnesses run FUZZ_JOBS at a time (default: one per core, so that each has a core of its
# own for its FUZZ_SECONDS); FUZZ_PARALLEL=1 runs all four at once. A crash fails the target
# (exit 1): fix it, and make its input a regression test.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
seconds="${FUZZ_SECONDS:-60}"
out="$root/.build/fuzz"  # absolute: the Swift harnesses run in a working directory of their own
mkdir -p "$out/obj" "$out/artifacts"
cxx="${FUZZ_CXX:-}"
for c in "$cxx" /opt/swift/usr/bin/clang++ clang++; do
  if [ -n "$c" ] && command -v "$c" >/dev/null 2>&1; then cxx="$c"; break; fi
done
# The include paths SwiftPM gives the targets: each target's root (its rooms' internal headers) and
# include/ (its public headers), CFrameOCRCommon's include/ for both halves.
flags=(-std=c++17 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
       -ISources/CFrameOCRCommon/include -ISources/CFrameOCR -ISources/CFrameOCR/include -ISources/CFrameOCRMedia
       "-DFOCR_PACKAGE_DIRECTORY=\"$root\""  # as Package.swift defines it: OpenVINO in the build tree
       $(pkg-config --cflags Sources/COpenCV/frameocr-opencv.pc tesseract lept))
libs=($(pkg-config --libs Sources/COpenCV/frameocr-opencv.pc Sources/COpenCVMedia/frameocr-opencv-media.pc tesseract lept OpenCL) -ldl -lpthread)

# The build, one at a time: CI starts it in the background (FUZZ_BUILD_ONLY=1, niced) long before
# its fuzz step, which waits here for it and then finds everything built.
exec 9>"$out/build.lock"
flock 9
# Objects: rebuilt when their source, or any header of the shim, is newer; FUZZ_JOBS at a time
# (default: one per core).
jobs="${FUZZ_JOBS:-$(nproc)}"
newest_header=$(find Sources/CFrameOCRCommon Sources/CFrameOCR Sources/CFrameOCRMedia -name '*.h' -o -name '*.hpp' |
  xargs ls -t | head -1)
object() { echo "$out/obj/$(echo "$1" | tr '/' '_').o"; }  # source → its object's path
echo "fuzz: compiling the shim with $cxx (ASan + UBSan + coverage), $jobs at a time"
running=0 failed=0
for src in $(find Sources/CFrameOCRCommon Sources/CFrameOCR Sources/CFrameOCRMedia -name '*.cpp' | sort); do
  obj=$(object "$src")
  if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || [ "$newest_header" -nt "$obj" ]; then
    "$cxx" "${flags[@]}" -fsanitize=fuzzer-no-link -c "$src" -o "$obj.tmp" && mv "$obj.tmp" "$obj" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then wait -n || failed=1; running=$((running - 1)); fi
  fi
done
while [ "$running" -gt 0 ]; do wait -n || failed=1; running=$((running - 1)); done
[ "$failed" = 0 ] || { echo "fuzz: compiling the shim failed"; exit 1; }
objects() { for d in "$@"; do find "$d" -name '*.cpp' | sort | while read -r s; do object "$s"; done; done; }
mapfile -t shim < <(objects Sources/CFrameOCRCommon Sources/CFrameOCR)
mapfile -t media < <(objects Sources/CFrameOCRMedia)
# The detector, where its network runs (dnn/) and its runtime (openvino/, which opens OpenVINO with
# dlopen: uninstrumented, like OpenCV); their common code is in "${shim[@]}".
detect=("$(object Sources/CFrameOCRMedia/detection/detector.cpp)" "$(object Sources/CFrameOCRMedia/dnn/target.cpp)"
        "$(object Sources/CFrameOCRMedia/openvino/runtime.cpp)")
"$cxx" "${flags[@]}" -fsanitize=fuzzer Tests/Fuzz/fuzz_decode.cpp "${shim[@]}" "${media[@]}" "${libs[@]}" -o "$out/fuzz_decode" \
  2> >(grep -v "Cannot export local symbol" >&2)
"$cxx" "${flags[@]}" -fsanitize=fuzzer Tests/Fuzz/fuzz_frame.cpp "${shim[@]}" "${detect[@]}" "${libs[@]}" -o "$out/fuzz_frame" \
  2> >(grep -v "Cannot export local symbol" >&2)
echo "fuzz: building frameocr-fuzz under libFuzzer and ASan (swift build --sanitize fuzzer)"
# Not `--sanitize fuzzer --sanitize address`: SwiftPM passes those to swiftc as two -sanitize= flags
# in no fixed order, and swiftc keeps only the last one, so the Swift code got either coverage or
# ASan, never both (a build without coverage fuzzes blind, with no error). One -sanitize= list
# after SwiftPM's own flag does it; clang adds up its -fsanitize= flags, so C and C++ get both.
if ! swift build --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=address \
    -Xcxx -fsanitize=address -Xswiftc -DFRAMEOCR_LIBFUZZER --product frameocr-fuzz \
    --build-path .build/fuzz-swift 2>&1 | { grep -v -e "Cannot export local symbol" -e "^\[" || true; }; then
  echo "fuzz: the frameocr-fuzz build failed"; exit 1
fi
flock -u 9
if [ "${FUZZ_BUILD_ONLY:-0}" = 1 ]; then echo "fuzz: built (FUZZ_BUILD_ONLY=1: not run)"; exit 0; fi
# The dictionaries (option names, request keys: the parsers look them up in sets, which libFuzzer
# cannot see compared) come from a plain build's replayer: $FUZZ_REPLAYER (make fuzz gives its
# test build's), else the debug build's.
replayer="${FUZZ_REPLAYER:-}"
if [ -z "$replayer" ]; then
  swift build --product frameocr-fuzz 2>&1 | { grep -v "^\[" || true; }
  replayer=.build/debug/frameocr-fuzz
fi
for name in serve arguments; do "$replayer" dictionary "$name" >"$out/$name.dict"; done
ln -sf "$root/.build/fuzz-swift/debug/frameocr-fuzz" "$out/fuzz_serve"
ln -sf "$root/.build/fuzz-swift/debug/frameocr-fuzz" "$out/fuzz_arguments"

# Seeds: the fixture images (under 256 KB) and the inputs it once crashed on for the decoder; for
# the frames, a descriptor header of each format followed by a fixture's bytes as pixels; for serve
# and arguments, requests and argument lists of the documented forms (Tests/Fuzz/seeds.py), and
# the inputs they once failed on (Fixtures/fuzz/serve-*, arguments-*).
mkdir -p "$out/seeds/decode" "$out/seeds/frame" "$out/seeds/serve" "$out/seeds/arguments"
find Tests/FrameOCRTests/Fixtures -type f -size -256k \
  \( -name '*.png' -o -name '*.jpg' -o -name '*.tif' -o -name '*.gif' -o -name '*.bmp' -o -name '*.webp' -o -name '*.pgm' -o -name '*.ppm' \) \
  -exec cp {} "$out/seeds/decode/" \;
cp Tests/FrameOCRTests/Fixtures/fuzz/decode-* "$out/seeds/decode/"  # inputs that once crashed it
python3 Tests/Fuzz/seeds.py frame "$out/seeds/frame" Tests/FrameOCRTests/Fixtures/testocr.png
python3 Tests/Fuzz/seeds.py serve "$out/seeds/serve"
python3 Tests/Fuzz/seeds.py arguments "$out/seeds/arguments"
cp Tests/FrameOCRTests/Fixtures/fuzz/serve-* "$out/seeds/serve/"
cp Tests/FrameOCRTests/Fixtures/fuzz/arguments-* "$out/seeds/arguments/"

export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:${UBSAN_OPTIONS:-}"
export OMP_THREAD_LIMIT=1 OPENCV_FOR_THREADS_NUM=1
export SWIFT_BACKTRACE=enable=no  # a failed check's report is libFuzzer's, not the Swift backtracer's
# Debian's TBB opens libtbbbind with RTLD_DEEPBIND when OpenVINO asks for the NUMA nodes (the
# detector in fuzz_frame), which ASan's dlopen refuses; the wheel's TBB, preloaded in its place,
# does not under TBB_ENABLE_SANITIZERS=1 (the Makefile's SANITIZE_TBB; FUZZ_ENV overrides).
if [ -z "${FUZZ_ENV:-}" ] && [ -f "$root/.build/openvino/lib/libtbb.so.12" ]; then
  FUZZ_ENV="TBB_ENABLE_SANITIZERS=1 LD_PRELOAD=$root/.build/openvino/lib/libtbb.so.12"
fi
run_one() {  # name → 0, or 1 on a crash, a leak or a sanitizer report
  local name="$1"
  mkdir -p "$out/corpus/$name"
  local dict=(); [ -f "$out/$name.dict" ] && dict=(-dict="$out/$name.dict")
  if env ${FUZZ_ENV:-} FRAMEOCR_FUZZ_HARNESS="$name" "$out/fuzz_$name" "${dict[@]}" -max_total_time="$seconds" -rss_limit_mb=2560 -timeout=25 -print_final_stats=1 \
       -artifact_prefix="$out/artifacts/$name-" "$out/corpus/$name" "$out/seeds/$name" >"$out/$name.log" 2>&1; then
    grep -E "DONE" "$out/$name.log" | tail -1 | sed "s/^/fuzz_$name: /" || true
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$out/$name.log" | sed "s/^/fuzz_$name: /" || true
    return 0
  fi
  echo "fuzz_$name: FAILED (see $out/$name.log; the input is in $out/artifacts/)"
  grep -E "ERROR|SUMMARY|runtime error|artifact" "$out/$name.log" | head -8 || true
  return 1
}
names=(decode frame serve arguments)
[ "${FUZZ_PARALLEL:-0}" = 1 ] && jobs=${#names[@]}
echo "fuzz: ${names[*]} for $seconds s each, $jobs at a time"
status=0 running=0
for name in "${names[@]}"; do
  run_one "$name" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n || status=1; running=$((running - 1)); fi
done
while [ "$running" -gt 0 ]; do wait -n || status=1; running=$((running - 1)); done
exit $status
