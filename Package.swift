// swift-tools-version:6.0
//
// FrameOCR — zero-copy camera and video frames in, recognized text out.
// No package dependencies and no unsafe compiler flags: system libraries come from Debian packages through
// pkg-config (`make deps` installs them).
import PackageDescription

// OpenCV through pkg-config files of only the modules each part calls, kept in the checkout beside
// each system library's module map (Sources/COpenCV/frameocr-opencv.pc and its two siblings) and
// named by their absolute path: Debian's opencv4.pc links all 55 modules, and with them Qt5, VTK
// and GDAL, which every process would load. The manifest consults no file outside the checkout,
// so its evaluation, which SwiftPM caches, is the same whatever ran first (`swift build` before
// `make deps` included). The image-file, video and text-detector code (imgcodecs, videoio, dnn:
// GDAL, FFmpeg, GStreamer, protobuf) has a pkg-config file and a target of its own
// (CFrameOCRMedia), and so has the test-only text rendering (freetype: CFrameOCRSynthesis).
// FRAMEOCR_OPENCV_PC=opencv4 (any pkg-config name or .pc path) takes that one file for all three
// parts instead, for an OpenCV installed elsewhere than Debian's folders (docs/layout.md).
func openCVPackage(_ folder: String, _ name: String) -> String {
    Context.environment["FRAMEOCR_OPENCV_PC"] ?? "\(Context.packageDirectory)/Sources/\(folder)/\(name).pc"
}
let openCV = openCVPackage("COpenCV", "frameocr-opencv")
let openCVMedia = openCVPackage("COpenCVMedia", "frameocr-opencv-media")
let openCVFreeType = openCVPackage("COpenCVFreeType", "frameocr-opencv-freetype")

