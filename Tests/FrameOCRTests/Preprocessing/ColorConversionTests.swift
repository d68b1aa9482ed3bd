import FrameOCRTestSupport
import Testing

@testable import FrameOCR

/// Crops touching each edge of a `w`×`h` frame (even origins, so they are valid for 4:2:0 too).
func edgeCrops(width w: Int, height h: Int) -> [PixelRect] {
    let midX = (w / 2) & ~1
    let midY = (h / 2) & ~1
    let lastX = (w - 1) & ~1
    let lastY = (h - 1) & ~1
    var rects = [
        PixelRect(x: 0, y: 0, width: w, height: h),  // everything
        PixelRect(x: 0, y: 0, width: max(1, w / 2), height: h),  // left edge
        PixelRect(x: midX, y: 0, width: w - midX, height: h),  // right edge
        PixelRect(x: 0, y: 0, width: w, height: max(1, h / 2)),  // top edge
        PixelRect(x: 0, y: midY, width: w, height: h - midY),  // bottom edge
        PixelRect(x: lastX, y: 0, width: w - lastX, height: h),  // last column(s)
        PixelRect(x: 0, y: lastY, width: w, height: h - lastY),  // last row(s)
        PixelRect(x: lastX, y: lastY, width: w - lastX, height: h - lastY),  // bottom-right corner
        PixelRect(x: 0, y: 0, width: 1, height: 1),  // top-left pixel
    ]
    if w > 4 && h > 4 { rects.append(PixelRect(x: 2, y: 2, width: w - 4, height: h - 4)) }  // interior
    return rects
}

struct FormatAndSize: Sendable, CustomStringConvertible {
    var format: PixelFormat
    var size: Size
    var description: String { "\(format) \(size)" }
}

@Suite("Gray conversion")
struct ColorConversionTests {
    static let cases: [FormatAndSize] =
        PixelFormat.allSupported.flatMap { f in
            [Size(5, 3), Size(1, 1), Size(6, 4), Size(2, 7)].map { FormatAndSize(format: f, size: $0) }
        }
        + [PixelFormat.bgra8, .rgb8, .nv12, .i420].map { FormatAndSize(format: $0, size: Size(641, 479)) }

    @Test("padded frames and crops at every edge give the exact gray, never padding", arguments: cases)
    func grayOfPaddedFramesAndCrops(c: FormatAndSize) throws {
        let (w, h) = (c.size.width, c.size.height)
        let frame = try PaddedFrame(format: c.format, width: w, height: h, padding: 11)
        for rect in edgeCrops(width: w, height: h) {
            let crop = try frame.buffer.cropped(to: rect)
            let gray = try crop.convertedToGray()
            #expect(gray.pixelFormat == .gray8)
            #expect(gray.width == rect.width && gray.height == rect.height)
            let bytes = gray.packedBytes()
            expectSameBytes(bytes, referenceGray(of: frame, in: rect), "crop \(rect)")
            #expect(!bytes.contains(sentinel), "crop \(rect) read padding")
        }
        #expect(frame.damagedPaddingBytes() == 0)
    }

    @Test(
        "converting into a padded destination writes only its pixels",
        arguments: [PixelFormat.bgra8, .rgba8, .bgr8, .rgb8, .gray8])
    func intoPaddedDestination(format: PixelFormat) throws {
        let frame = try PaddedFrame(format: format, width: 13, height: 5, padding: 3)
        let destination = try PaddedFrame(format: .gray8, width: 13, height: 5, padding: 19) { _, _, _, _ in 0 }
        let gray = try frame.buffer.convertedToGray(into: format == .gray8 ? nil : destination.buffer)
        let expected = referenceGray(of: frame, in: PixelRect(x: 0, y: 0, width: 13, height: 5))
        #expect(gray.packedBytes() == expected)
        if format != .gray8 {
            #expect(gray.sharesStorage(with: destination.buffer))
            #expect(destination.pixels() == expected)
        } else {
            #expect(gray.sharesStorage(with: frame.buffer))  // gray8 is returned as is
        }
        #expect(destination.damagedPaddingBytes() == 0)
        #expect(frame.damagedPaddingBytes() == 0)
    }

    @Test("a destination of the wrong size or format throws invalidBuffer")
    func wrongDestination() throws {
        let frame = try PaddedFrame(format: .bgra8, width: 4, height: 4)
        let wrongSize = try PixelBuffer(width: 4, height: 5, pixelFormat: .gray8)
        let wrongFormat = try PixelBuffer(width: 4, height: 4, pixelFormat: .bgra8)
        expectFrameOCRError(.invalidBuffer) { () throws(FrameOCRError) in
            try frame.buffer.convertedToGray(into: wrongSize)
        }
        expectFrameOCRError(.invalidBuffer) { () throws(FrameOCRError) in
            try frame.buffer.convertedToGray(into: wrongFormat)
        }
    }

