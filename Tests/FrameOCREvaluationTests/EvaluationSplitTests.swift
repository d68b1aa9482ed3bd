import Foundation
import FrameOCR
import FrameOCREvaluation
import Testing

/// The corpus's fixed halves and the target groups (issue 16).
@Suite("Evaluation split and groups")
struct EvaluationSplitTests {
    static func sample(_ folder: String, _ name: String) -> Evaluation.Sample {
        // Sample's initializer is internal to the target: decode one, as eval's JSON would.
        let json =
            #"{"image":"/data/\#(folder)/\#(name)","groundTruth":"/data/\#(folder)/x.gt.txt","folder":"\#(folder)"}"#
        return try! JSONDecoder().decode(Evaluation.Sample.self, from: Data(json.utf8))
    }

    @Test("A list parses: halves by path, comments and blank lines skipped; malformed lines are typed errors")
    func parsing() throws {
        let split = try Evaluation.Split(
            parsing: "# a comment\n\ntuning\ticdar2015/img_1.jpg\nheld-out\ticdar2015/img_10.jpg\r\n")
        #expect(split.halves == ["icdar2015/img_1.jpg": .tuning, "icdar2015/img_10.jpg": .heldOut])
        for bad in [
            "tuning icdar2015/img_1.jpg", "train\tx.png", "tuning\t", "tuning\ta\textra", "tuning\ta\nheld-out\ta",
        ] {
            #expect { try Evaluation.Split(parsing: bad) } throws: {
                ($0 as? FrameOCRError)?.code == .invalidParameter
            }
        }
        #expect { try Evaluation.Split(contentsOfFile: "/nonexistent/split.tsv") } throws: {
            ($0 as? FrameOCRError)?.code == .io
        }
    }

    @Test("An image is found by its path, then with leading folders dropped; else by the hash of its name")
    func lookup() throws {
        let split = try Evaluation.Split(
            parsing: "tuning\tlicense-plates/crops/ca1000.png\nheld-out\ticdar2015/img_1.jpg")
        #expect(split.half(of: Self.sample("license-plates/crops", "ca1000.png")) == (.tuning, true))
        // The corpus root searched as a whole: data/icdar2015/…
        #expect(split.half(of: Self.sample("data/icdar2015", "img_1.jpg")) == (.heldOut, true))
        // Not listed: FNV-1a of the file name (a.png 0xa29205b56ba85779: odd; b.png …3c60: even).
        #expect(split.half(of: Self.sample("mine", "a.png")) == (.heldOut, false))
        #expect(split.half(of: Self.sample("mine", "b.png")) == (.tuning, false))
        #expect(Evaluation.Split.hashedHalf("x.png") == .tuning && Evaluation.Split.hashedHalf("c.tif") == .heldOut)
    }

    @Test("FrameOCR's own list: 182 images, each folder's sorted images alternating tuning, held-out")
    func corpus() throws {
        let halves = Evaluation.Split.corpus.halves
        #expect(halves.count == 182)
        var byFolder: [String: [(String, Evaluation.Half)]] = [:]
        for (path, half) in halves {
            byFolder[(path as NSString).deletingLastPathComponent, default: []].append(
                ((path as NSString).lastPathComponent, half))
        }
        #expect(byFolder.count == 13)
        for (folder, images) in byFolder {
            let sorted = images.sorted { $0.0 < $1.0 }
            for (i, image) in sorted.enumerated() {
                #expect(image.1 == (i % 2 == 0 ? .tuning : .heldOut), "\(folder)/\(image.0)")
            }
        }
        #expect(halves["icdar2015/img_1.jpg"] == .tuning && halves["icdar2015/img_10.jpg"] == .heldOut)
        #expect(halves["tesseract-test/phototest.tif"] != nil)
    }

    @Test("Groups: folders by name, relit clean folders apart; figures as mean CER or word recall")
    func groups() {
        typealias G = Evaluation.Group
        #expect(G.forFolder(named: "uw3-lines/test") == .clean && G.forFolder(named: "data/tesseract-test") == .clean)
        #expect(G.forFolder(named: "tesseract-test@shadow") == .unevenLight)
        #expect(G.forFolder(named: "sroie") == .documents && G.forFolder(named: "sroie@gradient") == nil)
        #expect(G.forFolder(named: "license-plates/crops") == .hard && G.forFolder(named: "license-plates") == nil)
        #expect(G.forFolder(named: "icdar2015") == .hard && G.forFolder(named: "mine") == nil)
        let rows: [(folder: String, score: Evaluation.Score)] = [
            ("pytesseract", .init(cer: 0.1, wer: 0, wordsFound: 9, referenceWords: 10)),
            ("tesseract-js", .init(cer: 0.3, wer: 0, wordsFound: 1, referenceWords: 10)),
            ("icdar2015", .init(cer: 5, wer: 1, wordsFound: 1, referenceWords: 4)),
            ("mrz", .init(cer: 1, wer: 1, wordsFound: 2, referenceWords: 2)),
            ("elsewhere", .init(cer: 9, wer: 9, wordsFound: 0, referenceWords: 9)),
        ]
        let summaries = Evaluation.summarizeGroups(rows)
        #expect(summaries.map(\.group) == [.clean, .hard])
        #expect(abs(summaries[0].value - 0.2) < 1e-12 && summaries[0].images == 2)
        #expect(summaries[1].value == 0.5 && summaries[1].referenceWords == 6)
    }
}
