import Foundation
import FrameOCREvaluation
import FrameOCRTestSupport
import Testing

@testable import FrameOCR

/// The merge of two readings word by word: pure geometry and confidences, no engine.
@Suite("Reading merge")
struct ReadingMergeTests {
    static let transform = FrameTransform(
        orientation: .up, rawWidth: 400, rawHeight: 300,
        region: PixelRect(x: 0, y: 0, width: 400, height: 300))

    static func word(_ text: String, _ x: Int32, _ y: Int32, _ w: Int32, _ h: Int32, _ confidence: Float) -> TextWord {
        TextWord(
            text: text, confidence: confidence,
            box: TextBox(outputLeft: x, top: y, right: x + w, bottom: y + h, transform: transform),
            symbols: [])
    }

    /// One block per line; each line boxed from x 0 to 400 at its words' height.
    static func page(_ lines: [[TextWord]]) -> [TextBlock] {
        lines.map { words in
            let top = Int32(words.map(\.box.rect.y).min()!)
            let bottom = Int32(words.map(\.box.rect.maxY).max()!)
            let box = TextBox(outputLeft: 0, top: top, right: 400, bottom: bottom, transform: transform)
            return TextBlock(
                text: "", confidence: nil, box: box,
                lines: [TextLine(text: "", confidence: nil, box: box, paragraph: 0, words: words)])
        }
    }

    static func text(_ blocks: [TextBlock]) -> String {
        ResultBuilder.finish(blocks, status: .complete, transform: transform).text
    }

    @Test(
        "A run-together word is replaced in place by the two words the other reading split it into, when 0.1 more confident"
    )
    func replaceSplit() {
        let page = Self.page([
            [
                Self.word("TOTAL", 10, 10, 60, 20, 0.9), Self.word("AMOUNT3100", 80, 10, 150, 20, 0.4),
                Self.word("RM", 300, 10, 30, 20, 0.9),
            ]
        ])
        let other = Self.page([[Self.word("AMOUNT", 80, 11, 90, 19, 0.8), Self.word("31.00", 180, 11, 50, 19, 0.7)]])
        let (blocks, count) = ResultBuilder.merge(page, with: other, margin: 0.1, addedConfidence: 0.9)
        #expect(Self.text(blocks) == "TOTAL AMOUNT 31.00 RM")
        #expect(count == ResultBuilder.MergeCount(replaced: 1, replacing: 2, added: 0))
        // The replacing words keep their own boxes (upright-frame pixels).
        #expect(blocks[0].lines[0].words[2].box.rect == Rect(x: 180, y: 11, width: 50, height: 19))
    }

    @Test("Within the margin the page's words stay; a missing confidence counts as 0")
    func keepWithinMargin() {
        let page = Self.page([[Self.word("CASH", 10, 10, 60, 20, 0.7)]])
        let close = Self.page([[Self.word("GASH", 10, 10, 60, 20, 0.79)]])
        let (kept, count) = ResultBuilder.merge(page, with: close, margin: 0.1, addedConfidence: 0.9)
        #expect(Self.text(kept) == "CASH" && count == ResultBuilder.MergeCount())
        var unknown = page
        unknown[0].lines[0].words[0].confidence = nil
        #expect(
            Self.text(ResultBuilder.merge(unknown, with: close, margin: 0.1, addedConfidence: 0.9).blocks) == "GASH")
    }

    @Test(
        "A confident word the page missed joins the line its centre lies in, by x; one below every line becomes a block; a doubtful one is left out"
    )
    func additions() {
        let page = Self.page([
            [Self.word("DATE", 10, 10, 50, 20, 0.9), Self.word("TIME", 300, 10, 50, 20, 0.9)],
            [Self.word("TOTAL", 10, 60, 60, 20, 0.9)],
        ])
        let other = Self.page([
            [Self.word("12/02/2018", 100, 12, 120, 18, 0.95)],
            [Self.word("THANKS", 10, 200, 90, 20, 0.92)],
            [Self.word("xx", 200, 60, 20, 20, 0.5)],
        ])
        let (blocks, count) = ResultBuilder.merge(page, with: other, margin: 0.1, addedConfidence: 0.9)
        #expect(Self.text(blocks) == "DATE 12/02/2018 TIME\n\nTOTAL\n\nTHANKS")
        #expect(count.added == 2 && count.replaced == 0)
    }

    @Test(
        "agreement: each word counts the other readings with the same text over it; agreementScore adds 0.4 × that fraction"
    )
    func agreement() {
        let a = Self.page([[Self.word("CASH", 10, 10, 60, 20, 0.7), Self.word("10.00", 100, 10, 60, 20, 0.8)]])
        let b = Self.page([[Self.word("GASH", 10, 10, 60, 20, 0.85), Self.word("10.00", 102, 11, 58, 19, 0.9)]])
        let c = Self.page([[Self.word("CASH", 12, 10, 58, 20, 0.6), Self.word("10.00", 300, 10, 60, 20, 0.9)]])
        let count = ResultBuilder.agreement([a, b, c])
        let (cashA, amountA) = (a[0].lines[0].words[0], a[0].lines[0].words[1])
        let (gash, amountB) = (b[0].lines[0].words[0], b[0].lines[0].words[1])
        let (cashC, amountC) = (c[0].lines[0].words[0], c[0].lines[0].words[1])
        #expect(count[cashA] == 1 && count[cashC] == 1 && count[gash] == 0)
        #expect(count[amountA] == 1 && count[amountB] == 1)
        #expect(count[amountC] == 0)  // same text, elsewhere on the page
        let score = ResultBuilder.agreementScore([a, b, c], weight: 0.4)
        #expect(abs(score(cashA) - (0.7 + 0.4 * 0.5)) < 1e-6)
        #expect(abs(score(gash) - 0.85) < 1e-6)
        #expect(abs(score(amountC) - 0.9) < 1e-6)
    }

    @Test(
        "A word two readings agree on is kept against a lone word 0.15 more confident, which replaces it without the vote"
    )
    func voteKeepsAgreedWord() {
        let page = Self.page([[Self.word("CASH", 10, 10, 60, 20, 0.7)]])
        let lone = Self.page([[Self.word("GASH", 10, 10, 60, 20, 0.85)]])
        let agreeing = Self.page([[Self.word("CASH", 11, 10, 59, 20, 0.65)]])
        #expect(Self.text(ResultBuilder.merge(page, with: lone, margin: 0.1, addedConfidence: 0.9).blocks) == "GASH")
        let score = ResultBuilder.agreementScore([page, lone, agreeing], weight: 0.4)
        var blocks = page
        for other in [lone, agreeing] {
            blocks = ResultBuilder.merge(blocks, with: other, margin: 0.1, addedConfidence: 0.9, score: score).blocks
        }
        #expect(Self.text(blocks) == "CASH")
        // The merged word keeps the engine's confidence; the vote only decides.
        #expect(blocks[0].lines[0].words[0].confidence == 0.7)
        // A word the page missed that two readings agree on is added below 0.9 confidence.
        let found = Self.page([[Self.word("TOTAL", 200, 10, 60, 20, 0.8)]])
        let again = Self.page([[Self.word("TOTAL", 201, 11, 60, 19, 0.75)]])
        let vote = ResultBuilder.agreementScore([page, found, again], weight: 0.4)
        #expect(
            Self.text(ResultBuilder.merge(page, with: found, margin: 0.1, addedConfidence: 0.9, score: vote).blocks)
                == "CASH TOTAL")
        #expect(Self.text(ResultBuilder.merge(page, with: found, margin: 0.1, addedConfidence: 0.9).blocks) == "CASH")
    }
}
