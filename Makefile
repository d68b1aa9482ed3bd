# FrameOCR — build, run and test on a fresh Debian 12 machine.
#
#   make run    installs what is missing, builds in release mode, recognizes the bundled sample
#   make check  the quick tier: lint, the debug build, the suites of what changed (minutes)
#   make test   installs what is missing, runs the whole test suite (the README's test command)
#   bash .ci/run   everything CI runs, with a table of each step's time (docs/testing.md)
#   make docs   builds the API documentation (DocC) into .build/docs
#   make tesserocr  builds the benchmark's Python peer (tesserocr from source) into .build/peers/venv
#   make fuzz   the libFuzzer harnesses, FUZZ_SECONDS each (docs/hardening.md)
#   make dependent-package-test   a package that depends on this one by path reads an image and a video
#   make sanitize   the suite under ASan + UBSan, the concurrent suites under TSan (an hour or more)
#   make robust-check   the robustness suite on the fixture pages, gated on Benchmarks/robust/baseline.json
#
# System packages (Debian): OpenCV, Tesseract with English and OSD models, Leptonica, the OpenCL
# ICD loader and headers, PoCL (an OpenCL device on the CPU) and clinfo. For the live-source tests:
# the ffmpeg command (a loopback stream sender), GStreamer's tools and plugins (videotestsrc, appsink;
# textoverlay is in gstreamer1.0-x) and a font for textoverlay to draw with. For the benchmark's
# command-line rows: GNU time (/usr/bin/time, the peak resident set size of a child process). For the
# models' conversion and the Python integrations: python3-venv and unzip (CI makes the venvs while
# it compiles, so no apt-get may run then).

PACKAGES := libopencv-dev libtesseract-dev libleptonica-dev tesseract-ocr tesseract-ocr-eng \
            tesseract-ocr-osd ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo pkg-config \
            ffmpeg gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good \
            gstreamer1.0-x fonts-dejavu-core fonts-liberation2 time libmicrohttpd-dev prometheus chromium \
            python3-venv unzip
SAMPLE   := Tests/FrameOCRTests/Fixtures/phototest.tif
SWIFT    ?= swift
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: arrows arrows-plant snippets all deps opencv-check text-detector text-detector-install text-recognizer text-recognizer-install text-angle-classifier text-angle-classifier-install text-recognizer-check build release run test bench bench-full robust-check robust-baseline tesserocr rapidocr ray-venv ray-test python-venv python-test gpu-check fuzz \
        dependent-package-test dependent-package-build fuzz-build sanitize-thread-build test-build check bench-smoke \
        openvino openvino-install openvino-check openvino-wheel apt-curl-unzip \
        sanitize sanitize-address sanitize-thread docs format lint clean

all: build

# Installs the Debian packages in $(1) that are missing (apt-get update once, when one is).
define apt-install
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	else echo "System packages: all present"; fi
endef

# Installs only the packages that are missing.
deps:
	$(call apt-install,$(PACKAGES))
	@$(MAKE) --no-print-directory opencv-check
	@$(MAKE) --no-print-directory text-detector
	@$(MAKE) --no-print-directory text-recognizer
	@$(MAKE) --no-print-directory text-angle-classifier
	@$(MAKE) --no-print-directory openvino

# The neural engines' models, as PaddleOCR's models ship in the rapidocr-onnxruntime wheel on PyPI
# (Apache-2.0), installed unchanged into $(DETECTOR_DIR) with their licence and a README each:
# OpenVINO reads them as they are (the rewrites that OpenCV 4.6's dnn importer needed are retired
# with it). The wheel and each model are checked against their SHA-256. FrameOCR looks for them
# there (TextDetector.defaultModelPath, TextLineRecognizer.defaultModelPath and defaultKeysPath,
# TextAngleClassifier.defaultModelPath; $$FRAMEOCR_TEXT_DETECTOR, $$FRAMEOCR_TEXT_RECOGNIZER,
# $$FRAMEOCR_TEXT_RECOGNIZER_KEYS and $$FRAMEOCR_TEXT_ANGLE_CLASSIFIER override).
#
# The scene-text detector: PP-OCRv4's DB text detector (ch_PP-OCRv4_det_infer.onnx).
DETECTOR_DIR          := /usr/local/share/frameocr
DETECTOR_MODEL        := $(DETECTOR_DIR)/ppocrv4-det.onnx
DETECTOR_WORK         := .build/text-detector
RAPIDOCR_VERSION      := 1.4.4
RAPIDOCR_WHEEL        := rapidocr_onnxruntime-$(RAPIDOCR_VERSION)-py3-none-any.whl
RAPIDOCR_WHEEL_SHA256 := 971d7d5f223a7a808662229df1ef69893809d8457d834e6373d3854bc1782cbf
DETECTOR_SOURCE       := rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx
DETECTOR_SHA256       := d2a7720d45a54257208b1e13e36a8479894cb74155a5efe29462512d42f49da9
ONNX_VERSION          := 1.23.2
text-detector:
	@if echo "$(DETECTOR_SHA256)  $(DETECTOR_MODEL)" | sha256sum -c --status 2>/dev/null; then \
	  echo "Text detector: present ($(DETECTOR_MODEL))"; else \
	  $(MAKE) --no-print-directory text-detector-install; fi

