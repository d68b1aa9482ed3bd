import Foundation
import FrameOCR

// frameocr-bench — side-by-side timings of the preprocessing chain on each backend.
//
// The first case set of the benchmark harness (issue 5 grows it): a 1920×1080 BGRA frame →
// gray → crop → rotate → adaptive threshold, run
//   opencv-steps  cv::cvtColor → cv::rotate → cv::adaptiveThreshold, one call each (the baseline)
//   cpu           the CPU pipeline (OpenCV calls through the shim into pooled buffers)
//   fused-cpu     the experimental fused CPU chain (focr_fast_preprocess)
//   opencl-steps  our OpenCL kernels one by one, each result mapped back to host memory
//   opencl-fused  the fused OpenCL chain (one round trip)
// in the same process, interleaved round by round, reporting median/p90/max and ratios to cpu.
// Build in release mode: `swift build -c release --product frameocr-bench`.

#if DEBUG
FileHandle.standardError.write(Data("warning: frameocr-bench built in debug mode; timings are not representative (use -c release)\n".utf8))
#endif

var runs = 30
var width = 1920, height = 1080
var args = CommandLine.arguments.dropFirst()
while let a = args.popFirst() {
    switch a {
    case "--runs": runs = Int(args.popFirst() ?? "") ?? runs
    case "--size":
        let p = (args.popFirst() ?? "").split(separator: "x").compactMap { Int($0) }
        if p.count == 2 { (width, height) = (p[0], p[1]) }
    case "--help":
        print("Usage: frameocr-bench [--runs N] [--size WxH]")
        exit(0)
    default:
        FileHandle.standardError.write(Data("unknown argument \(a)\n".utf8))
        exit(2)
    }
}

// A synthetic page-like frame, stride padded past the row.
let stride = width * 4 + 64
let memory = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 64)
let bytes = memory.assumingMemoryBound(to: UInt8.self)
for y in 0..<height {
    for x in 0..<width {
        let v = UInt8(((x / 3 + y / 5) % 7 == 0) ? 40 : 150 + (x + 2 * y) % 80)
        for c in 0..<4 { bytes[y * stride + x * 4 + c] = c == 3 ? 255 : v &+ UInt8(c * 3) }
    }
}
let frame = try PixelBuffer(wrapping: memory, byteCount: stride * height, width: width, height: height, bytesPerRow: stride,
                            pixelFormat: .bgra8, orientation: .right, deallocator: { $0.deallocate() })
let region = RegionOfInterest.normalized(Rect(x: 0.05, y: 0.05, width: 0.9, height: 0.9))
let threshold = AdaptiveThreshold(method: .mean, blockSize: 31, c: 10)
let pool = PixelBufferPool(capacity: 16)
let cpu = Pipeline(region: region, threshold: threshold, backend: .cpu)
let fused = Pipeline(region: region, threshold: threshold, backend: .openCL())

let context = try OpenCLRuntime.shared.context(named: nil)
let transform = try cpu.run(frame, pool: pool).transform
let rawRect = transform.rawRect(fromUpright: transform.region)
let (uw, uh) = (transform.region.width, transform.region.height)
let gray = try PixelBuffer(width: rawRect.width, height: rawRect.height, pixelFormat: .gray8)
let upright = try PixelBuffer(width: uw, height: uh, pixelFormat: .gray8)
let binary = try PixelBuffer(width: uw, height: uh, pixelFormat: .gray8)

func steps() throws {
    let view = try frame.cropped(to: rawRect)
    try context.convertToGray(view, into: gray)
    try context.orient(gray, .right, into: upright)
    try context.adaptiveThreshold(upright, threshold, into: binary)
}

// Same output from all three before timing anything.
let reference = try cpu.run(frame, pool: pool).image.packedBytes()
try steps()
precondition(binary.packedBytes() == reference, "opencl-steps differs from cpu")
let fusedBytes = try fused.run(frame, pool: pool).image.packedBytes()
precondition(fusedBytes == reference, "opencl-fused differs from cpu")

/// The same chain as separate OpenCV calls (cv::cvtColor, cv::rotate, cv::adaptiveThreshold)
/// into pooled buffers: the OpenCV baseline.
func opencvSteps() throws {
    let view = try frame.cropped(to: rawRect)
    let g = try view.convertedToGray(pool: pool)
    let u = try g.applyingOrientation(.right, pool: pool)
    _ = try u.adaptiveThreshold(threshold, pool: pool)
}
let opencvBytes: [UInt8] = try {
    let view = try frame.cropped(to: rawRect)
    return try view.convertedToGray().applyingOrientation(.right).adaptiveThreshold(threshold).packedBytes()
}()
precondition(opencvBytes == reference, "fast cpu path differs from the OpenCV chain")

/// The experimental fused CPU chain (focr_fast_preprocess): not the default yet (see README).
let fusedOut = try PixelBuffer(width: uw, height: uh, pixelFormat: .gray8)
func fusedCPU() throws { try frame.cropped(to: rawRect).fusedPreprocess(orientation: .right, threshold: threshold, into: fusedOut) }
try fusedCPU()
precondition(fusedOut.packedBytes() == reference, "fused-cpu differs from the OpenCV chain")

let cases: [(String, () throws -> Void)] = [
    ("opencv-steps", opencvSteps),
    ("cpu", { _ = try cpu.run(frame, pool: pool) }),
    ("opencl-steps", steps),
    ("fused-cpu", fusedCPU),
    ("opencl-fused", { _ = try fused.run(frame, pool: pool) }),
]
var samples = [[Double]](repeating: [], count: cases.count)
for _ in 0..<3 { for c in cases { try c.1() } }  // warm-up
let clock = ContinuousClock()
for _ in 0..<runs {
    for (i, c) in cases.enumerated() {
        let t0 = clock.now
        try c.1()
        samples[i].append((clock.now - t0).milliseconds)
    }
}
func pct(_ v: [Double], _ p: Double) -> Double { let s = v.sorted(); return s[min(s.count - 1, Int(Double(s.count - 1) * p + 0.5))] }
print("frameocr-bench: \(width)x\(height) BGRA (.right) → gray → crop 90 % → rotate → adaptive mean 31; \(runs) runs, interleaved")
print("device: \(context.device.name) (\(context.device.platform))")
print("case            median ms    p90 ms    max ms   vs opencv-steps")
let base = pct(samples[0], 0.5)
for (i, c) in cases.enumerated() {
    let m = pct(samples[i], 0.5)
    let name = c.0.padding(toLength: 14, withPad: " ", startingAt: 0)
    print(name + String(format: " %10.2f %9.2f %9.2f %7.2fx", m, pct(samples[i], 0.9), samples[i].max()!, base / m))
}
