import Testing

@testable import FrameOCR

@Suite("Contiguous plane blobs (R12)")
struct ContiguousBufferTests {
    @Test("An NV12 blob of exactly w·h·3/2 bytes wraps without copying; its gray is the Y plane")
    func nv12Blob() throws {
        let (w, h) = (40, 6)
        var bytes = [UInt8](repeating: 0, count: w * h + 2 * 20 * 3)
        for y in 0..<h { for x in 0..<w { bytes[y * w + x] = UInt8(truncatingIfNeeded: 7 * x + y) } }
        for i in (w * h)..<bytes.count { bytes[i] = 128 }
        try bytes.withUnsafeMutableBytes { raw in
            let frame = try PixelBuffer(wrappingContiguous: raw, width: w, height: h, pixelFormat: .nv12)
            #expect(frame.planeCount == 2)
            #expect(
                frame.bytesPerRow(ofPlane: 1) == 40 && frame.width(ofPlane: 1) == 20 && frame.height(ofPlane: 1) == 3)
            let gray = try frame.convertedToGray()
            #expect(gray.sharesStorage(with: frame))
            let expected = (0..<h).flatMap { y in (0..<w).map { x in UInt8(truncatingIfNeeded: 7 * x + y) } }
            #expect(gray.packedBytes() == expected)
            gray.withUnsafePlanes { #expect($0[0].baseAddress == raw.baseAddress) }
        }
    }

    @Test("A blob one byte short or long is refused with invalidBuffer", arguments: [-1, 1])
    func wrongLength(delta: Int) throws {
        var bytes = [UInt8](repeating: 1, count: 40 * 6 + 2 * 20 * 3 + delta)
        _ = bytes.withUnsafeMutableBytes { raw in
            #expect {
                try PixelBuffer(wrappingContiguous: raw, width: 40, height: 6, pixelFormat: .nv12)
            } throws: { ($0 as? FrameOCRError)?.code == .invalidBuffer }
        }
    }

    @Test("An odd-sized I420 blob: chroma planes are ⌈w/2⌉×⌈h/2⌉")
    func i420Odd() throws {
        var bytes = [UInt8](0..<27)  // 5×3 Y (15) + 3×2 Cb (6) + 3×2 Cr (6)
        try bytes.withUnsafeMutableBytes { raw in
            let frame = try PixelBuffer(wrappingContiguous: raw, width: 5, height: 3, pixelFormat: .i420)
            #expect(frame.packedBytes(plane: 0) == Array(0..<15))
            #expect(frame.packedBytes(plane: 1) == Array(15..<21))
            #expect(frame.packedBytes(plane: 2) == Array(21..<27))
            #expect(frame.width(ofPlane: 2) == 3 && frame.height(ofPlane: 2) == 2)
        }
    }
}