# The pinned wheel, checked, in $(DETECTOR_WORK), with a venv holding the onnx package (for the
# recognizer's keys, which sit only in the model's metadata).
define rapidocr-wheel
	$(call apt-install,python3-venv unzip)
	set -e; mkdir -p $(DETECTOR_WORK); cd $(DETECTOR_WORK); \
	  [ -x venv/bin/python ] || $(PEER_PYTHON) -m venv venv; \
	  venv/bin/python -c 'import onnx' 2>/dev/null || venv/bin/pip install -q onnx==$(ONNX_VERSION); \
	  echo "$(RAPIDOCR_WHEEL_SHA256)  $(RAPIDOCR_WHEEL)" | sha256sum -c --status 2>/dev/null || \
	    venv/bin/pip download -q --no-deps --only-binary :all: -d . rapidocr-onnxruntime==$(RAPIDOCR_VERSION); \
	  echo "$(RAPIDOCR_WHEEL_SHA256)  $(RAPIDOCR_WHEEL)" | sha256sum -c
endef

# $(call install-model,SOURCE IN THE WHEEL,SHA-256,DESTINATION,LICENCE NAME,README): unpacked,
# checked, installed with the Apache-2.0 licence and the README (README-NAME beside it).
define install-model
	set -e; cd $(DETECTOR_WORK); unzip -o -q $(RAPIDOCR_WHEEL) $(1) -d wheel; \
	  echo "$(2)  wheel/$(1)" | sha256sum -c
	$(SUDO) install -D -m 644 $(DETECTOR_WORK)/wheel/$(1) $(3)
	$(SUDO) install -D -m 644 /usr/share/common-licenses/Apache-2.0 $(DETECTOR_DIR)/$(4)
	$(SUDO) install -D -m 644 tools/$(5) $(DETECTOR_DIR)/README-$(basename $(notdir $(3)))
	$(SUDO) rm -f $(DETECTOR_DIR)/$(basename $(notdir $(3)))-opencv.onnx  # the form OpenCV's dnn needed, retired
endef

text-detector-install:
	$(rapidocr-wheel)
	$(call install-model,$(DETECTOR_SOURCE),$(DETECTOR_SHA256),$(DETECTOR_MODEL),LICENSE-ppocrv4-det,text-detector-README)

# The text-line recognizer of the CTC engine: PP-OCRv4's recognizer (ch_PP-OCRv4_rec_infer.onnx),
# and its 6,623 characters, which sit only in the model's metadata, written one per line by
# tools/recognizer_keys.py.
RECOGNIZER_MODEL         := $(DETECTOR_DIR)/ppocrv4-rec.onnx
RECOGNIZER_KEYS          := $(DETECTOR_DIR)/ppocrv4-rec-keys.txt
RECOGNIZER_SOURCE        := rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx
RECOGNIZER_SHA256        := 48fc40f24f6d2a207a2b1091d3437eb3cc3eb6b676dc3ef9c37384005483683b
RECOGNIZER_KEYS_SHA256   := a1c84d9bdb9ab29043c58896224d32941783eb821629618416dcb08f12886492
text-recognizer:
	@if printf '%s  %s\n%s  %s\n' $(RECOGNIZER_SHA256) $(RECOGNIZER_MODEL) $(RECOGNIZER_KEYS_SHA256) $(RECOGNIZER_KEYS) \
	    | sha256sum -c --status 2>/dev/null; then \
	  echo "Text recognizer: present ($(RECOGNIZER_MODEL))"; else \
	  $(MAKE) --no-print-directory text-recognizer-install; fi

text-recognizer-install:
	$(rapidocr-wheel)
	$(call install-model,$(RECOGNIZER_SOURCE),$(RECOGNIZER_SHA256),$(RECOGNIZER_MODEL),LICENSE-ppocrv4-rec,text-recognizer-README)
	set -e; cd $(DETECTOR_WORK); venv/bin/python $(CURDIR)/tools/recognizer_keys.py wheel/$(RECOGNIZER_SOURCE) \
	  ppocrv4-rec-keys.txt; echo "$(RECOGNIZER_KEYS_SHA256)  ppocrv4-rec-keys.txt" | sha256sum -c
	$(SUDO) install -D -m 644 $(DETECTOR_WORK)/ppocrv4-rec-keys.txt $(RECOGNIZER_KEYS)

# PP-OCR's text-angle classifier (ch_ppocr_mobile_v2.0_cls_infer.onnx): whether a line's crop is
# upside down.
CLASSIFIER_MODEL         := $(DETECTOR_DIR)/ppocr-cls.onnx
CLASSIFIER_SOURCE        := rapidocr_onnxruntime/models/ch_ppocr_mobile_v2.0_cls_infer.onnx
CLASSIFIER_SHA256        := e47acedf663230f8863ff1ab0e64dd2d82b838fceb5957146dab185a89d6215c
text-angle-classifier:
	@if echo "$(CLASSIFIER_SHA256)  $(CLASSIFIER_MODEL)" | sha256sum -c --status 2>/dev/null; then \
	  echo "Text-angle classifier: present ($(CLASSIFIER_MODEL))"; else \
	  $(MAKE) --no-print-directory text-angle-classifier-install; fi

text-angle-classifier-install:
	$(rapidocr-wheel)
	$(call install-model,$(CLASSIFIER_SOURCE),$(CLASSIFIER_SHA256),$(CLASSIFIER_MODEL),LICENSE-ppocr-cls,text-angle-classifier-README)

