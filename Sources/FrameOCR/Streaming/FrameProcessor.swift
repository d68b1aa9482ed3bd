import Foundation
import Synchronization

/// Live per-frame recognition that keeps up with a stream under a latency budget.
///
/// Frames go into a bounded queue (``Configuration/queueCapacity``) that a fixed set of
/// worker threads drains; each worker owns its Tesseract engine (created up front) and its
/// buffer pool, so the steady state loads no model and allocates no image. When the queue is
/// full the ``DropPolicy`` decides: keep the newest frame (default), refuse the new one, or make
/// the producer wait. ``submit(_:)-13qfb`` never blocks under the two dropping policies.
///
/// The latency budget runs from submission to result: queue wait and preprocessing are
/// subtracted, and what is left (minus ``Configuration/budgetMargin``) is handed to Tesseract's
/// deadline monitor. A frame that runs out comes back with status `.budgetExceeded` and its
/// partial text — never stale text from another frame, and never an error. Without a budget,
/// a pipeline with ``Pipeline/automatic`` also gets automatic preprocessing's second readings of
/// parts of the frame (machine readable zone, dominant line, lines of large text:
/// ``Recognizer/recognize(_:of:pipeline:options:deadline:pool:)``), which cost a few
/// recognitions of single lines on frames that read poorly; with a budget each frame is read
/// once. Orientation detection never runs here: give live frames their orientation; a pipeline
/// whose orientation is ``Pipeline/OrientationSource/unknown`` is refused (`invalidParameter`:
/// by ``Configuration/validate()``, or as a `.failed` result for a frame's own pipeline).
///
/// Every frame accepted is accounted for: it is processed, or counted as dropped with a reason.
/// Results arrive on ``results`` in completion order; ``statistics()`` gives counts and
/// p50/p90/p99/max per stage at any time, in constant memory.
public final class FrameProcessor: Sendable {
    /// What to do with a frame that arrives when the queue is full.
    public enum DropPolicy: String, Sendable, CaseIterable, Codable {
        /// Drop the oldest queued frame and queue the new one (freshest results; default).
        case latestWins
        /// Refuse the new frame.
        case dropNewest
        /// Make ``FrameProcessor/submit(_:)-13qfb`` wait until there is room.
        case block
    }

    /// Why a frame was dropped.
    public enum DropReason: String, Sendable, CaseIterable, Codable {
        /// Replaced by a newer frame in a full queue (`latestWins`).
        case replacedByNewer
        /// Refused because the queue was full (`dropNewest`).
        case queueFull
        /// Arrived sooner than the target frame rate allows.
        case rateLimited
        /// Submitted after ``FrameProcessor/stop()``, or still queued when it was called.
        case stopped
    }

    /// What ``submit(_:)-13qfb`` did with a frame.
    public enum SubmitOutcome: Hashable, Sendable {
        /// Queued.
        case queued
        /// Queued; the oldest queued frame (this id) was dropped to make room.
        case queuedDroppingOldest(frameID: UInt64)
        /// Not queued.
        case dropped(DropReason)
    }

    public struct Configuration: Sendable {
        /// Preprocessing for every frame.
        public var pipeline: Pipeline
        /// Engine settings (one engine per worker).
        public var recognizer: RecognizerConfiguration
        /// Per-frame recognition options; nil: the recognizer's defaults.
        public var options: RecognitionOptions?
        /// Worker threads, ≥ 1. Default: the number of active cores.
        public var workerCount: Int
        /// Frames that may wait for a worker, ≥ 1. Default 1.
        public var queueCapacity: Int
        /// Default `.latestWins`.
        public var dropPolicy: DropPolicy
        /// At most this many frames per second are accepted (by frame timestamps; like camera
        /// plugins' `runAtTargetFps`); nil (default): no limit.
        public var targetFrameRate: Double?
        /// Submission-to-result budget per frame; nil (default): none (and automatic
        /// preprocessing's second readings run).
        public var latencyBudget: Duration?
        /// Kept back from the budget for delivering the result. Default 2 ms.
        public var budgetMargin: Duration
        /// Results that may wait for the consumer of ``FrameProcessor/results``. When they are
        /// all waiting, `.block` makes the workers wait too (back-pressure reaches the producer);
        /// the dropping policies discard the oldest waiting result instead (counted in
        /// ``Statistics/resultsDiscarded``), so a slow consumer never stalls a live stream.
        /// Default 64.
        public var resultBufferCapacity: Int
        /// Follow the lines of text from frame to frame instead of reading every frame whole:
        /// the gate, the tracker and the reading scheduler of ``LiveReading``. Each result then
        /// carries the tracks (``FrameResult/tracks``) and the gate's decision, and the changes
        /// go to ``FrameProcessor/trackEvents``. The pipeline's region and orientation apply; its
        /// automatic preprocessing gives only the line settings, and its threshold and scale are
        /// not used (each line is drawn, scaled and read alone). nil (default): off.
        public var liveReading: LiveReading?

