/// A latency histogram with logarithmic buckets: constant memory (one fixed array), any number
/// of samples, percentiles within ±4.5 % (8 buckets per doubling) and exact min, max and mean.
///
/// Buckets cover 1 µs … ~4.6 hours; values outside are clamped into the first or last bucket
/// (min and max stay exact).
public struct LatencyHistogram: Sendable, Hashable {
    static let subBuckets = 8.0
    static let bucketCount = 8 * 34  // 2^34 µs ≈ 4.8 h

    private var counts = [UInt64](repeating: 0, count: LatencyHistogram.bucketCount)
    public private(set) var count: UInt64 = 0
    public private(set) var min: Duration = .zero
    public private(set) var max: Duration = .zero
    private var sumNanoseconds: Double = 0

    public init() {}

    /// Adds one sample (negative durations count as zero).
    public mutating func record(_ d: Duration) {
        let d = d < .zero ? .zero : d
        counts[Self.bucket(for: d)] += 1
        if count == 0 || d < min { min = d }
        if count == 0 || d > max { max = d }
        count += 1
        sumNanoseconds += d.nanoseconds
    }

    /// The mean, or zero without samples.
    public var mean: Duration { count == 0 ? .zero : .nanoseconds(Int64(sumNanoseconds / Double(count))) }

    /// The `p`-th percentile (p in 0…1, e.g. 0.99): the geometric middle of the bucket that holds
    /// it, clamped to [min, max]. Zero without samples.
    public func percentile(_ p: Double) -> Duration {
        guard count > 0 else { return .zero }
        let rank = Swift.max(1, UInt64((Swift.min(Swift.max(p, 0), 1) * Double(count)).rounded(.up)))
        var seen: UInt64 = 0
        for (i, c) in counts.enumerated() where c > 0 {
            seen += c
            if seen >= rank {
                let mid = Duration.nanoseconds(Int64(1000 * pow2((Double(i) + 0.5) / Self.subBuckets)))
                return Swift.min(Swift.max(mid, min), max)
            }
        }
        return max
    }

    /// The sum of every sample (for a Prometheus histogram's `_sum`); zero without samples.
    public var sum: Duration { .nanoseconds(Int64(sumNanoseconds)) }

    /// How many samples are at most `bound` (a Prometheus histogram's cumulative bucket `le`):
    /// the samples of every bucket that ends at or below `bound`, and of the bucket that holds
    /// it as far as `bound` lies inside it in log scale (spread evenly over the bucket, within
    /// ±4.5 %); all samples from ``max`` up, none below ``min``.
    public func count(atMost bound: Duration) -> UInt64 {
        guard count > 0, bound >= min else { return 0 }
        if bound >= max { return count }
        let micros = bound.nanoseconds / 1000
        guard micros > 1 else { return counts[0] }
        let position = log2(micros) * Self.subBuckets
        let whole = Swift.min(Self.bucketCount - 1, Int(position))
        var total: UInt64 = 0
        for i in 0..<whole { total += counts[i] }
        let fraction = position - Double(whole)
        return total + UInt64((Double(counts[whole]) * fraction).rounded(.down))
    }

    /// Adds every sample of `other`.
    public mutating func merge(_ other: LatencyHistogram) {
        guard other.count > 0 else { return }
        for i in counts.indices { counts[i] += other.counts[i] }
        min = count == 0 ? other.min : Swift.min(min, other.min)
        max = Swift.max(max, other.max)
        count += other.count
        sumNanoseconds += other.sumNanoseconds
    }

    static func bucket(for d: Duration) -> Int {
        let micros = d.nanoseconds / 1000
        guard micros > 1 else { return 0 }
        return Swift.min(bucketCount - 1, Int(log2(micros) * subBuckets))
    }
}

private func pow2(_ x: Double) -> Double { exp2(x) }

#if canImport(Glibc)
    import Glibc
#endif