# OpenVINO, the runtime of the neural networks (docs/openvino.md; Sources/CFrameOCRCommon/include/
# focr_openvino.h): the pinned wheel from PyPI (Apache-2.0), its SHA-256 checked, and from it only
# the files the CPU needs, unpacked into OPENVINO_DIR (the build tree by default, where the media
# library looks; another folder is found through $$FRAMEOCR_OPENVINO_DIR): the C API and the core
# library, the CPU plug-in, the ONNX front end (the models), the IR front end (without it the model
# cache misses silently) and TBB, with the wheel's licence. The wheel's C headers go into
# OPENVINO_DIR/include for `make openvino-check` only: the package never includes them. The wheel
# is CPython 3.11's, but the native libraries in it are the same for every Python; no Python runs.
OPENVINO_VERSION       := 2026.4.1
OPENVINO_SOVERSION     := 2641
OPENVINO_ARCH          := $(shell uname -m)
OPENVINO_WHEEL_x86_64  := openvino-$(OPENVINO_VERSION)-22982-cp311-cp311-manylinux_2_28_x86_64.whl
OPENVINO_URL_x86_64    := https://files.pythonhosted.org/packages/dc/12/dcfe1316704aa47767352001b7351df90b71592bc1ee76a9852bf9850219
OPENVINO_SHA256_x86_64 := 2d22b1da03f7caf74df30e9f6417d0ab2f637e4a38e08e1dcd294d2c37407aaf
OPENVINO_WHEEL_aarch64 := openvino-$(OPENVINO_VERSION)-22982-cp311-cp311-manylinux_2_35_aarch64.whl
OPENVINO_URL_aarch64   := https://files.pythonhosted.org/packages/1b/82/704955b0134d2be51dd8d476dc60c55c08107d5a404b1a90bd3d8b7227a5
OPENVINO_SHA256_aarch64:= bea1eb3733c34ef331adc945da0ccda5937865031139073663be84c517ffda22
OPENVINO_WHEEL         := $(OPENVINO_WHEEL_$(OPENVINO_ARCH))
OPENVINO_SHA256        := $(OPENVINO_SHA256_$(OPENVINO_ARCH))
OPENVINO_DIR           ?= $(CURDIR)/.build/openvino
OPENVINO_DOWNLOADS     := .build/downloads
OPENVINO_LIBS          := libopenvino_c.so.$(OPENVINO_SOVERSION) libopenvino.so.$(OPENVINO_SOVERSION) \
                          libopenvino_intel_cpu_plugin.so libopenvino_onnx_frontend.so.$(OPENVINO_SOVERSION) \
                          libopenvino_ir_frontend.so.$(OPENVINO_SOVERSION) libtbb.so.12
# Present when the stamp names this wheel's SHA-256 and every library is there.
openvino:
	@if [ "$$(cat $(OPENVINO_DIR)/.wheel-sha256 2>/dev/null)" = "$(OPENVINO_SHA256)" ] && \
	    for f in $(OPENVINO_LIBS); do [ -f $(OPENVINO_DIR)/lib/$$f ] || exit 1; done; then \
	  echo "OpenVINO $(OPENVINO_VERSION): present ($(OPENVINO_DIR))"; else \
	  $(MAKE) --no-print-directory openvino-install; fi

# The pinned wheel in $(OPENVINO_DOWNLOADS), checked (downloaded only when it is not there or not
# the pinned one; a download with another SHA-256 is refused and removed).
openvino-wheel: apt-curl-unzip
	@[ -n "$(OPENVINO_WHEEL)" ] || { echo "openvino: no pinned wheel for $(OPENVINO_ARCH) (x86_64, aarch64)" >&2; exit 1; }
	@echo "$(OPENVINO_SHA256)  $(OPENVINO_DOWNLOADS)/$(OPENVINO_WHEEL)" | sha256sum -c --status 2>/dev/null || { \
	  set -e; mkdir -p $(OPENVINO_DOWNLOADS); cd $(OPENVINO_DOWNLOADS); \
	  rm -f $(OPENVINO_WHEEL).part; echo "openvino: downloading $(OPENVINO_WHEEL)"; \
	  curl -fsSL --retry 3 -o $(OPENVINO_WHEEL).part $(OPENVINO_URL_$(OPENVINO_ARCH))/$(OPENVINO_WHEEL); \
	  echo "$(OPENVINO_SHA256)  $(OPENVINO_WHEEL).part" | sha256sum -c --status || { rm -f $(OPENVINO_WHEEL).part; \
	    echo "openvino: the download of $(OPENVINO_WHEEL) does not have the pinned SHA-256 $(OPENVINO_SHA256); removed" >&2; exit 1; }; \
	  mv $(OPENVINO_WHEEL).part $(OPENVINO_WHEEL); }

apt-curl-unzip:
	$(call apt-install,curl unzip)

