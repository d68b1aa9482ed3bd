import Foundation
import FrameOCR
import FrameOCREvaluation
import Synchronization

// The documents row (`documents-auto/cpu/batch`, `kind` "documents"): the Recognizer on the
// document folders of the evaluation corpus — `sroie`, `funsd` and `wildreceipt`, the "document
// folders" of docs/accuracy.md (17 images, 2073 reference words), scored by word recall — with
// its automatic preprocessing (what `frameocr eval` runs with no options) against the same
// without it (`frameocr eval --no-auto`). Both sides: the same Recognizer (PSM 6, 300 ppi
// defaults), `--jobs` threads, the images largest first, interleaved round by round. Each side's
// quality is scored with FrameOCREvaluation (the code `frameocr eval` uses) on its last round.
// Issue 13's target: automatic at most 3× the time of `--no-auto`, document recall ≥ 0.758.

/// Quality against ground truth: reference words found over all of them, and mean CER.
struct Quality: Codable {
    var images: Int
    var referenceWords: Int
    var wordsFound: Int
    /// wordsFound / referenceWords.
    var wordRecall: Double
    /// Mean over the images of the character error rate (shown for information: these folders'
    /// ground truth is not in reading order).
    var meanCER: Double
    /// Word recall per folder, by folder name.
    var folderRecall: [String: Double]
}

/// The labelled images of some corpus folders, as `frameocr eval` finds and scores them: each
/// sample, its ground truth, its folder's scoring, and the order to read them in (largest first).
struct LabelledSet {
    var samples: [Evaluation.Sample]
    var references: [String]
    var scorings: [Evaluation.Scoring]
    /// Sample indices, the most pixels first (for the batch's threads), and each image's pixels.
    var order: [Int]
    var sizes: [Int]

    /// nil when the folders hold no labelled image.
    /// - Throws: when a folder, a ground truth or an image cannot be read.
    init?(folders: [String]) throws {
        samples = try folders.flatMap { try Evaluation.samples(in: $0) }
        guard !samples.isEmpty else { return nil }
        references = try samples.map { try String(contentsOfFile: $0.groundTruth, encoding: .utf8) }
        scorings = samples.map {
            Evaluation.Scoring.forFolder(named: ($0.image as NSString).deletingLastPathComponent)
        }
        (order, sizes) = try largestFirst(samples.map(\.image))
    }

    /// `texts` (one per sample, in order) scored as `frameocr eval` scores them.
    func quality(_ texts: [String]) -> Quality {
        Quality(samples: samples, texts: texts, references: references, scorings: scorings)
    }
}

extension Quality {
    /// Scores `texts` (one per sample, in order) against `references` as `frameocr eval` does
    /// (FrameOCREvaluation, each image with its folder's `scorings` entry).
    init(
        samples: [Evaluation.Sample], texts: [String], references: [String], scorings: [Evaluation.Scoring]
    ) {
        let scores = samples.indices.map {
            Evaluation.score(hypothesis: texts[$0], reference: references[$0], scoring: scorings[$0])
        }
        let folders = Evaluation.summarize(zip(samples, scores).map { ($0.folder, $1, 0) })
        let found = scores.map(\.wordsFound).reduce(0, +)
        let total = scores.map(\.referenceWords).reduce(0, +)
        self.init(
            images: samples.count, referenceWords: total, wordsFound: found,
            wordRecall: total == 0 ? 1 : Double(found) / Double(total),
            meanCER: scores.map(\.cer).reduce(0, +) / Double(max(scores.count, 1)),
            folderRecall: Dictionary(uniqueKeysWithValues: folders.map { ($0.folder, $0.wordRecall) }))
    }
}

/// The document folders under `data` that exist.
func documentFolders(data: String) -> [String] {
    ["sroie", "funsd", "wildreceipt"].map { data + "/" + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
}

/// Measures the documents row; nil when no document folder is under `data`.
/// - Throws: ``FrameOCRError`` or ``BenchError`` when an image cannot be read or recognized.
func measureDocuments(data: String, recognizer: Recognizer, jobs: Int, runs: Int) throws -> CaseResult? {
    guard let set = try LabelledSet(folders: documentFolders(data: data)) else { return nil }
    let (samples, order, sizes) = (set.samples, set.order, set.sizes)

    // What `frameocr eval DIR` and `frameocr eval DIR --no-auto` build with no other option
    // (CommonOptions.pipeline): orientation unknown (detected only with the automatic mode).
    let automatic = Pipeline(orientation: .unknown, automatic: AutomaticPreprocessing())
    let plain = Pipeline(orientation: .unknown)

    /// One batch of every sample through `pipeline`; its texts by sample index.
    final class Batch: Sendable {
        let texts: Mutex<[String]>
        let failures = Mutex<[String]>([])
        init(_ n: Int) { texts = Mutex(Array(repeating: "", count: n)) }
    }
    func run(_ pipeline: Pipeline, into batch: Batch) {
        forEachConcurrently(order, jobs: jobs) { i, pool in
            do {
                let image = try PixelBuffer(contentsOfFile: samples[i].image)
                let text = try recognizer.recognize(image, pipeline: pipeline, pool: pool).text
                batch.texts.withLock { $0[i] = text }
            } catch {
                batch.failures.withLock { $0.append("\(samples[i].image): \(error)") }
            }
        }
    }
    try recognizer.prepareEngines(jobs)
    let autoBatch = Batch(samples.count)
    let plainBatch = Batch(samples.count)
    var sides = [Side(body: { run(automatic, into: autoBatch) }), Side(body: { run(plain, into: plainBatch) })]
    try measureInterleaved(&sides, warmup: 0, runs: runs)
    for b in [autoBatch, plainBatch] {
        if let f = b.failures.withLock({ $0.first }) { throw BenchError("documents: \(f)") }
    }

    func quality(_ batch: Batch) -> Quality { set.quality(batch.texts.withLock { $0 }) }

    let n = samples.count
    let autoTime = Timing(sides[0].samples)
    let plainTime = Timing(sides[1].samples)
    var r = CaseResult.batch(
        name: "documents-auto", kind: "documents", runs: runs, ms: autoTime, images: n, pixels: sizes.reduce(0, +),
        jobs: jobs, allocations: sides[0].allocations)
    r.quality = quality(autoBatch)
    r.baseline = BaselineResult(
        name: "--no-auto", ms: plainTime, quality: quality(plainBatch),
        imagesPerSecond: Double(n) / (plainTime.p50 / 1e3))
    r.ratios.vsBaseline = plainTime.p50 / autoTime.p50
    let slower = autoTime.p50 / plainTime.p50
    let recall = r.quality!.wordRecall
    let met = slower <= 3 && recall >= 0.758
    let folders = documentFolders(data: data).map { ($0 as NSString).lastPathComponent }
    r.note = [
        "\(n) images (\(folders.joined(separator: ", "))), \(jobs) threads, the Recognizer's defaults (PSM 6, 300 ppi; the automatic mode chooses its own PSM)",
        String(
            format: "automatic %.2f images/s, recall %.3f (CER %.3f); --no-auto %.2f images/s, recall %.3f (CER %.3f)",
            r.imagesPerSecond!, recall, r.quality!.meanCER, r.baseline!.imagesPerSecond!,
            r.baseline!.quality!.wordRecall, r.baseline!.quality!.meanCER),
        String(format: "time auto/no-auto %.2f×", slower)
            + "; target ≤ 3× with recall ≥ 0.758: \(met ? "met" : "not met")",
    ].joined(separator: "; ")
    return r
}
