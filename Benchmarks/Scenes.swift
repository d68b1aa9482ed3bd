import Foundation
import FrameOCR
import FrameOCREvaluation

// The photo rows (`PhotoRow`): the Recognizer with its automatic preprocessing — what
// `frameocr eval` runs with no options, the scene-text reading with its DB text detector and the
// CTC line recognizer included — on photos of the evaluation corpus, against the RapidOCR peers
// (`RapidOCRPeer`: `tools/rapidocr_peer.py` in the venvs `make rapidocr` builds): RapidOCR 3.10
// on OpenVINO and on onnxruntime, running FrameOCR's own model files, and RapidOCR 1.4.4 on
// onnxruntime with the models its wheel ships (the same PP-OCRv4 files), all interleaved round by
// round. FrameOCR: `--jobs` threads over the images; each peer: one engine, the images one after
// another, its runtime's own threads (its default: every core). Every side scored with
// FrameOCREvaluation on its last round, as `frameocr eval` scores the folder. After the timed
// rounds, one untimed reading of the images with the same Recognizer counts FrameOCR's words by
// the engine that read them (`TextWord.engine`): the engine mix.
//
// - `scenes-auto/cpu/batch` (`kind` "scenes"): `icdar2015`'s street and shop photos (1280×720),
//   scored by word recall.
// - `plates-auto/cpu/batch` (`kind` "plates"): the 8 car photos directly in `license-plates`
//   (not its `crops`), each ground truth one plate's letters and digits, found when it occurs in
//   the recognized text's letters and digits (`Evaluation.Scoring.alphanumericOnly`): word recall
//   is plates read / 8.
//
// The row's ratio (`ratios.vsBaseline`, the regression gate's) is against RapidOCR 3.10 on
// OpenVINO, the first peer; the others ride along in `otherBaselines`. Issue 42's targets, written
// into each note as met or not: images/s ≥ 1.2× RapidOCR 3.10 on OpenVINO's and ≥ 1.5× on
// onnxruntime's, words (plates) read at least each one's, and the row's own floor (scenes recall
// ≥ 0.50, plates ≥ 6 of 8).

/// A RapidOCR peer: which RapidOCR (its venv), on which runtime, on which models;
/// ``find(_:root:)`` gives nil when its venv or the script is absent.
struct RapidOCRPeer: Sendable {
    /// One RapidOCR the photo rows measure against.
    struct Flavor: Sendable {
        /// Its venv, relative to the package root.
        var venv: String
        /// `tools/rapidocr_peer.py --engine`: "openvino" or "onnxruntime".
        var engine: String
        /// Whether it is given FrameOCR's model files (3.10), or runs its wheel's (1.4.4, whose
        /// wheel FrameOCR's files come from).
        var frameOCRModels: Bool
        /// Issue 42's target against it: FrameOCR's images/s at least this × its; nil: none.
        var minimumSpeed: Double?
        /// How the note's target names it.
        var label: String
    }

    static let openVINO = Flavor(
        venv: ".build/peers/rapidocr3-venv", engine: "openvino", frameOCRModels: true, minimumSpeed: 1.2,
        label: "RapidOCR 3.10 on OpenVINO")
    static let onnxRuntime = Flavor(
        venv: ".build/peers/rapidocr3-venv", engine: "onnxruntime", frameOCRModels: true, minimumSpeed: 1.5,
        label: "RapidOCR 3.10 on onnxruntime")
    static let legacy = Flavor(
        venv: ".build/peers/rapidocr-venv", engine: "onnxruntime", frameOCRModels: false, minimumSpeed: nil,
        label: "RapidOCR 1.4.4")
    /// The peers in the order they are reported; the first is the row's baseline.
    static let flavors = [openVINO, onnxRuntime, legacy]
    static let scriptName = "rapidocr_peer.py"

    var flavor: Flavor
    var python: String
    var script: String

    /// The peer under the package root `root`, when its venv and the script are both there.
    static func find(_ flavor: Flavor, root: String) -> RapidOCRPeer? {
        peerFiles(venv: flavor.venv, scriptName: scriptName, root: root).map {
            RapidOCRPeer(flavor: flavor, python: $0.python, script: $0.script)
        }
    }

    /// Why ``find(_:root:)`` gave nil, for the note.
    static func missing(_ flavor: Flavor, root: String) -> String {
        "no RapidOCR peer in \(flavor.venv) (`make rapidocr` builds it)"
    }

