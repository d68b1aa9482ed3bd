import Foundation
import FrameOCR

// What the batch rows share (recognition sets, documents, scenes): the order images are taken
// in (the threads that take them are FrameOCREvaluation's JobLoop), and the row built from one
// side's samples.

/// The images' sizes (pixels, decoded once) and their indices largest first (ties in file
/// order), so that the last image to finish is a small one and the threads end together.
/// - Throws: ``FrameOCRError`` when a file cannot be decoded.
func largestFirst(_ files: [String]) throws -> (order: [Int], pixels: [Int]) {
    var sizes: [Int] = []
    for f in files {
        let b = try PixelBuffer(contentsOfFile: f)
        sizes.append(b.width * b.height)
    }
    return (files.indices.sorted { sizes[$0] != sizes[$1] ? sizes[$0] > sizes[$1] : $0 < $1 }, sizes)
}

extension CaseResult {
    /// A batch row (`size` "batch"): FrameOCR's side timed `ms` over `runs` rounds of `images`
    /// images (`pixels` in all) on `jobs` threads, with `allocations` heap allocations in all.
    static func batch(
        name: String, kind: String, runs: Int, ms: Timing, images: Int, pixels: Int, jobs: Int, allocations: UInt64
    ) -> CaseResult {
        var r = CaseResult(
            spec: CaseSpec(name: name, backend: "cpu", width: 0, height: 0, kind: kind, sizeLabel: "batch"),
            runs: runs, ms: ms)
        r.images = images
        r.jobs = jobs
        r.megapixelsPerSecond = Double(pixels) / 1e6 / (ms.p50 / 1e3)
        r.imagesPerSecond = Double(images) / (ms.p50 / 1e3)
        r.allocationsPerFrame = Double(allocations) / Double(runs * images)
        return r
    }
}

extension CaseResult {
    /// A whole-run row against `frameocr recognize --jobs 2` on the same `images` (the Ray and HTTP
    /// rows): this side timed `ms`, the CLI `cliMS`, over `runs` rounds; the text check from the
    /// images whose text differed from the CLI's.
    static func againstCLI(
        name: String, kind: String, runs: Int, ms: [Double], cliMS: [Double], images: [String], mismatched: [String]
    ) -> CaseResult {
        let n = images.count
        let timing = Timing(ms)
        var result = CaseResult.batch(
            name: name, kind: kind, runs: runs, ms: timing, images: n, pixels: 0, jobs: 2, allocations: 0)
        result.megapixelsPerSecond = nil
        result.allocationsPerFrame = nil
        let cli = Timing(cliMS)
        result.baseline = BaselineResult(
            name: "frameocr recognize --jobs 2", ms: cli, imagesPerSecond: Double(n) / (cli.p50 / 1e3))
        result.ratios.vsBaseline = cli.p50 / timing.p50
        result.text = TextCheck(
            images: n, matches: n - mismatched.count, ratio: Double(n - mismatched.count) / Double(n),
            mismatched: mismatched.map { ($0 as NSString).lastPathComponent })
        return result
    }
}

/// The `text` of each row of a JSON Lines file, by the row's `key` (a file's path).
/// - Throws: ``BenchError`` when the file is missing.
func jsonlTexts(_ path: String, key: String) throws -> [String: String] {
    guard let data = FileManager.default.contents(atPath: path) else { throw BenchError("no \(path)") }
    var byFile: [String: String] = [:]
    for line in data.split(separator: UInt8(ascii: "\n")) {
        guard let row = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
            let file = row[key] as? String
        else { continue }
        byFile[file] = row["text"] as? String
    }
    return byFile
}
