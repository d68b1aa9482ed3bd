import Foundation
import FrameOCR
import FrameOCREvaluation

// The photo rows (`PhotoRow`): the Recognizer with its automatic preprocessing — what
// `frameocr eval` runs with no options, the scene-text reading with its DB text detector and the
// CTC line recognizer included — on photos of the evaluation corpus, against RapidOCR (PP-OCRv4's
// detector, angle classifier and recognizer on onnxruntime; `tools/rapidocr_peer.py` in the venv
// `make rapidocr` builds), the images interleaved round by round. FrameOCR: `--jobs` threads over
// the images; RapidOCR: one engine, the images one after another, onnxruntime's own threads (its
// default: every core). Both scored with FrameOCREvaluation on their last round, as `frameocr
// eval` scores the folder. After the timed rounds, one untimed reading of the images with the same
// Recognizer counts FrameOCR's words by the engine that read them (`TextWord.engine`): the
// engine mix.
//
// - `scenes-auto/cpu/batch` (`kind` "scenes"): `icdar2015`'s street and shop photos (1280×720),
//   scored by word recall.
// - `plates-auto/cpu/batch` (`kind` "plates"): the 8 car photos directly in `license-plates`
//   (not its `crops`), each ground truth one plate's letters and digits, found when it occurs in
//   the recognized text's letters and digits (`Evaluation.Scoring.alphanumericOnly`): word recall
//   is plates read / 8.
//
// Issue 27's targets, written into each note as met or not: scenes recall ≥ 0.50 at ≥ 1.0×
// RapidOCR's images/s with recall at least RapidOCR's; plates ≥ 6 of 8 read at ≥ 1.0× RapidOCR's
// images/s.

/// Where the RapidOCR peer is (``missing(root:)``: why ``find(root:)`` gave nil).
struct RapidOCRPeer: PythonPeer {
    static let venv = ".build/peers/rapidocr-venv"
    static let scriptName = "rapidocr_peer.py"
    var python: String
    var script: String

    /// Why ``find(root:)`` gave nil, for the note.
    static func missing(root: String) -> String {
        "no RapidOCR peer (no \(pythonPath(root: root)); `make rapidocr` builds it): FrameOCR measured alone"
    }
}

/// A row of photos FrameOCR reads against RapidOCR: which photos, how its figures are told, and
/// its target.
struct PhotoRow: Sendable {
    /// The row's name (its id is `NAME/cpu/batch`) and `kind`.
    var name: String
    var kind: String
    /// Its folders under the data folder.
    var folders: [String]
    /// Only the photos directly in the folders, none of their subfolders'.
    var topLevelOnly = false
    /// What one reference word is, when each is a thing read or not ("plates": the note says
    /// "plates read N of M"); nil: the note gives the word recall.
    var counted: String?
    /// Issue 27's target: word recall at least `minimumRecall`, images/s at least `minimumSpeed` ×
    /// RapidOCR's, and with `atLeastPeerRecall` a recall at least RapidOCR's; `target` says it for
    /// the note.
    var minimumRecall: Double
    var minimumSpeed: Double
    var atLeastPeerRecall: Bool
    var target: String

    var id: String { name + "/cpu/batch" }

    static let scenes = PhotoRow(
        name: "scenes-auto", kind: "scenes", folders: ["icdar2015"], minimumRecall: 0.50, minimumSpeed: 1,
        atLeastPeerRecall: true, target: "recall ≥ 0.50 and ≥ 1.0× RapidOCR's images/s with recall at least RapidOCR's")
    static let plates = PhotoRow(
        name: "plates-auto", kind: "plates", folders: ["license-plates"], topLevelOnly: true, counted: "plates",
        minimumRecall: 6.0 / 8, minimumSpeed: 1, atLeastPeerRecall: false,
        target: "≥ 6 of 8 plates read and ≥ 1.0× RapidOCR's images/s")
    /// The photo rows, in the order they run.
    static let all = [scenes, plates]

