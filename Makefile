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

# The scene-text detector: PP-OCRv4's DB text detector (ch_PP-OCRv4_det_infer.onnx, Apache-2.0,
# PaddleOCR's model as the rapidocr-onnxruntime wheel on PyPI ships it), rewritten by
# tools/convert_text_detector.py into the ONNX form OpenCV 4.6's importer reads (Clip and Resize in
# their opset-10 form; the weights untouched), into $(DETECTOR_DIR) with its licence and a README.
# The wheel, the model in it and the result are checked against their SHA-256; the rewrite runs in a
# venv of Debian's Python with the onnx package (the build's only use of it). FrameOCR looks for the
# model there (TextDetector.defaultModelPath, $$FRAMEOCR_TEXT_DETECTOR to override).
DETECTOR_DIR          := /usr/local/share/frameocr
DETECTOR_MODEL        := $(DETECTOR_DIR)/ppocrv4-det-opencv.onnx
DETECTOR_WORK         := .build/text-detector
RAPIDOCR_VERSION      := 1.4.4
RAPIDOCR_WHEEL        := rapidocr_onnxruntime-$(RAPIDOCR_VERSION)-py3-none-any.whl
RAPIDOCR_WHEEL_SHA256 := 971d7d5f223a7a808662229df1ef69893809d8457d834e6373d3854bc1782cbf
DETECTOR_SOURCE       := rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx
DETECTOR_SOURCE_SHA256:= d2a7720d45a54257208b1e13e36a8479894cb74155a5efe29462512d42f49da9
DETECTOR_SHA256       := 99c07d192036a7b9ab2b841670a94dca9f55dc2ba22de8e1fb03369dad04958e
ONNX_VERSION          := 1.23.2
text-detector:
	@if echo "$(DETECTOR_SHA256)  $(DETECTOR_MODEL)" | sha256sum -c --status 2>/dev/null; then \
	  echo "Text detector: present ($(DETECTOR_MODEL))"; else \
	  $(MAKE) --no-print-directory text-detector-install; fi

# The pinned wheel, checked, in $(DETECTOR_WORK) with a venv holding the onnx package: both models
# come from it.
define rapidocr-wheel
	$(call apt-install,python3-venv unzip)
	set -e; mkdir -p $(DETECTOR_WORK); cd $(DETECTOR_WORK); \
	  [ -x venv/bin/python ] || $(PEER_PYTHON) -m venv venv; \
	  venv/bin/python -c 'import onnx' 2>/dev/null || venv/bin/pip install -q onnx==$(ONNX_VERSION); \
	  echo "$(RAPIDOCR_WHEEL_SHA256)  $(RAPIDOCR_WHEEL)" | sha256sum -c --status 2>/dev/null || \
	    venv/bin/pip download -q --no-deps --only-binary :all: -d . rapidocr-onnxruntime==$(RAPIDOCR_VERSION); \
	  echo "$(RAPIDOCR_WHEEL_SHA256)  $(RAPIDOCR_WHEEL)" | sha256sum -c
endef

text-detector-install:
	$(rapidocr-wheel)
	set -e; cd $(DETECTOR_WORK); \
	  unzip -o -q $(RAPIDOCR_WHEEL) $(DETECTOR_SOURCE) -d wheel; \
	  echo "$(DETECTOR_SOURCE_SHA256)  wheel/$(DETECTOR_SOURCE)" | sha256sum -c; \
	  venv/bin/python $(CURDIR)/tools/convert_text_detector.py wheel/$(DETECTOR_SOURCE) ppocrv4-det-opencv.onnx; \
	  echo "$(DETECTOR_SHA256)  ppocrv4-det-opencv.onnx" | sha256sum -c
	$(SUDO) install -D -m 644 $(DETECTOR_WORK)/ppocrv4-det-opencv.onnx $(DETECTOR_MODEL)
	$(SUDO) install -D -m 644 /usr/share/common-licenses/Apache-2.0 $(DETECTOR_DIR)/LICENSE-ppocrv4-det
	$(SUDO) install -D -m 644 tools/text-detector-README $(DETECTOR_DIR)/README-ppocrv4-det

