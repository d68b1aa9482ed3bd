import Foundation
import FrameOCRTestSupport
import Testing

@testable import FrameOCR

/// Inputs that crashed a fuzz harness (Tests/Fuzz, `make fuzz`), kept in Fixtures/fuzz: each must
/// now get a typed error instead of taking the process down.
@Suite struct FuzzRegressionTests {
    /// fuzz_decode, 2026-12-01: a 128-byte preamble and "DICM" made cv::imdecode pick its DICOM
    /// decoder, and Debian's GDCM 3.0 then stopped the process with an assert() (SIGABRT).
    @Test func dicomSignatureIsRefusedBeforeOpenCV() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: OCRFixture.path("fuzz/decode-gdcm-abort.bin"))))
        let e = expectFrameOCRError(.decode) { () throws(FrameOCRError) in _ = try PixelBuffer(encoded: bytes) }
        #expect(e?.message.contains("DICOM (\"DICM\" at byte 128) is not read") == true, "\(String(describing: e))")
        // The decoder is chosen by that signature whatever the first bytes are: a TIFF carrying it
        // is refused the same way.
        var tiff = [UInt8](try Data(contentsOf: URL(fileURLWithPath: OCRFixture.path("phototest.tif"))))
        #expect(try PixelBuffer(encoded: tiff).width > 0)
        tiff.replaceSubrange(128..<132, with: Array("DICM".utf8))
        expectFrameOCRError(.decode) { () throws(FrameOCRError) in _ = try PixelBuffer(encoded: tiff) }
    }
}
