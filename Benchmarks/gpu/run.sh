#!/usr/bin/env bash
# The GPU check (issue 15, item 6): builds Benchmarks/gpu/gpucheck.c with whatever C compiler and
# OpenCL headers and loader the machine has, and runs it on Kernels/*.cl. C only: no Swift, no
# OpenCV. Runs on PoCL in CI (make gpu-check) and, unchanged, on a GPU machine.
#
#   bash Benchmarks/gpu/run.sh [gpucheck options: --device NAME --runs N --sizes WxH,… --list]
#
# First it says what OpenCL the machine exposes: the ICD files in /etc/OpenCL/vendors, the loader
# (libOpenCL.so.1) and NVIDIA's OpenCL library (libnvidia-opencl.so.1), so that a machine without
# OpenCL says so instead of failing to link. Exit status: gpucheck's (0 parity everywhere, 1 a
# difference, 2 an error), or 3 when the machine cannot build or run it.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${GPUCHECK_BUILD:-$root/.build/gpucheck}"
mkdir -p "$out"

echo "== OpenCL on this machine"
if ls /etc/OpenCL/vendors/*.icd >/dev/null 2>&1; then
  for f in /etc/OpenCL/vendors/*.icd; do echo "ICD file $f: $(cat "$f")"; done
else
  echo "no ICD file in /etc/OpenCL/vendors"
fi
libs=$( (ldconfig -p 2>/dev/null | grep -E 'libOpenCL\.so|libnvidia-opencl\.so' | sed 's/^\s*/  /') || true)
extra=$(ls /usr/local/cuda*/lib64/libOpenCL.so* /usr/local/cuda*/targets/*/lib/libOpenCL.so* 2>/dev/null || true)
if [ -n "$libs$extra" ]; then echo "OpenCL libraries:"; echo "$libs"; [ -n "$extra" ] && echo "$extra" | sed 's/^/  /'; else echo "no libOpenCL.so or libnvidia-opencl.so found"; fi
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader

cc=""
for c in "${CC:-}" cc gcc clang; do
  if [ -n "$c" ] && command -v "$c" >/dev/null 2>&1; then cc="$c"; break; fi
done
[ -n "$cc" ] || { echo "gpucheck: no C compiler (cc, gcc or clang)"; exit 3; }

# Headers: the system's (Debian's opencl-headers), else CUDA's.
inc=""
if ! echo '#include <CL/cl.h>' | "$cc" -E -x c - >/dev/null 2>&1; then
  for d in /usr/local/cuda/include /usr/local/cuda/targets/x86_64-linux/include /opt/cuda/include; do
    [ -f "$d/CL/cl.h" ] && { inc="-I$d"; break; }
  done
  [ -n "$inc" ] || { echo "gpucheck: no OpenCL headers (CL/cl.h): install opencl-headers or CUDA"; exit 3; }
fi
# The loader: -lOpenCL when the linker finds it, else the first libOpenCL.so* by its path.
link="-lOpenCL"
if ! echo 'int main(void){return 0;}' | "$cc" -x c - -o "$out/probe" -lOpenCL >/dev/null 2>&1; then
  lib=$(ls /usr/local/cuda*/lib64/libOpenCL.so* /usr/local/cuda*/targets/*/lib/libOpenCL.so* \
        /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 /usr/lib64/libOpenCL.so.1 2>/dev/null | head -1)
  [ -n "$lib" ] || { echo "gpucheck: no OpenCL loader (libOpenCL.so) to link against"; exit 3; }
  link="$lib"
fi
echo "== build: $cc -O2 -std=c11 -ffp-contract=off $inc gpucheck.c $link -lm"
"$cc" -O2 -std=c11 -ffp-contract=off $inc "$here/gpucheck.c" $link -lm -o "$out/gpucheck" || exit 3
echo "== run"
"$out/gpucheck" --kernels "$root/Kernels" "$@"
