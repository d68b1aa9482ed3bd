import Foundation
import FrameOCR

/// The end-of-run report of `frameocr video`: a latency table for people, JSON for machines.
enum VideoReport {
    /// Per stage p50/p90/p99/max in milliseconds (stages that never took time are left out),
    /// then frame counts, achieved frames per second and the queue's high-water mark.
    static func table(_ s: FrameProcessor.Statistics, sourceFrameRate: Double, delivered: Int) -> String {
        func ms(_ d: Duration) -> String { String(format: "%9.2f", d.milliseconds) }
        var out = "latency (ms)          p50       p90       p99       max   frames\n"
        for stage in s.stages where stage.max > .zero || stage.name == "total" {
            out +=
                stage.name.padding(toLength: 16, withPad: " ", startingAt: 0)
                + ms(stage.p50) + " " + ms(stage.p90) + " " + ms(stage.p99) + " " + ms(stage.max)
                + String(format: "  %7d", Int(stage.count)) + "\n"
        }
        let reasons = FrameProcessor.DropReason.allCases.compactMap { r -> String? in
            guard let n = s.dropped[r], n > 0 else { return nil }
            return "\(r.rawValue) \(n)"
        }
        out += "frames: submitted \(s.submitted), processed \(s.processed), dropped \(s.droppedTotal)"
        out += reasons.isEmpty ? "" : " (" + reasons.joined(separator: ", ") + ")"
        out += ", over budget \(s.overBudget), failed \(s.failed)\n"
        if s.reused + s.blurred + s.linesRead + s.tracksAdded > 0 {
            out +=
                "live reading: reused \(s.reused), blurred \(s.blurred), lines read \(s.linesRead); "
                + "tracks added \(s.tracksAdded), removed \(s.tracksRemoved)\n"
        }
        out += String(
            format: "achieved %.2f frames/s over %.2f s (source %.2f fps)", s.achievedFramesPerSecond,
            s.elapsed.milliseconds / 1000, sourceFrameRate)
        out += "; queue high-water mark \(s.queueHighWater)"
        out +=
            "; results delivered \(delivered)" + (s.resultsDiscarded > 0 ? ", discarded \(s.resultsDiscarded)" : "")
            + "\n"
        return out
    }

    /// Milliseconds rounded to the microsecond, for JSON.
    static func rounded(_ d: Duration) -> Double { (d.milliseconds * 1000).rounded() / 1000 }

    /// The statistics as a JSON object (keys sorted; durations in milliseconds), with `extra`
    /// (source and configuration) merged in.
    static func json(_ s: FrameProcessor.Statistics, delivered: Int, extra: [String: Any]) -> Data {
        var object = extra
        object["submitted"] = s.submitted
        object["processed"] = s.processed
        object["dropped"] = Dictionary(uniqueKeysWithValues: s.dropped.map { ($0.key.rawValue, $0.value) })
        object["droppedTotal"] = s.droppedTotal
        object["overBudget"] = s.overBudget
        object["failed"] = s.failed
        object["delivered"] = delivered
        object["resultsDiscarded"] = s.resultsDiscarded
        object["achievedFramesPerSecond"] = s.achievedFramesPerSecond
        object["elapsedMs"] = rounded(s.elapsed)
        object["queueHighWater"] = s.queueHighWater
        object["framesHeld"] = s.framesHeld
        object["reused"] = s.reused
        object["blurred"] = s.blurred
        object["linesRead"] = s.linesRead
        object["tracksAdded"] = s.tracksAdded
        object["tracksRemoved"] = s.tracksRemoved
        object["stages"] = s.stages.map { st -> [String: Any] in
            [
                "name": st.name, "count": Int(st.count), "p50Ms": rounded(st.p50), "p90Ms": rounded(st.p90),
                "p99Ms": rounded(st.p99), "maxMs": rounded(st.max), "meanMs": rounded(st.mean),
            ]
        }
        return
            (try? JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
    }
}