        public init(
            pipeline: Pipeline = Pipeline(), recognizer: RecognizerConfiguration = .init(),
            options: RecognitionOptions? = nil, workerCount: Int = ProcessInfo.processInfo.activeProcessorCount,
            queueCapacity: Int = 1, dropPolicy: DropPolicy = .latestWins, targetFrameRate: Double? = nil,
            latencyBudget: Duration? = nil, budgetMargin: Duration = .milliseconds(2), resultBufferCapacity: Int = 64,
            liveReading: LiveReading? = nil
        ) {
            self.pipeline = pipeline
            self.recognizer = recognizer
            self.options = options
            self.workerCount = workerCount
            self.queueCapacity = queueCapacity
            self.dropPolicy = dropPolicy
            self.targetFrameRate = targetFrameRate
            self.latencyBudget = latencyBudget
            self.budgetMargin = budgetMargin
            self.resultBufferCapacity = resultBufferCapacity
            self.liveReading = liveReading
        }

        /// - Throws: ``FrameOCRError/Code/invalidParameter`` naming the bad setting.
        public func validate() throws(FrameOCRError) {
            try pipeline.validate()
            try Self.checkLive(pipeline)
            try options?.validate()
            try liveReading?.validate()
            guard (1...256).contains(workerCount) else {
                throw .invalidParameter("workerCount", "\(workerCount) not in 1…256", stage: .buffer)
            }
            guard (1...4096).contains(queueCapacity) else {
                throw .invalidParameter("queueCapacity", "\(queueCapacity) not in 1…4096", stage: .buffer)
            }
            guard resultBufferCapacity >= 1 else {
                throw .invalidParameter("resultBufferCapacity", "must be ≥ 1", stage: .buffer)
            }
            if let r = targetFrameRate, !(r.isFinite && r > 0) {
                throw .invalidParameter("targetFrameRate", "\(r) must be > 0", stage: .buffer)
            }
            if let b = latencyBudget, b <= .zero {
                throw .invalidParameter("latencyBudget", "\(b) must be > 0", stage: .buffer)
            }
            guard budgetMargin >= .zero else { throw .invalidParameter("budgetMargin", "must be ≥ 0", stage: .buffer) }
        }

        /// A processor never detects an orientation: a pipeline that asks for it
        /// (``Pipeline/OrientationSource/unknown``) would be read as stored without saying so.
        /// - Throws: ``FrameOCRError/Code/invalidParameter``.
        static func checkLive(_ pipeline: Pipeline) throws(FrameOCRError) {
            guard pipeline.orientation != .unknown else {
                throw .invalidParameter(
                    "pipeline.orientation",
                    ".unknown is never detected in a FrameProcessor: give live frames their orientation (.fromFrame or .known)",
                    stage: .rotation)
            }
        }
    }

    public let configuration: Configuration
    /// Results in completion order. Finishes after ``stop()`` or ``finish()``.
    public let results: AsyncStream<FrameResult>

    private let recognizer: any TextRecognizing
    private let queue: FrameQueue
    private let stats: StatisticsCollector
    private let resultBuffer: ResultBuffer
    private let workersDone: WorkerGroup
    /// With live reading: the workers' reader and the ordered stage that feeds the tracker.
    private let live: (reader: LiveReader, stage: TrackingStage, detector: LiveDetector?)?
    /// With live reading, the tracks' changes in frame order (added, updated, removed; at the
    /// end every track is removed); without it, a stream that finishes at once. At most
    /// ``maximumWaitingTrackEvents`` events wait for a slow consumer; older ones are dropped
    /// beyond that.
    public let trackEvents: AsyncStream<TrackEvent>
    /// Most ``trackEvents`` that wait for a slow consumer; beyond that the oldest are dropped.
    public static let maximumWaitingTrackEvents = 4096

