import CBaselines
import CFrameOCR
import Testing

@testable import FrameOCR

// MARK: - Helpers: SIMD levels and the OpenCV oracle

/// Every SIMD level of the fast path this machine runs: 0 portable C++, 1 SSE2, 2 AVX2 (fewer
/// off x86, or when FRAMEOCR_SIMD caps it).
let simdLevels: [Int32] = Array(0...max(0, focr_fast_simd_level()))

/// Runs `body` with the fast path capped at `level` for calls made from this thread (the worker
/// threads of those calls follow).
func withSIMDLevel<R>(_ level: Int32, _ body: () throws -> R) rethrows -> R {
    let now = focr_fast_limit_simd_level(level)
    defer { focr_fast_limit_simd_level(-1) }
    #expect(now == level, "SIMD level \(level) is not available")
    return try body()
}

/// The plain OpenCV calls (`Benchmarks/Baselines/baseline.cpp`, the CBaselines target): the oracle
/// FrameOCR's own kernels must equal byte for byte. (`applyingOrientation` and `adaptiveThreshold`
/// run those kernels now, so they cannot be their own reference.)
enum OpenCV {
    /// `status` of a baseline call; a failure is recorded with the baselines' own message
    /// (`focr_baseline_last_error`: the error that `run` throws carries the shim's, which is not it).
    static func recorded(_ status: focr_status) -> focr_status {
        if status != FOCR_OK { Issue.record("OpenCV oracle: \(String(cString: focr_baseline_last_error()))") }
        return status
    }

    /// `cv::rotate` / `cv::flip` / `cv::transpose` for `o`, into a new buffer.
    static func orient(_ image: PixelBuffer, _ o: Orientation) throws -> PixelBuffer {
        let (w, h) = o.swapsDimensions ? (image.height, image.width) : (image.width, image.height)
        let out = try PixelBuffer(width: w, height: h, pixelFormat: image.pixelFormat)
        try image.run(into: out, .rotation) { s, d in recorded(focr_baseline_orient(s, Int32(o.rawValue), d)) }
        return out
    }

    /// `cv::cvtColor(image, out, …2GRAY)` of a packed color image, into a new buffer.
    static func gray(_ image: PixelBuffer) throws -> PixelBuffer {
        let out = try PixelBuffer(width: image.width, height: image.height, pixelFormat: .gray8)
        try image.run(into: out, .colorConversion) { s, d in recorded(focr_baseline_gray(s, d)) }
        return out
    }

    /// `cv::adaptiveThreshold(image, out, 255, method, BINARY or BINARY_INV, blockSize, C)`.
    static func adaptiveThreshold(_ image: PixelBuffer, _ t: AdaptiveThreshold) throws -> PixelBuffer {
        let out = try PixelBuffer(width: image.width, height: image.height, pixelFormat: .gray8)
        let method = Int32(t.method == .mean ? FOCR_THRESHOLD_MEAN.rawValue : FOCR_THRESHOLD_GAUSSIAN.rawValue)
        try image.run(into: out, .threshold) { s, d in
            recorded(focr_baseline_adaptive_threshold(s, method, t.inverted ? 1 : 0, Int32(t.blockSize), t.c, d))
        }
        return out
    }

    /// The 8-bit mean `cv::adaptiveThreshold` GAUSSIAN_C compares with: convertTo CV_32F →
    /// `cv::GaussianBlur` (replicated border) → convertTo CV_8U.
    static func gaussianMean(_ image: PixelBuffer, blockSize: Int) throws -> PixelBuffer {
        let out = try PixelBuffer(width: image.width, height: image.height, pixelFormat: .gray8)
        try image.run(into: out, .threshold) { s, d in recorded(focr_baseline_gaussian_mean(s, Int32(blockSize), d)) }
        return out
    }

    /// The chain on a raw region: `cv::cvtColor` (NV12/I420: the Y plane) → `orient` →
    /// `cv::adaptiveThreshold`.
    static func chain(_ frame: PixelBuffer, _ rawRect: PixelRect, _ o: Orientation, _ t: AdaptiveThreshold?) throws
        -> [UInt8]
    {
        let view = try (frame.pixelFormat.isYCbCr ? frame.lumaPlane() : frame).cropped(to: rawRect)
        let packedColor = !(view.pixelFormat == .gray8 || view.pixelFormat.isYCbCr)
        var image = try orient(packedColor ? try gray(view) : try view.convertedToGray().copy(), o)
        if let t { image = try adaptiveThreshold(image, t) }
        return image.packedBytes()
    }
}

// MARK: - The fused chain

