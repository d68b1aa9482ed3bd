import Foundation
import FrameOCRTestSupport
import Testing

@testable import FrameOCR

/// Inputs that crashed a fuzz harness (Tests/Fuzz, `make fuzz`), kept in Fixtures/fuzz: each must
/// now get a typed error instead of taking the process down.
@Suite struct FuzzRegressionTests {
    /// fuzz_decode, 2026-12-01: a 128-byte preamble and "DICM" made cv::imdecode pick its DICOM
    /// decoder, and Debian's GDCM 3.0 then stopped the process with an assert() (SIGABRT). DICOM is
    /// no format FrameOCR names: the signature check refuses it before any decoder sees it.
    @Test func dicomIsRefusedBeforeAnyDecoder() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: OCRFixture.path("fuzz/decode-gdcm-abort.bin"))))
        let e = expectFrameOCRError(.decode) { () throws(FrameOCRError) in _ = try PixelBuffer(encoded: bytes) }
        #expect(e?.message.contains("not an image format FrameOCR reads") == true, "\(String(describing: e))")
        // A TIFF that carries the signature too is a TIFF: Leptonica reads it, and OpenCV never
        // sees it.
        var tiff = [UInt8](try Data(contentsOf: URL(fileURLWithPath: OCRFixture.path("phototest.tif"))))
        let plain = try PixelBuffer(encoded: tiff)
        tiff.replaceSubrange(128..<132, with: Array("DICM".utf8))
        #expect(try PixelBuffer(encoded: tiff).packedBytes() == plain.packedBytes())
    }
}
