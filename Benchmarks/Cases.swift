import CBaselines
import CFrameOCR
import Foundation
import FrameOCR

// The preprocessing cases. Each runs FrameOCR's public API on one backend, next to its baseline:
// the same work in plain OpenCV (Benchmarks/Baselines/baseline.cpp) and a memcpy of the bytes the
// work must read at least. Frames are synthetic page-like images (text-like strokes on a light
// background), in memory the benchmark owns, planes back to back with tight rows.

/// What a case reports besides its timings.
struct CaseSpec {
    var name: String  // e.g. "chain-bgra"
    var backend: String  // "cpu", "opencl"
    var width: Int
    var height: Int
    var kind = "preprocess"
    /// Replaces `WxH` in the id and the table (recognition: "batch").
    var sizeLabel: String?
    var size: String { sizeLabel ?? "\(width)x\(height)" }
    var id: String { "\(name)/\(backend)/\(size)" }
}

/// A measurable case: built (buffers allocated, outputs checked) only when selected.
struct BenchCase {
    var spec: CaseSpec
    /// The work, one frame.
    var body: () throws -> Void
    /// The plain-OpenCV baseline (nil: none).
    var baselineName: String?
    var baseline: (() throws -> Void)?
    /// Bytes the work must read at least (its memcpy floor copies exactly these), and bytes read + written.
    var memcpyBytes: Int
    var bytesMoved: Int
    /// Pixels of the input frame (for MP/s).
    var pixels: Int
    /// Whether FrameOCR's output equals the baseline's, checked once before timing.
    var sameOutput: Bool?
    var note: String?
}

// MARK: - Frames

/// A frame in memory the benchmark owns: planes back to back, rows `width × bytes per sample`.
final class FrameMemory: @unchecked Sendable {  // immutable after init; the bench writes it only there
    let format: PixelFormat
    let width: Int, height: Int
    let base: UnsafeMutableRawPointer
    let byteCount: Int
    let planeOffsets: [Int]
    let planeStrides: [Int]

    init(format: PixelFormat, width: Int, height: Int, orientation: Orientation = .up) {
        self.format = format
        self.width = width
        self.height = height
        var offsets: [Int] = []
        var strides: [Int] = []
        var total = 0
        for p in 0..<format.planeCount {
            let (w, h) = format.planeSize(p, width: width, height: height)
            let stride = w * format.bytesPerSample(plane: p)
            offsets.append(total)
            strides.append(stride)
            total += stride * h
        }
        planeOffsets = offsets
        planeStrides = strides
        byteCount = total
        base = UnsafeMutableRawPointer.allocate(byteCount: total, alignment: 64)
        fill()
    }

    deinit { base.deallocate() }

    /// Page-like content: dark strokes on a light, slightly varying background; chroma near neutral.
    private func fill() {
        let b = base.assumingMemoryBound(to: UInt8.self)
        for y in 0..<height {
            for x in 0..<width {
                let v = UInt8(((x / 3 + y / 5) % 7 == 0) ? 40 : 150 + (x + 2 * y) % 80)
                switch format {
                case .bgra8, .rgba8:
                    let o = y * planeStrides[0] + x * 4
                    b[o] = v
                    b[o + 1] = v &+ 3
                    b[o + 2] = v &+ 6
                    b[o + 3] = 255
                case .gray8, .nv12, .i420:
                    b[y * planeStrides[0] + x] = v
                default: fatalError("unsupported bench format \(format)")
                }
            }
        }
        if format.planeCount > 1 {
            let start = planeOffsets[1]
            for i in start..<byteCount { b[i] = UInt8(120 + i % 16) }
        }
    }

    /// A zero-copy PixelBuffer over this memory (the memory outlives every buffer: `self` is captured).
    func pixelBuffer(orientation: Orientation = .up) throws -> PixelBuffer {
        let planes = (0..<format.planeCount).map {
            PixelBuffer.PlaneDescriptor(baseAddress: base + planeOffsets[$0], bytesPerRow: planeStrides[$0])
        }
        return try PixelBuffer(
            wrapping: planes, width: width, height: height, pixelFormat: format, orientation: orientation,
            deallocator: { [self] _ in _ = self })
    }
}

