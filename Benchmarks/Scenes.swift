import Foundation
import FrameOCR
import FrameOCREvaluation

// The scenes row (`scenes-auto/cpu/batch`, `kind` "scenes"): the Recognizer on the scene photos
// of the evaluation corpus (`icdar2015`: street and shop photos, 1280×720) with its automatic
// preprocessing — what `frameocr eval` runs with no options, the scene-text reading with its DB
// text detector included — against RapidOCR (PP-OCRv4's detector, angle classifier and
// recognizer on onnxruntime; `tools/rapidocr_peer.py` in the venv `make rapidocr` builds), the
// images interleaved round by round. FrameOCR: `--jobs` threads over the images; RapidOCR: one
// engine, the images one after another, onnxruntime's own threads (its default: every core).
// Both scored by word recall with FrameOCREvaluation on their last round. Issue 16's target:
// ICDAR 2015 recall ≥ 0.35 at ≥ 5× RapidOCR's speed on the same images.

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

/// The scene folders under `data` that exist.
func sceneFolders(data: String) -> [String] {
    ["icdar2015"].map { data + "/" + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
}

let scenesId = "scenes-auto/cpu/batch"

/// Measures the scenes row; nil when no scene folder is under `data`.
/// - Throws: ``FrameOCRError`` or ``BenchError`` when an image cannot be read or recognized, or
///   the peer fails.
func measureScenes(
    data: String, recognizer: Recognizer, jobs: Int, runs: Int, root: String, scratch: String
) throws -> CaseResult? {
    let (evaluation, order, sizes) = try labelledSet(sceneFolders(data: data))
    guard !evaluation.samples.isEmpty else { return nil }
    let samples = evaluation.samples
    // What `frameocr eval DIR` builds with no option.
    let reader = EvaluationRun.Reader(recognizer: recognizer, pipeline: try evalPipeline([]))
    let ours = CorpusTexts()
    try recognizer.prepareEngines(jobs)
    _ = try recognizer.textDetector()  // the model loaded before the clock, as the peer's are
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
    if let f = ours.failures.first { throw BenchError("scenes: \(f)") }

    func quality(_ texts: [String]) throws -> Quality { Quality(try evaluation.rows(texts: texts)) }

    let n = samples.count
    let time = Timing(sides[0].samples)
    var r = CaseResult.batch(
        name: "scenes-auto", kind: "scenes", runs: runs, ms: time, images: n, pixels: sizes.reduce(0, +), jobs: jobs,
        allocations: sides[0].allocations)
    r.quality = try quality(ours.texts)
    let recall = r.quality!.wordRecall
    var note = [
        "\(n) images (\(sceneFolders(data: data).map { ($0 as NSString).lastPathComponent }.joined(separator: ", "))), "
            + "FrameOCR: \(jobs) threads, orientation unknown, automatic (the scene-text reading with its detector)"
    ]
    if let session {
        let theirs = Timing(peerSeconds.map { $0 * 1000 })
        let version = "RapidOCR \(session.ready.rapidocr ?? "?") (onnxruntime \(session.ready.onnxruntime ?? "?"))"
        r.baseline = BaselineResult(
            name: version, ms: theirs, quality: try quality(peerTexts), imagesPerSecond: Double(n) / (theirs.p50 / 1e3))
        r.ratios.vsBaseline = theirs.p50 / time.p50
        let faster = theirs.p50 / time.p50
        let met = faster >= 5 && recall >= 0.35
        note.append(
            String(
                format: "images/s: FrameOCR %.2f, recall %.3f; %@ %.2f, recall %.3f (one engine, its default threads)",
                r.imagesPerSecond!, recall, version, r.baseline!.imagesPerSecond!, r.baseline!.quality!.wordRecall))
        note.append(
            String(format: "FrameOCR ×%.2f RapidOCR's speed", faster)
                + "; target ≥ 5× with recall ≥ 0.35: \(met ? "met" : "not met")")
    } else {
        note.append(String(format: "images/s: FrameOCR %.2f, recall %.3f", r.imagesPerSecond!, recall))
        note.append(RapidOCRPeer.missing(root: root))
    }
    r.note = note.joined(separator: "; ")
    return r
}
