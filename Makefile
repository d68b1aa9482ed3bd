# FrameOCR — build, run and test on a fresh Debian 12 machine.
#
#   make run    installs what is missing, builds in release mode, recognizes the bundled sample
#   make test   installs what is missing, runs the whole test suite
#
# System packages (Debian): OpenCV, Tesseract with English and OSD models, Leptonica, the OpenCL
# ICD loader and headers, PoCL (an OpenCL device on the CPU) and clinfo.

PACKAGES := libopencv-dev libtesseract-dev libleptonica-dev tesseract-ocr tesseract-ocr-eng \
            tesseract-ocr-osd ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo pkg-config
SAMPLE   := Tests/FrameOCRTests/Fixtures/phototest.tif
SWIFT    ?= swift
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build release run test bench bench-full clean

all: build

# Installs only the packages that are missing (apt-get update once, when something is).
deps:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	else echo "System packages: all present"; fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

run: release
	.build/release/frameocr recognize $(SAMPLE)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --no-parallel

clean:
	rm -rf .build

# The quick benchmark set (small sizes, no recognition): every case beside its plain-OpenCV
# baseline and a memcpy, in one run. `make bench-full` runs all sizes and recognition (minutes).
# Gate a change: .build/release/frameocr-bench --json new.json --compare old.json --max-regression 10%
bench: deps
	$(SWIFT) build -c release --product frameocr-bench
	.build/release/frameocr-bench --quick

bench-full: deps
	$(SWIFT) build -c release --product frameocr-bench
	.build/release/frameocr-bench
