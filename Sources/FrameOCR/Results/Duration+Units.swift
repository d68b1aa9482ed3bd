/// A `Duration` as a plain number, for reports, metrics and JSON. FrameOCR's API speaks
/// `Duration` (every timing in ``StageTimings``, ``LatencyHistogram``, ``FrameProcessor/Statistics``);
/// these give the number of milliseconds or seconds it holds, exactly as far as a `Double` can
/// (about 15 significant digits: nanoseconds are exact up to about 100 days).
extension Duration {
    /// The duration in milliseconds (`.milliseconds(12) + .microseconds(500)` → 12.5).
    public var milliseconds: Double {
        let c = components
        return Double(c.seconds) * 1e3 + Double(c.attoseconds) / 1e15
    }

    /// The duration in seconds (`.milliseconds(1500)` → 1.5).
    public var seconds: Double {
        let c = components
        return Double(c.seconds) + Double(c.attoseconds) / 1e18
    }

    /// The duration in nanoseconds, as a `Double`.
    var nanoseconds: Double {
        let c = components
        return Double(c.seconds) * 1e9 + Double(c.attoseconds) / 1e9
    }
}