    /// The script's arguments: serve mode, the runtime, and FrameOCR's model files where it takes
    /// them (the paths FrameOCR reads them from, overrides included).
    var arguments: [String] {
        var a = ["--serve", "--engine", flavor.engine]
        if flavor.frameOCRModels {
            a += [
                "--det", TextDetector.defaultModelPath, "--cls", TextAngleClassifier.defaultModelPath, "--rec",
                TextLineRecognizer.defaultModelPath, "--keys", TextLineRecognizer.defaultKeysPath,
            ]
        }
        return a
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
    /// The row's own floor (issue 42): word recall at least `minimumRecall`; `floor` says it for the
    /// note. Against each peer the target is the same for both rows (``RapidOCRPeer/Flavor``).
    var minimumRecall: Double
    var floor: String

    var id: String { name + "/cpu/batch" }

    static let scenes = PhotoRow(
        name: "scenes-auto", kind: "scenes", folders: ["icdar2015"], minimumRecall: 0.50, floor: "recall ≥ 0.50")
    static let plates = PhotoRow(
        name: "plates-auto", kind: "plates", folders: ["license-plates"], topLevelOnly: true, counted: "plates",
        minimumRecall: 6.0 / 8, floor: "≥ 6 of 8 plates read")
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
    // The peers found, each with its session (started and warmed here), seconds and last texts.
    final class PeerSide {
        let peer: RapidOCRPeer
        let session: PeerSession
        var seconds: [Double] = []
        var texts: [String] = []
        init(_ peer: RapidOCRPeer, _ session: PeerSession) {
            self.peer = peer
            self.session = session
        }
    }
    var peers: [PeerSide] = []
    defer { for p in peers { p.session.close() } }
    for (k, peer) in RapidOCRPeer.flavors.compactMap({ RapidOCRPeer.find($0, root: root) }).enumerated() {
        let s = try PeerSession(
            name: "rapidocr-\(k)", python: peer.python, script: peer.script, arguments: peer.arguments,
            files: samples.map(\.image), environment: ProcessInfo.processInfo.environment, scratch: scratch)
        let side = PeerSide(peer, s)
        peers.append(side)
        sides.append(
            Side(body: {
                let r = try s.batch("run")
                side.seconds.append(r.seconds)
                side.texts = r.texts
            }))
    }
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
    note.append(String(format: "images/s: FrameOCR %.2f, ", r.imagesPerSecond!) + row.read(r.quality!))
    var met = recall >= row.minimumRecall
    var targets = [row.floor]
    var baselines: [BaselineResult] = []
    for side in peers {
        let theirs = Timing(side.seconds.map { $0 * 1000 })
        let ready = side.session.ready
        let models = side.peer.flavor.frameOCRModels ? ", FrameOCR's models" : ""
        let name = "RapidOCR \(ready.rapidocr ?? "?") (\(ready.engine ?? "?") \(ready.engineVersion ?? "?")\(models))"
        let b = BaselineResult(
            name: name, ms: theirs, quality: try quality(side.texts), imagesPerSecond: Double(n) / (theirs.p50 / 1e3))
        baselines.append(b)
        let faster = theirs.p50 / time.p50
        note.append(
            String(format: "%@ %.2f images/s, ", name, b.imagesPerSecond!) + row.read(b.quality!)
                + String(format: ": FrameOCR ×%.2f its speed", faster))
        if let minimum = side.peer.flavor.minimumSpeed {
            met = met && faster >= minimum && recall >= b.quality!.wordRecall
            targets.append(String(format: "≥ %.1f× ", minimum) + side.peer.flavor.label + "'s images/s, as many read")
        }
    }
    for flavor in RapidOCRPeer.flavors where RapidOCRPeer.find(flavor, root: root) == nil {
        note.append(RapidOCRPeer.missing(flavor, root: root))
    }
    if let first = baselines.first {
        r.baseline = first
        r.ratios.vsBaseline = first.ms.p50 / time.p50
        r.otherBaselines = baselines.count > 1 ? Array(baselines.dropFirst()) : nil
    }
    let judged = peers.contains { $0.peer.flavor.minimumSpeed != nil }
    note.append(
        "issue 42's target (\(targets.joined(separator: "; "))): "
            + (judged ? (met ? "met" : "not met") : "not judged without the RapidOCR 3.10 peers"))
    r.note = note.joined(separator: "; ")
    return r
}
