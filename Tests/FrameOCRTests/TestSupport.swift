import CFrameOCR
import Foundation
import Testing

@testable import FrameOCR

// Shared helpers for the FrameOCR tests: frames in memory FrameOCR does not own with every
// padding byte set to a sentinel, reference math, and error checks.

/// Written into every padding byte; no test image ever holds it as a pixel value.
let sentinel: UInt8 = 0xEE

/// Memory owned by the test, freed only when every buffer wrapping it (and the test) is gone.
final class RawMemory: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    let count: Int

    init(count: Int, fill: UInt8) {
        self.count = count
        base = .allocate(byteCount: max(count, 1), alignment: 64)
        base.initializeMemory(as: UInt8.self, repeating: fill, count: max(count, 1))
    }

    deinit { base.deallocate() }

    subscript(i: Int) -> UInt8 {
        get { base.load(fromByteOffset: i, as: UInt8.self) }
        set { base.storeBytes(of: newValue, toByteOffset: i, as: UInt8.self) }
    }
}

/// One plane of a ``PaddedFrame``.
struct PlaneLayout {
    var width: Int  // samples per row
    var height: Int  // rows
    var bytesPerSample: Int
    var bytesPerRow: Int
    var byteCount: Int  // bytes allocated (may end before the last row's padding)
    var rowBytes: Int { width * bytesPerSample }
}

/// Default pixel bytes: never 0xEE (all < 200), different per channel, plane and position.
func defaultValue(plane: Int, x: Int, y: Int, byte: Int) -> UInt8 {
    UInt8((x &* 7 &+ y &* 13 &+ byte &* 29 &+ plane &* 50) % 200)
}

/// A frame wrapped zero-copy from test-owned memory; every byte that is not a pixel is 0xEE.
final class PaddedFrame: @unchecked Sendable {
    let format: PixelFormat
    let width: Int
    let height: Int
    let layouts: [PlaneLayout]
    let memories: [RawMemory]
    private(set) var buffer: PixelBuffer

    /// - Parameters:
    ///   - padding: extra bytes per row past the pixels (used when `bytesPerRow` is nil).
    ///   - bytesPerRow: per plane, overrides `padding`.
    ///   - byteCounts: per plane, bytes allocated and declared (default bytesPerRow × rows).
    init(
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
    func pixels(plane: Int = 0) -> [UInt8] {
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
    func damagedPaddingBytes() -> Int {
        var damaged = 0
        for (l, m) in zip(layouts, memories) {
            for i in 0..<l.byteCount where (i % l.bytesPerRow) >= l.rowBytes || i / l.bytesPerRow >= l.height {
                if m[i] != sentinel { damaged += 1 }
            }
        }
        return damaged
    }

    /// The bytes of pixel (x, y) of plane 0.
    func pixel(_ x: Int, _ y: Int) -> [UInt8] {
        let l = layouts[0]
        return (0..<l.bytesPerSample).map { memories[0][y * l.bytesPerRow + x * l.bytesPerSample + $0] }
    }
}

/// OpenCV's BT.601 fixed-point gray for 8-bit `cvtColor …2GRAY` (OpenCV 4.x `RGB2Gray<uchar>`:
/// weights R 9798, G 19235, B 3735 over 2^15, rounded: 0.299, 0.587, 0.114).
func bt601Gray(r: UInt8, g: UInt8, b: UInt8) -> UInt8 {
    let weighted: Int = Int(r) * 9798 + Int(g) * 19235
    let sum: Int = weighted + Int(b) * 3735 + (1 << 14)
    return UInt8(sum >> 15)
}

/// The gray value a pixel of `format` should give (the Y sample for 4:2:0 formats).
func referenceGray(_ format: PixelFormat, _ px: [UInt8]) -> UInt8 {
    switch format {
    case .bgra8, .bgr8: bt601Gray(r: px[2], g: px[1], b: px[0])
    case .rgba8, .rgb8: bt601Gray(r: px[0], g: px[1], b: px[2])
    default: px[0]
    }
}

/// The expected gray bytes of `rect` of `frame` (stored coordinates, rows packed).
func referenceGray(of frame: PaddedFrame, in rect: PixelRect) -> [UInt8] {
    var out: [UInt8] = []
    for y in rect.y..<rect.maxY {
        for x in rect.x..<rect.maxX { out.append(referenceGray(frame.format, frame.pixel(x, y))) }
    }
    return out
}

/// Rows of a packed one-byte-per-pixel image, for readable matrix comparisons.
func rows(_ bytes: [UInt8], width: Int) -> [[UInt8]] {
    stride(from: 0, to: bytes.count, by: width).map { Array(bytes[$0..<min($0 + width, bytes.count)]) }
}

/// The base address of `plane` (compared, never dereferenced, outside the closure).
func baseAddress(_ buffer: PixelBuffer, plane: Int = 0) -> UInt {
    buffer.withUnsafePlanes { UInt(bitPattern: $0[plane].baseAddress) }
}

/// Checks that `body` throws a ``FrameOCRError`` with `code`; returns the error.
@discardableResult
func expectFrameOCRError<R>(
    _ code: FrameOCRError.Code, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws(FrameOCRError) -> R
) -> FrameOCRError? {
    let error = #expect(throws: FrameOCRError.self, sourceLocation: sourceLocation) { _ = try body() }
    #expect(error?.code == code, "got \(String(describing: error))", sourceLocation: sourceLocation)
    return error
}

/// Round up to a multiple of 64 (the allocator's row alignment).
func aligned64(_ n: Int) -> Int { (n + 63) / 64 * 64 }

/// Width×height pair used as a test argument.
struct Size: Sendable, CustomStringConvertible, Hashable {
    var width: Int
    var height: Int
    init(_ w: Int, _ h: Int) {
        width = w
        height = h
    }
    var description: String { "\(width)x\(height)" }
}

/// A fresh temporary directory for one test.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("frameocr-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A fixture file's path (the test target copies `Fixtures/` into its resource bundle).
func fixturePath(_ name: String, _ ext: String) throws -> String {
    let url = try #require(
        Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Fixtures"),
        "missing fixture Fixtures/\(name).\(ext)")
    return url.path
}

/// Largest coordinate difference between two points.
func distance(_ a: Point, _ b: Point) -> Double { max(abs(a.x - b.x), abs(a.y - b.y)) }

/// Compares large byte arrays, reporting the first difference and how many bytes differ
/// instead of printing both arrays.
func expectSameBytes(
    _ actual: [UInt8], _ expected: [UInt8], _ comment: String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(actual.count == expected.count, "\(comment) sizes differ", sourceLocation: sourceLocation)
    let differing = zip(actual, expected).count(where: { $0 != $1 })
    let first = zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }
    #expect(
        first == nil,
        "\(comment) first difference at byte \(first?.offset ?? -1): \(first?.element.0 ?? 0) vs expected \(first?.element.1 ?? 0); \(differing) bytes differ",
        sourceLocation: sourceLocation)
}

extension PixelBuffer {
    /// Calls a shim entry point with this buffer's descriptor and `dst`'s, as FrameOCR's Bridge
    /// does, and throws its failure at `stage`: for the tests that check the C shim directly.
    func run(
        into dst: PixelBuffer, _ stage: FrameOCRError.Stage,
        _ op: (UnsafePointer<focr_image>, UnsafeMutablePointer<focr_image>) -> focr_status
    ) throws(FrameOCRError) {
        let status = withUnsafeImageDescriptor { s in dst.withUnsafeImageDescriptor { d in op(s, d) } }
        if let error = FrameOCRError.from(status, stage: stage) { throw error }
    }
}
