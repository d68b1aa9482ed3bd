import CFrameOCR
import FrameOCRTestSupport
import Testing

@testable import FrameOCR

/// The per-op CPU entry points that run FrameOCR's SIMD kernels — `applyingOrientation` on
/// `gray8` (focr_orient) and the mean `adaptiveThreshold` (focr_adaptive_threshold) — against the
/// OpenCV calls they replace, at every SIMD level, with padded strides on both sides.
@Suite("SIMD kernels of the per-op CPU path equal OpenCV")
struct FastKernelTests {
    @Test("the SIMD level: the machine's best by default, capped per thread")
    func levels() {
        let best = focr_fast_simd_level()
        #if arch(x86_64)
            #expect(best >= 1)  // SSE2 is the x86-64 baseline
        #endif
        #expect(focr_fast_limit_simd_level(0) == 0)
        #expect(focr_fast_simd_level() == 0)
        #expect(focr_fast_limit_simd_level(99) == best)  // a cap above the machine changes nothing
        #expect(focr_fast_limit_simd_level(-1) == best)
        #expect(focr_fast_simd_level() == best)
    }

    // MARK: Orientation

    static let orientSizes = [
        Size(1, 1), Size(1, 17), Size(17, 1), Size(15, 16), Size(16, 16), Size(17, 33), Size(33, 17),
        Size(100, 37), Size(257, 65),
    ]

    @Test("gray8 orientation equals cv::rotate / cv::flip / cv::transpose", arguments: simdLevels, Orientation.allCases)
    func orientation(level: Int32, orientation: Orientation) throws {
        for size in Self.orientSizes {
            let frame = try PaddedFrame(
                format: .gray8, width: size.width, height: size.height, padding: 11, value: noise)
            let (w, h) = orientation.swapsDimensions ? (size.height, size.width) : (size.width, size.height)
            let out = try PaddedFrame(format: .gray8, width: w, height: h, padding: 5)
            _ = try withSIMDLevel(level) { try frame.buffer.applyingOrientation(orientation, into: out.buffer) }
            expectSameBytes(
                out.pixels(), try OpenCV.orient(frame.buffer, orientation).packedBytes(), "level \(level) \(size)")
            #expect(out.damagedPaddingBytes() == 0 && frame.damagedPaddingBytes() == 0, "\(size)")
        }
    }

    // MARK: Mean threshold

    /// Every odd block to 33, the float/double and fixed-point boundaries, and past 255 (OpenCV).
    static let blocks = Array(stride(from: 3, through: 33, by: 2)) + [51, 101, 127, 129, 201, 255, 257]
    /// (C, inverted): fractional C rounds up (normal) or down (inverted); ±255 and beyond saturate;
    /// past ±10^6 the shim hands over to OpenCV.
    static let constants: [(Double, Bool)] = [
        (10, false), (0, true), (-2.5, false), (2.5, true), (254.5, false), (-255, true),
        (300, false), (2e6, true),
    ]
    static let thresholdSizes = [
        Size(1, 1), Size(2, 2), Size(3, 7), Size(7, 3), Size(16, 16), Size(17, 31), Size(33, 9),
        Size(61, 47),
    ]

    /// Bright paper with sparse dark marks: means near 255 are where roundings differ.
    static func bright(_ p: Int, _ x: Int, _ y: Int, _ b: Int) -> UInt8 {
        let n = noise(p, x, y, b)
        return n < 20 ? n : 225 + n % 31
    }

    @Test(
        "mean adaptiveThreshold equals cv::adaptiveThreshold: sizes × blocks × C × inverted",
        arguments: simdLevels, [false, true])
    func meanThreshold(level: Int32, brightContent: Bool) throws {
        for size in Self.thresholdSizes {
            let frame = try PaddedFrame(
                format: .gray8, width: size.width, height: size.height, padding: 9,
                value: brightContent ? Self.bright : noise)
            let out = try PaddedFrame(format: .gray8, width: size.width, height: size.height, padding: 3)
            for block in Self.blocks {
                for (c, inverted) in Self.constants {
                    let t = AdaptiveThreshold(method: .mean, blockSize: block, c: c, inverted: inverted)
                    _ = try withSIMDLevel(level) { try frame.buffer.adaptiveThreshold(t, into: out.buffer) }
                    expectSameBytes(
                        out.pixels(), try OpenCV.adaptiveThreshold(frame.buffer, t).packedBytes(),
                        "level \(level) \(size) \(t)")
                }
            }
            #expect(out.damagedPaddingBytes() == 0 && frame.damagedPaddingBytes() == 0)
        }
    }

