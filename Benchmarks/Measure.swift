import CAllocationCounter
import Foundation

// Measurement: warm-up, then N rounds in which the case, its OpenCV baseline and the memcpy floor
// run one after another (the order rotates each round), so that drift — thermal, a neighbour on
// the machine, frequency scaling — hits all three alike. Every result is reported as a ratio
// between numbers taken in the same rounds.

/// Milliseconds: percentiles (nearest rank) of a sample set.
struct Timing: Codable, Equatable {
    var p50: Double
    var p90: Double
    var max: Double
    var min: Double
    var mean: Double

    init(_ samples: [Double]) {
        precondition(!samples.isEmpty)
        let s = samples.sorted()
        func pct(_ p: Double) -> Double { s[Swift.min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))] }
        p50 = pct(0.5)
        p90 = pct(0.9)
        max = s.last!
        min = s.first!
        mean = s.reduce(0, +) / Double(s.count)
    }
}

/// Heap allocations of the whole process (all threads) since the counter started: the
/// interposed malloc family of CAllocationCounter (see its header and the README).
enum Allocations {
    static var active: Bool { focr_bench_counting_active() != 0 }
    /// Built under a sanitizer (`make sanitize`), whose runtime owns malloc: nothing is counted.
    static var underSanitizer: Bool { focr_bench_under_sanitizer() != 0 }
    static var count: UInt64 { focr_bench_allocation_count() }
    /// Bytes those allocations asked for.
    static var bytes: UInt64 { focr_bench_allocated_bytes() }
}

/// One side of a measurement: a body to time and where its samples go.
struct Side {
    var body: () throws -> Void
    var samples: [Double] = []
    var allocations: UInt64 = 0
    /// Bytes the timed runs' allocations asked for, in all and in the largest single run.
    var allocatedBytes: UInt64 = 0
    var maxAllocatedBytes: UInt64 = 0
}

/// Runs `sides` interleaved: `warmup` untimed rounds, then `runs` timed rounds.
func measureInterleaved(_ sides: inout [Side], warmup: Int, runs: Int) throws {
    for _ in 0..<warmup { for s in sides { try s.body() } }
    let clock = ContinuousClock()
    for round in 0..<runs {
        for k in 0..<sides.count {
            let i = (k + round) % sides.count
            let a0 = Allocations.count
            let b0 = Allocations.bytes
            let t0 = clock.now
            try sides[i].body()
            let elapsed = clock.now - t0
            sides[i].allocations += Allocations.count - a0
            let bytes = Allocations.bytes - b0
            sides[i].allocatedBytes += bytes
            sides[i].maxAllocatedBytes = max(sides[i].maxAllocatedBytes, bytes)
            sides[i].samples.append(elapsed.milliseconds)
        }
    }
}
