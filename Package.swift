// swift-tools-version:6.0
//
// FrameOCR — zero-copy camera and video frames in, recognized text out.
// No package dependencies and no unsafe compiler flags: system libraries come from Debian packages through
// pkg-config (`make deps` installs them).
import Foundation
import PackageDescription

// OpenCV through a pkg-config file of only the modules the shim calls, when `make deps` has
// written it (OPENCV_MODULES in the Makefile): Debian's opencv4.pc links all 55 modules, and
// with them Qt5, VTK and GDAL, which every process would load. Without it, opencv4.pc: plain
// `swift build` works either way.
// The image-file and video code (imgcodecs, videoio: GDAL, FFmpeg, GStreamer) has a pkg-config
// file and a library of its own, loaded only when an image file or a video is opened.
func openCVPackage(_ name: String) -> String {
    FileManager.default.fileExists(atPath: "/usr/local/lib/pkgconfig/\(name).pc") ? name : "opencv4"
}
let openCV = openCVPackage("frameocr-opencv-core")
let openCVMedia = openCVPackage("frameocr-opencv-media")

let package = Package(
    name: "FrameOCR",
    products: [
        .library(name: "FrameOCR", targets: ["FrameOCR"]),
        .library(name: "FrameOCREvaluation", targets: ["FrameOCREvaluation"]),
        // Image files and video, loaded with dlopen on first use (Sources/CFrameOCR/media/media.cpp);
        // `swift build` builds it beside the programs.
        .library(name: "FrameOCRMedia", type: .dynamic, targets: ["CFrameOCRMedia"]),
        .executable(name: "frameocr", targets: ["frameocr"]),
        .executable(name: "frameocr-bench", targets: ["frameocr-bench"]),
    ],
    targets: [
        // MARK: - System libraries (Debian packages, found through pkg-config)

        .systemLibrary(
            name: "COpenCV", path: "Sources/COpenCV", pkgConfig: openCV,
            providers: [.apt(["libopencv-dev"])]),
        .systemLibrary(
            name: "COpenCVMedia", path: "Sources/COpenCVMedia", pkgConfig: openCVMedia,
            providers: [.apt(["libopencv-dev"])]),
        .systemLibrary(
            name: "CTesseract", path: "Sources/CTesseract", pkgConfig: "tesseract",
            providers: [.apt(["libtesseract-dev", "libleptonica-dev", "tesseract-ocr-eng"])]),
        .systemLibrary(
            name: "CLeptonica", path: "Sources/CLeptonica", pkgConfig: "lept",
            providers: [.apt(["libleptonica-dev"])]),
        .systemLibrary(
            name: "COpenCL", path: "Sources/COpenCL", pkgConfig: "OpenCL",
            providers: [.apt(["ocl-icd-opencl-dev", "opencl-headers"])]),

        // MARK: - C shim (pure-C header, C++17 inside)

        // Rooms by concern: include/ (the public C headers), common/ (status, exception firewall,
        // descriptor validation), image/, fast/, opencl/, tesseract/, analysis/, video/. Internal
        // headers are included by their path from the target's root ("common/status.hpp").
        .target(
            name: "CFrameOCR",
            dependencies: ["COpenCV", "CTesseract", "CLeptonica", "COpenCL"],
            path: "Sources/CFrameOCR",
            cxxSettings: [.headerSearchPath(".")]
        ),

        // The shim's image-file and video code (libFrameOCRMedia.so), with its own copy of the
        // shim's error reporting; it includes the shim's internal headers and depends on no target
        // that would link Tesseract or the rest of the shim into it.
        .target(
            name: "CFrameOCRMedia",
            dependencies: ["COpenCVMedia", "CLeptonica"],
            path: "Sources/CFrameOCRMedia",
            cxxSettings: [.headerSearchPath("../CFrameOCR"), .headerSearchPath("../CFrameOCR/include")]
        ),

        // MARK: - OpenCL kernels (embedded into the binary)

        .target(
            name: "FrameOCRKernels", path: "Kernels",
            resources: [
                .embedInCode("gray.cl"), .embedInCode("orient.cl"), .embedInCode("adaptive_threshold.cl"),
                .embedInCode("resize.cl"),
            ]),

        // MARK: - Swift library and command-line tool

        .target(name: "FrameOCR", dependencies: ["CFrameOCR", "FrameOCRKernels"], path: "Sources/FrameOCR"),
        // Scoring against ground truth and corpus discovery (the CLI's `eval` and the benchmark use it).
        // The corpus's fixed tuning and held-out halves are embedded (corpus-split.tsv).
        .target(
            name: "FrameOCREvaluation", dependencies: ["FrameOCR"], path: "Sources/FrameOCREvaluation",
            resources: [.embedInCode("corpus-split.tsv")]),
        // The command-line tool's commands, options and `serve` worker; the executable is its `main`.
        .target(
            name: "FrameOCRCommandLine", dependencies: ["FrameOCR", "FrameOCREvaluation"],
            path: "Sources/FrameOCRCommandLine"),
        .executableTarget(name: "frameocr", dependencies: ["FrameOCRCommandLine"], path: "Sources/frameocr"),

        // MARK: - Examples (built with the package, run by the CLI tests)

        .executableTarget(name: "still-image-example", dependencies: ["FrameOCR"], path: "Examples/StillImage"),
        .executableTarget(name: "label-scanner-example", dependencies: ["FrameOCR"], path: "Examples/LabelScanner"),

        // MARK: - Benchmarks

        // The counting malloc (interposes glibc's; see its header): the benchmark's only.
        .target(name: "CAllocationCounter", path: "Benchmarks/AllocationCounter"),
        // Plain OpenCV the benchmark measures FrameOCR against, and the OpenCV oracles the tests
        // compare FrameOCR's own kernels with (focr_baseline.h; C++17 inside). Not the shim: it
        // uses only the shim's public image types.
        .target(name: "CBaselines", dependencies: ["CFrameOCR", "COpenCV"], path: "Benchmarks/Baselines"),
        .executableTarget(
            name: "frameocr-bench",
            dependencies: [
                "FrameOCR", "FrameOCREvaluation", "FrameOCRCommandLine", "CFrameOCR", "CBaselines",
                "CAllocationCounter",
            ],
            path: "Benchmarks", exclude: ["AllocationCounter", "Baselines", "gpu"]),

        // MARK: - Tests

        // libFuzzer harnesses of the command line's parsers (serve's requests, the options): a
        // replayer in a plain build, a fuzzer under `make fuzz` (Tests/Fuzz/run.sh).
        .executableTarget(name: "frameocr-fuzz", dependencies: ["FrameOCRCommandLine"], path: "Tests/Fuzz/Swift"),

        // Child processes and loopback stream senders (ffmpeg, gst-launch-1.0) for the live-source
        // tests of both FrameOCRTests and frameocrTests.
        .target(name: "LiveTestSupport", path: "Tests/LiveTestSupport"),
        .testTarget(
            name: "FrameOCRTests",
            // CTesseract: the alternates tests read the same image with Tesseract's own C API.
            dependencies: [
                "FrameOCR", "FrameOCREvaluation", "CFrameOCR", "CBaselines", "CTesseract", "LiveTestSupport",
            ],
            path: "Tests/FrameOCRTests", resources: [.copy("Fixtures")]),
        .testTarget(
            name: "FrameOCREvaluationTests", dependencies: ["FrameOCREvaluation"],
            path: "Tests/FrameOCREvaluationTests"),
        .testTarget(
            name: "frameocrTests",
            dependencies: ["frameocr", "frameocr-bench", "frameocr-fuzz", "FrameOCRCommandLine", "LiveTestSupport"],
            path: "Tests/frameocrTests"),
    ],
    cxxLanguageStandard: .cxx17
)