let package = Package(
    name: "FrameOCR",
    products: [
        // The library products list CFrameOCRMedia beside their Swift target: a package that
        // depends on one links the image-file, video and text-detector code in, and the shim finds
        // it in the process (Sources/CFrameOCR/loader/media_loader.cpp). This package's own
        // programs depend on the FrameOCR *target* instead and load libFrameOCRMedia.so on first
        // use, so that `frameocr --version` or raw frames never load imgcodecs, videoio or dnn.
        .library(name: "FrameOCR", targets: ["FrameOCR", "CFrameOCRMedia"]),
        .library(name: "FrameOCREvaluation", targets: ["FrameOCREvaluation", "CFrameOCRMedia"]),
        // Image files, video and the text detector as a dynamic library, which this package's
        // programs load with dlopen on first use (Sources/CFrameOCR/loader/media_loader.cpp);
        // `swift build` builds it beside them.
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
            name: "COpenCVFreeType", path: "Sources/COpenCVFreeType", pkgConfig: openCVFreeType,
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
        .systemLibrary(
            name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]),

        // MARK: - C shim (pure-C headers, C++17 inside)

        // What the shim and its media library share: the status codes, the thread's last error and
        // the exception firewall, descriptor validation, decoded images (focr_common.h and
        // include/focr_common/*.hpp), the public declarations of the media calls (focr_files.h,
        // focr_video.h, focr_detect.h, focr_recognize.h) and their one list (focr_media_calls.h).
        // Each binary that links it has its own copy of the last error (see focr_common.h).
        .target(name: "CFrameOCRCommon", dependencies: ["COpenCV"], path: "Sources/CFrameOCRCommon"),

        // The shim, linked into every program. Rooms by concern: include/ (the public C headers),
        // image/ (operations, borders, small rotations, smoothing, annotation), fast/ (the SIMD
        // CPU chain), opencl/, tesseract/, analysis/ (measurements), files/ (stills decoded by
        // Leptonica), loader/ (the media library, found on first use). Internal headers are included by their path from the target's
        // root ("analysis/components.hpp"), CFrameOCRCommon's as "focr_common/status.hpp".
        .target(
            name: "CFrameOCR",
            dependencies: ["CFrameOCRCommon", "COpenCV", "CTesseract", "CLeptonica", "COpenCL"],
            path: "Sources/CFrameOCR",
            cxxSettings: [.headerSearchPath(".")]
        ),

        // The media library: image files Leptonica does not read and images written (files/),
        // video read and written (video/), the text
        // detector (detection/), the text recognizer (recognition/), where their networks run
        // (dnn/), OpenVINO loaded and called (openvino/), and its table (entry/). libFrameOCRMedia.so for this package's programs; linked
        // in by a package that depends on the FrameOCR product. It depends on no target that would
        // link Tesseract or the rest of the shim into it.
        .target(
            name: "CFrameOCRMedia",
            dependencies: ["CFrameOCRCommon", "COpenCVMedia"],
            path: "Sources/CFrameOCRMedia",
            // The checkout's folder, where the runtime finds OpenVINO in the build tree
            // (.build/openvino/lib, which `make openvino` fills; focr_openvino.h).
            cxxSettings: [
                .headerSearchPath("."), .define("FOCR_PACKAGE_DIRECTORY", to: "\"\(Context.packageDirectory)\""),
            ]
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
        // The HTTP server of `serve --http` (libmicrohttpd), for the command-line tool only.
        .target(name: "CFrameOCRHTTP", dependencies: ["CMicroHTTPD"], path: "Sources/CFrameOCRHTTP"),
        .target(
            name: "FrameOCRCommandLine", dependencies: ["FrameOCR", "FrameOCREvaluation", "CFrameOCRHTTP"],
            path: "Sources/FrameOCRCommandLine"),
        .executableTarget(name: "frameocr", dependencies: ["FrameOCRCommandLine"], path: "Sources/frameocr"),

        // MARK: - Test support: generated scenes (in no product)

        // Text rendered in a TrueType font and images composed on a canvas (focr_synthetic.h): the
        // only code that links OpenCV's freetype module (and FreeType and HarfBuzz with it).
        .target(
            name: "CFrameOCRSynthesis", dependencies: ["CFrameOCRCommon", "COpenCV", "COpenCVFreeType"],
            path: "Sources/CFrameOCRSynthesis"),
        // Generated live scenes and their score (SyntheticScene, LiveScore) and the text drawing
        // they are made of (PixelBuffer.rendering, draw(_:affine:)), for the tests and frameocr-bench.
        .target(
            name: "FrameOCRSynthesis", dependencies: ["FrameOCR", "FrameOCREvaluation", "CFrameOCRSynthesis"],
            path: "Sources/FrameOCRSynthesis"),

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
                "FrameOCR", "FrameOCREvaluation", "FrameOCRSynthesis", "FrameOCRCommandLine", "CFrameOCR",
                "CBaselines", "CAllocationCounter",
            ],
            path: "Benchmarks", exclude: ["AllocationCounter", "Baselines", "gpu", "robust"]),

        // MARK: - Tests

        // libFuzzer harnesses of the command line's parsers (serve's requests, the options): a
        // replayer in a plain build, a fuzzer under `make fuzz` (Tests/Fuzz/run.sh).
        .executableTarget(name: "frameocr-fuzz", dependencies: ["FrameOCRCommandLine"], path: "Tests/Fuzz/Swift"),

        // Child processes and loopback stream senders (ffmpeg, gst-launch-1.0) for the live-source
        // tests of both FrameOCRTests and frameocrTests.
        .target(name: "LiveTestSupport", path: "Tests/LiveTestSupport"),
        // Frames in memory the tests own (padding set to a sentinel), reference math, byte checks,
        // the fast path's SIMD levels and the OpenCV oracle (CBaselines): for FrameOCRTests and
        // CFrameOCRTests. The one place besides CFrameOCRTests that calls the shim from Swift.
        .target(
            name: "FrameOCRTestSupport", dependencies: ["FrameOCR", "CFrameOCR", "CFrameOCRCommon", "CBaselines"],
            path: "Tests/FrameOCRTestSupport"),
        // The library through its API (it does not import the shim).
        .testTarget(
            name: "FrameOCRTests",
            // CTesseract: the alternates tests read the same image with Tesseract's own C API.
            dependencies: [
                "FrameOCR", "FrameOCREvaluation", "FrameOCRSynthesis", "FrameOCRTestSupport", "CTesseract",
                "LiveTestSupport",
            ],
            path: "Tests/FrameOCRTests", resources: [.copy("Fixtures")]),
        // The shim's calls made directly, one folder per room of Sources/CFrameOCR (fast/, analysis/,
        // opencl/, tesseract/, loader/); fixtures read from Tests/FrameOCRTests/Fixtures in place.
        .testTarget(
            name: "CFrameOCRTests",
            dependencies: ["CFrameOCR", "CBaselines", "FrameOCR", "FrameOCRKernels", "FrameOCRTestSupport"],
            path: "Tests/CFrameOCRTests"),
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
