import Synchronization

/// Thread-safe counters and one histogram per stage (constant memory).
final class StatisticsCollector: Sendable {
    private struct State {
        var submitted = 0
        var processed = 0
        var overBudget = 0
        var failed = 0
        var dropped: [FrameProcessor.DropReason: Int] = [:]
        var resultsDiscarded = 0
        var reused = 0
        var blurred = 0
        var linesRead = 0
        var reducedSearches = 0
        var histograms = [LatencyHistogram](repeating: LatencyHistogram(), count: StatisticsCollector.stageNames.count)
        var firstSubmission: ContinuousClock.Instant?
        var lastResult: ContinuousClock.Instant?
    }

    /// Every stage of ``StageTimings``, in the order they run (`fused` and `automatic` included,
    /// so the stages add up to the total).
    static let stageNames = StageTimings().stages.map(\.name)
    private let state = Mutex(State())

    func submitted() {
        let now = ContinuousClock().now
        state.withLock { s in
            s.submitted += 1
            if s.firstSubmission == nil { s.firstSubmission = now }
        }
    }

    func dropped(_ reason: FrameProcessor.DropReason) { state.withLock { $0.dropped[reason, default: 0] += 1 } }
    func resultDiscarded() { state.withLock { $0.resultsDiscarded += 1 } }

    func record(_ result: FrameResult) {
        let t = result.timings
        let values = t.stages.map(\.duration)
        let now = ContinuousClock().now
        state.withLock { s in
            s.processed += 1
            if result.status == .budgetExceeded { s.overBudget += 1 }
            if result.status == .failed { s.failed += 1 }
            for (i, v) in values.enumerated() { s.histograms[i].record(v) }
            if result.gate == .reused { s.reused += 1 }
            if result.gate == .blurred { s.blurred += 1 }
            s.linesRead += result.linesRead
            if let scale = result.searchScale, scale < 1 { s.reducedSearches += 1 }
            s.lastResult = now
        }
    }

    func snapshot(queueHighWater: Int, framesHeld: Int, tracks: (added: Int, removed: Int)) -> FrameProcessor.Statistics
    {
        state.withLock { s in
            let stages = zip(Self.stageNames, s.histograms).map { name, h in
                FrameProcessor.StageLatency(
                    name: name, count: h.count, p50: h.percentile(0.5), p90: h.percentile(0.9),
                    p99: h.percentile(0.99), max: h.max, mean: h.mean)
            }
            var elapsed = Duration.zero
            if let first = s.firstSubmission, let last = s.lastResult { elapsed = last - first }
            let seconds = elapsed.seconds
            var statistics = FrameProcessor.Statistics(
                submitted: s.submitted, processed: s.processed, overBudget: s.overBudget, failed: s.failed,
                dropped: s.dropped, resultsDiscarded: s.resultsDiscarded, stages: stages,
                achievedFramesPerSecond: seconds > 0 ? Double(s.processed) / seconds : 0,
                queueHighWater: queueHighWater, framesHeld: framesHeld, elapsed: elapsed)
            statistics.reused = s.reused
            statistics.blurred = s.blurred
            statistics.linesRead = s.linesRead
            statistics.reducedSearches = s.reducedSearches
            (statistics.tracksAdded, statistics.tracksRemoved) = tracks
            return statistics
        }
    }
}
