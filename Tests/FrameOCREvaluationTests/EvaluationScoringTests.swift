import Foundation
import FrameOCR
import FrameOCREvaluation
import Testing

/// Scoring with hand-checked values.
@Suite("Evaluation scoring")
struct EvaluationScoringTests {
    @Test("CER, WER and recall on hand-checked pairs")
    func handChecked() {
        // "helo world" vs "hello world": one deletion over 11 characters; one word of two wrong.
        var s = Evaluation.score(hypothesis: "helo world", reference: "hello world")
        #expect(s.cer == 1.0 / 11 && s.wer == 0.5 && s.wordsFound == 1 && s.referenceWords == 2)
        // Order does not matter for recall, it does for CER: "b a" vs "a b" is 2 substitutions of 3.
        s = Evaluation.score(hypothesis: "b a", reference: "a b")
        #expect(s.recall == 1 && s.cer == 2.0 / 3 && s.wer == 1)
        // Multiplicity: "a a b" found in "a b" twice? No: one "a" and the "b".
        s = Evaluation.score(hypothesis: "a b", reference: "a a b")
        #expect(s.wordsFound == 2 && s.referenceWords == 3)
        // Whitespace is normalized: newlines and runs of spaces are one space.
        s = Evaluation.score(hypothesis: "Hello\n\n  world ", reference: "Hello world")
        #expect(s.cer == 0 && s.wer == 0)
    }

    @Test("Case-insensitive (SROIE) and spaceless (WildReceipt) scoring")
    func folderScoring() {
        let sroie = Evaluation.Scoring.forFolder(named: "data/sroie")
        #expect(!sroie.readingOrder && sroie.caseInsensitive)
        #expect(Evaluation.score(hypothesis: "Tan Woon Yann", reference: "TAN WOON YANN", scoring: sroie).recall == 1)
        let wild = Evaluation.Scoring.forFolder(named: "wildreceipt")
        #expect(wild.spacesRemoved && !wild.readingOrder)
        let s = Evaluation.score(
            hypothesis: "THANK YOU FOR SHOPPING\nTOTAL 9.99", reference: "THANKYOUFORSHOPPING\nTOTAL9.99\nMISSING",
            scoring: wild)
        #expect(s.wordsFound == 2 && s.referenceWords == 3)
        // A stretch of the hypothesis is used once: two references cannot both take the one "AB".
        #expect(Evaluation.score(hypothesis: "AB", reference: "AB AB", scoring: wild).wordsFound == 1)
        #expect(Evaluation.Scoring.forFolder(named: "uw3-lines/test").readingOrder)
        // Plates: letters and digits only, also for the crops folder under license-plates.
        let plates = Evaluation.Scoring.forFolder(named: "/data/license-plates/crops")
        #expect(
            plates.alphanumericOnly && plates.readingOrder
                && !Evaluation.Scoring.forFolder(named: "crops").alphanumericOnly)
        #expect(Evaluation.score(hypothesis: "WASHINGTON\nDP = 7160", reference: "DP7160", scoring: plates).recall == 1)
        #expect(Evaluation.score(hypothesis: "176-NWN", reference: "176NWN", scoring: plates).recall == 1)
        #expect(Evaluation.score(hypothesis: "776-NWN", reference: "176NWN", scoring: plates).recall == 0)
    }

    @Test("ICDAR 2015 as the competition's end-to-end task matches words: any case, a reference's edge symbol optional")
    func icdarScoring() {
        let icdar = Evaluation.Scoring.forFolder(named: "../shared/data/icdar2015")
        #expect(!icdar.readingOrder && icdar.caseInsensitive && icdar.edgeSymbolsOptional)
        func found(_ hypothesis: String, _ reference: String) -> Int {
            Evaluation.score(hypothesis: hypothesis, reference: reference, scoring: icdar).wordsFound
        }
        #expect(found("to Harbourfront", "HarbourFront") == 1)
        #expect(found("SmRT", "smrt") == 1)
        // The reference's first or last special character may be missing, or both; not replaced.
        #expect(found("06", "[06]") == 1)
        #expect(found("(06)", "[06]") == 0)
        #expect(found("[06", "[06]") == 1)
        #expect(found("NOTHING", "NOTHING?") == 1)
        #expect(found("NOTHING?", "NOTHING?") == 1)
        // The hypothesis keeps its own symbols: "EXIT." is not "EXIT".
        #expect(found("EXIT.", "EXIT") == 0)
        // A symbol inside a word is no edge: 62-03 is not 6203.
        #expect(found("6203", "62-03") == 0)
        // Each hypothesis word is used once: "06" found for one of two references.
        #expect(found("06", "[06] 06") == 1)
        // A reference of one symbol is only itself.
        #expect(found("", "?") == 0 && found("?", "?") == 1)
        // Elsewhere case still counts, and an edge symbol is not optional.
        let funsd = Evaluation.Scoring.forFolder(named: "funsd")
        #expect(!funsd.caseInsensitive && !funsd.edgeSymbolsOptional)
        #expect(Evaluation.score(hypothesis: "06 smrt", reference: "[06] SMRT", scoring: funsd).wordsFound == 0)
    }

    @Test("Samples: images with a .gt.txt beside them, recursively, reported by folder; summaries by folder")
    func samplesAndSummaries() throws {
        let root = NSTemporaryDirectory() + "frameocr-eval-\(UUID().uuidString)/set"
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        defer { try? fm.removeItem(atPath: (root as NSString).deletingLastPathComponent) }
        for (name, gt) in [("a.png", true), ("b.jpg", false), ("sub/c.tif", true), ("notes.txt", false)] {
            _ = fm.createFile(atPath: root + "/" + name, contents: Data([0]))
            if gt {
                _ = fm.createFile(
                    atPath: root + "/" + (name as NSString).deletingPathExtension + ".gt.txt",
                    contents: Data("x\n".utf8))
            }
        }
        let samples = try Evaluation.samples(in: root)
        #expect(samples.map { ($0.image as NSString).lastPathComponent } == ["a.png", "c.tif"])
        #expect(samples.map(\.folder) == ["set", "set/sub"])
        #expect(throws: FrameOCRError.self) { try Evaluation.samples(in: root + "/missing") }

        let rows: [(folder: String, score: Evaluation.Score, seconds: Double)] = [
            ("f", Evaluation.Score(cer: 0.1, wer: 0.5, wordsFound: 1, referenceWords: 2), 1),
            ("f", Evaluation.Score(cer: 0.3, wer: 0.0, wordsFound: 3, referenceWords: 3), 3),
            ("g", Evaluation.Score(cer: 0.0, wer: 0.0, wordsFound: 0, referenceWords: 0), 2),
        ]
        let sums = Evaluation.summarize(rows)
        #expect(sums.map(\.folder) == ["f", "g"])
        #expect(abs(sums[0].meanCER - 0.2) < 1e-12 && abs(sums[0].medianCER - 0.2) < 1e-12 && sums[0].meanWER == 0.25)
        #expect(sums[0].wordRecall == 0.8 && sums[0].secondsPerImage == 2 && sums[1].wordRecall == 1)
    }
}
