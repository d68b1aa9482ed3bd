import Foundation

// The Python row (`python-clean/cpu/batch`, `kind` "python"): the Python package
// (integrations/python, docs/python.md) on the clean corpus folders, from numpy arrays, with
// 2 workers, measured by `integrations/python/bench/bench_python.py` in the venv `make
// python-test` builds (.build/python/venv), all sides in the same run, interleaved round by
// round by the script:
//   - the package from arrays against `frameocr recognize --from LIST --jobs 2` (the baseline: the
//     ratio is its time over the package's, so ≥ 1 means the package is as fast), text image by
//     image against the CLI's;
//   - the package from PNG files encoded in Python (the cost of encoding against raw frames);
//   - pytesseract (`image_to_string` on the same arrays, one call at a time) and tesserocr (2
//     threads, the peer venv of `make tesserocr`), each with the same PSM;
//   - one 1080p BGRA frame sent raw against PNG.
// FrameOCR with its defaults (automatic preprocessing); the peers with `--psm 6`. Issue 30's
// targets: ≥ 0.95× the CLI, ≥ 3× pytesseract, the same text. Only when `make python-test` has
// built the venv; otherwise the row says why it is missing.

let pythonId = "python-clean/cpu/batch"

/// Measures the Python row; nil when the script finds no clean images under `data`.
/// - Throws: ``BenchError`` when the script fails or its JSON cannot be read.
func measurePython(data: String, root: String, frameocr: String, runs: Int, scratch: String) throws -> CaseResult? {
    let python = root + "/.build/python/venv/bin/python"
    let script = root + "/integrations/python/bench/bench_python.py"
    let out = scratch + "/python-bench.json"
    var environment = ProcessInfo.processInfo.environment
    environment["OMP_THREAD_LIMIT"] = "1"
    _ = try spawnAndWait(
        [python, script, "--data", data, "--frameocr", frameocr, "--runs", String(runs), "--json", out],
        environment: environment)
    guard let bytes = FileManager.default.contents(atPath: out),
        let report = try JSONSerialization.jsonObject(with: bytes) as? [String: Any]
    else { throw BenchError("\(pythonId): no JSON from \(script)") }
    let n = report["images"] as? Int ?? 0
    guard n > 0, let package = report["package"] as? [String: Any], let cli = report["cli"] as? [String: Any] else {
        return nil
    }
    func ms(_ side: [String: Any]?) -> [Double] { (side?["runsSeconds"] as? [Double] ?? []).map { $0 * 1000 } }
    var result = CaseResult.againstCLI(
        name: "python-clean", kind: "python", runs: runs, ms: ms(package), cliMS: ms(cli),
        images: [String](repeating: "", count: n), mismatched: package["mismatched"] as? [String] ?? [])
    let packageRate = package["imagesPerSecond"] as? Double ?? 0
    var note = [
        String(
            format: "%d images (tesseract-test, uw3-lines, pytesseract, tesseract-js) from numpy arrays, 2 workers:"
                + " the package %.2f images/s, the CLI --jobs 2 %.2f images/s (%.2f×; target ≥ 0.95×)", n,
            packageRate, cli["imagesPerSecond"] as? Double ?? 0, result.ratios.vsBaseline ?? 0)
    ]
    var others: [BaselineResult] = []
    for (key, name) in [
        ("packagePNG", "the package from PNG"), ("pytesseract", "pytesseract image_to_string"),
        ("tesserocr", "tesserocr, 2 threads"),
    ] {
        guard let side = report[key] as? [String: Any], let rate = side["imagesPerSecond"] as? Double else {
            if let why = (report[key] as? [String: Any])?["missing"] as? String { note.append("\(name): \(why)") }
            continue
        }
        others.append(BaselineResult(name: name, ms: Timing(ms(side)), imagesPerSecond: rate))
        note.append(
            String(format: "%@ %.2f images/s (the package %.2f× it)", name, rate, packageRate / max(rate, 1e-9)))
    }
    result.otherBaselines = others
    if let frame = report["frame1080p"] as? [String: Any], let raw = frame["rawMs"] as? Double,
        let png = frame["pngMs"] as? Double
    {
        note.append(
            String(
                format: "a 1080p BGRA frame: raw %.0f ms, PNG %.0f ms (%.0f ms of it encoding)", raw, png,
                frame["pngEncodeMs"] as? Double ?? 0))
    }
    note.append("same text as the CLI: \(result.text?.matches ?? 0)/\(n)")
    result.note = note.joined(separator: "; ")
    return result
}

extension BenchRow {
    /// The Python row: the package from arrays against the CLI and the Python peers.
    static let python = BenchRow.cleanFolders(
        pythonId,
        missing: { root, frameocr in
            if frameocr == nil { return "no frameocr beside this executable" }
            if !FileManager.default.isExecutableFile(atPath: root + "/.build/python/venv/bin/python") {
                return "no Python package venv (make python-test builds .build/python/venv)"
            }
            return nil
        },
        measure: { run, frameocr, scratch in
            try measurePython(
                data: run.data, root: run.root, frameocr: frameocr, runs: run.options.recognitionRuns,
                scratch: scratch)
        })
}
