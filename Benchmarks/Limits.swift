import Foundation
import FrameOCR

// The `limit-png` row (issue 15's target: a PNG header claiming 60000×60000 gets the typed error
// in under 50 ms with under 10 MB allocated). FrameOCR's side is `PixelBuffer(encoded:)` on the
// fixture's bytes, which must throw `imageTooLarge`; there is no OpenCV baseline: OpenCV's own
// answer to the same bytes is an assertion from `cv::imdecode` (CV_IO_MAX_IMAGE_PIXELS), and the
// benchmark links no imgcodecs of its own.

let limitId = "limit-png/cpu/60000x60000"

/// Times the refusal of `Tests/FrameOCRTests/Fixtures/limits/png-60000x60000.png`, `runs` times
/// after at least one warm-up call (the first loads libFrameOCRMedia), and counts the bytes each
/// timed call allocates.
func measureImageLimit(root: String, warmup: Int, runs: Int) throws -> CaseResult {
    let path = root + "/Tests/FrameOCRTests/Fixtures/limits/png-60000x60000.png"
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    var message = ""
    let refuse = {
        do {
            _ = try PixelBuffer(encoded: bytes)
            throw BenchError("\(path): decoded; it must be refused")
        } catch let e as FrameOCRError where e.code == .imageTooLarge {
            message = e.message
        }
    }
    var sides = [Side(body: refuse)]
    try measureInterleaved(&sides, warmup: max(1, warmup), runs: runs)
    let t = Timing(sides[0].samples)
    var r = CaseResult(
        spec: CaseSpec(name: "limit-png", backend: "cpu", width: 60000, height: 60000, kind: "limit"), runs: runs,
        ms: t)
    r.allocationsPerFrame = Allocations.active ? Double(sides[0].allocations) / Double(runs) : nil
    let most = Double(sides[0].maxAllocatedBytes)
    let mb = String(format: "%.1f kB", most / 1e3)
    r.note =
        "PixelBuffer(encoded:) of a 69-byte PNG whose IHDR claims 60000x60000: \"\(message)\"; "
        + String(format: "p50 %.3f ms, max %.3f ms", t.p50, t.max)
        + (Allocations.active ? ", at most \(mb) allocated by one call" : "")
        + "; target < 50 ms and < 10 MB: "
        + (t.max < 50 && (!Allocations.active || most < 10e6) ? "met" : "not met")
    return r
}

extension BenchRow {
    /// The size-limit row: cheap (a 69-byte header refused), so --quick keeps it.
    static let imageLimit = BenchRow(
        name: limitId, cases: { _ in [Case(id: limitId, recognizes: false)] },
        measure: { run, _, _ in
            run.report(
                try measureImageLimit(root: run.root, warmup: run.options.warmupCount, runs: run.options.runCount))
        })
}
