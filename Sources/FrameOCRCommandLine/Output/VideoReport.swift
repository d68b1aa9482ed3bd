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

    /// `--stats-json`: the statistics (durations in milliseconds to the microsecond), where the
    /// frames came from, how the run was set up, and what stopped it.
    struct StatisticsFile: Encodable {
        var statistics: FrameProcessor.Statistics
        var delivered: Int
        var source: Source
        var configuration: Configuration
        var readError: String?
        var annotation: Annotation?

        private enum Keys: String, CodingKey {
            case submitted, processed, dropped, droppedTotal, overBudget, failed, delivered, resultsDiscarded,
                achievedFramesPerSecond, elapsedMs, queueHighWater, framesHeld, reused, blurred, linesRead,
                tracksAdded, tracksRemoved, stages, source, configuration, readError, annotation
        }

        private struct Stage: Encodable {
            var name: String
            var count: Int
            var p50Ms, p90Ms, p99Ms, maxMs, meanMs: Double
        }

        func encode(to encoder: any Encoder) throws {
            let s = statistics
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(s.submitted, forKey: .submitted)
            try c.encode(s.processed, forKey: .processed)
            try c.encode(
                Dictionary(uniqueKeysWithValues: s.dropped.map { ($0.key.rawValue, $0.value) }), forKey: .dropped)
            try c.encode(s.droppedTotal, forKey: .droppedTotal)
            try c.encode(s.overBudget, forKey: .overBudget)
            try c.encode(s.failed, forKey: .failed)
            try c.encode(delivered, forKey: .delivered)
            try c.encode(s.resultsDiscarded, forKey: .resultsDiscarded)
            try c.encode(s.achievedFramesPerSecond, forKey: .achievedFramesPerSecond)
            try c.encode(JSONOutput.milliseconds(s.elapsed), forKey: .elapsedMs)
            try c.encode(s.queueHighWater, forKey: .queueHighWater)
            try c.encode(s.framesHeld, forKey: .framesHeld)
            try c.encode(s.reused, forKey: .reused)
            try c.encode(s.blurred, forKey: .blurred)
            try c.encode(s.linesRead, forKey: .linesRead)
            try c.encode(s.tracksAdded, forKey: .tracksAdded)
            try c.encode(s.tracksRemoved, forKey: .tracksRemoved)
            let ms = JSONOutput.milliseconds
            try c.encode(
                s.stages.map {
                    Stage(
                        name: $0.name, count: Int($0.count), p50Ms: ms($0.p50), p90Ms: ms($0.p90), p99Ms: ms($0.p99),
                        maxMs: ms($0.max), meanMs: ms($0.mean))
                }, forKey: .stages)
            try c.encode(source, forKey: .source)
            try c.encode(configuration, forKey: .configuration)
            try c.encodeIfPresent(readError, forKey: .readError)
            try c.encodeIfPresent(annotation, forKey: .annotation)
        }
    }

    /// The source: what was read and how it ended (`null` for what it does not know).
    struct Source: Encodable {
        var path: String
        var kind: String
        var live: Bool
        var backend: String?
        var frameRate: Double
        var frameCount: Int?
        var reconnects: Int
        var reconnectAttempts: Int
        var stoppedBy: String

        private enum Keys: String, CodingKey {
            case path, kind, live, backend, frameRate, frameCount, reconnects, reconnectAttempts, stoppedBy
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(path, forKey: .path)
            try c.encode(kind, forKey: .kind)
            try c.encode(live, forKey: .live)
            try c.encode(backend, forKey: .backend)  // null when unknown
            try c.encode(frameRate, forKey: .frameRate)
            try c.encode(frameCount, forKey: .frameCount)  // null for a live source
            try c.encode(reconnects, forKey: .reconnects)
            try c.encode(reconnectAttempts, forKey: .reconnectAttempts)
            try c.encode(stoppedBy, forKey: .stoppedBy)
        }
    }

    /// The stream's settings (`null` for no `--fps` and no `--budget`).
    struct Configuration: Encodable {
        var workers: Int
        var queue: Int
        var drop: String
        var realtime: Bool
        var fps: Double?
        var budgetMs: Double?

        private enum Keys: String, CodingKey { case workers, queue, drop, realtime, fps, budgetMs }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(workers, forKey: .workers)
            try c.encode(queue, forKey: .queue)
            try c.encode(drop, forKey: .drop)
            try c.encode(realtime, forKey: .realtime)
            try c.encode(fps, forKey: .fps)
            try c.encode(budgetMs, forKey: .budgetMs)
        }
    }

    /// `--annotate`: the file, and what was written to it (nothing when it failed early) or why
    /// it failed.
    struct Annotation: Encodable {
        var path: String
        var framesWritten: Int?
        var framesWithOwnResult: Int?
        var framesWithEarlierResult: Int?
        var framesEvicted: Int?
        var lateResults: Int?
        var error: String?
    }

    /// The statistics as pretty-printed JSON (keys sorted).
    static func json(_ report: StatisticsFile) -> Data { Data(JSONOutput.encode(report, pretty: true).utf8) }
}
