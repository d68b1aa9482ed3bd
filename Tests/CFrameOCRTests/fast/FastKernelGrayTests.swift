import CFrameOCR
import FrameOCRTestSupport
import Testing

@testable import FrameOCR

/// Seeded pseudo-random bytes over the whole 0…255 range: the same image for the same seed on
/// every run and machine (a SplitMix64 finalizer over the seed and the coordinates).
func seededNoise(_ seed: UInt64) -> (_ plane: Int, _ x: Int, _ y: Int, _ byte: Int) -> UInt8 {
    { p, x, y, b in
        var z = seed &+ UInt64(truncatingIfNeeded: ((y &* 65_537 &+ x) &* 8 &+ b) &* 4 &+ p) &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return UInt8(truncatingIfNeeded: z ^ (z >> 31))
    }
}

/// `count` seeded pseudo-random bytes (for images too large to fill byte by byte through a closure).
func seededBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var z = seed
    var out = [UInt8](repeating: 0, count: count)
    out.withUnsafeMutableBytes { raw in
        let words = count / 8
        let w = raw.baseAddress!
        for i in 0..<words {
            z &+= 0x9E37_79B9_7F4A_7C15
            var v = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            v = (v ^ (v >> 27)) &* 0x94D0_49BB_1331_11EB
            w.storeBytes(of: v ^ (v >> 31), toByteOffset: 8 * i, as: UInt64.self)
        }
        for i in 8 * words..<count { raw[i] = UInt8(truncatingIfNeeded: z >> (8 * (i % 8))) }
    }
    return out
}

/// Views at odd offsets of `frame` — all but a 1-pixel rim, a narrow strip at the top, the
/// bottom-right block, the last pixel (the frame is at least 153 × 21) — each with a view of its
/// size at (5, 3) in `canvas` to write into.
func oddOffsetViews(of frame: PixelBuffer, into canvas: PixelBuffer) throws -> [(
    rect: PixelRect, view: PixelBuffer, target: PixelBuffer
)] {
    let (w, h) = (frame.width, frame.height)
    return try [
        PixelRect(x: 1, y: 1, width: w - 2, height: h - 2), PixelRect(x: 3, y: 0, width: 34, height: 5),
        PixelRect(x: 150, y: 20, width: w - 150, height: h - 20), PixelRect(x: w - 1, y: h - 1, width: 1, height: 1),
    ].map { rect in
        (
            rect, try frame.cropped(to: rect),
            try canvas.cropped(to: PixelRect(x: 5, y: 3, width: rect.width, height: rect.height))
        )
    }
}

/// `convertedToGray` (focr_convert_to_gray: the fast path's SIMD rows at SSE2 and AVX2, OpenCV's
/// cvtColor without SIMD) and the fused chain's gray (its rows at every level, the portable one
/// included) against `cv::cvtColor(…2GRAY)`: every packed color format, widths on both sides of
/// each vector block and of the 3-byte kernels' read-ahead, padded rows, views at odd offsets,
/// and a frame big enough for the parallel, non-temporal path.
@Suite("SIMD gray conversion equals cv::cvtColor")
struct FastKernelGrayTests {
    static let formats: [PixelFormat] = [.bgra8, .rgba8, .bgr8, .rgb8]
    static let sizes = [
        Size(1, 1), Size(2, 3), Size(15, 2), Size(16, 1), Size(17, 4), Size(18, 3), Size(19, 2), Size(31, 2),
        Size(32, 5), Size(33, 3), Size(34, 2), Size(35, 7), Size(63, 3), Size(64, 2), Size(66, 5), Size(100, 9),
        Size(257, 17), Size(700, 100),  // 70 000 pixels: parallel row groups
    ]

    @Test("packed rows with padding, every size", arguments: simdLevels, formats)
    func paddedRows(level: Int32, format: PixelFormat) throws {
        for (i, size) in Self.sizes.enumerated() {
            let frame = try PaddedFrame(
                format: format, width: size.width, height: size.height, padding: 13,
                value: seededNoise(UInt64(100 + i)))
            let expected = try OpenCV.gray(frame.buffer).packedBytes()
            let out = try PaddedFrame(format: .gray8, width: size.width, height: size.height, padding: 5)
            _ = try withSIMDLevel(level) { try frame.buffer.convertedToGray(into: out.buffer) }
            expectSameBytes(out.pixels(), expected, "level \(level) \(format) \(size)")
            // The fused chain without threshold, upright: gray_row itself, at every level.
            let fused = try PaddedFrame(format: .gray8, width: size.width, height: size.height, padding: 3)
            try withSIMDLevel(level) {
                try frame.buffer.fusedPreprocess(orientation: .up, threshold: nil, into: fused.buffer)
            }
            expectSameBytes(fused.pixels(), expected, "fused, level \(level) \(format) \(size)")
            #expect(
                out.damagedPaddingBytes() == 0 && fused.damagedPaddingBytes() == 0 && frame.damagedPaddingBytes() == 0)
        }
    }

    @Test("views at odd offsets into views at odd offsets", arguments: simdLevels, formats)
    func regionViews(level: Int32, format: PixelFormat) throws {
        let frame = try PaddedFrame(format: format, width: 203, height: 41, padding: 9, value: seededNoise(7))
        let canvas = try PaddedFrame(format: .gray8, width: 211, height: 45, padding: 7)
        for (rect, view, target) in try oddOffsetViews(of: frame.buffer, into: canvas.buffer) {
            _ = try withSIMDLevel(level) { try view.convertedToGray(into: target) }
            expectSameBytes(
                target.packedBytes(), try OpenCV.gray(view).packedBytes(), "level \(level) \(format) \(rect)")
        }
        #expect(canvas.damagedPaddingBytes() == 0 && frame.damagedPaddingBytes() == 0)
    }

    /// 2051 × 2049 = 4.2 M pixels: past fast::kStreamPixels (4 Mi), so the rows are stored
    /// non-temporally, into a destination view whose rows start off the vector alignment.
    @Test(
        "a frame past the streaming threshold, unaligned destination rows", arguments: simdLevels,
        [PixelFormat.bgra8, .bgr8])
    func streamedFrame(level: Int32, format: PixelFormat) throws {
        let (w, h) = (2051, 2049)
        let bytes = seededBytes(w * h * format.bytesPerSample(plane: 0), seed: 42)
        let frame = try PixelBuffer(packed: bytes, width: w, height: h, pixelFormat: format)
        let canvas = try PixelBuffer(width: w + 9, height: h + 1, pixelFormat: .gray8)
        let target = try canvas.cropped(to: PixelRect(x: 3, y: 1, width: w, height: h))
        _ = try withSIMDLevel(level) { try frame.convertedToGray(into: target) }
        expectSameBytes(target.packedBytes(), try OpenCV.gray(frame).packedBytes(), "level \(level) \(format)")
    }
}
