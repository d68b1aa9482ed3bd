import FrameOCRTestSupport
import Synchronization
import Testing

@testable import FrameOCR

/// Counts deallocator calls.
final class CallCounter: Sendable {
    private let value = Atomic<Int>(0)
    private let lastAddress = Atomic<UInt>(0)
    func increment(_ address: UnsafeMutableRawPointer? = nil) {
        lastAddress.store(UInt(bitPattern: address), ordering: .relaxed)
        value.add(1, ordering: .relaxed)
    }
    /// The base address the deallocator last received.
    var address: UInt { lastAddress.load(ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}

@Suite("PixelBuffer: wrapping, validation, cropping")
struct PixelBufferTests {
    static let formats = PixelFormat.allSupported

    // MARK: Wrapping

    @Test("wrapping keeps the caller's memory, strides and plane sizes", arguments: formats)
    func wrapsWithoutCopy(format: PixelFormat) throws {
        let frame = try PaddedFrame(format: format, width: 5, height: 3, padding: 9)
        let buffer = frame.buffer
        #expect(buffer.width == 5 && buffer.height == 3)
        #expect(buffer.planeCount == format.planeCount)
        for p in 0..<buffer.planeCount {
            #expect(baseAddress(buffer, plane: p) == UInt(bitPattern: frame.memories[p].base))
            #expect(buffer.bytesPerRow(ofPlane: p) == frame.layouts[p].bytesPerRow)
            #expect(buffer.width(ofPlane: p) == (p == 0 ? 5 : 3))
            #expect(buffer.height(ofPlane: p) == (p == 0 ? 3 : 2))
            #expect(buffer.packedBytes(plane: p) == frame.pixels(plane: p))
        }
        #expect(frame.damagedPaddingBytes() == 0)
    }

    @Test("the deallocator runs once, after the last buffer and crop are gone")
    func deallocatorRunsOnceAfterLastCopy() throws {
        let counter = CallCounter()
        let memory = RawMemory(count: 16 * 4, fill: 1)
        var original: PixelBuffer? = try PixelBuffer(
            wrapping: memory.base, byteCount: 64, width: 10, height: 4, bytesPerRow: 16, pixelFormat: .gray8,
            deallocator: { counter.increment($0) })
        var crop: PixelBuffer? = try original!.cropped(to: PixelRect(x: 2, y: 1, width: 3, height: 2))
        var copy: PixelBuffer? = original
        #expect(crop!.sharesStorage(with: copy!))
        original = nil
        copy = nil
        #expect(counter.count == 0)
        #expect(crop!.packedBytes() == [1, 1, 1, 1, 1, 1])
        crop = nil
        #expect(counter.count == 1)
        #expect(counter.address == UInt(bitPattern: memory.base))  // the base address, not the crop's
        withExtendedLifetime(memory) {}
    }

    @Test("allocated buffers have 64-byte aligned planes and rows", arguments: formats)
    func allocationIsAligned(format: PixelFormat) throws {
        let buffer = try PixelBuffer(width: 641, height: 479, pixelFormat: format)
        buffer.withUnsafePlanes { planes in
            for (p, plane) in planes.enumerated() {
                #expect(UInt(bitPattern: plane.baseAddress) % 64 == 0)
                #expect(plane.bytesPerRow == aligned64(plane.width * format.bytesPerSample(plane: p)))
                #expect(plane.width == (p == 0 ? 641 : 321) && plane.height == (p == 0 ? 479 : 240))
            }
        }
    }

    @Test("init(packed:) and packedBytes round-trip every plane", arguments: formats)
    func packedRoundTrip(format: PixelFormat) throws {
        let frame = try PaddedFrame(format: format, width: 7, height: 5)
        let bytes = (0..<format.planeCount).flatMap { frame.pixels(plane: $0) }
        let buffer = try PixelBuffer(packed: bytes, width: 7, height: 5, pixelFormat: format)
        #expect((0..<format.planeCount).flatMap { buffer.packedBytes(plane: $0) } == bytes)
        // A blob of the wrong length (e.g. an "NV21" blob that is not w·h·3/2) is refused.
        expectFrameOCRError(.invalidBuffer) { () throws(FrameOCRError) in
            try PixelBuffer(packed: bytes + [0], width: 7, height: 5, pixelFormat: format)
        }
        expectFrameOCRError(.invalidBuffer) { () throws(FrameOCRError) in
            try PixelBuffer(packed: Array(bytes.dropLast()), width: 7, height: 5, pixelFormat: format)
        }
    }

    @Test("an NV12 blob is w·h + 2·⌈w/2⌉·⌈h/2⌉ bytes")
    func nv12PackedLength() throws {
        let ok = try PixelBuffer(
            packed: [UInt8](repeating: 9, count: 5 * 3 + 2 * 3 * 2), width: 5, height: 3, pixelFormat: .nv12)
        #expect(ok.packedBytes(plane: 1).count == 12)
        expectFrameOCRError(.invalidBuffer) { () throws(FrameOCRError) in
            try PixelBuffer(
                packed: [UInt8](repeating: 9, count: 5 * 3 * 3 / 2), width: 5, height: 3, pixelFormat: .nv12)
        }
    }

    // MARK: Validation

    @Test("bytesPerRow smaller than the row throws invalidBuffer", arguments: formats)
    func strideTooSmall(format: PixelFormat) throws {
        let memory = RawMemory(count: 4096, fill: 0)
        for bad in 0..<format.planeCount {
            let descriptors = (0..<format.planeCount).map { p in
                let row = format.planeSize(p, width: 5, height: 3).width * format.bytesPerSample(plane: p)
                return PixelBuffer.PlaneDescriptor(baseAddress: memory.base, bytesPerRow: p == bad ? row - 1 : row)
            }
            expectFrameOCRError(.invalidBuffer) { () throws(FrameOCRError) in
                try PixelBuffer(wrapping: descriptors, width: 5, height: 3, pixelFormat: format)
            }
        }
        withExtendedLifetime(memory) {}
    }

    @Test("a plane count that does not match the format throws invalidBuffer", arguments: formats)
    func planeCountMismatch(format: PixelFormat) throws {
        let memory = RawMemory(count: 4096, fill: 0)
        for count in [0, 1, 2, 3, 4] where count != format.planeCount {
            let descriptors = (0..<count).map { _ in
                PixelBuffer.PlaneDescriptor(baseAddress: memory.base, bytesPerRow: 64)
            }
            expectFrameOCRError(.invalidBuffer) { () throws(FrameOCRError) in
                try PixelBuffer(wrapping: descriptors, width: 5, height: 3, pixelFormat: format)
            }
        }
        withExtendedLifetime(memory) {}
    }

    @Test(
        "zero or negative sizes throw invalidBuffer",
        arguments: [Size(0, 3), Size(5, 0), Size(-1, 3), Size(5, -7), Size(0, 0)])
    func nonPositiveSize(size: Size) throws {
        let memory = RawMemory(count: 4096, fill: 0)
        expectFrameOCRError(.invalidBuffer) { () throws(FrameOCRError) in
            try PixelBuffer(
                wrapping: memory.base, width: size.width, height: size.height, bytesPerRow: 64, pixelFormat: .gray8)
        }
        expectFrameOCRError(.invalidBuffer) { () throws(FrameOCRError) in
            try PixelBuffer(width: size.width, height: size.height, pixelFormat: .bgra8)
        }
        withExtendedLifetime(memory) {}
    }

    @Test("byteCount must hold every row; the last row may end at its last pixel")
    func byteCountTooSmall() throws {
        let memory = RawMemory(count: 4096, fill: 0)
        // 5×3 BGRA at stride 24: 2 full rows + 20 bytes of the last row.
        let exact = 24 * 2 + 20
        let ok = try PixelBuffer(
            wrapping: memory.base, byteCount: exact, width: 5, height: 3, bytesPerRow: 24, pixelFormat: .bgra8)
        #expect(ok.height == 3)
        expectFrameOCRError(.invalidBuffer) { () throws(FrameOCRError) in
            try PixelBuffer(
                wrapping: memory.base, byteCount: exact - 1, width: 5, height: 3, bytesPerRow: 24, pixelFormat: .bgra8)
        }
        expectFrameOCRError(.invalidBuffer) { () throws(FrameOCRError) in
            try PixelBuffer(
                wrapping: memory.base, byteCount: 0, width: 1, height: 1, bytesPerRow: 1, pixelFormat: .gray8)
        }
        // Overflowing stride × rows is refused, not wrapped around.
        expectFrameOCRError(.invalidBuffer) { () throws(FrameOCRError) in
            try PixelBuffer(
                wrapping: memory.base, byteCount: 4096, width: 5, height: 3, bytesPerRow: Int.max / 2 + 1,
                pixelFormat: .gray8)
        }
        withExtendedLifetime(memory) {}
    }

    @Test("an unknown FourCC throws unsupportedFormat")
    func unknownFormat() throws {
        let memory = RawMemory(count: 64, fill: 0)
        let odd = PixelFormat(rawValue: 0x5859_5A57)  // "XYZW"
        #expect(odd.planeCount == 0)
        #expect(odd.description == "XYZW")
        expectFrameOCRError(.unsupportedFormat) { () throws(FrameOCRError) in
            try PixelBuffer(wrapping: memory.base, width: 1, height: 1, bytesPerRow: 4, pixelFormat: odd)
        }
        expectFrameOCRError(.unsupportedFormat) { () throws(FrameOCRError) in
            try PixelBuffer(width: 1, height: 1, pixelFormat: odd)
        }
        withExtendedLifetime(memory) {}
    }

    // MARK: Cropping

    @Test("crops are views with the parent's strides and the right pixels", arguments: formats)
    func cropsAreViews(format: PixelFormat) throws {
        let frame = try PaddedFrame(format: format, width: 9, height: 7, padding: 5)
        let rect = PixelRect(x: 4, y: 2, width: 5, height: 5)  // bottom-right corner, even origin
        let crop = try frame.buffer.cropped(to: rect)
        #expect(crop.sharesStorage(with: frame.buffer))
        #expect(crop.width == 5 && crop.height == 5)
        for p in 0..<format.planeCount {
            let l = frame.layouts[p]
            let sub = p == 0 ? 1 : 2
            #expect(crop.bytesPerRow(ofPlane: p) == l.bytesPerRow)
            #expect(
                baseAddress(crop, plane: p)
                    == UInt(bitPattern: frame.memories[p].base)
                    + UInt(rect.y / sub * l.bytesPerRow + rect.x / sub * l.bytesPerSample))
            // Expected samples of the plane inside the crop.
            let (cw, ch) = format.planeSize(p, width: 5, height: 5)
            var expected: [UInt8] = []
            for y in 0..<ch {
                for x in 0..<cw {
                    for b in 0..<l.bytesPerSample {
                        expected.append(defaultValue(plane: p, x: rect.x / sub + x, y: rect.y / sub + y, byte: b))
                    }
                }
            }
            #expect(crop.packedBytes(plane: p) == expected)
        }
        #expect(frame.damagedPaddingBytes() == 0)
    }

    @Test("empty, outside or (4:2:0) odd-origin crops throw invalidROI", arguments: formats)
    func badCrops(format: PixelFormat) throws {
        let frame = try PaddedFrame(format: format, width: 6, height: 4)
        var bad = [
            PixelRect(x: 0, y: 0, width: 0, height: 2), PixelRect(x: 0, y: 0, width: 2, height: -1),
            PixelRect(x: -2, y: 0, width: 2, height: 2), PixelRect(x: 0, y: -2, width: 2, height: 2),
            PixelRect(x: 4, y: 0, width: 3, height: 2), PixelRect(x: 0, y: 2, width: 2, height: 3),
            PixelRect(x: 6, y: 0, width: 1, height: 1),
        ]
        if format.isYCbCr {
            bad += [PixelRect(x: 1, y: 0, width: 2, height: 2), PixelRect(x: 0, y: 1, width: 2, height: 2)]
        }
        for rect in bad {
            expectFrameOCRError(.invalidROI) { () throws(FrameOCRError) in try frame.buffer.cropped(to: rect) }
        }
        if !format.isYCbCr {
            let odd = try frame.buffer.cropped(to: PixelRect(x: 1, y: 1, width: 5, height: 3))
            #expect(
                odd.packedBytes()
                    == frame.pixels().chunks(frame.layouts[0].rowBytes).dropFirst().flatMap {
                        $0.dropFirst(frame.layouts[0].bytesPerSample)
                    })
        }
    }
}

extension Array {
    /// Consecutive slices of `n` elements.
    func chunks(_ n: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: n).map { self[$0..<Swift.min($0 + n, count)] }
    }
}
