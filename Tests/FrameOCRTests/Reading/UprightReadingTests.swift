import Foundation
import FrameOCREvaluation
import Testing

@testable import FrameOCR

/// When the reading as stored shows the image upright (``PageReading/readsUpright(_:)``): no
/// engine, readings made up of words and lines.
@Suite("Upright reading")
struct UprightReadingTests {
    /// A reading of `count` words of `confidence` on one line per word, each line `width` × `height`.
    static func reading(words count: Int, confidence: Float, width: Int32, height: Int32) -> RecognitionResult {
        let t = ReadingMergeTests.transform
        let blocks = (0..<count).map { i -> TextBlock in
            let y = Int32(i) * (height + 2)
            let box = TextBox(outputLeft: 0, top: y, right: width, bottom: y + height, transform: t)
            let word = TextWord(text: "w\(i)", confidence: confidence, box: box, symbols: [])
            return TextBlock(
                text: "", confidence: nil, box: box,
                lines: [TextLine(text: "", confidence: nil, box: box, paragraph: 0, words: [word])])
        }
        return ResultBuilder.finish(blocks, status: .complete, transform: t)
    }

    @Test("Five words at 0.7 on lines wider than tall read upright; 0.69, four words, or tall lines do not")
    func thresholds() {
        #expect(PageReading.readsUpright(Self.reading(words: 5, confidence: 0.7, width: 60, height: 20)))
        #expect(!PageReading.readsUpright(Self.reading(words: 5, confidence: 0.69, width: 60, height: 20)))
        #expect(!PageReading.readsUpright(Self.reading(words: 4, confidence: 0.95, width: 60, height: 20)))
        // A page turned a quarter, read by Tesseract's layout as vertical lines.
        #expect(!PageReading.readsUpright(Self.reading(words: 9, confidence: 0.95, width: 20, height: 60)))
        #expect(!PageReading.readsUpright(Self.reading(words: 0, confidence: 0.9, width: 60, height: 20)))
    }
}
