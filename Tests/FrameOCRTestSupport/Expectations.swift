import Foundation
import FrameOCR
import Testing

// Reference math and checks shared by FrameOCRTests and CFrameOCRTests: gray values as OpenCV
// computes them, byte comparisons that report the first difference, typed errors.

/// OpenCV's BT.601 fixed-point gray for 8-bit `cvtColor …2GRAY` (OpenCV 4.x `RGB2Gray<uchar>`:
/// weights R 9798, G 19235, B 3735 over 2^15, rounded: 0.299, 0.587, 0.114).
package func bt601Gray(r: UInt8, g: UInt8, b: UInt8) -> UInt8 {
    let weighted: Int = Int(r) * 9798 + Int(g) * 19235
    let sum: Int = weighted + Int(b) * 3735 + (1 << 14)
    return UInt8(sum >> 15)
}

/// The gray value a pixel of `format` should give (the Y sample for 4:2:0 formats).
package func referenceGray(_ format: PixelFormat, _ px: [UInt8]) -> UInt8 {
    switch format {
    case .bgra8, .bgr8: bt601Gray(r: px[2], g: px[1], b: px[0])
    case .rgba8, .rgb8: bt601Gray(r: px[0], g: px[1], b: px[2])
    default: px[0]
    }
}

/// The expected gray bytes of `rect` of `frame` (stored coordinates, rows packed).
package func referenceGray(of frame: PaddedFrame, in rect: PixelRect) -> [UInt8] {
    var out: [UInt8] = []
    for y in rect.y..<rect.maxY {
        for x in rect.x..<rect.maxX { out.append(referenceGray(frame.format, frame.pixel(x, y))) }
    }
    return out
}

/// Rows of a packed one-byte-per-pixel image, for readable matrix comparisons.
package func rows(_ bytes: [UInt8], width: Int) -> [[UInt8]] {
    stride(from: 0, to: bytes.count, by: width).map { Array(bytes[$0..<min($0 + width, bytes.count)]) }
}

/// The base address of `plane` (compared, never dereferenced, outside the closure).
package func baseAddress(_ buffer: PixelBuffer, plane: Int = 0) -> UInt {
    buffer.withUnsafePlanes { UInt(bitPattern: $0[plane].baseAddress) }
}

/// Checks that `body` throws a ``FrameOCRError`` with `code`; returns the error.
@discardableResult
package func expectFrameOCRError<R>(
    _ code: FrameOCRError.Code, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws(FrameOCRError) -> R
) -> FrameOCRError? {
    let error = #expect(throws: FrameOCRError.self, sourceLocation: sourceLocation) { _ = try body() }
    #expect(error?.code == code, "got \(String(describing: error))", sourceLocation: sourceLocation)
    return error
}

/// Round up to a multiple of 64 (the allocator's row alignment).
package func aligned64(_ n: Int) -> Int { (n + 63) / 64 * 64 }

/// Width×height pair used as a test argument.
package struct Size: Sendable, CustomStringConvertible, Hashable {
    package var width: Int
    package var height: Int
    package init(_ w: Int, _ h: Int) {
        width = w
        height = h
    }
    package var description: String { "\(width)x\(height)" }
}

/// A fresh temporary directory for one test.
package func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("frameocr-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Largest coordinate difference between two points.
package func distance(_ a: Point, _ b: Point) -> Double { max(abs(a.x - b.x), abs(a.y - b.y)) }

/// Compares large byte arrays, reporting the first difference and how many bytes differ
/// instead of printing both arrays.
package func expectSameBytes(
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
