import Foundation
import FrameOCRTestSupport
import Testing

@testable import FrameOCR

/// Alpha flattened onto white: round((c·a + 255·(255 − a)) / 255) (no ties are possible).
func flattened(_ c: Int, alpha a: Int) -> UInt8 { UInt8((c * a + 255 * (255 - a) + 127) / 255) }

@Suite("Image files: write, load, errors")
struct ImageLoadingTests {
    struct RoundTrip: Sendable, CustomStringConvertible {
        var format: PixelFormat
        var ext: String
        var description: String { "\(format) .\(ext)" }
    }

    static let lossless: [RoundTrip] =
        ["png", "tif", "tiff", "bmp", "webp"].flatMap { e in
            [RoundTrip(format: .gray8, ext: e), RoundTrip(format: .bgr8, ext: e)]
        }
        + [RoundTrip(format: .gray8, ext: "pgm"), RoundTrip(format: .bgr8, ext: "ppm")]

    @Test("lossless formats come back byte-identical from a padded buffer", arguments: lossless)
    func losslessRoundTrip(c: RoundTrip) throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let frame = try PaddedFrame(format: c.format, width: 13, height: 7, padding: 5) { _, x, y, b in
            UInt8((x * 19 + y * 7 + b * 60) % 256)
        }
        let path = dir.appendingPathComponent("image.\(c.ext)").path
        try frame.buffer.write(toFile: path)
        #expect(frame.damagedPaddingBytes() == 0)
        let loaded = try PixelBuffer(contentsOfFile: path)
        #expect(loaded.width == 13 && loaded.height == 7)
        #expect(loaded.orientation == .up)
        if c.format == .gray8 && c.ext == "webp" {
            // WebP stores color only: gray comes back as bgr8 with B = G = R.
            #expect(loaded.pixelFormat == .bgr8)
            #expect(loaded.packedBytes() == frame.pixels().flatMap { [$0, $0, $0] })
        } else {
            #expect(loaded.pixelFormat == c.format)
            #expect(loaded.packedBytes() == frame.pixels())
        }
        // Decoding the same bytes from memory gives the same image.
        let encoded = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(try PixelBuffer(encoded: encoded).packedBytes() == loaded.packedBytes())
    }

    @Test("BGRA is written with alpha and loaded flattened onto white")
    func bgraFlattened() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let alphas: [UInt8] = [0, 1, 64, 127, 128, 200, 254, 255]
        let frame = try PaddedFrame(format: .bgra8, width: 8, height: 3, padding: 4) { _, x, y, b in
            b == 3 ? alphas[x] : UInt8((x * 23 + y * 41 + b * 70) % 230)
        }
        let path = dir.appendingPathComponent("alpha.png").path
        try frame.buffer.write(toFile: path)
        let loaded = try PixelBuffer(contentsOfFile: path)
        #expect(loaded.pixelFormat == .bgr8)
        var expected: [UInt8] = []
        for y in 0..<3 {
            for x in 0..<8 {
                let px = frame.pixel(x, y)
                for b in 0..<3 { expected.append(flattened(Int(px[b]), alpha: Int(px[3]))) }
            }
        }
        #expect(loaded.packedBytes() == expected)
        #expect(frame.damagedPaddingBytes() == 0)
    }

    @Test("JPEG comes back close to what was written")
    func jpegRoundTrip() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let frame = try PaddedFrame(format: .bgr8, width: 48, height: 32, padding: 3) { _, x, y, b in
            UInt8(40 + x * 2 + y * 3 + b * 10)  // smooth, 40…240
        }
        let path = dir.appendingPathComponent("photo.jpg").path
        try frame.buffer.write(toFile: path)
        let loaded = try PixelBuffer(contentsOfFile: path)
        #expect(loaded.pixelFormat == .bgr8 && loaded.width == 48 && loaded.height == 32)
        let diffs = zip(loaded.packedBytes(), frame.pixels()).map { abs(Int($0) - Int($1)) }
        #expect(diffs.max()! <= 10)
        #expect(Double(diffs.reduce(0, +)) / Double(diffs.count) < 2.5)
    }

    @Test(
        "quality: JPEG and WebP smaller and further from the pixels at 10 than at 95; PNG ignores it; 0 and 101 throw")
    func writeQuality() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A busy gray image (a checkerboard of 2-px squares with a ramp), where quality shows.
        let frame = try PaddedFrame(format: .gray8, width: 64, height: 64, padding: 5) { _, x, y, _ in
            UInt8(((x / 2 + y / 2) % 2 == 0 ? 60 : 200) + (x + y) / 8)
        }
        func written(_ ext: String, _ quality: Int?) throws -> (bytes: Int, error: Int) {
            let path = dir.appendingPathComponent("q\(quality ?? 0).\(ext)").path
            try frame.buffer.write(toFile: path, quality: quality)
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
            // OpenCV writes a gray WebP as BGR, read back as bgr8 with B = G = R.
            let back = try PixelBuffer(contentsOfFile: path).convertedToGray().packedBytes()
            return (size, zip(back, frame.pixels()).map { abs(Int($0) - Int($1)) }.reduce(0, +))
        }
        for ext in ["jpg", "webp"] {
            let low = try written(ext, 10)
            let high = try written(ext, 95)
            #expect(low.bytes < high.bytes && low.error > high.error, "\(ext): \(low) against \(high)")
        }
        #expect(try written("webp", nil).error == 0)  // WebP's default is lossless
        #expect(try written("png", 10).error == 0)
        for bad in [0, 101] {
            #expect(throws: FrameOCRError.self) {
                try frame.buffer.write(toFile: dir.appendingPathComponent("bad.jpg").path, quality: bad)
            }
        }
    }

    @Test(
        "encoded(as:): the same bytes as the file written; PNG decodes to the pixels exactly (padded rows); JPEG quality; bad formats and qualities throw"
    )
    func encodeInMemory() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let frame = try PaddedFrame(format: .gray8, width: 37, height: 21, padding: 7) { _, x, y, _ in
            UInt8((x * 7 + y * 13) % 256)
        }
        let png = try frame.buffer.encoded(as: "png")
        #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        let back = try PixelBuffer(encoded: png)
        #expect(back.width == 37 && back.height == 21 && back.packedBytes() == frame.pixels())
        // A JPEG in memory is the file the same call writes, byte for byte.
        let path = dir.appendingPathComponent("same.jpg").path
        try frame.buffer.write(toFile: path, quality: 40)
        #expect(
            try frame.buffer.encoded(as: ".jpg", quality: 40) == [UInt8](FileManager.default.contents(atPath: path)!))
        #expect(
            try frame.buffer.encoded(as: "jpg", quality: 10).count < frame.buffer.encoded(as: "jpg", quality: 95).count)
        #expect(throws: FrameOCRError.self) { try frame.buffer.encoded(as: "jpg", quality: 0) }
        #expect(throws: FrameOCRError.self) { try frame.buffer.encoded(as: "nosuchformat") }
        let nv12 = try PixelBuffer(width: 8, height: 8, pixelFormat: .nv12)
        #expect(throws: FrameOCRError.self) { try nv12.encoded(as: "png") }
    }

    // MARK: Fixtures

    @Test("16-bit gray PNG: v16 → round(v16 / 257)")
    func gray16() throws {
        let image = try PixelBuffer(contentsOfFile: try fixturePath("gray16_4x2", "png"))
        #expect(image.pixelFormat == .gray8 && image.width == 4 && image.height == 2)
        let v16 = [0, 257, 65535, 32896, 1000, 40000, 12345, 300]
        #expect(image.packedBytes() == v16.map { UInt8((Double($0) / 257).rounded()) })
        #expect(image.packedBytes() == [0, 1, 255, 128, 4, 156, 48, 1])
    }

    @Test("16-bit RGB PNG: each sample scaled by 1/257, BGR order")
    func rgb16() throws {
        let image = try PixelBuffer(contentsOfFile: try fixturePath("rgb16_2x1", "png"))
        #expect(image.pixelFormat == .bgr8 && image.width == 2 && image.height == 1)
        // RGB (65535, 0, 32896), (2570, 5140, 1000) → BGR.
        #expect(image.packedBytes() == [128, 0, 255, 4, 20, 10])
    }

    @Test("RGBA PNG: transparent → white, opaque kept, partial alpha blended onto white")
    func rgbaFlattened() throws {
        let image = try PixelBuffer(contentsOfFile: try fixturePath("rgba_4x2", "png"))
        #expect(image.pixelFormat == .bgr8 && image.width == 4 && image.height == 2)
        let rgba: [[Int]] = [
            [200, 100, 50, 0], [200, 100, 50, 255], [200, 100, 50, 128], [10, 20, 30, 64],
            [0, 0, 0, 0], [0, 0, 0, 255], [255, 255, 255, 128], [90, 180, 30, 200],
        ]
        let expected = rgba.flatMap { p in [p[2], p[1], p[0]].map { flattened($0, alpha: p[3]) } }
        #expect(image.packedBytes() == expected)
        #expect(Array(image.packedBytes()[0..<12]) == [255, 255, 255, 50, 100, 200, 152, 177, 227, 199, 196, 194])
        #expect(Array(image.packedBytes()[12..<24]) == [255, 255, 255, 0, 0, 0, 255, 255, 255, 79, 196, 126])
    }

    @Test("gray + alpha PNG is flattened onto white")
    func grayAlpha() throws {
        let image = try PixelBuffer(contentsOfFile: try fixturePath("gray_alpha_2x1", "png"))
        #expect(image.width == 2 && image.height == 1)
        let values: [UInt8] = [255, flattened(100, alpha: 128)]  // [255, 177]
        #expect(values == [255, 177])
        switch image.pixelFormat {
        case .gray8: #expect(image.packedBytes() == values)
        case .bgr8: #expect(image.packedBytes() == values.flatMap { [$0, $0, $0] })
        default: Issue.record("unexpected format \(image.pixelFormat)")
        }
    }

    @Test("JPEG with EXIF orientation 6 is loaded upright: 32×16 stored → 16×32")
    func exifOrientation() throws {
        let image = try PixelBuffer(contentsOfFile: try fixturePath("exif_orientation6", "jpg"))
        #expect(image.width == 16 && image.height == 32)
        #expect(image.orientation == .up)
        #expect(image.pixelFormat == .gray8)
        // Stored quadrants TL 30, TR 220, BL 100, BR 160; rotated 90° clockwise the upright
        // quadrants are TL 100, TR 30, BL 160, BR 220.
        let px = image.packedBytes()
        func at(_ x: Int, _ y: Int) -> Int { Int(px[y * 16 + x]) }
        for (x, y, want) in [(3, 8, 100), (12, 8, 30), (3, 24, 160), (12, 24, 220)] {
            #expect(abs(at(x, y) - want) <= 6, "(\(x),\(y)) = \(at(x, y)), want ≈ \(want)")
        }
    }

    // MARK: Errors

    @Test("a missing file throws io")
    func missingFile() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let error = expectFrameOCRError(.io) { () throws(FrameOCRError) in
            try PixelBuffer(contentsOfFile: dir.appendingPathComponent("nope.png").path)
        }
        #expect(error?.stage == .load)
        // A directory is not a readable file either.
        expectFrameOCRError(.io) { () throws(FrameOCRError) in try PixelBuffer(contentsOfFile: dir.path) }
    }

    @Test("a text file named .png, a truncated PNG and an empty file throw decode")
    func undecodable() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = dir.appendingPathComponent("text.png")
        try Data("this is not an image\n".utf8).write(to: text)
        expectFrameOCRError(.decode) { () throws(FrameOCRError) in try PixelBuffer(contentsOfFile: text.path) }

        // A real PNG cut after its header and part of its pixel data.
        let frame = try PaddedFrame(format: .bgr8, width: 64, height: 64) { _, x, y, b in
            UInt8((x * 31 + y * 17 + b * 5) % 251)
        }
        let full = dir.appendingPathComponent("full.png")
        try frame.buffer.write(toFile: full.path)
        let bytes = try Data(contentsOf: full)
        #expect(bytes.count > 200)
        for cut in [8, 33, bytes.count / 2] {
            let truncated = dir.appendingPathComponent("truncated-\(cut).png")
            try bytes.prefix(cut).write(to: truncated)
            expectFrameOCRError(.decode) { () throws(FrameOCRError) in try PixelBuffer(contentsOfFile: truncated.path) }
            expectFrameOCRError(.decode) { () throws(FrameOCRError) in
                try PixelBuffer(encoded: [UInt8](bytes.prefix(cut)))
            }
        }
        let empty = dir.appendingPathComponent("empty.png")
        try Data().write(to: empty)
        expectFrameOCRError(.decode) { () throws(FrameOCRError) in try PixelBuffer(contentsOfFile: empty.path) }
        expectFrameOCRError(.decode) { () throws(FrameOCRError) in try PixelBuffer(encoded: []) }
    }

    @Test("writing to a missing folder or an unknown extension throws io; other formats are unsupported")
    func writeErrors() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gray = try PaddedFrame(format: .gray8, width: 4, height: 4)
        let e1 = expectFrameOCRError(.io) { () throws(FrameOCRError) in
            try gray.buffer.write(toFile: dir.appendingPathComponent("missing/x.png").path)
        }
        #expect(e1?.stage == .write)
        expectFrameOCRError(.io) { () throws(FrameOCRError) in
            try gray.buffer.write(toFile: dir.appendingPathComponent("x.nosuchformat").path)
        }
        for format in [PixelFormat.rgba8, .rgb8, .nv12, .i420] {
            let frame = try PaddedFrame(format: format, width: 4, height: 4)
            expectFrameOCRError(.unsupportedFormat) { () throws(FrameOCRError) in
                try frame.buffer.write(toFile: dir.appendingPathComponent("x.png").path)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.png").path))
    }
}
