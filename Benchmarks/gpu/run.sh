#!/usr/bin/env bash
# The GPU check (issue 15, item 6): builds Benchmarks/gpu/gpucheck.c with whatever C compiler and
# OpenCL headers and loader the machine has, and runs it on Kernels/*.cl. C only: no Swift, no
# OpenCV. Runs on PoCL in CI (make gpu-check) and, unchanged, on a GPU machine. Then the neural
# networks' device check (issue 42, item 6): Benchmarks/gpu/devicecheck.c, built against OpenVINO's
# C API ($FRAMEOCR_OPENVINO_DIR, the folder of libopenvino_c.so.2641, else the checkout's
# .build/openvino/lib from `make openvino`), compares every device OpenVINO lists with its CPU on
# FrameOCR's models ($DEVICECHECK_MODELS, else /usr/local/share/frameocr), as the library's parity
# probe does; with the CPU alone it checks itself (--self, and a 0.01 shift that it must catch).
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
status=$?
[ "$status" -eq 0 ] || exit "$status"

echo "== OpenVINO's devices against its CPU (devicecheck)"
ovlib="${FRAMEOCR_OPENVINO_DIR:-$root/.build/openvino/lib}"
ovinc="$ovlib/../include"
models="${DEVICECHECK_MODELS:-/usr/local/share/frameocr}"
if [ ! -f "$ovlib/libopenvino_c.so.2641" ] || [ ! -f "$ovinc/openvino/c/openvino.h" ]; then
  echo "devicecheck: no OpenVINO 2026.4.1 in $ovlib (with its headers in $ovinc): run make openvino"; exit 3
fi
for m in ppocrv4-rec.onnx ppocrv4-det.onnx; do
  [ -f "$models/$m" ] || { echo "devicecheck: no $models/$m: run make deps (or set DEVICECHECK_MODELS)"; exit 3; }
done
echo "== build: $cc -O2 -std=c11 -I$ovinc devicecheck.c $ovlib/libopenvino_c.so.2641 -lm"
"$cc" -O2 -std=c11 -I"$ovinc" "$here/devicecheck.c" "$ovlib/libopenvino_c.so.2641" -Wl,-rpath,"$ovlib" -lm \
  -o "$out/devicecheck" || exit 3
"$out/devicecheck" --models "$models" --self || exit $?
# The control: outputs shifted by 0.01 (ten times the tolerance) must be found to diverge.
"$out/devicecheck" --models "$models" --self --perturb 0.01 >"$out/devicecheck-control.txt" 2>&1
control=$?
if [ "$control" -ne 1 ]; then
  cat "$out/devicecheck-control.txt"; echo "devicecheck: the control (a 0.01 shift) was not caught (exit $control)"; exit 1
fi
echo "control: a 0.01 shift of the outputs is caught (exit 1)"