    /// Starts the workers with Tesseract engines made from `configuration.recognizer` (one per
    /// worker, loaded now).
    /// - Throws: ``FrameOCRError`` for an invalid configuration or a model that cannot load.
    public convenience init(configuration: Configuration = Configuration()) throws(FrameOCRError) {
        try configuration.validate()
        let recognizer = try Recognizer(
            configuration: configuration.recognizer, maxIdleEngines: configuration.workerCount)
        try recognizer.prepareEngines(configuration.workerCount)
        try self.init(configuration: configuration, recognizer: recognizer)
    }

    /// Starts the workers with your own recognizer (a ``Recognizer`` you share, or a stand-in).
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for an invalid configuration.
    public init(configuration: Configuration, recognizer: any TextRecognizing) throws(FrameOCRError) {
        try configuration.validate()
        self.configuration = configuration
        self.recognizer = recognizer
        queue = FrameQueue(
            capacity: configuration.queueCapacity, policy: configuration.dropPolicy,
            targetFrameRate: configuration.targetFrameRate)
        stats = StatisticsCollector()
        let buffer = ResultBuffer(capacity: configuration.resultBufferCapacity)
        resultBuffer = buffer
        results = AsyncStream(unfolding: { await buffer.next() })
        if let settings = configuration.liveReading {
            // The detector only where the CTC recognizer can read what it finds.
            let detector =
                settings.detectEvery > 0 && recognizer.lineRecognizer() != nil ? recognizer.regionDetector() : nil
            let stage = TrackingStage(settings, followsMotion: detector != nil)
            let thread = detector.map { d in
                LiveDetector(d, longSide: settings.detectorLongSide) { [weak stage] in stage?.detected($0) }
            }
            live = (LiveReader(settings, detector: thread), stage, thread)
            trackEvents = stage.events
        } else {
            live = nil
            trackEvents = AsyncStream { $0.finish() }
        }
        workersDone = WorkerGroup(count: configuration.workerCount)
        for index in 0..<configuration.workerCount {
            // The workers hold the processor only while handling a frame, never while they wait
            // in `pop()`: a processor dropped without `stop()` is freed, and its `deinit` stops them.
            let thread = Thread { [weak self, queue, workersDone] in
                let pool = PixelBufferPool(capacity: 8)
                while let item = queue.pop() {
                    if let self { self.handle(item, pool: pool) } else { queue.released() }
                }
                workersDone.leave()
            }
            thread.name = "FrameOCR worker \(index)"
            thread.stackSize = 8 << 20  // Tesseract recurses deeply on some layouts.
            thread.start()
        }
    }

    deinit {
        queue.stop()
        resultBuffer.finish()
        live?.detector?.stop()
        live?.stage.finish()
    }

    /// Offers a frame from a thread you own (a camera or decoder callback). Returns at once
    /// under `.latestWins` and `.dropNewest` (never blocks the camera thread); under `.block` it
    /// blocks the calling thread until there is room — from Swift concurrency use the `async`
    /// overload, which suspends instead.
    @discardableResult
    public func submit(_ frame: Frame) -> SubmitOutcome {
        stats.submitted()
        return counted(queue.push(frame))
    }

    /// Offers a frame from a task: like ``submit(_:)-13qfb``, but under `.block` the task
    /// suspends until there is room, so no thread of the cooperative pool is blocked.
    @discardableResult
    public func submit(_ frame: Frame) async -> SubmitOutcome {
        stats.submitted()
        return counted(await queue.pushSuspending(frame))
    }

    private func counted(_ outcome: SubmitOutcome) -> SubmitOutcome {
        switch outcome {
        case .queued: break
        case .queuedDroppingOldest: stats.dropped(.replacedByNewer)
        case .dropped(let reason): stats.dropped(reason)
        }
        return outcome
    }

    /// Stops accepting frames, drops (and counts) the frames still queued, lets the workers
    /// finish the frames they hold, then finishes ``results``.
    public func stop() async {
        for _ in queue.stop() { stats.dropped(.stopped) }
        resultBuffer.release()
        await workersDone.wait()
        live?.detector?.stop()
        live?.stage.finish()
        resultBuffer.finish()
    }

    /// Stops accepting frames, processes every queued frame, then finishes ``results``.
    public func finish() async {
        queue.close()
        await workersDone.wait()
        live?.detector?.stop()
        live?.stage.finish()
        resultBuffer.finish()
    }

