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
                "live reading: reused \(s.reused), blurred \(s.blurred), lines read \(s.linesRead), "
                + "searched reduced \(s.reducedSearches); "
                + "tracks added \(s.tracksAdded), removed \(s.tracksRemoved)\n"
        }
        if let d = s.detector {
            out += String(
                format: "detector: runs %d (p50 %.1f ms, p99 %.1f ms), every %.1f frames, busy %.1f %% of the run",
                d.runs, d.runTime.percentile(0.5).milliseconds, d.runTime.percentile(0.99).milliseconds,
                d.meanFramesBetweenRuns, 100 * d.busyShare(of: s.elapsed))
            out += ", superseded \(d.superseded), failed \(d.failed)"
            out += d.lastError.map { " (last: \($0.message))" } ?? ""
            out += "\n"
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
        struct Stage: Encodable {
            var name: String
            var count: Int
            var p50Ms, p90Ms, p99Ms, maxMs, meanMs: Double
        }

        var submitted, processed, droppedTotal, overBudget, failed, delivered, resultsDiscarded: Int
        var dropped: [String: Int]
        var achievedFramesPerSecond, elapsedMs: Double
        var queueHighWater, framesHeld, reused, blurred, linesRead, tracksAdded, tracksRemoved, reducedSearches: Int
        var stages: [Stage]
        /// The live detector's work (``Detector``); null without one.
        var detector: JSONOutput.OrNull<Detector>
        var source: Source
        var configuration: Configuration
        var readError: String?
        var annotation: Annotation?

        init(
            _ s: FrameProcessor.Statistics, delivered: Int, source: Source, configuration: Configuration,
            readError: String?, annotation: Annotation?
        ) {
            (submitted, processed, droppedTotal, overBudget, failed) =
                (s.submitted, s.processed, s.droppedTotal, s.overBudget, s.failed)
            (self.delivered, resultsDiscarded) = (delivered, s.resultsDiscarded)
            dropped = Dictionary(uniqueKeysWithValues: s.dropped.map { ($0.key.rawValue, $0.value) })
            (achievedFramesPerSecond, elapsedMs) = (s.achievedFramesPerSecond, JSONOutput.milliseconds(s.elapsed))
            (queueHighWater, framesHeld, reused, blurred) = (s.queueHighWater, s.framesHeld, s.reused, s.blurred)
            (linesRead, tracksAdded, tracksRemoved) = (s.linesRead, s.tracksAdded, s.tracksRemoved)
            reducedSearches = s.reducedSearches
            detector = JSONOutput.OrNull(s.detector.map { Detector($0, elapsed: s.elapsed) })
            let ms = JSONOutput.milliseconds
            stages = s.stages.map {
                Stage(
                    name: $0.name, count: Int($0.count), p50Ms: ms($0.p50), p90Ms: ms($0.p90), p99Ms: ms($0.p99),
                    maxMs: ms($0.max), meanMs: ms($0.mean))
            }
            (self.source, self.configuration, self.readError, self.annotation) =
                (source, configuration, readError, annotation)
        }
    }

    /// The live text detector's work: runs, superseded and failed offers, the p50/p99 of a run,
    /// the mean frames between runs, its busy time and that time's share of the run (0…1).
    struct Detector: Encodable {
        var runs, superseded, failed: Int
        var p50Ms, p99Ms, busyMs, meanFramesBetweenRuns, busyShare: Double
        var lastError: String?

        init(_ d: LiveDetectorStatistics, elapsed: Duration) {
            (runs, superseded, failed) = (d.runs, d.superseded, d.failed)
            p50Ms = JSONOutput.milliseconds(d.runTime.percentile(0.5))
            p99Ms = JSONOutput.milliseconds(d.runTime.percentile(0.99))
            busyMs = JSONOutput.milliseconds(d.busy)
            meanFramesBetweenRuns = (d.meanFramesBetweenRuns * 100).rounded() / 100
            busyShare = (d.busyShare(of: elapsed) * 1000).rounded() / 1000
            lastError = d.lastError?.message
        }
    }

    /// The source: what was read and how it ended (`null` for what it does not know: the
    /// backend, a live source's frame count).
    struct Source: Encodable {
        var path: String
        var kind: String
        var live: Bool
        var backend: JSONOutput.OrNull<String>
        var frameRate: Double
        var frameCount: JSONOutput.OrNull<Int>
        var reconnects: Int
        var reconnectAttempts: Int
        var stoppedBy: String
    }

    /// The stream's settings (`null` for no `--fps` and no `--budget`).
    struct Configuration: Encodable {
        var workers: Int
        var queue: Int
        var drop: String
        var realtime: Bool
        var fps: JSONOutput.OrNull<Double>
        var budgetMs: JSONOutput.OrNull<Double>
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
