import Foundation
import FrameOCR
import Synchronization
import Testing

@testable import FrameOCREvaluation

/// `EvaluationRun`: what `frameocr eval` runs and the benchmark's documents and photo rows read —
/// the images found (as stored and under each light), read with N jobs, scored, and summed up
/// per folder, half and group; and the job loop under it.
@Suite("EvaluationRun: found, read, scored, summed up")
struct EvaluationRunTests {
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FrameOCRTests/Fixtures/\(name)").path
    }

    /// A corpus `ROOT/tesseract-test` with `test_la.png` and `testocr.png` and their ground truth,
    /// and `ROOT/mrz` with a file that is no image (and its ground truth).
    static func corpus() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("frameocr-eval-\(UUID().uuidString)")
            .path
        for folder in ["tesseract-test", "mrz"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        for name in ["test_la", "testocr"] {
            for ext in ["png", "gt.txt"] {
                try FileManager.default.copyItem(
                    atPath: fixture("\(name).\(ext)"), toPath: root + "/tesseract-test/\(name).\(ext)")
            }
        }
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: root + "/mrz/broken.png"))
        try "P<UTOERIKSSON<<ANNA<MARIA\n".write(toFile: root + "/mrz/broken.gt.txt", atomically: true, encoding: .utf8)
        return root
    }

    static let split = Evaluation.Split(halves: ["tesseract-test/test_la.png": .tuning, "testocr.png": .heldOut])

    @Test("Items: each image as stored, then under each light (FOLDER@KIND), scored by its own folder")
    func items() throws {
        let root = try Self.corpus()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let run = try EvaluationRun(directories: [root + "/tesseract-test"], lights: [.shadow], split: Self.split)
        #expect(run.samples.map { ($0.image as NSString).lastPathComponent } == ["test_la.png", "testocr.png"])
        #expect(
            run.items.map(\.folder) == [
                "tesseract-test", "tesseract-test", "tesseract-test@shadow", "tesseract-test@shadow",
            ])
        #expect(run.items.map(\.light) == [nil, nil, .shadow, .shadow])
        #expect(run.items.allSatisfy { $0.scoring == Evaluation.Scoring() })
        #expect(throws: FrameOCRError.self) { try EvaluationRun(directories: [root + "/missing"]) }

        // Some of the samples found (the benchmark's plates row): those items only, lights after.
        let some = EvaluationRun(samples: [run.samples[1]], lights: [.shadow], split: Self.split)
        #expect(some.samples == [run.samples[1]])
        #expect(some.items.map(\.folder) == ["tesseract-test", "tesseract-test@shadow"])
        #expect(some.items.allSatisfy { $0.sample == run.samples[1] })
    }

    @Test("rows(texts:): each text scored against its ground truth, in its half; summed up per folder, half and group")
    func rows() throws {
        let root = try Self.corpus()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let run = try EvaluationRun(directories: [root + "/tesseract-test"], split: Self.split)
        // test_la's ground truth is "This is test message"; testocr's four lines.
        let reference = try String(contentsOfFile: Self.fixture("testocr.gt.txt"), encoding: .utf8)
        let rows = try run.rows(texts: ["This is a test message", reference])
        #expect(rows.map(\.half) == [.tuning, .heldOut])
        #expect(rows.map(\.folder) == ["tesseract-test", "tesseract-test"])
        let first = try #require(rows[0].frameocr)
        #expect(first.text == "This is a test message" && first.seconds == 0)
        #expect(first.wer == 0.25 && first.wordsFound == 4 && first.referenceWords == 4 && first.recall == 1)
        #expect(abs(first.cer - 2.0 / 20.0) < 1e-12, "\(first.cer)")
        #expect(rows[1].frameocr?.cer == 0 && rows[1].tesseract == nil && rows[1].error == nil)

        let folders = EvaluationRun.summaries(rows) { $0.frameocr }
        #expect(folders.map(\.folder) == ["tesseract-test"])
        #expect(folders[0].images == 2 && abs(folders[0].meanCER - 0.05) < 1e-12)
        let halves = EvaluationRun.halfSummaries(rows)
        #expect(halves.map(\.half) == [.tuning, .heldOut])
        #expect(halves.map(\.frameocr.images) == [1, 1])
        let groups = EvaluationRun.groupFigures(rows)
        #expect(groups.map(\.group) == [.clean])
        #expect(groups[0].figure == "meanCER" && groups[0].frameocr.all.images == 2)
        #expect(groups[0].frameocr.tuning?.meanCER == first.cer && groups[0].frameocr.heldOut?.meanCER == 0)
        #expect(groups[0].tesseract == nil)
    }

    @Test("evaluate and texts: the same reading with 2 jobs; a file that is no image is a row with its error")
    func reading() throws {
        let root = try Self.corpus()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let run = try EvaluationRun(directories: [root + "/mrz", root + "/tesseract-test"])
        #expect(
            run.items.map { ($0.sample.image as NSString).lastPathComponent } == [
                "broken.png", "test_la.png", "testocr.png",
            ])
        var options = Recognizer.Options()
        options.pageSegmentationMode = .singleLine
        let recognizer = try Recognizer(configuration: Recognizer.Configuration(defaultOptions: options))
        let reader = EvaluationRun.Reader(recognizer: recognizer, pipeline: Pipeline(orientation: .unknown))
        let rows = try run.evaluate(with: reader, jobs: 2)
        #expect(rows.count == 3)
        #expect(rows[0].frameocr == nil && rows[0].error?.contains("broken.png") == true)
        #expect(rows[1].frameocr?.text.trimmingCharacters(in: .whitespacesAndNewlines) == "This is test message")
        #expect(rows[1].frameocr?.cer == 0 && (rows[1].frameocr?.seconds ?? 0) > 0)
        #expect(rows[1].frameocr?.preprocessing == nil, "no automatic preprocessing: no decisions")

        let (texts, failures) = run.texts(with: reader, jobs: 2, order: [2, 1, 0])
        #expect(texts[1] == rows[1].frameocr?.text && texts[2] == rows[2].frameocr?.text && texts[0] == "")
        #expect(failures.count == 1 && failures[0].hasPrefix(root + "/mrz/broken.png: "))

        // Any value of each result: nil for the item that failed.
        let words = run.results(with: reader, jobs: 2) { $0.words.map(\.text) }
        #expect(words.values[0] == nil && words.values[1] == ["This", "is", "test", "message"])
        #expect(words.failures == failures)
    }

    @Test("The job loop: every index once, in the order given, on as many threads as asked")
    func jobLoop() {
        let order = [3, 1, 4, 0, 2]
        let started = Mutex<[Int]>([])
        let values = JobLoop.map(5, jobs: 1, order: order) { i, _ in
            started.withLock { $0.append(i) }
            return i * 10
        }
        #expect(values == [0, 10, 20, 30, 40])
        #expect(started.withLock { $0 } == order)
        #expect(Set(JobLoop.map(100, jobs: 4) { i, _ in i }) == Set(0..<100))
        #expect(JobLoop.map(0, jobs: 4) { i, _ in i }.isEmpty)
    }
}