    /// Counters and latency percentiles so far.
    public func statistics() -> Statistics {
        var s = stats.snapshot(
            queueHighWater: queue.depthHighWater, framesHeld: queue.framesHeld, tracks: live?.stage.counts() ?? (0, 0))
        s.detector = live?.detector?.statistics()
        return s
    }

    // MARK: Worker

    private func handle(_ item: FrameQueue.Item, pool: PixelBufferPool) {
        guard let live else {
            let result = process(item, pool: pool)
            queue.released()
            deliver(result)
            return
        }
        let (result, observation) = processLive(item, live.reader, plans: live.stage.plans(), pool: pool)
        queue.released()
        live.stage.hand(sequence: item.sequence, result, observation) { deliver($0) }
    }

    private func deliver(_ result: FrameResult) {
        stats.record(result)
        if !resultBuffer.push(result, waitForRoom: configuration.dropPolicy == .block) { stats.resultDiscarded() }
    }

    /// A frame read live (``LiveReading``): the gate, the lines, the scheduled readings. Over
    /// budget only when the result comes after the budget; lines left unread to keep it, or a
    /// line's reading cut by its deadline (then not counted as a reading), are not.
    private func processLive(
        _ item: FrameQueue.Item, _ reader: LiveReader, plans: [TextTracker.Plan], pool: PixelBufferPool
    ) -> (FrameResult, LiveObservation?) {
        let clock = ContinuousClock()
        let picked = clock.now
        let frame = item.frame
        var result = FrameResult(
            frameID: frame.id, timestamp: frame.timestamp, status: .complete, recognition: nil, error: nil,
            timings: StageTimings(), backend: .cpu)
        var observation: LiveObservation?
        do {
            let pipeline = frame.pipeline ?? configuration.pipeline
            if frame.pipeline != nil { try Configuration.checkLive(pipeline) }
            let deadline = configuration.latencyBudget.map { item.submitted + $0 - configuration.budgetMargin }
            let outcome = try reader.observe(
                frame.buffer, frameID: frame.id, timestamp: frame.timestamp, pipeline: pipeline,
                options: frame.options ?? configuration.options, recognizer: recognizer,
                plans: plans, deadline: deadline, pool: pool)
            observation = outcome.observation
            result.gate = outcome.observation.gate
            result.recognition = outcome.recognition
            result.timings = outcome.timings
            result.backend = outcome.backend
            result.linesRead = outcome.linesRead
            result.searchScale = outcome.searchScale
            let late = configuration.latencyBudget.map { clock.now - item.submitted > $0 } ?? false
            result.status = late ? .budgetExceeded : .complete
        } catch {
            result.status = .failed
            result.error = error
        }
        result.timings.queueWait = picked - item.submitted
        result.timings.total = clock.now - item.submitted
        return (result, observation)
    }

    private func process(_ item: FrameQueue.Item, pool: PixelBufferPool) -> FrameResult {
        let clock = ContinuousClock()
        var timings = StageTimings()
        timings.queueWait = clock.now - item.submitted
        let frame = item.frame
        var result = FrameResult(
            frameID: frame.id, timestamp: frame.timestamp, status: .complete, recognition: nil,
            error: nil, timings: timings, backend: .cpu)
        do {
            let pipeline = frame.pipeline ?? configuration.pipeline
            if frame.pipeline != nil { try Configuration.checkLive(pipeline) }
            let prepared = try pipeline.run(frame.buffer, pool: pool)
            result.backend = prepared.backend
            var deadline: Duration?
            if let budget = configuration.latencyBudget {
                let left = budget - (clock.now - item.submitted) - configuration.budgetMargin
                guard left > .milliseconds(1) else {
                    result.status = .budgetExceeded
                    result.timings = prepared.timings
                    result.timings.queueWait = timings.queueWait
                    result.timings.total = clock.now - item.submitted
                    return result
                }
                deadline = left
            }
            // Without a budget the recognizer may read parts of the frame again (automatic
            // preprocessing's second readings); with one, Tesseract's deadline bounds one reading.
            let recognition = try recognizer.recognize(
                prepared, of: frame.buffer, pipeline: pipeline,
                options: frame.options ?? configuration.options, deadline: deadline, pool: pool)
            result.recognition = recognition
            result.status = recognition.status == .budgetExceeded ? .budgetExceeded : .complete
            result.timings = recognition.timings
        } catch {
            result.status = .failed
            result.error = error
        }
        result.timings.queueWait = timings.queueWait
        result.timings.total = clock.now - item.submitted
        return result
    }
}
