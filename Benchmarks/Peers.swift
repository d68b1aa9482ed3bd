import Foundation
import FrameOCR

// The tesserocr peer: the same batch recognition done through tesserocr (Python bindings of the
// same Debian libtesseract 5.3.0), run by `tools/tesserocr_peer.py` in the venv that
// `make tesserocr` builds (.build/peers/venv). The bench starts it once per recognition set in
// its serve mode — engines created and warmed before any round — and asks it for one batch per
// round, interleaved with FrameOCR's batch and the `tesseract` command's, so the three see the
// same machine. Its times are the peer's own (the batch's wall time measured in Python, from
// starting its threads to joining them), not the pipe's round trip.
//
// Same work on both sides: `--jobs` threads (default: the active processors, 2 here) on each,
// one engine per thread, English, PSM 6, 300 ppi, the images largest first from one shared
// queue, and the result tree walked to the words with their boxes and confidences (FrameOCR's
// shim with includeSymbols false). Same pixels: the peer reads, through Leptonica, an 8-bit
// gray PNG of exactly the image FrameOCR hands Tesseract (`Pipeline().run` of the decoded file),
// written once per set into the scratch folder; FrameOCR decodes the original file each round.

/// A Python peer of the benchmark: a script in `tools/` run by the Python of a venv the Makefile
/// builds under `.build/peers`. ``find(root:)`` gives nil when either is absent.
protocol PythonPeer {
    /// The venv, relative to the package root.
    static var venv: String { get }
    /// The script's file name in `tools/`.
    static var scriptName: String { get }
    var python: String { get }
    var script: String { get }
    init(python: String, script: String)
}

extension PythonPeer {
    static func pythonPath(root: String) -> String { root + "/" + venv + "/bin/python" }
    static func scriptPath(root: String) -> String { root + "/tools/" + scriptName }

    /// The peer under the package root `root`, when its venv and script are both there.
    static func find(root: String) -> Self? {
        peerFiles(venv: venv, scriptName: scriptName, root: root).map { Self(python: $0.python, script: $0.script) }
    }
}

/// A Python peer's interpreter and script under the package root `root`: `venv`/bin/python and
/// tools/`scriptName`, when the one is executable and the other there; nil otherwise.
func peerFiles(venv: String, scriptName: String, root: String) -> (python: String, script: String)? {
    let python = root + "/" + venv + "/bin/python"
    let script = root + "/tools/" + scriptName
    guard FileManager.default.isExecutableFile(atPath: python), FileManager.default.fileExists(atPath: script)
    else { return nil }
    return (python, script)
}

/// Where the tesserocr peer is (``missing(root:)``: why ``find(root:)`` gave nil).
struct TesserocrPeer: PythonPeer {
    static let venv = ".build/peers/venv"
    static let scriptName = "tesserocr_peer.py"
    var python: String
    var script: String

    /// Why ``find(root:)`` gave nil, for the notes.
    static func missing(root: String) -> String {
        FileManager.default.isExecutableFile(atPath: pythonPath(root: root))
            ? "tesserocr peer: \(scriptPath(root: root)) missing"
            : "tesserocr peer not found (no \(pythonPath(root: root)); `make tesserocr` builds it): no tesserocr row"
    }

    /// The environment the peer runs in: OpenMP single-threaded, as for the `tesseract` command.
    static var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["OMP_THREAD_LIMIT"] = "1"
        return env
    }
}

/// Writes the 8-bit gray image FrameOCR recognizes for each file (the default `Pipeline`'s
/// output: BT.601 gray of a colour file, the file's own gray otherwise) as a PNG under
/// `folder`, in the order given; returns the paths. PNG is lossless, so Leptonica reads back
/// exactly these bytes.
/// - Throws: ``FrameOCRError`` when a file cannot be decoded or written.
func grayCopies(of files: [String], in folder: String) throws -> [String] {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return try files.enumerated().map { k, f in
        let gray = try Pipeline().run(PixelBuffer(contentsOfFile: f)).image
        let path =
            folder + String(format: "/%04d-", k)
            + ((f as NSString).lastPathComponent as NSString)
            .deletingPathExtension + ".png"
        try gray.write(toFile: path)
        return path
    }
}

