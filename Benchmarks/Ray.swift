import Foundation
import FrameOCREvaluation

// The Ray row (`ray-clean/cpu/batch`, `kind` "ray"): the clean corpus folders (tesseract-test,
// uw3-lines, pytesseract, tesseract-js: printed text with ground truth) recognized three ways,
// each a whole run of its own, interleaved round by round:
//   - Ray Data with 2 actors: `integrations/ray/ocr_archive.py LIST OUT.jsonl --actors 2`, each
//     actor one `frameocr serve --stdio --workers 1`; its time is the script's own from the
//     dataset's creation to the last row written (actors starting, engines loading, every
//     image), without Python's start and `ray.init` (reported beside it);
//   - `frameocr recognize --from LIST --format jsonl --jobs 2` (the baseline: the ratio is its
//     time over Ray's, so ≥ 1 means Ray is as fast);
//   - the `tesseract` command, one process per image, two at a time (`xargs -P 2`).
// All with their defaults (FrameOCR: automatic preprocessing) and OMP_THREAD_LIMIT=1. The text
// check: Ray's text against the CLI's, image by image. Only when `make ray-venv` has built
// .build/ray/venv; otherwise the row says why it is missing. Issue 14's target: text identical
// on every image, throughput ≥ 0.9× the CLI's.

let rayId = "ray-clean/cpu/batch"

/// The clean folders' images under `data` that have ground truth, largest folder first.
func cleanImages(data: String) throws -> [String] {
    try ["tesseract-test", "uw3-lines", "pytesseract", "tesseract-js"].map { data + "/" + $0 }
        .filter { FileManager.default.fileExists(atPath: $0) }
        .flatMap { try Evaluation.samples(in: $0).map(\.image) }
}

/// Why the Ray row cannot run, or nil when it can.
func rayMissing(root: String, frameocr: String?) -> String? {
    if frameocr == nil { return "no frameocr beside this executable (swift build -c release --product frameocr)" }
    if !FileManager.default.isExecutableFile(atPath: root + "/.build/ray/venv/bin/python") {
        return "no Ray (make ray-venv builds .build/ray/venv)"
    }
    return nil
}

/// Waits (up to 15 s) until no process of a Ray run that ended is left (`raylet`, `gcs_server`,
/// `ray::…` workers), so that the next side does not share the cores with a Ray shutting down.
func waitForRayToExit() {
    let clock = ContinuousClock()
    let start = clock.now
    while clock.now - start < .seconds(15) {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.filter { Int($0) != nil } ?? []
        let left = pids.contains { pid in
            guard let comm = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8) else { return false }
            let name = comm.trimmingCharacters(in: .whitespacesAndNewlines)
            return name == "raylet" || name == "gcs_server" || name.hasPrefix("ray::")
        }
        if !left { return }
        Thread.sleep(forTimeInterval: 0.1)
    }
}