openvino-install: openvino-wheel
	set -e; rm -rf $(OPENVINO_DIR).new; mkdir -p $(OPENVINO_DIR).new/lib $(OPENVINO_DIR).new/include; \
	  unzip -q -j $(OPENVINO_DOWNLOADS)/$(OPENVINO_WHEEL) $(addprefix openvino/libs/,$(OPENVINO_LIBS)) -d $(OPENVINO_DIR).new/lib; \
	  unzip -q $(OPENVINO_DOWNLOADS)/$(OPENVINO_WHEEL) 'openvino/include/openvino/c/*' -d $(OPENVINO_DIR).new/wheel; \
	  mv $(OPENVINO_DIR).new/wheel/openvino/include/openvino $(OPENVINO_DIR).new/include/; rm -rf $(OPENVINO_DIR).new/wheel; \
	  unzip -q -j -o $(OPENVINO_DOWNLOADS)/$(OPENVINO_WHEEL) 'openvino-$(OPENVINO_VERSION).dist-info/licenses/LICENSE*' \
	    -d $(OPENVINO_DIR).new 2>/dev/null || cp /usr/share/common-licenses/Apache-2.0 $(OPENVINO_DIR).new/LICENSE; \
	  echo "$(OPENVINO_SHA256)" > $(OPENVINO_DIR).new/.wheel-sha256; \
	  rm -rf $(OPENVINO_DIR); mv $(OPENVINO_DIR).new $(OPENVINO_DIR)
	@echo "OpenVINO $(OPENVINO_VERSION): $(OPENVINO_DIR) ($$(du -sh $(OPENVINO_DIR) | cut -f1))"

# Our declarations of OpenVINO's C API (Sources/CFrameOCRMedia/openvino/api.hpp) against the
# wheel's header, compiled with the toolchain's clang++: every call declared again with our
# signature (a mismatch fails to compile), the mirrored enums and structs asserted.
CHECK_CXX ?= $(shell command -v /opt/swift/usr/bin/clang++ clang++ c++ | head -n 1)
openvino-check: openvino
	$(CHECK_CXX) -std=c++17 -fsyntax-only -I$(OPENVINO_DIR)/include -ISources/CFrameOCRMedia \
	  tools/openvino_api_check.cpp
	@echo "openvino-check: api.hpp matches OpenVINO $(OPENVINO_VERSION)'s C API"

# The recognizer and the angle classifier under OpenVINO (the pinned wheel's Python binding,
# FrameOCR's properties) against onnxruntime (the RapidOCR peer's venv), on generated line crops of
# several widths; fails on any greedy CTC decoding or class that differs
# (tools/check_text_recognizer.py). The binding is unpacked from the wheel `make openvino`
# downloaded, without its dependencies, into OPENVINO_PYTHON; Python is the check's only.
OPENVINO_PYTHON := .build/openvino-python
text-recognizer-check: text-recognizer text-angle-classifier rapidocr openvino-wheel
	$(call apt-install,python3-opencv)
	@[ "$$(cat $(OPENVINO_PYTHON)/.wheel-sha256 2>/dev/null)" = "$(OPENVINO_SHA256)" ] || { set -e; \
	  rm -rf $(OPENVINO_PYTHON); $(RAPIDOCR_VENV)/bin/python -m pip install -q --no-deps --target $(OPENVINO_PYTHON) \
	    $(OPENVINO_DOWNLOADS)/$(OPENVINO_WHEEL); echo "$(OPENVINO_SHA256)" > $(OPENVINO_PYTHON)/.wheel-sha256; }
	PYTHONPATH=$(CURDIR)/$(OPENVINO_PYTHON) /usr/bin/python3 tools/check_text_recognizer.py --model $(RECOGNIZER_MODEL) \
	  --keys $(RECOGNIZER_KEYS) --worker-python $(RAPIDOCR_VENV)/bin/python --classifier $(CLASSIFIER_MODEL)

# Only the OpenCV modules each part calls: Debian's opencv4.pc links all 55 (Qt5, VTK and GDAL
# come with them). Three pkg-config files in the checkout, which Package.swift names by their path
# (so the link does not depend on what ran before `make deps`): the shim's modules (core, imgproc,
# calib3d); imgcodecs and videoio for libFrameOCRMedia.so, which the shim loads only when an
# image file or a video is opened or a text detector made; freetype for the test-support target
# CFrameOCRSynthesis. Their paths are Debian's; this checks them against the machine's opencv4.pc
# (its Cflags, and each library in its library folder). See docs/layout.md.
OPENCV_PC_FILES := Sources/COpenCV/frameocr-opencv.pc Sources/COpenCVMedia/frameocr-opencv-media.pc \
                   Sources/COpenCVFreeType/frameocr-opencv-freetype.pc
