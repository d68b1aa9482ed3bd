import Foundation

extension Arguments {
    /// A duration option: `40ms`, `0.5s`, `1500us` (or `µs`), `10m`, `1h`, or a bare number of
    /// milliseconds (`250`). Must be at least 1 ns and under 10^18 ns (about 31 years).
    /// - Throws: `UsageError` for anything else.
    func duration(_ name: String) throws(UsageError) -> Duration? {
        guard let v = value(name) else { return nil }
        guard let d = Self.parseDuration(v) else {
            throw UsageError("--\(name): '\(v)' is not a duration (e.g. 40ms, 0.5s, or 250 for milliseconds)")
        }
        return d
    }

    /// Parses `40ms`, `0.5s`, `1500us`/`1500µs`, `10m`, `1h`, or `250` (milliseconds); nil unless finite and at
    /// least 1 ns once rounded to nanoseconds, and under 10^18 ns.
    package static func parseDuration(_ text: String) -> Duration? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(suffix: String, nanoseconds: Double)] = [
            ("ms", 1e6), ("us", 1e3), ("µs", 1e3), ("s", 1e9), ("m", 60e9), ("h", 3600e9),
        ]
        var number = Substring(t)
        var scale = 1e6  // bare numbers are milliseconds
        for unit in units where t.hasSuffix(unit.suffix) {
            number = t.dropLast(unit.suffix.count)
            scale = unit.nanoseconds
            break
        }
        // At least one nanosecond once rounded: `3e-23` is > 0 but no duration (frameocr-fuzz found
        // it made a zero budget).
        guard let value = Double(number.trimmingCharacters(in: .whitespaces)), value.isFinite, value > 0,
            case let nanoseconds = (value * scale).rounded(), nanoseconds >= 1, nanoseconds < 1e18
        else { return nil }
        return .nanoseconds(Int64(nanoseconds))
    }
}
