import Foundation
import FrameOCR
import Testing

// Frames in memory FrameOCR does not own, with every padding byte set to a sentinel, and the
// pixel patterns the tests fill them with: shared by FrameOCRTests and CFrameOCRTests.

/// Written into every padding byte; no test image ever holds it as a pixel value.
package let sentinel: UInt8 = 0xEE

/// Memory owned by the test, freed only when every buffer wrapping it (and the test) is gone.
package final class RawMemory: @unchecked Sendable {
    package let base: UnsafeMutableRawPointer
    package let count: Int

    package init(count: Int, fill: UInt8) {
        self.count = count
        base = .allocate(byteCount: max(count, 1), alignment: 64)
        base.initializeMemory(as: UInt8.self, repeating: fill, count: max(count, 1))
    }

    deinit { base.deallocate() }

    package subscript(i: Int) -> UInt8 {
        get { base.load(fromByteOffset: i, as: UInt8.self) }
        set { base.storeBytes(of: newValue, toByteOffset: i, as: UInt8.self) }
    }
}

/// One plane of a ``PaddedFrame``.
package struct PlaneLayout {
    package var width: Int  // samples per row
    package var height: Int  // rows
    package var bytesPerSample: Int
    package var bytesPerRow: Int
    package var byteCount: Int  // bytes allocated (may end before the last row's padding)
    package var rowBytes: Int { width * bytesPerSample }
}

/// Default pixel bytes: never 0xEE (all < 200), different per channel, plane and position.
package func defaultValue(plane: Int, x: Int, y: Int, byte: Int) -> UInt8 {
    UInt8((x &* 7 &+ y &* 13 &+ byte &* 29 &+ plane &* 50) % 200)
}

/// A frame wrapped zero-copy from test-owned memory; every byte that is not a pixel is 0xEE.
package final class PaddedFrame: @unchecked Sendable {
    package let format: PixelFormat
    package let width: Int
    package let height: Int
    package let layouts: [PlaneLayout]
    package let memories: [RawMemory]
    package private(set) var buffer: PixelBuffer

    /// - Parameters:
    ///   - padding: extra bytes per row past the pixels (used when `bytesPerRow` is nil).
    ///   - bytesPerRow: per plane, overrides `padding`.
    ///   - byteCounts: per plane, bytes allocated and declared (default bytesPerRow × rows).
    package init(
        format: PixelFormat, width: Int, height: Int, padding: Int = 7, bytesPerRow: [Int]? = nil,
        byteCounts: [Int]? = nil, declareByteCount: Bool = true, orientation: Orientation = .up,
        value: (_ plane: Int, _ x: Int, _ y: Int, _ byte: Int) -> UInt8 = defaultValue
    ) throws(FrameOCRError) {
        self.format = format
        self.width = width
        self.height = height
        var layouts: [PlaneLayout] = []
        var memories: [RawMemory] = []
        for p in 0..<format.planeCount {
            let (w, h) = format.planeSize(p, width: width, height: height)
            let bps = format.bytesPerSample(plane: p)
            let bpr = bytesPerRow?[p] ?? (w * bps + padding)
            let count = byteCounts?[p] ?? bpr * h
            let layout = PlaneLayout(width: w, height: h, bytesPerSample: bps, bytesPerRow: bpr, byteCount: count)
            let memory = RawMemory(count: count, fill: sentinel)
            for y in 0..<h {
                for x in 0..<w {
                    // A deliberately short plane (byteCount one byte less than its pixels) must
                    // not be written past its end: the pixels it lacks are never written.
                    for b in 0..<bps where y * bpr + x * bps + b < count {
                        memory[y * bpr + x * bps + b] = value(p, x, y, b)
                    }
                }
            }
            layouts.append(layout)
            memories.append(memory)
        }
        self.layouts = layouts
        self.memories = memories
        let descriptors = zip(memories, layouts).map { m, l in
            PixelBuffer.PlaneDescriptor(
                baseAddress: m.base, bytesPerRow: l.bytesPerRow,
                byteCount: declareByteCount ? l.byteCount : nil)
        }
        let keepAlive = memories
        buffer = try PixelBuffer(
            wrapping: descriptors, width: width, height: height, pixelFormat: format,
            orientation: orientation, deallocator: { _ in _ = keepAlive })
    }

    /// The pixel bytes of `plane` as written (rows without padding).
    package func pixels(plane: Int = 0) -> [UInt8] {
        let l = layouts[plane]
        let m = memories[plane]
        var out: [UInt8] = []
        out.reserveCapacity(l.rowBytes * l.height)
        for y in 0..<l.height {
            for i in 0..<l.rowBytes { out.append(m[y * l.bytesPerRow + i]) }
        }
        return out
    }

    /// Number of bytes outside the pixels (padding) that no longer hold 0xEE.
    package func damagedPaddingBytes() -> Int {
        var damaged = 0
        for (l, m) in zip(layouts, memories) {
            for i in 0..<l.byteCount where (i % l.bytesPerRow) >= l.rowBytes || i / l.bytesPerRow >= l.height {
                if m[i] != sentinel { damaged += 1 }
            }
        }
        return damaged
    }

    /// The bytes of pixel (x, y) of plane 0.
    package func pixel(_ x: Int, _ y: Int) -> [UInt8] {
        let l = layouts[0]
        return (0..<l.bytesPerSample).map { memories[0][y * l.bytesPerRow + x * l.bytesPerSample + $0] }
    }
}

/// Pseudo-random bytes (never 0xEE) for images where a smooth pattern would hide mistakes.
package func noise(_ p: Int, _ x: Int, _ y: Int, _ b: Int) -> UInt8 {
    var h = UInt32(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663 ^ (b &+ 5 &* p) &* 83_492_791)
    h ^= h >> 13
    h = h &* 0x5bd1_e995
    h ^= h >> 15
    return UInt8(h % 230)
}

/// Text-like content: dark strokes on a light, unevenly lit background (for thresholds).
package func page(_ p: Int, _ x: Int, _ y: Int, _ b: Int) -> UInt8 {
    let light = 150 + (x + 2 * y) % 80
    let stroke = (x / 3 + y / 5) % 7 == 0 || (x * y) % 23 == 0
    return UInt8(stroke ? (30 + (x ^ y) % 40) : light)
}