/// Calls a plain-OpenCV baseline (CBaselines) with the descriptors of `src` and `dst`
/// (``PixelBuffer/withUnsafeImageDescriptor(_:)``: valid for the call, the buffers kept alive) and
/// throws its failure with the baselines' own message.
func callBaseline(
    _ src: PixelBuffer, _ dst: PixelBuffer, _ what: String,
    _ call: (UnsafeMutablePointer<focr_image>, UnsafeMutablePointer<focr_image>) -> focr_status
) throws {
    try check(src.withUnsafeImageDescriptor { s in dst.withUnsafeImageDescriptor { d in call(s, d) } }, what)
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// Throws for a baseline call (CBaselines) that failed, with the baselines' own message.
func check(_ status: focr_status, _ what: String) throws {
    guard status == FOCR_OK else { throw BenchError("\(what): \(String(cString: focr_baseline_last_error()))") }
}

// MARK: - Case catalogue

/// Fixed parameters of every case (the issue's: centred 80 % region, `.right`, block 31, C 10).
enum Params {
    static let region = RegionOfInterest.normalized(Rect(x: 0.1, y: 0.1, width: 0.8, height: 0.8))
    static let orientation = Orientation.right
    static let rotateCode: Int32 = 0  // cv::ROTATE_90_CLOCKWISE: what `.right` means
    static let mean = AdaptiveThreshold(method: .mean, blockSize: 31, c: 10)
    static let gaussian = AdaptiveThreshold(method: .gaussian, blockSize: 31, c: 10)
}

/// The case names per backend, in report order.
func preprocessingSpecs(width: Int, height: Int, openCL: Bool) -> [CaseSpec] {
    let cpu = [
        "gray-bgra", "gray-rgba", "gray-nv12", "gray-i420", "crop-bgra", "rotate-gray", "threshold-mean31",
        "threshold-gauss31", "chain-bgra", "chain-nv12", "chain-i420",
    ]
    // OpenCL: NV12/I420 gray is the Y plane used in place (nothing to run); a crop is an offset.
    let cl = [
        "gray-bgra", "gray-rgba", "rotate-gray", "threshold-mean31", "threshold-gauss31", "chain-bgra", "chain-nv12",
        "chain-i420",
    ]
    var specs = cpu.map { CaseSpec(name: $0, backend: "cpu", width: width, height: height) }
    // The fused CPU chain called directly (PixelBuffer.fusedPreprocess on a region view), without
    // the Pipeline's planning and pool: what the `cpu` rows run inside Pipeline.run.
    specs += ["chain-bgra", "chain-nv12", "chain-i420"].map {
        CaseSpec(name: $0, backend: "cpu-fused", width: width, height: height)
    }
    if openCL { specs += cl.map { CaseSpec(name: $0, backend: "opencl", width: width, height: height) } }
    return specs
}

/// Builds a case: allocates its buffers, runs FrameOCR and the baseline once and compares outputs.
func makePreprocessingCase(_ spec: CaseSpec, context: OpenCLContext?) throws -> BenchCase {
    let (w, h) = (spec.width, spec.height)
    let cl = spec.backend == "opencl" ? context : nil
    if spec.backend == "opencl", cl == nil { throw BenchError("no OpenCL context") }
    let pixels = w * h
    let pool = PixelBufferPool(capacity: 16)

    func formatOf(_ suffix: Substring) -> PixelFormat {
        switch suffix {
        case "bgra": .bgra8
        case "rgba": .rgba8
        case "nv12": .nv12
        case "i420": .i420
        default: .gray8
        }
    }
    let parts = spec.name.split(separator: "-")
    let op = parts[0]

    switch op {
    case "gray":
        let memory = FrameMemory(format: formatOf(parts[1]), width: w, height: h)
        let frame = try memory.pixelBuffer()
        let out = try PixelBuffer(width: w, height: h, pixelFormat: .gray8)
        let expected = try PixelBuffer(width: w, height: h, pixelFormat: .gray8)
        let baseline = { try callBaseline(frame, expected, "baseline gray") { focr_baseline_gray($0, $1) } }
        let body: () throws -> Void
        var note: String?
        var result: () throws -> PixelBuffer
        if let cl {
            body = { try cl.convertToGray(frame, into: out) }
            result = { out }
        } else if frame.pixelFormat.isYCbCr {
            body = { _ = try frame.convertedToGray() }
            result = { try frame.convertedToGray() }
            note = "FrameOCR returns the Y plane as a view (no copy); OpenCV's cvtColor copies it"
        } else {
            body = { _ = try frame.convertedToGray(into: out) }
            result = { out }
        }
        try baseline()
        try body()
        let same = try result().packedBytes() == expected.packedBytes()
        return BenchCase(
            spec: spec, body: body, baselineName: "cv::cvtColor", baseline: baseline,
            memcpyBytes: frame.pixelFormat.isYCbCr ? pixels : pixels * 4,
            bytesMoved: frame.pixelFormat.isYCbCr ? 2 * pixels : 5 * pixels, pixels: pixels, sameOutput: same,
            note: note)

    case "crop":
        let memory = FrameMemory(format: .bgra8, width: w, height: h)
        let frame = try memory.pixelBuffer()
        let rect = try Params.region.resolve(width: w, height: h).rect
        let out = try PixelBuffer(width: rect.width, height: rect.height, pixelFormat: .bgra8)
        let expected = try PixelBuffer(width: rect.width, height: rect.height, pixelFormat: .bgra8)
        let baseline = {
            try callBaseline(frame, expected, "baseline crop") {
                focr_baseline_crop($0, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height), $1)
            }
        }
        let body = { _ = try frame.cropped(to: rect).copy(into: out) }
        try baseline()
        try body()
        let bytes = rect.width * rect.height * 4
        return BenchCase(
            spec: spec, body: body, baselineName: "Mat(roi).copyTo", baseline: baseline, memcpyBytes: bytes,
            bytesMoved: 2 * bytes, pixels: pixels, sameOutput: out.packedBytes() == expected.packedBytes(),
            note: "materialized crop (a view, then copy(into:)); the pipeline itself crops as a view, no copy")

    case "rotate":
        let memory = FrameMemory(format: .gray8, width: w, height: h)
        let gray = try memory.pixelBuffer()
        let out = try PixelBuffer(width: h, height: w, pixelFormat: .gray8)
        let expected = try PixelBuffer(width: h, height: w, pixelFormat: .gray8)
        let baseline = {
            try callBaseline(gray, expected, "baseline rotate") { focr_baseline_rotate($0, Params.rotateCode, $1) }
        }
        let body: () throws -> Void =
            cl.map { cl in { try cl.orient(gray, Params.orientation, into: out) } }
            ?? { _ = try gray.applyingOrientation(Params.orientation, into: out) }
        try baseline()
        try body()
        return BenchCase(
            spec: spec, body: body, baselineName: "cv::rotate", baseline: baseline, memcpyBytes: pixels,
            bytesMoved: 2 * pixels, pixels: pixels, sameOutput: out.packedBytes() == expected.packedBytes())

    case "threshold":
        let t = parts[1].hasPrefix("gauss") ? Params.gaussian : Params.mean
        let memory = FrameMemory(format: .gray8, width: w, height: h)
        let gray = try memory.pixelBuffer()
        let out = try PixelBuffer(width: w, height: h, pixelFormat: .gray8)
        let expected = try PixelBuffer(width: w, height: h, pixelFormat: .gray8)
        let method = Int32(t.method == .mean ? FOCR_THRESHOLD_MEAN.rawValue : FOCR_THRESHOLD_GAUSSIAN.rawValue)
        let baseline = {
            try callBaseline(gray, expected, "baseline threshold") {
                focr_baseline_threshold($0, method, Int32(t.blockSize), t.c, $1)
            }
        }
        let body: () throws -> Void =
            cl.map { cl in { try cl.adaptiveThreshold(gray, t, into: out) } }
            ?? { _ = try gray.adaptiveThreshold(t, into: out) }
        try baseline()
        try body()
        return BenchCase(
            spec: spec, body: body, baselineName: "cv::adaptiveThreshold", baseline: baseline, memcpyBytes: pixels,
            bytesMoved: 2 * pixels, pixels: pixels, sameOutput: out.packedBytes() == expected.packedBytes())

    case "chain":
        let format = formatOf(parts[1])
        let memory = FrameMemory(format: format, width: w, height: h)
        let frame = try memory.pixelBuffer(orientation: Params.orientation)
        let pipeline = Pipeline(region: Params.region, threshold: Params.mean, backend: cl == nil ? .cpu : .openCL())
        let first = try pipeline.run(frame, pool: pool)
        let raw = first.transform.rawRect(fromUpright: first.transform.region)
        let expected = try PixelBuffer(width: first.image.width, height: first.image.height, pixelFormat: .gray8)
        let t = Params.mean
        let baseline = {
            try callBaseline(frame, expected, "baseline chain") {
                focr_baseline_chain(
                    $0, Int32(raw.x), Int32(raw.y), Int32(raw.width), Int32(raw.height), Params.rotateCode,
                    Int32(FOCR_THRESHOLD_MEAN.rawValue), Int32(t.blockSize), t.c, $1)
            }
        }
        try baseline()
        let same = first.image.packedBytes() == expected.packedBytes()
        let inBytes = raw.width * raw.height * (format == .bgra8 ? 4 : 1)
        let outBytes = raw.width * raw.height
        var body: () throws -> Void = { _ = try pipeline.run(frame, pool: pool) }
        var output = first.image
        if spec.backend == "cpu-fused" {
            let view = try (format.isYCbCr ? frame.lumaPlane() : frame).cropped(to: raw)
            let out = try PixelBuffer(width: first.image.width, height: first.image.height, pixelFormat: .gray8)
            body = { try view.fusedPreprocess(orientation: Params.orientation, threshold: t, into: out) }
            try body()
            output = out
        }
        let sameOutput = output.packedBytes() == expected.packedBytes()
        return BenchCase(
            spec: spec, body: body, baselineName: "OpenCV chain",
            baseline: baseline, memcpyBytes: inBytes, bytesMoved: inBytes + outBytes, pixels: pixels,
            sameOutput: sameOutput && same,
            note: format == .bgra8 ? nil : "gray is the Y plane in place on both sides")

    default:
        throw BenchError("unknown case \(spec.name)")
    }
}