    /// Its folders under `data` that exist.
    func existingFolders(data: String) -> [String] {
        folders.map { data + "/" + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// What `quality` comes to in the note: the recall, or the things read.
    func read(_ quality: Quality) -> String {
        counted.map { "\($0) read \(quality.wordsFound) of \(quality.referenceWords)" }
            ?? String(format: "recall %.3f", quality.wordRecall)
    }
}

/// Words per engine (`TextWord.engine`, nil counted as Tesseract) in one untimed reading of every
/// item of `evaluation` with `reader`, by the engine's name, every engine present.
/// - Throws: ``BenchError`` when an image cannot be read or recognized.
func wordsByEngine(_ evaluation: EvaluationRun, with reader: EvaluationRun.Reader, jobs: Int) throws -> [String: Int] {
    let round = evaluation.results(with: reader, jobs: jobs) { $0.words.map { $0.engine ?? .tesseract } }
    if let f = round.failures.first { throw BenchError(f) }
    var counts = Dictionary(uniqueKeysWithValues: RecognitionEngine.allCases.map { ($0.rawValue, 0) })
    for engine in round.values.compactMap({ $0 }).joined() { counts[engine.rawValue, default: 0] += 1 }
    return counts
}

/// Measures one photo row; nil when none of its folders is under `data`.
/// - Throws: ``FrameOCRError`` or ``BenchError`` when an image cannot be read or recognized, or
///   the peer fails.
func measurePhotos(
    _ row: PhotoRow, data: String, recognizer: Recognizer, jobs: Int, runs: Int, root: String, scratch: String
) throws -> CaseResult? {
    let folders = row.existingFolders(data: data)
    let (evaluation, order, sizes) = try labelledSet(folders, topLevelOnly: row.topLevelOnly)
    guard !evaluation.samples.isEmpty else { return nil }
    let samples = evaluation.samples
    // What `frameocr eval DIR` builds with no option.
    let reader = EvaluationRun.Reader(recognizer: recognizer, pipeline: try evalPipeline([]))
    let ours = CorpusTexts()
    try recognizer.prepareEngines(jobs)
    _ = try recognizer.textDetector()  // the model loaded before the clock, as the peer's are
    // Warmed on the first image, as the peer is (the CTC line recognizer loads on its first line).
    _ = try evaluation.read(evaluation.items[0], with: reader, pool: PixelBufferPool(capacity: 4))
    var sides = [Side(body: { ours.read(evaluation, with: reader, jobs: jobs, order: order) })]
    let peer = RapidOCRPeer.find(root: root)
    var session: PeerSession?
    var peerSeconds: [Double] = []
    var peerTexts: [String] = []
    if let peer {
        let s = try PeerSession(
            name: "rapidocr", python: peer.python, script: peer.script, arguments: ["--serve"],
            files: samples.map(\.image), environment: ProcessInfo.processInfo.environment, scratch: scratch)
        session = s
        sides.append(
            Side(body: {
                let r = try s.batch("run")
                peerSeconds.append(r.seconds)
                peerTexts = r.texts
            }))
    }
    defer { session?.close() }
    try measureInterleaved(&sides, warmup: 0, runs: runs)
    if let f = ours.failures.first { throw BenchError("\(row.name): \(f)") }
    let engines = try wordsByEngine(evaluation, with: reader, jobs: jobs)

    func quality(_ texts: [String]) throws -> Quality { Quality(try evaluation.rows(texts: texts)) }

    let n = samples.count
    let time = Timing(sides[0].samples)
    var r = CaseResult.batch(
        name: row.name, kind: row.kind, runs: runs, ms: time, images: n, pixels: sizes.reduce(0, +), jobs: jobs,
        allocations: sides[0].allocations)
    r.quality = try quality(ours.texts)
    r.wordsByEngine = engines
    let recall = r.quality!.wordRecall
    let names = folders.map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")
    var note = [
        "\(n) images (\(names)\(row.topLevelOnly ? ", not its subfolders" : "")), "
            + "FrameOCR: \(jobs) threads, orientation unknown, automatic (the scene-text reading with its detector)",
        "words by engine: "
            + RecognitionEngine.allCases.map { "\($0.rawValue) \(engines[$0.rawValue] ?? 0)" }.joined(separator: ", "),
    ]
    let target = "target \(row.target)"
    if let session {
        let theirs = Timing(peerSeconds.map { $0 * 1000 })
        let version = "RapidOCR \(session.ready.rapidocr ?? "?") (onnxruntime \(session.ready.onnxruntime ?? "?"))"
        r.baseline = BaselineResult(
            name: version, ms: theirs, quality: try quality(peerTexts), imagesPerSecond: Double(n) / (theirs.p50 / 1e3))
        let faster = theirs.p50 / time.p50
        r.ratios.vsBaseline = faster
        let met =
            recall >= row.minimumRecall && faster >= row.minimumSpeed
            && (!row.atLeastPeerRecall || recall >= r.baseline!.quality!.wordRecall)
        note.append(
            String(format: "images/s: FrameOCR %.2f, ", r.imagesPerSecond!) + row.read(r.quality!)
                + String(format: "; %@ %.2f, ", version, r.baseline!.imagesPerSecond!) + row.read(r.baseline!.quality!)
                + " (one engine, its default threads)")
        note.append(
            String(format: "FrameOCR ×%.2f RapidOCR's speed", faster) + "; \(target): \(met ? "met" : "not met")")
    } else {
        note.append(String(format: "images/s: FrameOCR %.2f, ", r.imagesPerSecond!) + row.read(r.quality!))
        note.append(RapidOCRPeer.missing(root: root))
        note.append("\(target): not judged without the peer")
    }
    r.note = note.joined(separator: "; ")
    return r
}