/// A running Python peer in serve mode (`tools/tesserocr_peer.py`, `tools/rapidocr_peer.py`):
/// it loads its engines and warms them when it is created and prints one JSON line (``Ready``);
/// then ``batch(_:)`` sends one line (the mode) and reads one JSON line back (``Reply``): the
/// whole file list run once. Not thread-safe.
final class PeerSession {
    /// What the peer prints when ready (or why it is not); each peer fills its own fields.
    struct Ready: Decodable {
        var ready: Bool
        var tesserocr: String?
        var tesseract: String?
        var rapidocr: String?
        /// The RapidOCR peer's runtime ("onnxruntime", "openvino") and its version.
        var engine: String?
        var engineVersion: String?
        var threads: Int?
        var error: String?
    }
    /// One batch's answer.
    struct Reply: Decodable {
        var mode: String?
        var seconds: Double?
        var texts: [String]?
        var errors: [String]?
        var error: String?
    }

    let name: String
    let ready: Ready
    private let process = Process()
    private let input: FileHandle
    private let output: FileHandle
    private var pending = Data()
    private let errorLog: String

    /// Starts `script` with `python` and `arguments` followed by `--files-from LIST` (the
    /// files, one per line, written under `scratch`); its standard error goes to
    /// `scratch`/`name`-stderr.txt (quoted in the error when it fails to start).
    /// - Throws: ``BenchError`` when it cannot start or reports it is not ready.
    init(
        name: String, python: String, script: String, arguments: [String], files: [String],
        environment: [String: String], scratch: String
    ) throws {
        self.name = name
        let list = scratch + "/\(name)-files-\(UUID().uuidString).txt"
        try (files.joined(separator: "\n") + "\n").write(toFile: list, atomically: true, encoding: .utf8)
        errorLog = scratch + "/\(name)-stderr.txt"
        _ = FileManager.default.createFile(atPath: errorLog, contents: nil)
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script] + arguments + ["--files-from", list]
        process.environment = environment
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle(forWritingAtPath: errorLog)
        input = stdin.fileHandleForWriting
        output = stdout.fileHandleForReading
        // A peer that died must be an error here, not a SIGPIPE that ends the bench.
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        let line = try Self.readLine(output, &pending)
        guard let line, let r = try? JSONDecoder().decode(Ready.self, from: line), r.ready else {
            let said = line.map { String(decoding: $0, as: UTF8.self) } ?? "nothing"
            let log = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
            process.terminate()
            throw BenchError("\(name) peer did not start: \(said) \(log.suffix(300))")
        }
        ready = r
    }

    /// The tesserocr peer on `files` with `threads` engines.
    convenience init(tesserocr peer: TesserocrPeer, files: [String], threads: Int, scratch: String) throws {
        try self.init(
            name: "tesserocr", python: peer.python, script: peer.script,
            arguments: ["--serve", "--threads", "\(threads)"], files: files, environment: TesserocrPeer.environment,
            scratch: scratch)
    }

    deinit { close() }

    /// Runs the file list once in `mode` (the tesserocr peer: "iterate", the result tree
    /// walked to the words, or "text", GetUTF8Text only; the RapidOCR peer: "run"); returns
    /// the peer's wall seconds and each file's text.
    /// - Throws: ``BenchError`` when the peer fails or an image fails.
    func batch(_ mode: String) throws -> (seconds: Double, texts: [String]) {
        try input.write(contentsOf: Data((mode + "\n").utf8))
        guard let line = try Self.readLine(output, &pending) else {
            throw BenchError(
                "\(name) peer ended: \((try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? "")")
        }
        let r = try JSONDecoder().decode(Reply.self, from: line)
        if let e = r.error ?? r.errors?.first { throw BenchError("\(name) peer: \(e)") }
        guard let seconds = r.seconds, let texts = r.texts else { throw BenchError("\(name) peer: no result") }
        return (seconds, texts)
    }

    /// Ends the peer (idempotent).
    func close() {
        guard process.isRunning else { return }
        try? input.write(contentsOf: Data("quit\n".utf8))
        try? input.close()
        process.waitUntilExit()
    }

    /// The next line from `handle` (without its newline); nil at the end of output.
    private static func readLine(_ handle: FileHandle, _ pending: inout Data) throws -> Data? {
        while true {
            if let nl = pending.firstIndex(of: 0x0A) {
                let line = pending[pending.startIndex..<nl]
                pending = Data(pending[(nl + 1)...])
                return Data(line)
            }
            let chunk = handle.availableData
            if chunk.isEmpty { return nil }
            pending.append(chunk)
        }
    }
}