    // MARK: R14 — channel order

    /// Pure red, green, blue, white (alpha 255) in `format`'s byte order.
    static func primaries(_ format: PixelFormat) -> [UInt8] {
        let rgb: [[UInt8]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255]]
        return rgb.flatMap { p -> [UInt8] in
            switch format {
            case .bgra8: [p[2], p[1], p[0], 255]
            case .rgba8: [p[0], p[1], p[2], 255]
            case .bgr8: [p[2], p[1], p[0]]
            default: [p[0], p[1], p[2]]
            }
        }
    }

    @Test(
        "red, green, blue, white give 76, 150, 29, 255 when declared correctly",
        arguments: [PixelFormat.bgra8, .rgba8, .bgr8, .rgb8])
    func primariesDeclaredCorrectly(format: PixelFormat) throws {
        let bytes = Self.primaries(format)
        if format == .bgra8 { #expect(bytes == [0, 0, 255, 255, 0, 255, 0, 255, 255, 0, 0, 255, 255, 255, 255, 255]) }
        let buffer = try PixelBuffer(packed: bytes, width: 4, height: 1, pixelFormat: format)
        #expect(try buffer.convertedToGray().packedBytes() == [76, 150, 29, 255])
    }

    @Test("a buffer declared with the wrong channel order gives 29, 150, 76, 255 (the tag is honoured)")
    func wrongDeclaredOrder() throws {
        let bgraBytes = Self.primaries(.bgra8)
        let asRGBA = try PixelBuffer(packed: bgraBytes, width: 4, height: 1, pixelFormat: .rgba8)
        #expect(try asRGBA.convertedToGray().packedBytes() == [29, 150, 76, 255])
        let rgbaBytes = Self.primaries(.rgba8)
        let asBGRA = try PixelBuffer(packed: rgbaBytes, width: 4, height: 1, pixelFormat: .bgra8)
        #expect(try asBGRA.convertedToGray().packedBytes() == [29, 150, 76, 255])
        let asBGR = try PixelBuffer(packed: Self.primaries(.rgb8), width: 4, height: 1, pixelFormat: .bgr8)
        #expect(try asBGR.convertedToGray().packedBytes() == [29, 150, 76, 255])
    }

    @Test("alpha does not change the gray value")
    func alphaIgnored() throws {
        let bytes: [UInt8] = [10, 200, 40, 0, 10, 200, 40, 77, 10, 200, 40, 255]
        let gray = try PixelBuffer(packed: bytes, width: 3, height: 1, pixelFormat: .bgra8).convertedToGray()
            .packedBytes()
        #expect(gray == [UInt8](repeating: bt601Gray(r: 40, g: 200, b: 10), count: 3))
    }

    // MARK: 4:2:0 — the Y plane, zero-copy

    @Test(
        "NV12/I420 gray is the Y plane as a view (same base address)",
        arguments: [PixelFormat.nv12, .nv12FullRange, .i420])
    func lumaIsZeroCopy(format: PixelFormat) throws {
        let frame = try PaddedFrame(format: format, width: 9, height: 5, padding: 6)
        let gray = try frame.buffer.convertedToGray()
        #expect(gray.pixelFormat == .gray8 && gray.planeCount == 1)
        #expect(gray.sharesStorage(with: frame.buffer))
        #expect(baseAddress(gray) == UInt(bitPattern: frame.memories[0].base))
        #expect(gray.bytesPerRow(ofPlane: 0) == frame.layouts[0].bytesPerRow)
        #expect(gray.packedBytes() == frame.pixels(plane: 0))
        // A given destination is not used for a view.
        let unused = try PaddedFrame(format: .gray8, width: 9, height: 5) { _, _, _, _ in 1 }
        let again = try frame.buffer.convertedToGray(into: unused.buffer)
        #expect(baseAddress(again) == UInt(bitPattern: frame.memories[0].base))
        #expect(unused.pixels().allSatisfy { $0 == 1 })
        #expect(try frame.buffer.lumaPlane().packedBytes() == frame.pixels(plane: 0))
    }

    @Test("lumaPlane of a packed color buffer throws unsupportedFormat")
    func lumaOfColor() throws {
        let frame = try PaddedFrame(format: .bgr8, width: 2, height: 2)
        expectFrameOCRError(.unsupportedFormat) { () throws(FrameOCRError) in try frame.buffer.lumaPlane() }
        let gray = try PaddedFrame(format: .gray8, width: 2, height: 2)
        #expect(try gray.buffer.lumaPlane().sharesStorage(with: gray.buffer))
    }

    // MARK: R11 — plane stride, not buffer stride

    struct BiplanarCase: Sendable, CustomStringConvertible {
        var width: Int, height: Int, stride: Int
        var description: String { "\(width)x\(height) stride \(stride)" }
    }

    @Test(
        "biplanar gray uses plane 0's own stride: out[x,y] == 10·y",
        arguments: [
            BiplanarCase(width: 1000, height: 8, stride: 1024), BiplanarCase(width: 1440, height: 4, stride: 1472),
            BiplanarCase(width: 1024, height: 4, stride: 1024),
        ])
    func biplanarPlaneStride(c: BiplanarCase) throws {
        // Chroma: ⌈w/2⌉ pairs × ⌈h/2⌉ rows at the same stride (1000×8: 500×4 pairs, stride 1024).
        let frame = try PaddedFrame(format: .nv12, width: c.width, height: c.height, bytesPerRow: [c.stride, c.stride])
        { p, _, y, _ in
            p == 0 ? UInt8(10 * y) : 128
        }
        #expect(frame.buffer.width(ofPlane: 1) == c.width / 2 && frame.buffer.height(ofPlane: 1) == c.height / 2)
        let gray = try frame.buffer.convertedToGray()
        #expect(gray.width == c.width && gray.height == c.height)
        #expect(gray.bytesPerRow(ofPlane: 0) == c.stride)
        #expect(baseAddress(gray) == UInt(bitPattern: frame.memories[0].base))  // zero-copy, also for stride == width
        let bytes = gray.packedBytes()
        var expected: [UInt8] = []
        for y in 0..<c.height { expected += [UInt8](repeating: UInt8(10 * y), count: c.width) }
        #expect(bytes == expected)
        #expect(!bytes.contains(sentinel))
        // The pipeline (no region, no rotation) gives the same image.
        let processed = try Pipeline().run(frame.buffer)
        #expect(processed.image.packedBytes() == expected)
        #expect(frame.damagedPaddingBytes() == 0)
    }

    // MARK: R12 — short last chroma row (Android YUV_420_888)

    // Y[x,y] = 7·x + y as in R12, kept in 8 bits (x = 39 gives 273 → 17). 7·34 = 238 is 0xEE, so
    // here the sentinel shows up as a real pixel: the exact comparison is what proves no padding
    // was read, and the padding check that nothing was written.
    static func y12(_ x: Int, _ y: Int) -> UInt8 { UInt8(truncatingIfNeeded: 7 * x + y) }

    @Test("NV12 40×6: a chroma plane whose last row is short is accepted; one byte less is refused")
    func shortLastChromaRow() throws {
        let exact = 64 * 2 + 20 * 2  // 2 full rows + the last row's 20 CbCr pairs
        let frame = try PaddedFrame(
            format: .nv12, width: 40, height: 6, bytesPerRow: [64, 64], byteCounts: [64 * 6, exact]
        ) { p, x, y, b in
            p == 0 ? Self.y12(x, y) : UInt8(100 + b)
        }
        let gray = try frame.buffer.convertedToGray()
        var expected: [UInt8] = []
        for y in 0..<6 { for x in 0..<40 { expected.append(Self.y12(x, y)) } }
        #expect(gray.packedBytes() == expected)
        #expect(frame.buffer.packedBytes(plane: 1) == [UInt8]((0..<60).flatMap { _ in [100, 101] as [UInt8] }))
        #expect(frame.damagedPaddingBytes() == 0)

        expectFrameOCRError(.invalidBuffer) { () throws(FrameOCRError) in
            try PaddedFrame(
                format: .nv12, width: 40, height: 6, bytesPerRow: [64, 64], byteCounts: [64 * 6, exact - 1])
        }
        // The Y plane's byteCount is checked the same way.
        expectFrameOCRError(.invalidBuffer) { () throws(FrameOCRError) in
            try PaddedFrame(
                format: .nv12, width: 40, height: 6, bytesPerRow: [64, 64], byteCounts: [64 * 5 + 39, exact])
        }
    }

    @Test("I420 40×6: U and V planes with a short last row are accepted; one byte less is refused")
    func shortLastChromaRowI420() throws {
        let exact = 64 * 2 + 20
        let frame = try PaddedFrame(
            format: .i420, width: 40, height: 6, bytesPerRow: [64, 64, 64],
            byteCounts: [64 * 5 + 40, exact, exact]
        ) { p, x, y, _ in p == 0 ? Self.y12(x, y) : UInt8(90 + p) }
        var expected: [UInt8] = []
        for y in 0..<6 { for x in 0..<40 { expected.append(Self.y12(x, y)) } }
        #expect(try frame.buffer.convertedToGray().packedBytes() == expected)
        #expect(frame.damagedPaddingBytes() == 0)
        for plane in 1...2 {
            var counts = [64 * 6, exact, exact]
            counts[plane] -= 1
            expectFrameOCRError(.invalidBuffer) { () throws(FrameOCRError) in
                try PaddedFrame(format: .i420, width: 40, height: 6, bytesPerRow: [64, 64, 64], byteCounts: counts)
            }
        }
    }
}