extension BenchRow {
    /// The preprocessing cases: every step and the chain at each size (`--sizes`) on each
    /// backend, each against plain OpenCV and a memcpy of its input bytes, interleaved round by
    /// round.
    static let preprocessing = BenchRow(
        name: "preprocessing",
        cases: { run in run.preprocessingCases.map { Case(id: $0.id, recognizes: false) } },
        measure: { run, selected, _ in
            for spec in run.preprocessingCases where selected.contains(spec.id) { measurePreprocessing(spec, in: run) }
        })
}

extension BenchRun {
    /// The preprocessing cases at every size of the run.
    var preprocessingCases: [CaseSpec] {
        options.sizeList.flatMap { preprocessingSpecs(width: $0.0, height: $0.1, openCL: !devices.isEmpty) }
    }
}

/// Measures one preprocessing case (a failure is reported and counted).
func measurePreprocessing(_ spec: CaseSpec, in run: BenchRun) {
    let (runCount, warmupCount) = (run.options.runCount, run.options.warmupCount)
    do {
        let c = try makePreprocessingCase(spec, context: run.context)
        let memcpySize = c.memcpyBytes
        let from = UnsafeMutableRawPointer.allocate(byteCount: memcpySize, alignment: 64)
        let to = UnsafeMutableRawPointer.allocate(byteCount: memcpySize, alignment: 64)
        defer {
            from.deallocate()
            to.deallocate()
        }
        memset(from, 7, memcpySize)
        var sides = [Side(body: c.body)]
        if let b = c.baseline { sides.append(Side(body: b)) }
        sides.append(Side(body: { memcpy(to, from, memcpySize) }))
        try measureInterleaved(&sides, warmup: warmupCount, runs: runCount)
        let t = Timing(sides[0].samples)
        var r = CaseResult(spec: spec, runs: runCount, ms: t)
        r.megapixelsPerSecond = Double(c.pixels) / 1e6 / (t.p50 / 1e3)
        r.bytesMoved = c.bytesMoved
        r.gigabytesPerSecond = Double(c.bytesMoved) / 1e9 / (t.p50 / 1e3)
        r.allocationsPerFrame = Allocations.active ? Double(sides[0].allocations) / Double(runCount) : nil
        if c.baseline != nil, let name = c.baselineName {
            let b = Timing(sides[1].samples)
            r.baseline = BaselineResult(
                name: name, ms: b,
                allocationsPerFrame: Allocations.active ? Double(sides[1].allocations) / Double(runCount) : nil)
            r.ratios.vsBaseline = b.p50 / t.p50
        }
        let m = Timing(sides[sides.count - 1].samples)
        r.memcpy = MemcpyResult(
            bytes: memcpySize, ms: m, gigabytesPerSecond: 2 * Double(memcpySize) / 1e9 / (m.p50 / 1e3))
        r.ratios.vsMemcpy = t.p50 / m.p50
        r.sameOutput = c.sameOutput
        r.note = c.note
        run.report(r)
    } catch {
        run.failed(spec.id, error)
    }
}
