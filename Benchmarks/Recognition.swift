import Foundation
import FrameOCR
import FrameOCREvaluation
import Synchronization

// End-to-end recognition on real images: FrameOCR (decode the file, recognize, `jobs` threads
// sharing one Recognizer) against the `tesseract` command run once per image with
// OMP_THREAD_LIMIT=1 (its fastest setting on a small machine), with the same settings on both
// sides: English, PSM 6 (a single block), 300 ppi. Both sides read the same files and must print
// the same words; the match is reported per image (whitespace-normalized), never failed.

struct RecognitionSet {
    var name: String
    var files: [String]
    var note: String?
    /// What the `tesseract` command is given for each file: the file itself, or a link to it in
    /// the scratch folder when a UNLV zone file (`X.uzn`) lies beside it — the command reads
    /// that file at PSM 6 and recognizes only its zones, which is other work and other text.
    var commandFiles: [String]
}

/// `files` for the command: a link without the `.uzn` sidecar where there is one.
func commandInputs(_ files: [String], scratch: String) throws -> (files: [String], unzoned: Int) {
    var out: [String] = []
    var unzoned = 0
    for f in files {
        let uzn = (f as NSString).deletingPathExtension + ".uzn"
        guard FileManager.default.fileExists(atPath: uzn) else {
            out.append(f)
            continue
        }
        let dir = scratch + "/unzoned"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let link = dir + "/" + (f as NSString).lastPathComponent
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: f)
        out.append(link)
        unzoned += 1
    }
    return (out, unzoned)
}

