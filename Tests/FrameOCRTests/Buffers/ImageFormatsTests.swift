import FrameOCREvaluation
import Testing

@testable import FrameOCR

@Suite("One real page in several file formats", .tags(.tesseract))
struct ImageFormatsTests {
    @Test(
        "PNG, TIFF, WebP and GIF (Leptonica) decode to the same page and text",
        arguments: ["testocr.png", "testocr.tiff", "testocr.webp", "testocr.gif"])
    func sameTextEveryFormat(file: String) throws {
        let image = try PixelBuffer(contentsOfFile: OCRFixture.path(file))
        #expect(image.width == 640 && image.height == 480)
        let text = try sharedRecognizer.recognize(image).text
        let cer = TextMetrics.characterErrorRate(hypothesis: text, reference: try OCRFixture.text("testocr.gt.txt"))
        #expect(cer <= 0.02, "\(file): CER \(cer)")
    }

    @Test("A gray+alpha PNG is flattened onto white and read")
    func grayAlpha() throws {
        let image = try PixelBuffer(contentsOfFile: OCRFixture.path("test_la.png"))
        #expect(
            try sharedRecognizer.recognize(image).text == (try OCRFixture.text("test_la.gt.txt")).trimmingWhitespace())
    }

    @Test("A JPEG with EXIF orientation 6 loads upright (320×180) and reads")
    func exifOrientation() throws {
        let image = try PixelBuffer(contentsOfFile: OCRFixture.path("simple-90.jpg"))
        #expect(image.width == 320 && image.height == 180 && image.orientation == .up)
        let text = try sharedRecognizer.recognize(image, options: .init(pageSegmentationMode: .singleLine)).text
        #expect(text == (try OCRFixture.text("simple.gt.txt")).trimmingWhitespace())
    }
}
