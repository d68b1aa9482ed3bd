import Foundation
import FrameOCRTestSupport
import LiveTestSupport
import Synchronization
import Testing

@testable import FrameOCR

@Suite("LatencyHistogram")
struct LatencyHistogramTests {
    @Test("Percentiles within one bucket (±4.5 %); min, max, mean exact")
    func percentiles() {
        var h = LatencyHistogram()
        for ms in 1...1000 { h.record(.milliseconds(ms)) }
        #expect(h.count == 1000)
        #expect(h.min == .milliseconds(1) && h.max == .milliseconds(1000))
        #expect(abs(h.mean.seconds - 0.5005) < 1e-9)
        for (p, expected) in [(0.5, 0.5), (0.9, 0.9), (0.99, 0.99)] {
            let got = h.percentile(p).seconds
            #expect(abs(got - expected) / expected < 0.045, "p\(p): \(got)")
        }
        #expect(h.percentile(1) == .milliseconds(1000))
        #expect(LatencyHistogram().percentile(0.5) == .zero)
    }

    @Test("Merging two histograms equals recording into one")
    func merge() {
        var a = LatencyHistogram()
        var b = LatencyHistogram()
        var all = LatencyHistogram()
        for us in stride(from: 10, to: 100_000, by: 37) {
            let d = Duration.microseconds(us)
            if us % 2 == 0 { a.record(d) } else { b.record(d) }
            all.record(d)
        }
        a.merge(b)
        #expect(a == all)
    }

    @Test("count(atMost:): cumulative, exact at min and max, within a bucket elsewhere; sum exact")
    func cumulative() {
        var h = LatencyHistogram()
        for ms in 1...1000 { h.record(.milliseconds(ms)) }
        #expect(h.sum == .milliseconds(500_500))
        #expect(h.count(atMost: .microseconds(999)) == 0)
        #expect(h.count(atMost: .milliseconds(1000)) == 1000 && h.count(atMost: .seconds(5)) == 1000)
        var previous: UInt64 = 0
        for ms in stride(from: 1, through: 1000, by: 7) {
            let n = h.count(atMost: .milliseconds(ms))
            #expect(n >= previous, "not cumulative at \(ms) ms")
            // One sample per millisecond: within a bucket (±9 %) of the true count.
            #expect(abs(Double(n) - Double(ms)) <= 0.09 * Double(ms) + 1, "\(ms) ms: \(n)")
            previous = n
        }
        #expect(LatencyHistogram().count(atMost: .seconds(1)) == 0 && LatencyHistogram().sum == .zero)
    }
}