/// The recognition sets under `data` (missing folders are skipped with a message).
func recognitionSets(data: String, videoStep: Int, scratch: String) throws -> [RecognitionSet] {
    var sets: [RecognitionSet] = []
    for (name, dirs) in [
        ("tesseract-test", ["/tesseract-test"]), ("uw3-lines", ["/uw3-lines/test", "/uw3-lines/train"]),
    ] {
        // The labelled images as `frameocr eval` finds them, in the folders that exist.
        let files = try dirs.map { data + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
            .flatMap { try Evaluation.samples(in: $0).map(\.image) }
        guard !files.isEmpty else { continue }
        let command = try commandInputs(files, scratch: scratch)
        sets.append(
            RecognitionSet(
                name: name, files: files,
                note: command.unzoned == 0
                    ? nil
                    : "\(command.unzoned) images have a UNLV zone file (.uzn); the command reads them through a link without it",
                commandFiles: command.files))
    }
    let videoDir = data + "/video"
    if let names = try? FileManager.default.contentsOfDirectory(atPath: videoDir),
        let movie = names.sorted().first(where: {
            ["mp4", "mov", "mkv", "avi", "webm"].contains(($0 as NSString).pathExtension.lowercased())
        })
    {
        // Every `videoStep`-th frame, written once as PNG so that both sides read the same files.
        var source = try VideoSource(path: videoDir + "/" + movie)
        var files: [String] = []
        var index = 0
        while let frame = try source.next() {
            if index % videoStep == 0 {
                let path = scratch + "/video-\(String(format: "%05d", index)).png"
                try frame.buffer.write(toFile: path)
                files.append(path)
            }
            index += 1
        }
        if !files.isEmpty {
            sets.append(
                RecognitionSet(
                    name: "video", files: files,
                    note: "\(movie): every \(videoStep)th of \(index) frames, decoded once and written as PNG",
                    commandFiles: files))
        }
    }
    return sets
}

/// Whitespace-normalized text: the words, separated by single spaces.
func normalized(_ text: String) -> String {
    text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
}

/// Runs `tesseract FILE stdout -l eng --psm 6 --dpi 300` with OMP_THREAD_LIMIT=1; returns stdout.
func runTesseract(_ command: String, _ file: String) throws -> String {
    try Evaluation.TesseractCommand.run(command, file, arguments: ["-l", "eng", "--psm", "6", "--dpi", "300"])
}

struct TextCheck: Codable {
    var images: Int
    var matches: Int
    var ratio: Double
    var mismatched: [String]
}

/// Measures one set: `runs` rounds, FrameOCR's batch, the command's and (with `peer`) tesserocr's
/// interleaved. Returns the row against the command and, with `peer`, the row against tesserocr
/// (Peers.swift); `peerNote` says why there is none.
func measureRecognition(
    _ set: RecognitionSet, recognizer: Recognizer, jobs: Int, runs: Int, peer: TesserocrPeer?, peerNote: String?,
    scratch: String
) throws -> [CaseResult] {
    let options = Recognizer.Options(pageSegmentationMode: .singleBlock, sourceResolution: 300, includeSymbols: false)
    // Largest images first (the command's side is sequential, where order does not matter).
    let (order, sizes) = try largestFirst(set.files)
    let ours = Mutex<[String]>(Array(repeating: "", count: set.files.count))
    let failures = Mutex<[String]>([])
    // With the peer, both sides read the same files: 8-bit gray PNGs of the pixels FrameOCR's
    // pipeline gives Tesseract (decoded through OpenCV on our side, Leptonica on the peer's), so
    // that the row compares recognition, not the decoding of a colour file against a gray one.
    var gray: [String]?
    var peerProblem = peerNote
    if peer != nil {
        do {
            gray = try grayCopies(of: order.map { set.files[$0] }, in: scratch + "/gray-\(set.name)")
        } catch {
            peerProblem = "no tesserocr row: \(error)"
        }
    }
    var inputs = set.files
    if let gray { for (k, i) in order.enumerated() { inputs[i] = gray[k] } }
    let frameocrInputs = inputs
    func frameocrBatch() {
        JobLoop.run(order.count, jobs: jobs, order: order) { i, _ in
            do {
                let image = try PixelBuffer(contentsOfFile: frameocrInputs[i])
                let text = normalized(try recognizer.recognize(image, options: options).text)
                ours.withLock { $0[i] = text }
            } catch {
                failures.withLock { $0.append("\(set.files[i]): \(error)") }
            }
        }
    }
    try recognizer.prepareEngines(jobs)
    _ = try recognizer.recognize(PixelBuffer(contentsOfFile: set.files[0]), options: options)  // warm-up

    var theirs = Array(repeating: "", count: set.files.count)
    var sides = [Side(body: frameocrBatch)]
    let command = Evaluation.TesseractCommand.path()
    if let command {
        sides.append(
            Side(body: {
                for (i, f) in set.commandFiles.enumerated() { theirs[i] = normalized(try runTesseract(command, f)) }
            }))
    }
    var peerSides: TesserocrSides?
    if let peer, let gray {
        do {
            peerSides = TesserocrSides(
                session: try PeerSession(tesserocr: peer, files: gray, threads: jobs, scratch: scratch), order: order)
            peerSides!.add(to: &sides)
        } catch {
            peerProblem = "no tesserocr row: \(error)"
        }
    }
    defer { peerSides?.session.close() }
    try measureInterleaved(&sides, warmup: 0, runs: runs)
    if let f = failures.withLock({ $0.first }) { throw BenchError("recognition failed: \(f)") }

    let n = set.files.count
    let timing = Timing(sides[0].samples)
    var result = CaseResult.batch(
        name: "recognize-\(set.name)", kind: "recognition", runs: runs, ms: timing, images: n,
        pixels: sizes.reduce(0, +), jobs: jobs, allocations: sides[0].allocations)
    var note = ["\(n) images, \(jobs) threads, PSM 6, 300 ppi"]
    if let extra = set.note { note.append(extra) }
    if gray != nil { note.append("FrameOCR and tesserocr read the same gray PNGs, the command the original files") }
    if command != nil {
        let base = Timing(sides[1].samples)
        result.baseline = BaselineResult(
            name: "tesseract command", ms: base, imagesPerSecond: Double(n) / (base.p50 / 1e3))
        result.ratios.vsBaseline = base.p50 / timing.p50
        note.append(String(format: "the command %.2f images/s", Double(n) / (base.p50 / 1e3)))
        let texts = ours.withLock { $0 }
        let mismatched = (0..<n).filter { texts[$0] != theirs[$0] }.map {
            (set.files[$0] as NSString).lastPathComponent
        }
        result.text = TextCheck(
            images: n, matches: n - mismatched.count, ratio: Double(n - mismatched.count) / Double(n),
            mismatched: mismatched)
    } else {
        note.append("tesseract command not found: no baseline")
    }
    if let peerProblem { note.append(peerProblem) }
    result.note = note.joined(separator: "; ")
    guard let peerSides else { return [result] }
    return [result, peerSides.result(set, frameocr: result, ours: ours.withLock { $0 }, runs: runs, jobs: jobs)]
}

let recognitionNames = ["recognize-tesseract-test", "recognize-uw3-lines", "recognize-video"]

extension BenchRow {
    /// The recognition rows: each recognition set against the command and against tesserocr,
    /// then the documents row, the label row and the photo rows (scenes, plates), sharing one
    /// Recognizer.
    static let recognition = BenchRow(
        name: "recognition", needs: .scratch,
        cases: { _ in
            (recognitionNames.flatMap { ["\($0)/cpu/batch", "\($0)-tesserocr/cpu/batch"] } + [documentsId]
                + PhotoRow.all.map(\.id) + [labelId])
                .map { Case(id: $0, recognizes: true) }
        },
        measure: { run, selected, scratch in
            let (options, data, root, scratch) = (run.options, run.data, run.root, scratch ?? "")
            let wantDocuments = selected.contains(documentsId)
            let photoRows = PhotoRow.all.filter { selected.contains($0.id) }
            let sets = try recognitionSets(data: data, videoStep: options.videoStep, scratch: scratch)
                .filter {
                    options.selected("recognize-\($0.name)/cpu/batch")
                        || options.selected("recognize-\($0.name)-tesserocr/cpu/batch")
                }
            if sets.isEmpty && !wantDocuments && photoRows.isEmpty && !selected.contains(labelId) {
                print("recognition: no images under \(data) (--data DIR)")
            }
            let recognizer = try Recognizer()
            let peer = options.tesserocr ? TesserocrPeer.find(root: root) : nil
            let peerNote =
                !options.tesserocr
                ? "no tesserocr row (--no-tesserocr)" : peer == nil ? TesserocrPeer.missing(root: root) : nil
            for set in sets {
                do {
                    for r in try measureRecognition(
                        set, recognizer: recognizer, jobs: options.jobs, runs: options.recognitionRuns, peer: peer,
                        peerNote: peerNote, scratch: scratch)
                    {
                        run.report(r)
                    }
                } catch {
                    run.failed("recognize-\(set.name)/cpu/batch", error)
                }
            }
            if wantDocuments {
                run.corpusRow(documentsId, missing: "document folder (sroie, funsd, wildreceipt)") {
                    try measureDocuments(
                        data: data, recognizer: recognizer, jobs: options.jobs, runs: options.recognitionRuns)
                }
            }
            if selected.contains(labelId) {
                do {
                    run.report(try measureLabel(recognizer: recognizer, runs: options.recognitionRuns))
                } catch {
                    run.failed(labelId, error)
                }
            }
            for row in photoRows {
                run.corpusRow(row.id, missing: "folder \(row.folders.joined(separator: ", "))") {
                    try measurePhotos(
                        row, data: data, recognizer: recognizer, jobs: options.jobs, runs: options.recognitionRuns,
                        root: root, scratch: scratch)
                }
            }
        })
}

extension BenchRun {
    /// One corpus row: measured and reported, or why not (no folder; a failure, counted).
    func corpusRow(_ id: String, missing: String, _ measure: () throws -> CaseResult?) {
        do {
            if let r = try measure() {
                report(r)
            } else {
                print("\(id): no \(missing) under \(data)")
            }
        } catch {
            failed(id, error)
        }
    }
}