/// `focr_fast_preprocess` (PixelBuffer.fusedPreprocess, what Pipeline runs on the CPU) against the
/// OpenCV chain, at every SIMD level.
@Suite("Fused CPU chain (focr_fast_preprocess) equals the OpenCV chain")
struct FastPathTests {
    static let formats: [PixelFormat] = [.bgra8, .rgba8, .bgr8, .rgb8, .gray8, .nv12, .i420]

    /// Thresholds that take every branch: none, small blocks (OpenCV's fixed-point mean), the
    /// float mean, blocks over 127 (upright first), inverted, C past the byte range, and the
    /// Gaussian (upright first, OpenCV's float blur).
    static let thresholds: [AdaptiveThreshold?] = [
        nil, AdaptiveThreshold(method: .mean, blockSize: 3, c: 0),
        AdaptiveThreshold(method: .mean, blockSize: 15, c: -1, inverted: true),
        AdaptiveThreshold(method: .mean, blockSize: 31, c: 10),
        AdaptiveThreshold(method: .mean, blockSize: 101, c: -2.5, inverted: true),
        AdaptiveThreshold(method: .mean, blockSize: 129, c: 3), AdaptiveThreshold(method: .mean, blockSize: 15, c: 400),
        AdaptiveThreshold(method: .gaussian, blockSize: 31, c: 2),
        AdaptiveThreshold(method: .gaussian, blockSize: 5, c: -1.5, inverted: true),
    ]

    @Test(
        "formats × orientations × regions × thresholds × SIMD levels, odd sizes and padded strides",
        arguments: formats, Orientation.allCases)
    func parity(format: PixelFormat, orientation: Orientation) throws {
        for size in [Size(1, 1), Size(2, 1), Size(3, 5), Size(33, 7), Size(47, 34), Size(641, 479)] {
            let frame = try PaddedFrame(
                format: format, width: size.width, height: size.height, padding: 13,
                orientation: orientation, value: size.width > 100 ? page : noise)
            let (uw, uh) = orientation.swapsDimensions ? (size.height, size.width) : (size.width, size.height)
            var regions: [PixelRect] = [PixelRect(x: 0, y: 0, width: uw, height: uh)]
            if uw > 10 && uh > 6 {
                regions += [PixelRect(x: uw / 3, y: uh / 4, width: uw - uw / 3, height: uh - uh / 4)]
            }
            if uw > 10 && uh > 6 && size.width < 100 {
                regions += [PixelRect(x: 1, y: 1, width: uw / 2, height: uh / 2)]
            }
            // The large frame: the machine's level and two settings only (the debug build of the shim is slow).
            let levels = size.width > 100 ? [simdLevels.last!] : simdLevels
            let all = size.width > 100 ? [Self.thresholds[0], Self.thresholds[3]] : Self.thresholds
            for level in levels {
                for region in regions {
                    for t in all {
                        let raw = FrameTransform(
                            orientation: orientation, rawWidth: size.width, rawHeight: size.height, region: region
                        )
                        .rawRect(fromUpright: region)
                        let out = try PaddedFrame(
                            format: .gray8, width: region.width, height: region.height, padding: 9)
                        // 4:2:0 crops need an even origin; their gray is the Y plane, cropped anywhere.
                        let base = try format.isYCbCr ? frame.buffer.lumaPlane() : frame.buffer
                        try withSIMDLevel(level) {
                            try base.cropped(to: raw).fusedPreprocess(
                                orientation: orientation, threshold: t, into: out.buffer)
                        }
                        expectSameBytes(
                            out.pixels(), try OpenCV.chain(frame.buffer, raw, orientation, t),
                            "level \(level) \(format) \(orientation) \(size) \(region) \(String(describing: t))")
                        #expect(out.damagedPaddingBytes() == 0)
                    }
                }
            }
            #expect(frame.damagedPaddingBytes() == 0)
        }
    }

    @Test(
        "1920×1080 BGRA and NV12, .right, 80 % region, mean 31: identical to the OpenCV chain",
        arguments: [PixelFormat.bgra8, .nv12])
    func fullHD(format: PixelFormat) throws {
        let frame = try PaddedFrame(
            format: format, width: 1920, height: 1080, padding: 64, orientation: .right, value: noise)
        let region = PixelRect(x: 108, y: 192, width: 864, height: 1536)
        let t = AdaptiveThreshold(method: .mean, blockSize: 31, c: 10)
        let raw = FrameTransform(orientation: .right, rawWidth: 1920, rawHeight: 1080, region: region).rawRect(
            fromUpright: region)
        let out = try PixelBuffer(width: region.width, height: region.height, pixelFormat: .gray8)
        let view = try (format.isYCbCr ? frame.buffer.lumaPlane() : frame.buffer).cropped(to: raw)
        try view.fusedPreprocess(orientation: .right, threshold: t, into: out)
        expectSameBytes(out.packedBytes(), try OpenCV.chain(frame.buffer, raw, .right, t))
    }