opencv-check:
	@set -e; cflags=$$(pkg-config --cflags opencv4); libdir=$$(pkg-config --variable=libdir opencv4); \
	for f in $(OPENCV_PC_FILES); do \
	  mine=$$(pkg-config --cflags $$f); \
	  [ "$$(echo $$mine)" = "$$(echo $$cflags)" ] || { echo "$$f: Cflags '$$mine', but opencv4.pc has '$$cflags':" \
	    "build with FRAMEOCR_OPENCV_PC=opencv4 (docs/layout.md)" >&2; exit 1; }; \
	  for l in $$(pkg-config --libs-only-l $$f); do \
	    [ -e $$libdir/lib$${l#-l}.so ] || { echo "$$f: $$libdir/lib$${l#-l}.so is missing" >&2; exit 1; }; done; \
	  echo "OpenCV modules linked: $$(echo $$(pkg-config --libs-only-l $$f) | sed "s/-lopencv_//g") ($$f)"; done

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

run: release
	.build/release/frameocr recognize $(SAMPLE)

# The one build `make test` and CI share (docs/testing.md): optimized (-c release), with testable
# imports (-enable-testing: the tests' `@testable import`) and the shim's OpenCL fault injection
# (FRAMEOCR_FAULT_INJECTION: the fallback tests; a plain release build has neither), every product
# and the tests in one `swift build`, in a folder of its own so that `make release` and a plain
# `swift build` keep theirs. The robustness gate, the bench's smoke run, Ray, Python, the docs, the
# arrows and the snippets all use it: CI compiles the package once (plus the fuzzers' and the
# dependent package's own builds, and TSan's).
TEST_BUILD_PATH := .build/test
TEST_BUILD      := -c release --scratch-path $(TEST_BUILD_PATH) -Xswiftc -enable-testing -Xcc -DFRAMEOCR_FAULT_INJECTION
TEST_BIN        := $(TEST_BUILD_PATH)/release
# The compile commands of that build, for tools/check_arrows.py and tools/check_snippets.py.
export FRAMEOCR_BUILD_MANIFEST := $(CURDIR)/$(TEST_BUILD_PATH)/release.yaml

test-build: deps
	$(SWIFT) build $(TEST_BUILD) --build-tests

# The README's test command: every suite, on tools/run_tests.py's workers (one per core, at most 2;
# each runs its suites one at a time, a process per run). TEST_ARGS passes it more (--suites REGEX).
TEST_ARGS ?=
test: test-build
	@python3 tools/run_tests.py --self-test
	python3 tools/run_tests.py $(TEST_BIN)/FrameOCRPackageTests.xctest $(TEST_ARGS)

# The quick tier (docs/testing.md): lint, the debug build of everything, and the suites of what
# changed (tools/run_tests.py --changed: the working tree's changes against HEAD, else HEAD's
# commit; CHANGED=REV for the changes since REV), in the debug build, whose incremental builds are
# the fastest. Under 5 minutes on a warm tree for a change to one room.
CHANGED ?=
check: deps lint
	$(SWIFT) build --build-tests
	@python3 tools/run_tests.py --self-test
	python3 tools/run_tests.py .build/debug/FrameOCRPackageTests.xctest --changed $(CHANGED)

clean:
	rm -rf .build

# Code style: the toolchain's own swift-format with .swift-format (4 spaces, 120 columns).
# `make format` rewrites the files in place; `make lint` (what CI runs) fails on any finding.
FORMATTED := Package.swift Sources Tests Benchmarks Examples Kernels
format:
	swift-format format --in-place --recursive $(FORMATTED)

lint:
	swift-format lint --strict --recursive $(FORMATTED)

# The quick benchmark set (small sizes, no recognition): every case beside its plain-OpenCV
# baseline and a memcpy, and the CLI's start-up row (the frameocr beside the bench), in one run.
# `make bench-full` runs all sizes and recognition (minutes; `make tesserocr` and `make rapidocr` first for the peers).
# Gate a change: .build/release/frameocr-bench --json new.json --compare old.json --max-regression 10%
bench: deps
	$(SWIFT) build -c release --product frameocr-bench
	$(SWIFT) build -c release --product frameocr
	$(SWIFT) build -c release --product FrameOCRMedia
	.build/release/frameocr-bench --quick

# CI's smoke run of the quick set, from the test build (crashes and errors fail; speed never does).
bench-smoke: test-build
	$(TEST_BIN)/frameocr-bench --quick --json .build/bench-quick.json

bench-full: deps
	$(SWIFT) build -c release --product frameocr-bench
	$(SWIFT) build -c release --product frameocr
	$(SWIFT) build -c release --product FrameOCRMedia
	.build/release/frameocr-bench

# The robustness suite's gate (docs/accuracy.md, "Robustness"): the fixture pages read as stored
# and made harder (frameocr eval --robust all, 3 seeds each), failing (exit 3) when a kind's mean
# CER is above the committed baseline's by more than its noise. `make robust-baseline` rewrites the
# baseline, for a change that is meant to move it (say why in the commit).
ROBUST_PAGES    := $(addprefix Tests/FrameOCRTests/Fixtures/,phototest.tif test_la.png uneven-light.png receipt-on-desk.png)
ROBUST_BASELINE := Benchmarks/robust/baseline.json
ROBUST_ARGS     := $(ROBUST_PAGES) --robust all --robust-seeds 3 --jobs 2 --format csv
robust-check: test-build
	$(TEST_BIN)/frameocr eval $(ROBUST_ARGS) --output .build/robust-check.csv --robust-baseline $(ROBUST_BASELINE)

robust-baseline: test-build
	$(TEST_BIN)/frameocr eval $(ROBUST_ARGS) --output .build/robust-check.csv --write-robust-baseline $(ROBUST_BASELINE)

# tesserocr, the Python peer frameocr-bench measures batch recognition against (the bench finds
# $(PEER_VENV)/bin/python and tools/tesserocr_peer.py; without them it says so and skips the row).
# Built from PyPI's source (--no-binary) against Debian's libtesseract 5.3.0 and Leptonica, in a
# venv of Debian's own Python (the one python3-dev has headers for). Python is the peer's only:
# nothing of FrameOCR needs it. See docs/benchmarks.md, "The tesserocr peer".
PEER_PACKAGES     := python3-venv python3-dev pkg-config libtesseract-dev libleptonica-dev tesseract-ocr-eng
PEER_PYTHON       ?= /usr/bin/python3
PEER_VENV         := .build/peers/venv
TESSEROCR_VERSION := 2.13.0
tesserocr:
	$(call apt-install,$(PEER_PACKAGES))
	@if $(PEER_VENV)/bin/python -c 'import sys, tesserocr; sys.exit(tesserocr.__version__ != "$(TESSEROCR_VERSION)")' \
	    2>/dev/null; then echo "tesserocr $(TESSEROCR_VERSION): present in $(PEER_VENV)"; else \
	  set -e; rm -rf $(PEER_VENV); $(PEER_PYTHON) -m venv $(PEER_VENV); \
	  $(PEER_VENV)/bin/pip install -q cython; \
	  $(PEER_VENV)/bin/pip install -q --no-binary tesserocr tesserocr==$(TESSEROCR_VERSION); fi
	@OMP_THREAD_LIMIT=1 $(PEER_VENV)/bin/python -c \
	  'import tesserocr; print("tesserocr", tesserocr.__version__, "on", tesserocr.tesseract_version().split()[1])'

# RapidOCR, the Python peers frameocr-bench measures the scene-text reading against (the
# scenes-auto and plates-auto rows; tools/rapidocr_peer.py), each in a venv of Debian's Python:
# rapidocr-onnxruntime 1.4.4 (PP-OCRv4 on onnxruntime, the wheel FrameOCR's models come from) and
# rapidocr 3.10.0, the newest, with onnxruntime and with OpenVINO (the same OpenVINO release as
# FrameOCR's) for its two engines; the bench runs 3.10 on FrameOCR's model files. Every version
# pinned. Python is the peers' only: nothing of FrameOCR needs it. See docs/benchmarks.md, "The
# RapidOCR peers".
RAPIDOCR_VENV      := .build/peers/rapidocr-venv
RAPIDOCR3_VENV     := .build/peers/rapidocr3-venv
RAPIDOCR3_VERSION  := 3.10.0
ONNXRUNTIME_VERSION:= 1.32.0
rapidocr:
	$(call apt-install,python3-venv)
	$(call venv,$(RAPIDOCR_VENV),rapidocr-onnxruntime==$(RAPIDOCR_VERSION) onnxruntime==$(ONNXRUNTIME_VERSION))
	$(call venv,$(RAPIDOCR3_VENV),rapidocr==$(RAPIDOCR3_VERSION) onnxruntime==$(ONNXRUNTIME_VERSION) openvino==$(OPENVINO_VERSION))

# $(call venv,DIR,REQUIREMENTS): a venv of $(PEER_PYTHON) in DIR with the pinned REQUIREMENTS from
# PyPI, made again only when what it is made from changes: DIR/.requirements keeps the SHA-256 of
# the Python's version and the requirements. (A venv is cached by it inside the build tree; a
# clean clone makes it anew.)
# A failed install is tried once more without pip's cache: a download cut short fails pip's hash
# check (seen once in CI: onnxruntime's wheel), and a second try fetches it anew.
define venv
	@set -f; want=$$({ $(PEER_PYTHON) --version; echo '$(2)'; } | sha256sum | cut -c1-64); \
	if [ -x $(1)/bin/python ] && [ "$$(cat $(1)/.requirements 2>/dev/null)" = "$$want" ]; then \
	  echo "$(1): present ($(2))"; else \
	  set -e; echo "$(1): making it ($(2))"; rm -rf $(1); $(PEER_PYTHON) -m venv $(1); \
	  $(1)/bin/pip install -q $(2) || { echo "$(1): pip failed; once more, without pip's cache"; \
	    $(1)/bin/pip install -q --no-cache-dir $(2); }; echo "$$want" >$(1)/.requirements; fi
endef

# Installs the Python package (integrations/python) into the venv $(1) as `pip install` builds it,
# from a copy under .build so that the build's outputs stay out of the tree; on every run, so
# the venv has the tree's code.
define python-package-install
	@rm -rf .build/python/package && mkdir -p .build/python && cp -r integrations/python .build/python/package
	$(1)/bin/pip install -q --no-deps --force-reinstall ./.build/python/package
endef

# FrameOCR on Ray Data (integrations/ray): Ray from PyPI in a venv under .build, then a local Ray
# with 2 CPUs over the fixture images (integrations/ray/tests/test_ray.py): every image once, the
# CLI's text, error rows for a corrupt and a missing file, a killed worker started again. The
# actors drive their workers with the Python package, installed into the same venv.
# Python is the integration's only: nothing of FrameOCR needs it. See docs/scale-out.md.
RAY_VENV    := .build/ray/venv
RAY_VERSION := 2.60.0
ray-venv:
	$(call apt-install,python3-venv)
	$(call venv,$(RAY_VENV),ray[data]==$(RAY_VERSION))
	$(call python-package-install,$(RAY_VENV))

ray-test: test-build ray-venv
	OMP_THREAD_LIMIT=1 FRAMEOCR=$(CURDIR)/$(TEST_BIN)/frameocr $(RAY_VENV)/bin/python integrations/ray/tests/test_ray.py

# The Python package (integrations/python, docs/python.md) in a venv of Debian's Python under
# .build/python: the package (python-package-install above), then pinned pytest, numpy, Pillow
# (the tests make their arrays by decoding the fixtures with it) and pytesseract (the peer of
# integrations/python/bench); then its tests against the release frameocr (under 2 minutes).
# Python is the integration's only: nothing of FrameOCR needs it.
PYTHON_VENV     := .build/python/venv
PYTHON_PACKAGES := pytest==8.4.2 numpy==2.3.5 pillow==11.3.0 pytesseract==0.3.13
python-venv:
	$(call apt-install,python3-venv)
	$(call venv,$(PYTHON_VENV),$(PYTHON_PACKAGES))
	$(call python-package-install,$(PYTHON_VENV))

python-test: test-build python-venv
	cd integrations/python && OMP_THREAD_LIMIT=1 FRAMEOCR=$(CURDIR)/$(TEST_BIN)/frameocr \
	  $(CURDIR)/$(PYTHON_VENV)/bin/python -m pytest -q -p no:cacheprovider tests

# The arrows between the Swift library's rooms run one way (docs/layout.md, "Arrows between the
# rooms"): each room is type-checked alone with the rooms it may use (tools/check_arrows.py, with
# the target's own compiler flags from the test build). arrows-plant: the check's self-test,
# which plants wrong arrows and fails unless every one is caught.
ARROW_TARGETS := FrameOCR FrameOCRCommandLine
arrows: test-build
	@for t in $(ARROW_TARGETS); do python3 tools/check_arrows.py $$t || exit 1; done

arrows-plant: arrows
	@for t in $(ARROW_TARGETS); do python3 tools/check_arrows.py $$t --plant || exit 1; done

# Every Swift block of the README, docs/ and the DocC catalog compiles against the library (and
# uses nothing deprecated): tools/check_snippets.py, over the stand-ins of
# tools/snippets-prelude.swift; then its self-test (a broken and a deprecated block must fail).
snippets: test-build
	python3 tools/check_snippets.py
	python3 tools/check_snippets.py --plant

# The GPU check (Benchmarks/gpu, C only): every OpenCL kernel of Kernels/ against a plain C
# reference at 1080p and 4K, with its throughput; then every device OpenVINO lists against its CPU
# on the neural models (devicecheck.c, with its own control). Here it runs on PoCL's CPU device and
# OpenVINO's CPU alone; on a GPU machine run `bash Benchmarks/gpu/run.sh` (no Swift or OpenCV
# needed). Fails when an output differs.
GPU_CHECK_ARGS ?= --runs 3
gpu-check: deps
	bash Benchmarks/gpu/run.sh $(GPU_CHECK_ARGS)

# A package that depends on this checkout by path and names only the FrameOCR product
# (Tests/DependentPackage), built in .build/dependent-package against a copy of the checkout in a
# folder of another name: it reads an image file and a video with nothing else named or copied
# (the product links the media code in; docs/layout.md). About 2 minutes the first time.
dependent-package-test: deps
	bash Tests/DependentPackage/run.sh

# Its copy and build alone (CI starts it early, in the background).
dependent-package-build: deps
	DEPENDENT_PACKAGE_BUILD_ONLY=1 bash Tests/DependentPackage/run.sh

# libFuzzer harnesses (Tests/Fuzz): image bytes through the file loader, raw frame descriptors
# through validation, the fused chain and each op; built with the toolchain's clang under ASan and
# UBSan, each run for FUZZ_SECONDS (default 60); the corpora grow in .build/fuzz/corpus.
FUZZ_SECONDS ?= 60
fuzz: test-build
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_REPLAYER=$(TEST_BIN)/frameocr-fuzz FUZZ_ENV="$(SANITIZE_TBB)" bash Tests/Fuzz/run.sh

# The harnesses built, not run (CI starts it early, in the background).
fuzz-build: deps
	FUZZ_BUILD_ONLY=1 bash Tests/Fuzz/run.sh

# The sanitizers, on demand (docs/hardening.md, "Sanitizers"): the whole suite under ASan with
# UBSan on the C and C++ code (swiftc has no UBSan on Linux), in .build/asan; the concurrent
# suites (the frame processor and its queue, the buffer pool, the recognizer's engines, live
# reading: gate, tracker, scheduler; the processor on a video; the CLI's batch, serve and HTTP
# workers) under TSan, in .build/tsan. Both on tools/run_tests.py's workers. Each fails on a failed
# test or on any sanitizer report (halt_on_error; the child processes the CLI tests start are
# built the same way). Tests/Sanitizers/*.supp hold the suppressions, each with its reason.
# sanitize-thread is in CI (about 6 minutes on 2 cores: a debug build, then 83 tests);
# sanitize-address is not (the whole suite under ASan: most of an hour).
SANITIZE_ADDRESS := --sanitize address -Xcc -fsanitize=undefined -Xcxx -fsanitize=undefined
SANITIZE_THREAD  := --sanitize thread
SANITIZE_THREAD_SUITES := FrameOCRTests\.(FrameProcessorTests|PixelBufferPoolTests|RecognizerTests|LiveReadingTests|VideoProcessingTests)|frameocrTests\.(BatchTests|ServeTests|HTTPServeTests)
# Debian's TBB 2021.8 (loaded with OpenCV) opens libtbbbind with RTLD_DEEPBIND when OpenVINO asks
# for the NUMA nodes, which every sanitizer's dlopen refuses (the process dies); the wheel's TBB,
# preloaded in its place (the same soname and ABI), opens it without RTLD_DEEPBIND under
# TBB_ENABLE_SANITIZERS=1. Sanitized processes only: the library itself never sets either.
SANITIZE_TBB := TBB_ENABLE_SANITIZERS=1 LD_PRELOAD=$(OPENVINO_DIR)/lib/libtbb.so.12
SANITIZE_ENV := OMP_THREAD_LIMIT=1 SWIFT_BACKTRACE=enable=no $(SANITIZE_TBB) \
  ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:use_sigaltstack=0 \
  LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/lsan.supp:print_suppressions=0 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:suppressions=$(CURDIR)/Tests/Sanitizers/ubsan.supp \
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=$(CURDIR)/Tests/Sanitizers/tsan.supp
sanitize: sanitize-address sanitize-thread

sanitize-address: deps
	$(SWIFT) build --build-tests $(SANITIZE_ADDRESS) --build-path .build/asan
	$(SANITIZE_ENV) python3 tools/run_tests.py .build/asan/debug/FrameOCRPackageTests.xctest

sanitize-thread-build: deps
	$(SWIFT) build --build-tests $(SANITIZE_THREAD) --build-path .build/tsan

sanitize-thread: sanitize-thread-build
	$(SANITIZE_ENV) python3 tools/run_tests.py .build/tsan/debug/FrameOCRPackageTests.xctest \
	  --suites '^($(SANITIZE_THREAD_SUITES))$$'

# The API documentation: the FrameOCR module's symbol graph (made by SwiftPM itself, from the test
# build) and the catalog Sources/FrameOCR/FrameOCR.docc, converted by the toolchain's own docc into
# a static site in .build/docs (open /documentation/frameocr on any web server). No package plugin.
# Fails on any docc error and on any warning in the catalog (an unresolved ``symbol`` link, a bad
# <doc:article>). Warnings in the Swift doc comments are listed; DOCS_STRICT=1 makes them fail too.
# `dump-symbol-graph` exits non-zero when the graph of any module fails (with Swift 6.3 the C target
# CAllocationCounter, given -std=c++17, and the unbuilt test modules always do), so success is
# judged by a fresh FrameOCR.symbols.json and no failure for FrameOCR itself.
DOCC        ?= docc
DOCC_CATALOG := Sources/FrameOCR/FrameOCR.docc
DOCS_OUT    := .build/docs
DOCS_GRAPHS := .build/symbol-graphs/FrameOCR

docs: test-build
	@set -e; log=.build/docs-symbolgraph.log; mkdir -p .build; touch .build/docs-start; \
	echo "Symbol graphs: $(SWIFT) package $(TEST_BUILD) dump-symbol-graph"; \
	rc=0; $(SWIFT) package $(TEST_BUILD) dump-symbol-graph --skip-synthesized-members >$$log 2>&1 || rc=$$?; \
	dir=$$(sed -n 's/^Files written to //p' $$log | tail -n 1); \
	if [ -z "$$dir" ] || [ ! "$$dir/FrameOCR.symbols.json" -nt .build/docs-start ] \
	    || grep -q "symbol graph for 'FrameOCR'" $$log; then \
	  cat $$log; echo "make docs: no fresh FrameOCR.symbols.json (swift exited $$rc)" >&2; exit 1; fi; \
	if [ $$rc -ne 0 ]; then \
	  echo "  (swift exited $$rc: the graphs of modules the docs do not use failed, see $$log:" \
	    "$$(sed -n "s/^error: Failed to emit symbol graph for '\([^']*\)'.*/\1/p" $$log | tr '\n' ' '| sed 's/ $$//'))"; fi; \
	rm -rf $(DOCS_GRAPHS) $(DOCS_OUT); mkdir -p $(DOCS_GRAPHS); \
	for f in "$$dir"/FrameOCR.symbols.json "$$dir"/FrameOCR@*.symbols.json; do \
	  [ -f "$$f" ] && cp "$$f" $(DOCS_GRAPHS)/; done; \
	echo "Converting $(DOCC_CATALOG) with $(DOCS_GRAPHS)/ ($$(ls $(DOCS_GRAPHS) | tr '\n' ' '))"; \
	out=.build/docs-docc.log; \
	if ! $(DOCC) convert $(DOCC_CATALOG) --additional-symbol-graph-dir $(DOCS_GRAPHS) \
	    --fallback-display-name FrameOCR --fallback-bundle-identifier org.frameocr.FrameOCR \
	    --output-path $(DOCS_OUT) --ide-console-output $(if $(DOCS_STRICT),--warnings-as-errors) >$$out 2>&1; then \
	  cat $$out; echo "make docs: docc failed (full log: $$out)" >&2; exit 1; fi; \
	grep -E '(^|: )(warning|error): ' $$out | grep -v '^$(CURDIR)/$(DOCC_CATALOG)/' \
	  | grep -E '^/' | sed 's|^$(CURDIR)/||' >.build/docs-comment-warnings.txt || true; \
	grep -E '(^|: )(warning|error): ' $$out | grep -vE '^/' >.build/docs-catalog-warnings.txt || true; \
	grep -E '^$(CURDIR)/$(DOCC_CATALOG)/.*: (warning|error): ' $$out >>.build/docs-catalog-warnings.txt || true; \
	if [ -s .build/docs-catalog-warnings.txt ]; then \
	  cat .build/docs-catalog-warnings.txt; \
	  echo "make docs: $$(wc -l <.build/docs-catalog-warnings.txt) warning(s) in the catalog or without a place; fix them" >&2; exit 1; fi; \
	n=$$(wc -l <.build/docs-comment-warnings.txt); \
	if [ "$$n" -gt 0 ]; then \
	  sed 's/^/  /' .build/docs-comment-warnings.txt; \
	  echo "make docs: $$n warning(s) in the Swift doc comments above (DOCS_STRICT=1 fails on them)"; fi; \
	echo "Documentation: $(DOCS_OUT) (serve it and open /documentation/frameocr)"