# The text-line recognizer of the CTC engine: PP-OCRv4's recognizer (ch_PP-OCRv4_rec_infer.onnx,
# Apache-2.0) from the same wheel, rewritten by tools/convert_text_recognizer.py into a graph OpenCV
# 4.6 runs at any width (exact rewrites; the weights untouched), and its 6,623 characters, which sit
# only in the model's metadata, written one per line. Both are checked against their SHA-256 and
# installed beside the detector. FrameOCR looks for them there (TextLineRecognizer's
# defaultModelPath and defaultKeysPath; $$FRAMEOCR_TEXT_RECOGNIZER and
# $$FRAMEOCR_TEXT_RECOGNIZER_KEYS override). `make text-recognizer-check` compares the result with
# the original under onnxruntime.
RECOGNIZER_MODEL         := $(DETECTOR_DIR)/ppocrv4-rec-opencv.onnx
RECOGNIZER_KEYS          := $(DETECTOR_DIR)/ppocrv4-rec-keys.txt
RECOGNIZER_SOURCE        := rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx
RECOGNIZER_SOURCE_SHA256 := 48fc40f24f6d2a207a2b1091d3437eb3cc3eb6b676dc3ef9c37384005483683b
RECOGNIZER_SHA256        := 974e4f677c758910ea6c81d95a50061c375901230f87d3d3c15dc796ff6a79da
RECOGNIZER_KEYS_SHA256   := a1c84d9bdb9ab29043c58896224d32941783eb821629618416dcb08f12886492
text-recognizer:
	@if printf '%s  %s\n%s  %s\n' $(RECOGNIZER_SHA256) $(RECOGNIZER_MODEL) $(RECOGNIZER_KEYS_SHA256) $(RECOGNIZER_KEYS) \
	    | sha256sum -c --status 2>/dev/null; then \
	  echo "Text recognizer: present ($(RECOGNIZER_MODEL))"; else \
	  $(MAKE) --no-print-directory text-recognizer-install; fi

text-recognizer-install:
	$(rapidocr-wheel)
	set -e; cd $(DETECTOR_WORK); \
	  unzip -o -q $(RAPIDOCR_WHEEL) $(RECOGNIZER_SOURCE) -d wheel; \
	  echo "$(RECOGNIZER_SOURCE_SHA256)  wheel/$(RECOGNIZER_SOURCE)" | sha256sum -c; \
	  venv/bin/python $(CURDIR)/tools/convert_text_recognizer.py wheel/$(RECOGNIZER_SOURCE) \
	    ppocrv4-rec-opencv.onnx ppocrv4-rec-keys.txt; \
	  printf '%s  %s\n%s  %s\n' $(RECOGNIZER_SHA256) ppocrv4-rec-opencv.onnx $(RECOGNIZER_KEYS_SHA256) \
	    ppocrv4-rec-keys.txt | sha256sum -c
	$(SUDO) install -D -m 644 $(DETECTOR_WORK)/ppocrv4-rec-opencv.onnx $(RECOGNIZER_MODEL)
	$(SUDO) install -D -m 644 $(DETECTOR_WORK)/ppocrv4-rec-keys.txt $(RECOGNIZER_KEYS)
	$(SUDO) install -D -m 644 /usr/share/common-licenses/Apache-2.0 $(DETECTOR_DIR)/LICENSE-ppocrv4-rec
	$(SUDO) install -D -m 644 tools/text-recognizer-README $(DETECTOR_DIR)/README-ppocrv4-rec

# PP-OCR's text-angle classifier (ch_ppocr_mobile_v2.0_cls_infer.onnx, Apache-2.0, from the same
# wheel): whether a line's crop is upside down. The detector's rewrite (tools/convert_text_detector.py:
# Clip's opset-10 form, the 5x5 depthwise convolutions split) with its input declared 1x3x48x192.
# Installed beside the detector; TextAngleClassifier looks for it there ($$FRAMEOCR_TEXT_ANGLE_CLASSIFIER
# overrides). `make text-recognizer-check` compares it with the original too.
CLASSIFIER_MODEL         := $(DETECTOR_DIR)/ppocr-cls-opencv.onnx
CLASSIFIER_SOURCE        := rapidocr_onnxruntime/models/ch_ppocr_mobile_v2.0_cls_infer.onnx
CLASSIFIER_SOURCE_SHA256 := e47acedf663230f8863ff1ab0e64dd2d82b838fceb5957146dab185a89d6215c
CLASSIFIER_SHA256        := 6cce5698d123dfdeaaae6de7fb4a9162ea2d3fa96fdb716542938918b64e2c6a
text-angle-classifier:
	@if echo "$(CLASSIFIER_SHA256)  $(CLASSIFIER_MODEL)" | sha256sum -c --status 2>/dev/null; then \
	  echo "Text-angle classifier: present ($(CLASSIFIER_MODEL))"; else \
	  $(MAKE) --no-print-directory text-angle-classifier-install; fi

