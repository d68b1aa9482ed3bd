import Foundation
import FrameOCRTestSupport
import Testing

@testable import FrameOCR

/// Memory with an inaccessible page right after `count` usable bytes (`atEnd`) or right before
/// them: a read or write one byte outside the image crashes the test instead of passing silently.
final class GuardedMemory: @unchecked Sendable {
    let base: UnsafeMutableRawPointer  // the first usable byte
    let count: Int
    private let mapping: UnsafeMutableRawPointer
    private let mappedBytes: Int

    init?(count: Int, atEnd: Bool) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let dataPages = (count + page - 1) / page
        mappedBytes = (dataPages + 2) * page
        guard let m = mmap(nil, mappedBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            m != MAP_FAILED
        else {
            return nil
        }
        mapping = m
        // Guard pages on both sides; the data touches the one after it (atEnd) or before it.
        guard mprotect(m, page, PROT_NONE) == 0, mprotect(m + (dataPages + 1) * page, page, PROT_NONE) == 0 else {
            return nil
        }
        self.count = count
        base = atEnd ? m + (dataPages + 1) * page - count : m + page
        base.initializeMemory(as: UInt8.self, repeating: 0, count: count)
    }

    deinit { munmap(mapping, mappedBytes) }
}

/// The fast kernels never touch a byte outside the pixels they are given, even with tight rows
/// (bytesPerRow = the row's bytes) and a last row that ends the mapping.
@Suite("Fast CPU path stays inside its images (guard pages)")
struct FastPathBoundsTests {
    /// A tight-row buffer over guarded memory, filled with `value`.
    static func guarded(
        _ format: PixelFormat, _ w: Int, _ h: Int, atEnd: Bool,
        value: (Int, Int, Int) -> UInt8 = { x, y, b in noise(0, x, y, b) }
    )
        throws -> (PixelBuffer, GuardedMemory)
    {
        let bps = format.bytesPerSample(plane: 0)
        let memory = try #require(GuardedMemory(count: w * h * bps, atEnd: atEnd))
        let bytes = memory.base.assumingMemoryBound(to: UInt8.self)
        for y in 0..<h { for x in 0..<w { for b in 0..<bps { bytes[(y * w + x) * bps + b] = value(x, y, b) } } }
        let buffer = try PixelBuffer(
            wrapping: [.init(baseAddress: memory.base, bytesPerRow: w * bps, byteCount: w * h * bps)],
            width: w, height: h, pixelFormat: format, deallocator: { [memory] _ in _ = memory })
        return (buffer, memory)
    }

    @Test(
        "fused chain, gray, orientation and mean threshold on guarded sources and destinations, every level",
        arguments: [PixelFormat.gray8, .bgra8, .rgb8], [false, true])
    func guardPages(format: PixelFormat, atEnd: Bool) throws {
        for size in [Size(1, 1), Size(3, 2), Size(17, 16), Size(31, 5), Size(33, 35), Size(70, 19)] {
            let (source, _) = try Self.guarded(format, size.width, size.height, atEnd: atEnd)
            for orientation in Orientation.allCases {
                let (w, h) = orientation.swapsDimensions ? (size.height, size.width) : (size.width, size.height)
                for level in simdLevels {
                    for t in [
                        nil, AdaptiveThreshold(blockSize: 5, c: 2),
                        AdaptiveThreshold(blockSize: 31, c: -1, inverted: true),
                        AdaptiveThreshold(method: .gaussian, blockSize: 11, c: 1),
                    ] {
                        let (out, _) = try Self.guarded(.gray8, w, h, atEnd: atEnd)
                        try withSIMDLevel(level) {
                            try source.fusedPreprocess(orientation: orientation, threshold: t, into: out)
                        }
                        let all = PixelRect(x: 0, y: 0, width: size.width, height: size.height)
                        expectSameBytes(
                            out.packedBytes(), try OpenCV.chain(source, all, orientation, t),
                            "\(format) \(size) \(orientation) \(level)")
                    }
                    if format == .gray8 {
                        let (rotated, _) = try Self.guarded(.gray8, w, h, atEnd: atEnd)
                        _ = try withSIMDLevel(level) { try source.applyingOrientation(orientation, into: rotated) }
                        expectSameBytes(rotated.packedBytes(), try OpenCV.orient(source, orientation).packedBytes())
                    }
                }
            }
            if format != .gray8 {
                for level in simdLevels {  // the standalone gray conversion (its 3-byte rows read ahead)
                    let (out, _) = try Self.guarded(.gray8, size.width, size.height, atEnd: atEnd)
                    _ = try withSIMDLevel(level) { try source.convertedToGray(into: out) }
                    expectSameBytes(out.packedBytes(), try OpenCV.gray(source).packedBytes(), "\(format) \(size)")
                }
            }
            if format == .gray8 {
                for level in simdLevels {
                    for block in [3, 15, 17, 31, 255] {
                        for method in [AdaptiveThreshold.Method.mean, .gaussian] {
                            let (out, _) = try Self.guarded(.gray8, size.width, size.height, atEnd: atEnd)
                            let t = AdaptiveThreshold(method: method, blockSize: block, c: 3)
                            _ = try withSIMDLevel(level) { try source.adaptiveThreshold(t, into: out) }
                            expectSameBytes(out.packedBytes(), try OpenCV.adaptiveThreshold(source, t).packedBytes())
                        }
                    }
                }
            }
        }
    }
}
