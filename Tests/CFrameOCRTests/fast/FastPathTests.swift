import CFrameOCR
import FrameOCRTestSupport
import Testing

@testable import FrameOCR

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