text-angle-classifier-install:
	$(rapidocr-wheel)
	set -e; cd $(DETECTOR_WORK); \
	  unzip -o -q $(RAPIDOCR_WHEEL) $(CLASSIFIER_SOURCE) -d wheel; \
	  echo "$(CLASSIFIER_SOURCE_SHA256)  wheel/$(CLASSIFIER_SOURCE)" | sha256sum -c; \
	  venv/bin/python $(CURDIR)/tools/convert_text_detector.py wheel/$(CLASSIFIER_SOURCE) ppocr-cls-opencv.onnx \
	    --input 1,3,48,192; \
	  echo "$(CLASSIFIER_SHA256)  ppocr-cls-opencv.onnx" | sha256sum -c
	$(SUDO) install -D -m 644 $(DETECTOR_WORK)/ppocr-cls-opencv.onnx $(CLASSIFIER_MODEL)
	$(SUDO) install -D -m 644 /usr/share/common-licenses/Apache-2.0 $(DETECTOR_DIR)/LICENSE-ppocr-cls
	$(SUDO) install -D -m 644 tools/text-angle-classifier-README $(DETECTOR_DIR)/README-ppocr-cls

# The converted recognizer against the original: the original under onnxruntime (the RapidOCR
# peer's venv) and the converted one under OpenCV 4.6's dnn module (Debian's python3-opencv, the
# same libopencv FrameOCR links) on generated line crops of several widths; fails on any greedy
# CTC decoding that differs (tools/check_text_recognizer.py). Python is the check's only.
text-recognizer-check: text-recognizer text-angle-classifier rapidocr
	$(call apt-install,python3-opencv)
	$(rapidocr-wheel)
	set -e; cd $(DETECTOR_WORK); unzip -o -q $(RAPIDOCR_WHEEL) $(RECOGNIZER_SOURCE) $(CLASSIFIER_SOURCE) -d wheel; \
	  echo "$(RECOGNIZER_SOURCE_SHA256)  wheel/$(RECOGNIZER_SOURCE)" | sha256sum -c; \
	  echo "$(CLASSIFIER_SOURCE_SHA256)  wheel/$(CLASSIFIER_SOURCE)" | sha256sum -c
	/usr/bin/python3 tools/check_text_recognizer.py --original $(DETECTOR_WORK)/wheel/$(RECOGNIZER_SOURCE) \
	  --converted $(RECOGNIZER_MODEL) --keys $(RECOGNIZER_KEYS) --onnxruntime-python $(RAPIDOCR_VENV)/bin/python \
	  --classifier-original $(DETECTOR_WORK)/wheel/$(CLASSIFIER_SOURCE) --classifier-converted $(CLASSIFIER_MODEL)

# Only the OpenCV modules each part calls: Debian's opencv4.pc links all 55 (Qt5, VTK and GDAL
# come with them). Three pkg-config files in the checkout, which Package.swift names by their path
# (so the link does not depend on what ran before `make deps`): the shim's modules (core, imgproc,
# calib3d); imgcodecs, videoio and dnn for libFrameOCRMedia.so, which the shim loads only when an
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

# RapidOCR, the Python peer frameocr-bench measures the scene-text reading against (the
# scenes-auto and plates-auto rows; tools/rapidocr_peer.py): rapidocr-onnxruntime from PyPI
# (PP-OCRv4 on onnxruntime) in a venv of Debian's Python. Python is the peer's only: nothing of
# FrameOCR needs it. See docs/benchmarks.md, "The RapidOCR peer".
RAPIDOCR_VENV := .build/peers/rapidocr-venv
rapidocr:
	$(call apt-install,python3-venv)
	$(call venv,$(RAPIDOCR_VENV),rapidocr-onnxruntime==$(RAPIDOCR_VERSION))

# $(call venv,DIR,REQUIREMENTS): a venv of $(PEER_PYTHON) in DIR with the pinned REQUIREMENTS from
# PyPI, made again only when what it is made from changes: DIR/.requirements keeps the SHA-256 of
# the Python's version and the requirements. (A venv is cached by it inside the build tree; a
# clean clone makes it anew.)
define venv
	@set -f; want=$$({ $(PEER_PYTHON) --version; echo '$(2)'; } | sha256sum | cut -c1-64); \
	if [ -x $(1)/bin/python ] && [ "$$(cat $(1)/.requirements 2>/dev/null)" = "$$want" ]; then \
	  echo "$(1): present ($(2))"; else \
	  set -e; echo "$(1): making it ($(2))"; rm -rf $(1); $(PEER_PYTHON) -m venv $(1); \
	  $(1)/bin/pip install -q $(2); echo "$$want" >$(1)/.requirements; fi
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
# reference at 1080p and 4K, with its throughput. Here it runs on PoCL's CPU device; on a GPU
# machine run `bash Benchmarks/gpu/run.sh` (no Swift or OpenCV needed). Fails when an output differs.
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
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_REPLAYER=$(TEST_BIN)/frameocr-fuzz bash Tests/Fuzz/run.sh

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
SANITIZE_ENV := OMP_THREAD_LIMIT=1 SWIFT_BACKTRACE=enable=no \
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