/// The two peer sides of one recognition set's rounds: tesserocr walking the result tree (the
/// row) and tesserocr asked for the text only. Their samples are the peer's own batch times.
final class TesserocrSides {
    let session: PeerSession
    /// FrameOCR's order: the peer's k-th file is set file `order[k]`.
    let order: [Int]
    private(set) var iterate: [Double] = []
    private(set) var textOnly: [Double] = []
    /// Texts of the last batch of each mode, by set index, whitespace-normalized.
    private(set) var iterateTexts: [String] = []
    private(set) var textOnlyTexts: [String] = []

    init(session: PeerSession, order: [Int]) {
        self.session = session
        self.order = order
    }

    /// Appends a side per mode to `sides`.
    func add(to sides: inout [Side]) {
        sides.append(Side(body: { [self] in try run("iterate") }))
        sides.append(Side(body: { [self] in try run("text") }))
    }

    private func run(_ mode: String) throws {
        let r = try session.batch(mode)
        var texts = Array(repeating: "", count: order.count)
        for (k, i) in order.enumerated() { texts[i] = normalized(r.texts[k]) }
        if mode == "iterate" {
            iterate.append(r.seconds * 1000)
            iterateTexts = texts
        } else {
            textOnly.append(r.seconds * 1000)
            textOnlyTexts = texts
        }
    }

    /// The tesserocr row of `set`: FrameOCR's batch (`frameocr`, the same rounds) against the
    /// peer walking the result tree; the text-only batch rides along in `otherBaselines`.
    func result(
        _ set: RecognitionSet, frameocr: CaseResult, ours: [String], runs: Int, jobs: Int
    ) -> CaseResult {
        let n = set.files.count
        var r = CaseResult(
            spec: CaseSpec(
                name: "recognize-\(set.name)-tesserocr", backend: "cpu", width: 0, height: 0, kind: "recognition",
                sizeLabel: "batch"),
            runs: runs, ms: frameocr.ms)
        r.images = n
        r.jobs = jobs
        r.megapixelsPerSecond = frameocr.megapixelsPerSecond
        r.imagesPerSecond = frameocr.imagesPerSecond
        r.allocationsPerFrame = frameocr.allocationsPerFrame
        let version = "tesserocr \(session.ready.tesserocr ?? "?")"
        let walked = Timing(iterate)
        let text = Timing(textOnly)
        r.baseline = BaselineResult(
            name: "\(version) (words with boxes and confidences)", ms: walked,
            imagesPerSecond: Double(n) / (walked.p50 / 1e3))
        r.otherBaselines = [
            BaselineResult(
                name: "\(version) (GetUTF8Text only)", ms: text, imagesPerSecond: Double(n) / (text.p50 / 1e3))
        ]
        r.ratios.vsBaseline = walked.p50 / frameocr.ms.p50
        let mismatched = (0..<n).filter { ours[$0] != iterateTexts[$0] }.map {
            (set.files[$0] as NSString).lastPathComponent
        }
        r.text = TextCheck(
            images: n, matches: n - mismatched.count, ratio: Double(n - mismatched.count) / Double(n),
            mismatched: mismatched)
        let textOnlySame = (0..<n).filter { iterateTexts[$0] == textOnlyTexts[$0] }.count
        r.note = [
            "\(n) images; tesserocr: \(session.ready.threads ?? jobs) engines in as many threads, OMP_THREAD_LIMIT=1, "
                + "PSM 6, 300 ppi, reading 8-bit gray PNGs of the pixels FrameOCR recognizes",
            String(
                format: "images/s: FrameOCR %.2f, tesserocr %.2f walking the words (×%.2f), %.2f text only (×%.2f)",
                frameocr.imagesPerSecond ?? 0, Double(n) / (walked.p50 / 1e3), walked.p50 / frameocr.ms.p50,
                Double(n) / (text.p50 / 1e3), text.p50 / frameocr.ms.p50),
            textOnlySame == n ? "text only: the same text" : "text only: the same text on \(textOnlySame)/\(n)",
        ].joined(separator: "; ")
        return r
    }
}