    @Test("a padded destination keeps its padding; bad arguments are refused with a typed error")
    func destinationAndErrors() throws {
        let frame = try PaddedFrame(format: .bgr8, width: 40, height: 30, value: page)
        let dst = try PaddedFrame(format: .gray8, width: 30, height: 40, padding: 21)
        try frame.buffer.run(into: dst.buffer, .threshold) { s, d in focr_fast_preprocess(s, 6, 7, 2, 0, d) }
        #expect(dst.damagedPaddingBytes() == 0)
        expectSameBytes(
            dst.pixels(),
            try OpenCV.chain(
                frame.buffer, PixelRect(x: 0, y: 0, width: 40, height: 30), .right,
                AdaptiveThreshold(blockSize: 7, c: 2)))
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
            try frame.buffer.fusedPreprocess(
                orientation: .up, threshold: AdaptiveThreshold(method: .gaussian, blockSize: 4), into: dst.buffer)
        }
        let unknownMethod = frame.buffer.withUnsafeImageDescriptor { s in
            dst.buffer.withUnsafeImageDescriptor { d in focr_fast_preprocess_method(s, 6, 7, 7, 2, 0, d) }
        }
        #expect(unknownMethod == FOCR_E_INVALID_ARGUMENT)
        // A destination of the wrong size (the upright size of .right is 30×40).
        let wrong = try PixelBuffer(width: 40, height: 30, pixelFormat: .gray8)
        expectFrameOCRError(.invalidBuffer) { () throws(FrameOCRError) in
            try frame.buffer.fusedPreprocess(orientation: .right, threshold: nil, into: wrong)
        }
        // Straight through the shim: even and too small blocks, orientations outside 1…8, C not finite.
        for (block, orientation, c) in [
            (2, 6, 2.0), (1, 6, 2), (8, 1, 0), (7, 0, 2), (7, 9, 2), (7, 6, .nan), (7, 6, .infinity),
        ] as [(Int32, Int32, Double)] {
            let error = expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
                try frame.buffer.run(into: dst.buffer, .threshold) { s, d in
                    focr_fast_preprocess(s, orientation, block, c, 0, d)
                }
            }
            #expect(error?.message.isEmpty == false)
        }
        #expect(dst.damagedPaddingBytes() == 0)
        // A planar source is refused (its Y plane is the gray image to pass).
        let nv12 = try PaddedFrame(format: .nv12, width: 30, height: 40)
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
            try nv12.buffer.run(into: dst.buffer, .threshold) { s, d in focr_fast_preprocess(s, 1, 7, 2, 0, d) }
        }
    }

    @Test("a destination overlapping the source is refused")
    func overlap() throws {
        let frame = try PaddedFrame(format: .gray8, width: 32, height: 32)
        // The same memory as source and destination, and a destination inside the source's rows.
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
            try frame.buffer.fusedPreprocess(
                orientation: .right, threshold: AdaptiveThreshold(blockSize: 5), into: frame.buffer)
        }
        let inner = try frame.buffer.cropped(to: PixelRect(x: 4, y: 4, width: 20, height: 20))
        let left = try frame.buffer.cropped(to: PixelRect(x: 0, y: 0, width: 20, height: 20))
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
            try left.fusedPreprocess(orientation: .up, threshold: nil, into: inner)
        }
    }

    @Test(
        "blocks larger than the image, and over 255 (OpenCV's own threshold), on tiny frames",
        arguments: Orientation.allCases)
    func hugeBlocks(orientation: Orientation) throws {
        for size in [Size(1, 1), Size(1, 5), Size(6, 1), Size(9, 4)] {
            let frame = try PaddedFrame(
                format: .bgra8, width: size.width, height: size.height, orientation: orientation, value: noise)
            let (uw, uh) = orientation.swapsDimensions ? (size.height, size.width) : (size.width, size.height)
            for t in [
                AdaptiveThreshold(blockSize: 31, c: 0), AdaptiveThreshold(blockSize: 255, c: -1, inverted: true),
                AdaptiveThreshold(blockSize: 301, c: 1), AdaptiveThreshold(blockSize: 7, c: 3e9),
            ] {
                let out = try PixelBuffer(width: uw, height: uh, pixelFormat: .gray8)
                try frame.buffer.fusedPreprocess(orientation: orientation, threshold: t, into: out)
                expectSameBytes(
                    out.packedBytes(),
                    try OpenCV.chain(
                        frame.buffer, PixelRect(x: 0, y: 0, width: size.width, height: size.height),
                        orientation, t), "\(size) \(t)")
            }
        }
    }
}
