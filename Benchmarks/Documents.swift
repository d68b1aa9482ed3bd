import Foundation
import FrameOCR
import FrameOCRCommandLine
import FrameOCREvaluation

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

extension Quality {
    /// The figures of an evaluation's rows (``EvaluationRun/rows(texts:)``: each image scored as
    /// `frameocr eval` scores it).
    init(_ rows: [EvaluationRun.ImageRow]) {
        let scores = rows.compactMap(\.frameocr)
        let found = scores.map(\.wordsFound).reduce(0, +)
        let total = scores.map(\.referenceWords).reduce(0, +)
        let folders = EvaluationRun.summaries(rows) { $0.frameocr }
        self.init(
            images: rows.count, referenceWords: total, wordsFound: found,
            wordRecall: total == 0 ? 1 : Double(found) / Double(total),
            meanCER: scores.map(\.cer).reduce(0, +) / Double(max(scores.count, 1)),
            folderRecall: Dictionary(uniqueKeysWithValues: folders.map { ($0.folder, $0.wordRecall) }))
    }
}

/// The pipeline `frameocr eval DIR` builds with `options` (its own code: `CommonOptions.pipeline`).
func evalPipeline(_ options: [String]) throws -> Pipeline {
    try CommonOptions.pipeline(Arguments(options, valued: [], flagNames: ["no-auto"]))
}

/// The labelled images of `folders` as `frameocr eval` finds them (with `topLevelOnly`, only those
/// directly in a folder, none of its subfolders'), and their order for the batch's threads (the
/// most pixels first) with each image's pixels.
func labelledSet(_ folders: [String], topLevelOnly: Bool = false) throws -> (
    run: EvaluationRun, order: [Int], sizes: [Int]
) {
    var samples: [Evaluation.Sample] = []
    for folder in folders { samples += try Evaluation.samples(in: folder) }
    // A sample's folder is its path from the searched folder's parent: `license-plates/crops`
    // under `license-plates`.
    if topLevelOnly { samples = samples.filter { !$0.folder.contains("/") } }
    let run = EvaluationRun(samples: samples)
    let (order, sizes) = try largestFirst(run.items.map(\.sample.image))
    return (run, order, sizes)
}

/// Each image's text from the last of rounds of ``EvaluationRun/texts(with:jobs:order:)``, and
/// the failures of them all: what one side of a corpus row reads.
final class CorpusTexts {
    var texts: [String] = []
    var failures: [String] = []

    /// One round: every image read with `reader` on `jobs` threads in `order`.
    func read(_ run: EvaluationRun, with reader: EvaluationRun.Reader, jobs: Int, order: [Int]) {
        let round = run.texts(with: reader, jobs: jobs, order: order)
        texts = round.texts
        failures += round.failures
    }
}

/// The document folders under `data` that exist.
func documentFolders(data: String) -> [String] {
    ["sroie", "funsd", "wildreceipt"].map { data + "/" + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
}

let documentsId = "documents-auto/cpu/batch"

/// Measures the documents row; nil when no document folder is under `data`.
/// - Throws: ``FrameOCRError`` or ``BenchError`` when an image cannot be read or recognized.
func measureDocuments(data: String, recognizer: Recognizer, jobs: Int, runs: Int) throws -> CaseResult? {
    let (evaluation, order, sizes) = try labelledSet(documentFolders(data: data))
    guard !evaluation.samples.isEmpty else { return nil }

    // What `frameocr eval DIR` and `frameocr eval DIR --no-auto` build with no other option:
    // orientation unknown (detected only with the automatic mode).
    let automatic = EvaluationRun.Reader(recognizer: recognizer, pipeline: try evalPipeline([]))
    let plain = EvaluationRun.Reader(recognizer: recognizer, pipeline: try evalPipeline(["--no-auto"]))
    try recognizer.prepareEngines(jobs)
    let autoBatch = CorpusTexts()
    let plainBatch = CorpusTexts()
    var sides = [
        Side(body: { autoBatch.read(evaluation, with: automatic, jobs: jobs, order: order) }),
        Side(body: { plainBatch.read(evaluation, with: plain, jobs: jobs, order: order) }),
    ]
    try measureInterleaved(&sides, warmup: 0, runs: runs)
    for b in [autoBatch, plainBatch] {
        if let f = b.failures.first { throw BenchError("documents: \(f)") }
    }

    func quality(_ batch: CorpusTexts) throws -> Quality { Quality(try evaluation.rows(texts: batch.texts)) }

    let n = evaluation.samples.count
    let autoTime = Timing(sides[0].samples)
    let plainTime = Timing(sides[1].samples)
    var r = CaseResult.batch(
        name: "documents-auto", kind: "documents", runs: runs, ms: autoTime, images: n, pixels: sizes.reduce(0, +),
        jobs: jobs, allocations: sides[0].allocations)
    r.quality = try quality(autoBatch)
    r.baseline = BaselineResult(
        name: "--no-auto", ms: plainTime, quality: try quality(plainBatch),
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
