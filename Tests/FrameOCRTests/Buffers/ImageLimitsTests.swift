import Foundation
import FrameOCRTestSupport
import Testing

@testable import FrameOCR

/// Issue 15's typed limits: an image file's header, a video stream and a raw frame that claim
/// more pixels than ``ImageLimits`` allow are refused with ``FrameOCRError/Code/imageTooLarge``,
/// naming the size and the limit, before the pixels are allocated.
@Suite struct ImageLimitsTests {
    /// A PNG of Fixtures/limits (Tests/FixtureGenerators/make_limit_fixtures.py): its IHDR claims
    /// `name`'s size over a few bytes of image data, as a decompression bomb's header does.
    static func pngHeader(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: OCRFixture.path("limits/png-\(name).png"))))
    }

    @Test func pngHeaderOverTheLimitIsRefusedNamingSizeAndLimit() throws {
        let bytes = try Self.pngHeader("60000x60000")
        let e = expectFrameOCRError(.imageTooLarge) { () throws(FrameOCRError) in
            _ = try PixelBuffer(encoded: bytes)
        }
        #expect(e?.stage == .load)
        #expect(e?.message.contains("60000x60000 pixels (3,600,000,000)") == true, "\(String(describing: e))")
        #expect(e?.message.contains("limit of 268,435,456 pixels") == true)
        // From a file, and with the limit at its ceiling (2^30 < 3.6·10^9): still refused.
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("huge.png").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let f = expectFrameOCRError(.imageTooLarge) { () throws(FrameOCRError) in
            _ = try PixelBuffer(
                contentsOfFile: path, limits: ImageLimits(maximumPixels: ImageLimits.maximumPixelsCeiling))
        }
        #expect(f?.message.hasPrefix(path + ": the header claims 60000x60000") == true, "\(String(describing: f))")
        #expect(f?.message.contains("limit of 1,073,741,824 pixels") == true)
    }

    @Test func theLimitIsWhatRefusesAndItCanBeRaised() throws {
        // 20000×20000 = 400,000,000: over the default, under the ceiling. Raised, the header
        // passes and the decoder finds the data truncated.
        let bytes = try Self.pngHeader("20000x20000")
        expectFrameOCRError(.imageTooLarge) { () throws(FrameOCRError) in _ = try PixelBuffer(encoded: bytes) }
        expectFrameOCRError(.decode) { () throws(FrameOCRError) in
            _ = try PixelBuffer(encoded: bytes, limits: ImageLimits(maximumPixels: 400_000_000))
        }
        // A side over 65536 is refused whatever the pixel count.
        let wideBytes = try Self.pngHeader("70000x2")
        let wide = expectFrameOCRError(.imageTooLarge) { () throws(FrameOCRError) in
            _ = try PixelBuffer(encoded: wideBytes)
        }
        #expect(wide?.message.contains("70000x2 pixels (140,000), wider or taller than FrameOCR's 65536") == true)
    }

    @Test func aRealImageAtTheExactLimitLoadsAndOnePixelLessIsRefused() throws {
        let path = OCRFixture.path("testocr.png")  // 640×480 = 307,200 pixels
        let image = try PixelBuffer(contentsOfFile: path, limits: ImageLimits(maximumPixels: 307_200))
        #expect(image.width == 640 && image.height == 480)
        let e = expectFrameOCRError(.imageTooLarge) { () throws(FrameOCRError) in
            _ = try PixelBuffer(contentsOfFile: path, limits: ImageLimits(maximumPixels: 307_199))
        }
        #expect(e?.message.contains("640x480 pixels (307,200), more than the limit of 307,199 pixels") == true)
    }

    @Test func jpegBmpAndTiffHeadersAreReadBeforeDecoding() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let small = try PixelBuffer(
            packed: [UInt8](repeating: 200, count: 16 * 8), width: 16, height: 8, pixelFormat: .gray8)
        for ext in ["jpg", "bmp", "tif"] {
            let path = dir.appendingPathComponent("small.\(ext)").path
            try small.write(toFile: path)
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(try PixelBuffer(encoded: bytes).width == 16)
            if ext == "jpg" {
                // SOF0 (FF C0): length (2), precision (1), height (2), width (2), big-endian.
                let sof = try #require((0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
                bytes[sof + 5] = 0xEA
                bytes[sof + 6] = 0x60  // 60000
                bytes[sof + 7] = 0xEA
                bytes[sof + 8] = 0x60
            } else if ext == "tif" {
                // The first IFD's ImageWidth (256) and ImageLength (257), set as LONG 60000.
                #expect(bytes[0] == 0x49 && bytes[1] == 0x49, "little-endian TIFF")
                let ifd = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
                let count = Int(bytes[ifd]) | Int(bytes[ifd + 1]) << 8
                var patched = 0
                for entry in 0..<count {
                    let at = ifd + 2 + 12 * entry
                    let tag = Int(bytes[at]) | Int(bytes[at + 1]) << 8
                    guard tag == 256 || tag == 257 else { continue }
                    bytes.replaceSubrange(at + 2..<at + 12, with: [4, 0, 1, 0, 0, 0, 0x60, 0xEA, 0, 0])
                    patched += 1
                }
                #expect(patched == 2)
            } else {
                // BITMAPINFOHEADER: width at 18, height at 22, little-endian int32.
                for offset in [18, 22] {
                    bytes[offset] = 0x60
                    bytes[offset + 1] = 0xEA
                    bytes[offset + 2] = 0
                    bytes[offset + 3] = 0
                }
            }
            let e = expectFrameOCRError(.imageTooLarge) { () throws(FrameOCRError) in
                _ = try PixelBuffer(encoded: bytes)
            }
            #expect(e?.message.contains("60000x60000") == true, "\(ext): \(String(describing: e))")
        }
    }

    @Test func bytesThatAreNoHeaderAreCorruptNotTooLarge() throws {
        // A PNG signature whose first chunk is not IHDR: the bytes where IHDR keeps the size say
        // 0x08090A0B × 0x0C0D0E0F, but they are no header, so the file is corrupt, not too large.
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<256).map { UInt8($0) }
        expectFrameOCRError(.decode) { () throws(FrameOCRError) in _ = try PixelBuffer(encoded: png) }
        // A BMP whose DIB header size (bytes 14…17) is no known kind, with 60000×60000 after it.
        var bmp = [UInt8](repeating: 0, count: 64)
        bmp[0] = 0x42
        bmp[1] = 0x4D
        bmp[14] = 33
        bmp.replaceSubrange(18..<26, with: [0x60, 0xEA, 0, 0, 0x60, 0xEA, 0, 0])
        expectFrameOCRError(.decode) { () throws(FrameOCRError) in _ = try PixelBuffer(encoded: bmp) }
        bmp[14] = 40  // BITMAPINFOHEADER: now the claim is a header's, and over the limit
        expectFrameOCRError(.imageTooLarge) { () throws(FrameOCRError) in _ = try PixelBuffer(encoded: bmp) }
    }

    @Test func gifLogicalScreenIsReadBeforeDecoding() throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: OCRFixture.path("testocr.gif"))))
        #expect(try PixelBuffer(encoded: bytes).width > 0)
        bytes.replaceSubrange(6..<10, with: [0x60, 0xEA, 0x60, 0xEA])  // 60000×60000, uint16 LE
        let e = expectFrameOCRError(.imageTooLarge) { () throws(FrameOCRError) in _ = try PixelBuffer(encoded: bytes) }
        #expect(e?.message.contains("the header claims 60000x60000") == true, "\(String(describing: e))")
    }

    @Test func limitsOutOfRangeAreInvalidParameters() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: OCRFixture.path("testocr.png"))))
        for n in [0, -1, ImageLimits.maximumPixelsCeiling + 1] {
            let e = expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
                _ = try PixelBuffer(encoded: bytes, limits: ImageLimits(maximumPixels: n))
            }
            #expect(e?.message.hasPrefix("maximumPixels: \(n)") == true)
        }
        var options = VideoSource.Options()
        options.limits = ImageLimits(maximumPixels: 0)
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in try options.validate() }
    }

    @Test func rawFramesOverTheSideAreRefusedWithoutArithmeticOnTheClaim() {
        let memory = RawMemory(count: 64, fill: 0)
        for (w, h) in [(70000, 1), (1, 65537), (Int.max, Int.max), (Int.max / 4, 2)] {
            let e = expectFrameOCRError(.imageTooLarge) { () throws(FrameOCRError) in
                _ = try PixelBuffer(
                    wrapping: memory.base, width: w, height: h, bytesPerRow: Int.max, pixelFormat: .bgra8)
            }
            #expect(e?.message.contains("\(w)x\(h) is wider or taller than FrameOCR's 65536 pixels") == true)
            expectFrameOCRError(.imageTooLarge) { () throws(FrameOCRError) in
                _ = try PixelBuffer(width: w, height: h, pixelFormat: .nv12)
            }
        }
        // At the side it is fine (65536 one-byte pixels).
        #expect((try? PixelBuffer(width: 65536, height: 1, pixelFormat: .gray8))?.width == 65536)
        expectFrameOCRError(.invalidBuffer) { () throws(FrameOCRError) in
            _ = try PixelBuffer(width: 0, height: 5, pixelFormat: .gray8)
        }
    }

    @Test func aVideoWhoseFramesAreTooLargeFailsToOpen() throws {
        let path = OCRFixture.path("frame_ocr_42.mp4")  // 320×120 = 38,400 pixels
        var options = VideoSource.Options()
        options.limits = ImageLimits(maximumPixels: 38_399)
        let e = expectFrameOCRError(.imageTooLarge) { () throws(FrameOCRError) in
            _ = try VideoSource(.file(path), options: options)
        }
        #expect(e?.message.contains("the stream claims frames of 320x120 pixels (38,400)") == true)
        options.limits = ImageLimits(maximumPixels: 38_400)
        var source = try VideoSource(.file(path), options: options)
        #expect(try source.next()?.buffer.width == 320)
    }
}