/// Measures the Ray row; nil when there are no clean images under `data`.
/// - Throws: ``BenchError`` when a side fails or its output cannot be read.
func measureRay(data: String, root: String, frameocr: String, runs: Int, scratch: String) throws -> CaseResult? {
    let images = try cleanImages(data: data)
    guard !images.isEmpty else { return nil }
    let list = scratch + "/ray-images.txt"
    try (images.joined(separator: "\n") + "\n").write(toFile: list, atomically: true, encoding: .utf8)
    var environment = ProcessInfo.processInfo.environment
    environment["OMP_THREAD_LIMIT"] = "1"
    environment["FRAMEOCR"] = frameocr
    let python = root + "/.build/ray/venv/bin/python"
    let script = root + "/integrations/ray/ocr_archive.py"
    let cliOut = scratch + "/ray-cli.jsonl"
    let rayOut = scratch + "/ray-ray.jsonl"
    let summary = scratch + "/ray-summary.json"
    let tesseract = Evaluation.TesseractCommand.path()

    var rayMS: [Double] = []
    var rayWhole: [Double] = []
    var rayInit: [Double] = []
    var cliMS: [Double] = []
    var commandMS: [Double] = []
    // The start of each side alone: the same run on the first image only.
    let one = scratch + "/ray-one.txt"
    try (images[0] + "\n").write(toFile: one, atomically: true, encoding: .utf8)
    var rayStartMS: [Double] = []
    var cliStartMS: [Double] = []
    for _ in 0..<runs {
        cliStartMS.append(
            try spawnAndWait(
                [
                    frameocr, "recognize", "--from", one, "--format", "jsonl", "--jobs", "2", "--output",
                    cliOut + ".one",
                ],
                environment: environment))
        _ = try spawnAndWait(
            [python, script, one, scratch + "/ray-one.jsonl", "--actors", "2", "--summary", summary],
            environment: environment)
        waitForRayToExit()
        if let data = FileManager.default.contents(atPath: summary),
            let s = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let seconds = s["seconds"] as? Double
        {
            rayStartMS.append(seconds * 1000)
        }
        cliMS.append(
            try spawnAndWait(
                [frameocr, "recognize", "--from", list, "--format", "jsonl", "--jobs", "2", "--output", cliOut],
                environment: environment))
        rayWhole.append(
            try spawnAndWait(
                [python, script, list, rayOut, "--actors", "2", "--summary", summary], environment: environment))
        waitForRayToExit()
        guard let data = FileManager.default.contents(atPath: summary),
            let s = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let seconds = s["seconds"] as? Double, let initSeconds = s["initSeconds"] as? Double
        else { throw BenchError("\(rayId): no summary from \(script)") }
        rayMS.append(seconds * 1000)
        rayInit.append(initSeconds * 1000)
        if let tesseract {
            commandMS.append(
                try spawnAndWait(
                    ["/usr/bin/xargs", "-a", list, "-d", "\n", "-P", "2", "-I", "{}", tesseract, "{}", "stdout"],
                    environment: environment))
        }
    }

    // The text, image by image: Ray's rows against the CLI's.
    let cliTexts = try jsonlTexts(cliOut, key: "file")
    let rayTexts = try jsonlTexts(rayOut, key: "path")
    let mismatched = images.filter { cliTexts[$0] == nil || cliTexts[$0] != rayTexts[$0] }
    let n = images.count
    var result = CaseResult.againstCLI(
        name: "ray-clean", kind: "ray", runs: runs, ms: rayMS, cliMS: cliMS, images: images, mismatched: mismatched)
    let (timing, cli) = (Timing(rayMS), Timing(cliMS))
    var note = [
        String(
            format: "%d images (tesseract-test, uw3-lines, pytesseract, tesseract-js), 2 actors against --jobs 2;"
                + " Ray %.2f images/s (the whole process %.1f s, ray.init %.1f s), the CLI %.2f images/s",
            n, Double(n) / (timing.p50 / 1e3), Timing(rayWhole).p50 / 1e3, Timing(rayInit).p50 / 1e3,
            Double(n) / (cli.p50 / 1e3))
    ]
    if !commandMS.isEmpty {
        let command = Timing(commandMS)
        result.otherBaselines = [
            BaselineResult(
                name: "tesseract command, 2 at a time", ms: command, imagesPerSecond: Double(n) / (command.p50 / 1e3))
        ]
        note.append(
            String(
                format: "the tesseract command %.2f images/s (Ray %.2f× it)", Double(n) / (command.p50 / 1e3),
                command.p50 / timing.p50))
    }
    note.append(
        String(
            format: "target ≥ 0.9× the CLI: %.2f× on this set (%@)", cli.p50 / timing.p50,
            cli.p50 / timing.p50 >= 0.9 ? "met" : "not met"))
    if !rayStartMS.isEmpty {
        // Each side's start (one image) taken out: the rate an archive large enough to hide it gets.
        let rayStart = Timing(rayStartMS).p50
        let cliStart = Timing(cliStartMS).p50
        let net = (cli.p50 - cliStart) / max(1, timing.p50 - rayStart)
        note.append(
            String(
                format: "one image alone: Ray %.1f s, the CLI %.2f s; net of that start %.2f×", rayStart / 1e3,
                cliStart / 1e3, net))
    }
    note.append("same text as the CLI: \(n - mismatched.count)/\(n)")
    result.note = note.joined(separator: "; ")
    return result
}

extension BenchRow {
    /// A row of one case over the clean folders, measured by a program beside the bench through
    /// a venv: skipped with `missing`'s reason (given the frameocr beside the bench, if any);
    /// `measure(run, frameocr, scratch)` nil when there is no clean folder under the data.
    static func cleanFolders(
        _ id: String, missing: @escaping @Sendable (_ root: String, _ frameocr: String?) -> String?,
        measure: @escaping @Sendable (BenchRun, String, String) throws -> CaseResult?
    ) -> BenchRow {
        BenchRow(
            name: id, needs: .scratch, cases: { _ in [Case(id: id, recognizes: true)] },
            measure: { run, _, scratch in
                let frameocr = CommandLineBench.frameocrBesideBench()
                if let why = missing(run.root, frameocr) {
                    print("\(id): skipped: \(why)")
                    return
                }
                if let frameocr, let scratch, let r = try measure(run, frameocr, scratch) {
                    run.report(r)
                } else {
                    print(
                        "\(id): no clean folder (tesseract-test, uw3-lines, pytesseract, tesseract-js) under \(run.data)"
                    )
                }
            })
    }

    /// The Ray row: whole runs of Ray Data, the CLI and the command.
    static let ray = BenchRow.cleanFolders(rayId, missing: rayMissing) { run, frameocr, scratch in
        try measureRay(
            data: run.data, root: run.root, frameocr: frameocr, runs: run.options.recognitionRuns, scratch: scratch)
    }
}