    @Test("wide rows: vector bodies and scalar tails of every kernel", arguments: simdLevels)
    func wideRows(level: Int32) throws {
        for width in [1927, 1920, 1031] {
            let frame = try PaddedFrame(format: .gray8, width: width, height: 37, padding: 17, value: Self.bright)
            let out = try PaddedFrame(format: .gray8, width: width, height: 37, padding: 1)
            for t in [
                AdaptiveThreshold(blockSize: 31, c: 10), AdaptiveThreshold(blockSize: 9, c: -3, inverted: true),
                AdaptiveThreshold(blockSize: 201, c: 1),
            ] {
                _ = try withSIMDLevel(level) { try frame.buffer.adaptiveThreshold(t, into: out.buffer) }
                expectSameBytes(
                    out.pixels(), try OpenCV.adaptiveThreshold(frame.buffer, t).packedBytes(),
                    "level \(level) \(width) \(t)")
            }
            #expect(out.damagedPaddingBytes() == 0)
        }
    }

    /// Images found by search where OpenCV's two roundings of the box mean for blocks over 127
    /// disagree and the comparison hinges on it (C = 0, the pixel equals the larger mean). In the
    /// columns OpenCV's vector loop covers (x < W − W % 8) the mean is float(S)·float(1/area)
    /// rounded, in the last W % 8 columns S·(1.0/area) in double.
    static let roundingCases: [(width: Int, block: Int, x: Int, y: Int, bytes: [UInt8])] = [
        // Vector columns: S = 9103645, float mean 144, double 145; the pixel is 145 → 255.
        (
            28, 251, 19, 1,
            [
                123, 73, 233, 80, 154, 122, 179, 151, 37, 173, 5, 121, 137, 7, 3, 23, 117, 189, 192, 209, 48, 212, 50,
                155, 229, 235,
                177, 143, 249, 61, 35, 2, 74, 85, 136, 16, 188, 19, 26, 64, 213, 208, 34, 101, 22, 193, 164, 145, 87,
                79, 14, 230,
                220, 210, 209, 244, 106, 64, 52, 233, 72, 189, 144, 35, 97, 159, 164, 172, 72, 89, 24, 170, 44, 157,
                203, 163,
                133, 202, 37, 57, 200, 125, 192, 207,
            ]
        ),
        // Tail column x = 24 of 31: S = 8673219, float mean 136, double 135; the pixel is 136 → 255.
        (
            31, 253, 24, 2,
            [
                155, 236, 36, 178, 0, 155, 164, 163, 238, 179, 175, 229, 6, 245, 175, 88, 240, 114, 96, 208, 74, 98,
                206, 99, 31, 87,
                170, 176, 142, 21, 96, 39, 178, 227, 116, 252, 221, 105, 20, 23, 248, 134, 12, 217, 76, 61, 21, 98, 36,
                142, 163,
                42, 212, 45, 185, 31, 15, 167, 111, 159, 68, 9, 71, 226, 85, 189, 56, 214, 91, 46, 14, 15, 19, 223, 218,
                47, 4,
                172, 234, 141, 134, 132, 67, 134, 159, 169, 136, 82, 189, 219, 204, 167, 215,
            ]
        ),
    ]

    @Test("blocks over 127: OpenCV's float and double roundings of the mean, column by column", arguments: simdLevels)
    func meanRoundingZones(level: Int32) throws {
        for c in Self.roundingCases {
            let image = try PixelBuffer(packed: c.bytes, width: c.width, height: 3, pixelFormat: .gray8)
            let t = AdaptiveThreshold(method: .mean, blockSize: c.block, c: 0)
            let ours = try withSIMDLevel(level) { try image.adaptiveThreshold(t) }.packedBytes()
            #expect(ours[c.y * c.width + c.x] == 255)
            expectSameBytes(ours, try OpenCV.adaptiveThreshold(image, t).packedBytes())
            // The fused chain thresholds an upright region in place: the same rule.
            let fused = try PixelBuffer(width: c.width, height: 3, pixelFormat: .gray8)
            try withSIMDLevel(level) { try image.fusedPreprocess(orientation: .up, threshold: t, into: fused) }
            expectSameBytes(fused.packedBytes(), ours)
        }
    }

    @Test("a stripe-parallel frame (1280×720, several blocks) equals OpenCV at every level", arguments: simdLevels)
    func parallelStripes(level: Int32) throws {
        let frame = try PaddedFrame(format: .gray8, width: 1280, height: 720, padding: 32, value: page)
        for t in [AdaptiveThreshold(blockSize: 31, c: 10), AdaptiveThreshold(blockSize: 11, c: 4, inverted: true)] {
            let ours = try withSIMDLevel(level) { try frame.buffer.adaptiveThreshold(t) }
            expectSameBytes(
                ours.packedBytes(), try OpenCV.adaptiveThreshold(frame.buffer, t).packedBytes(), "level \(level) \(t)")
        }
        let rotated = try withSIMDLevel(level) { try frame.buffer.applyingOrientation(.right) }
        expectSameBytes(rotated.packedBytes(), try OpenCV.orient(frame.buffer, .right).packedBytes())
    }
}
