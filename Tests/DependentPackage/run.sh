#!/usr/bin/env bash
# make dependent-package-test: a package that depends on this checkout by path, naming only the
# FrameOCR product (Tests/DependentPackage), built and run outside the checkout.
#
# The checkout's files (tracked and untracked, not ignored) are copied to
# $DEPENDENT_PACKAGE_DIR/frameocr-checkout, a folder named otherwise than the checkout, so that
# the dependent manifest's `package: "frameocr-checkout"` shows that a path dependency's identity
# is its folder's name; the package itself to $DEPENDENT_PACKAGE_DIR/consumer. Its program,
# dependent-check, reads Tests/FrameOCRTests/Fixtures/phototest.tif and frame_ocr_42.mp4 and checks
# the text and the frame count. It must do so with no libFrameOCRMedia.so beside it and no
# FRAMEOCR_MEDIA_LIBRARY: the product links the media code in (ldd shows imgcodecs and videoio).
#
# The folder defaults to .build/dependent-package, kept between runs so that a second run
# rebuilds only what changed (the first builds FrameOCR from scratch: minutes on 2 cores); the
# checkout is copied again only when one of its files changed. DEPENDENT_PACKAGE_BUILD_ONLY=1
# copies and builds, and stops.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
work="${DEPENDENT_PACKAGE_DIR:-$root/.build/dependent-package}"
checkout="$work/frameocr-checkout"
consumer="$work/consumer"
swift="${SWIFT:-swift}"

mkdir -p "$work"
# The copy and the build, one at a time: CI starts them in the background
# (DEPENDENT_PACKAGE_BUILD_ONLY=1, niced) long before its step, which waits here for them.
exec 9>"$work/build.lock"
flock 9
files() {  # the checkout's files (tracked and untracked, not ignored; deleted ones left out)
  git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
    [ -e "$f" ] && printf '%s\0' "$f"
  done
}
# Copied again only when a file changed: a new copy has new inodes, and SwiftPM would compile it all.
stamp=$({ files | xargs -0 stat -c '%n %s %Y'; cat Tests/DependentPackage/Package.swift; } | sha256sum | cut -c1-64)
if [ "$(cat "$work/copy.stamp" 2>/dev/null)" != "$stamp" ] || [ ! -d "$checkout" ]; then
  echo "dependent-package: copying the checkout to $checkout"
  rm -rf "$checkout" "$work/copy.stamp"
  mkdir -p "$checkout" "$consumer"
  files | tar --null -T - -cf - | tar -xf - -C "$checkout"
  cp Tests/DependentPackage/Package.swift "$consumer/"
  rm -rf "$consumer/Sources" && cp -r Tests/DependentPackage/Sources "$consumer/"
  echo "$stamp" >"$work/copy.stamp"
else
  echo "dependent-package: $checkout is the checkout's current copy"
fi

echo "dependent-package: swift build in $consumer"
rm -f "$consumer"/.build/*/debug/libFrameOCRMedia.so  # left by an earlier manifest: the check below needs it absent
(cd "$consumer" && "$swift" build --product dependent-check 2>&1 | { grep -v "^\[" || true; })
program="$consumer/.build/debug/dependent-check"
[ -x "$program" ] || { echo "dependent-package: FAILED: $program was not built"; exit 1; }
flock -u 9
if [ "${DEPENDENT_PACKAGE_BUILD_ONLY:-0}" = 1 ]; then echo "dependent-package: built (not run)"; exit 0; fi

if [ -e "$(dirname "$program")/libFrameOCRMedia.so" ]; then
  echo "dependent-package: FAILED: libFrameOCRMedia.so was built beside the program (the test needs it absent)"
  exit 1
fi
linked=$(ldd "$program")
for lib in libopencv_imgcodecs libopencv_videoio; do
  grep -q "$lib" <<<"$linked" || { echo "dependent-package: FAILED: the program does not link $lib"; exit 1; }
done
# The lean OpenCV link holds for a dependent too (the checkout's pkg-config files, named by path):
# the program itself needs the six modules FrameOCR calls and none of the other 49 (highgui, Qt, VTK…).
needed=$(readelf -d "$program" | sed -n 's/.*(NEEDED).*\[libopencv_\([a-z0-9_]*\)\..*/\1/p' | sort | tr '\n' ' ')
if [ "$needed" != "calib3d core imgcodecs imgproc videoio " ]; then
  echo "dependent-package: FAILED: the program needs the OpenCV modules: $needed(expected calib3d core imgcodecs imgproc videoio)"
  exit 1
fi

fixtures="$root/Tests/FrameOCRTests/Fixtures"
echo "dependent-package: running dependent-check"
env -u FRAMEOCR_MEDIA_LIBRARY OMP_THREAD_LIMIT=1 "$program" "$fixtures/phototest.tif" "$fixtures/frame_ocr_42.mp4"
echo "dependent-package: passed"
