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
