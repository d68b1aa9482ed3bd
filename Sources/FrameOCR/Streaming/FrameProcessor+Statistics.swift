import Synchronization

extension FrameProcessor {
    /// Latency of one stage over the frames processed so far.
    public struct StageLatency: Sendable, Hashable {
        public var name: String
        public var count: UInt64
        public var p50: Duration
        public var p90: Duration
        public var p99: Duration
        public var max: Duration
        public var mean: Duration
    }

    /// A snapshot of a processor's counters. Every submitted frame is either processed, dropped
    /// (by reason) or still held: `submitted == processed + droppedTotal + framesHeld`.
    public struct Statistics: Sendable {
        public var submitted: Int
        /// Frames a worker finished (whatever their status).
        public var processed: Int
        /// Processed frames with status `.budgetExceeded`.
        public var overBudget: Int
        /// Processed frames with status `.failed`.
        public var failed: Int
        /// Frames not processed, by reason.
        public var dropped: [DropReason: Int]
        /// Processed frames whose result the consumer of `results` never got (it fell behind).
        public var resultsDiscarded: Int
        /// Latency per stage, every stage of ``StageTimings`` in the order they run: queueWait,
        /// colorConversion, crop, rotation, scale, threshold, fused, automatic, recognition, and
        /// total (submission to result).
        public var stages: [StageLatency]
        /// Processed frames per second of wall time, from the first submission to the last result.
        public var achievedFramesPerSecond: Double
        /// The deepest the queue has been.
        public var queueHighWater: Int
        /// Frames (and so frame buffers) the processor holds now: queued plus being processed.
        public var framesHeld: Int
        /// Wall time from the first submission to the last result.
        public var elapsed: Duration
        /// With live reading (``Configuration/liveReading``): processed frames the gate reused
        /// (nothing changed, nothing read) and skipped as too blurred; lines read; tracks that got
        /// text, and were removed. Reused and blurred frames count among ``processed``.
        public var reused = 0
        public var blurred = 0
        public var linesRead = 0
        public var tracksAdded = 0
        public var tracksRemoved = 0
        /// With live reading and a latency budget: frames whose lines were searched in a reduced
        /// copy of the region to keep the budget (``FrameResult/searchScale`` below 1).
        public var reducedSearches = 0
        /// With live reading and a text detector (``LiveReading/detectEvery``): the detector's
        /// runs, their time and the frames between them; nil without one.
        public var detector: LiveDetectorStatistics?

        public var droppedTotal: Int { dropped.values.reduce(0, +) }

        /// The latency of `stage` (e.g. `"total"`), if it is known.
        public func latency(_ stage: String) -> StageLatency? { stages.first { $0.name == stage } }
    }

}
