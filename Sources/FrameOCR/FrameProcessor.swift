import Foundation
import Synchronization

/// Live per-frame recognition that keeps up with a stream under a latency budget.
///
/// Frames go into a bounded queue (``Configuration/queueCapacity``, default 1) that a fixed set of
/// worker threads drains; each worker owns its Tesseract engine (created up front) and its
/// buffer pool, so the steady state loads no model and allocates no image. When the queue is
/// full the ``DropPolicy`` decides: keep the newest frame (default), refuse the new one, or make
/// the producer wait. ``submit(_:)`` never blocks under the two dropping policies.
///
/// The latency budget runs from submission to result: queue wait and preprocessing are
/// subtracted, and what is left (minus ``Configuration/budgetMargin``) is handed to Tesseract's
/// deadline monitor. A frame that runs out comes back with status `.budgetExceeded` and its
/// partial text — never stale text from another frame, and never an error.
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
        /// Make ``FrameProcessor/submit(_:)`` wait until there is room.
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

    /// What ``submit(_:)`` did with a frame.
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
        public var recognizer: Recognizer.Configuration
        /// Per-frame recognition options; nil: the recognizer's defaults.
        public var options: Recognizer.Options?
        /// Worker threads, ≥ 1. Default: the number of active cores.
        public var workerCount: Int
        /// Frames that may wait for a worker, ≥ 1. Default 1.
        public var queueCapacity: Int
        /// Default `.latestWins`.
        public var dropPolicy: DropPolicy
        /// At most this many frames per second are accepted (by frame timestamps; like camera
        /// plugins' `runAtTargetFps`); nil (default): no limit.
        public var targetFrameRate: Double?
        /// Submission-to-result budget per frame; nil (default): none.
        public var latencyBudget: Duration?
        /// Kept back from the budget for delivering the result. Default 2 ms.
        public var budgetMargin: Duration
        /// Results that may wait for the consumer of ``FrameProcessor/results``. When they are
        /// all waiting, `.block` makes the workers wait too (back-pressure reaches the producer);
        /// the dropping policies discard the oldest waiting result instead (counted in
        /// ``Statistics/resultsDiscarded``), so a slow consumer never stalls a live stream.
        /// Default 64.
        public var resultBufferCapacity: Int

        public init(pipeline: Pipeline = Pipeline(), recognizer: Recognizer.Configuration = .init(),
                    options: Recognizer.Options? = nil, workerCount: Int = ProcessInfo.processInfo.activeProcessorCount,
                    queueCapacity: Int = 1, dropPolicy: DropPolicy = .latestWins, targetFrameRate: Double? = nil,
                    latencyBudget: Duration? = nil, budgetMargin: Duration = .milliseconds(2), resultBufferCapacity: Int = 64) {
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
        }

        /// - Throws: ``FrameOCRError/Code/invalidParameter`` naming the bad setting.
        public func validate() throws(FrameOCRError) {
            try pipeline.validate()
            try options?.validate()
            guard (1...256).contains(workerCount) else { throw .invalidParameter("workerCount", "\(workerCount) not in 1…256", stage: .buffer) }
            guard (1...4096).contains(queueCapacity) else { throw .invalidParameter("queueCapacity", "\(queueCapacity) not in 1…4096", stage: .buffer) }
            guard resultBufferCapacity >= 1 else { throw .invalidParameter("resultBufferCapacity", "must be ≥ 1", stage: .buffer) }
            if let r = targetFrameRate, !(r.isFinite && r > 0) {
                throw .invalidParameter("targetFrameRate", "\(r) must be > 0", stage: .buffer)
            }
            if let b = latencyBudget, b <= .zero { throw .invalidParameter("latencyBudget", "\(b) must be > 0", stage: .buffer) }
            guard budgetMargin >= .zero else { throw .invalidParameter("budgetMargin", "must be ≥ 0", stage: .buffer) }
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

    /// Starts the workers with Tesseract engines made from `configuration.recognizer` (one per
    /// worker, loaded now).
    /// - Throws: ``FrameOCRError`` for an invalid configuration or a model that cannot load.
    public convenience init(configuration: Configuration = Configuration()) throws(FrameOCRError) {
        try configuration.validate()
        let recognizer = try Recognizer(configuration: configuration.recognizer, maxIdleEngines: configuration.workerCount)
        try recognizer.prepareEngines(configuration.workerCount)
        try self.init(configuration: configuration, recognizer: recognizer)
    }

    /// Starts the workers with your own recognizer (a ``Recognizer`` you share, or a stand-in).
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for an invalid configuration.
    public init(configuration: Configuration, recognizer: any TextRecognizing) throws(FrameOCRError) {
        try configuration.validate()
        self.configuration = configuration
        self.recognizer = recognizer
        queue = FrameQueue(capacity: configuration.queueCapacity, policy: configuration.dropPolicy,
                           targetFrameRate: configuration.targetFrameRate)
        stats = StatisticsCollector()
        let buffer = ResultBuffer(capacity: configuration.resultBufferCapacity)
        resultBuffer = buffer
        results = AsyncStream(unfolding: { await buffer.next() })
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

    /// Offers a frame from a task: like ``submit(_:)-(Frame)``, but under `.block` the task
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
        resultBuffer.finish()
    }

    /// Stops accepting frames, processes every queued frame, then finishes ``results``.
    public func finish() async {
        queue.close()
        await workersDone.wait()
        resultBuffer.finish()
    }

    /// Counters and latency percentiles so far.
    public func statistics() -> Statistics {
        stats.snapshot(queueHighWater: queue.depthHighWater, framesHeld: queue.framesHeld)
    }

    // MARK: Worker

    private func handle(_ item: FrameQueue.Item, pool: PixelBufferPool) {
        let result = process(item, pool: pool)
        queue.released()
        stats.record(result)
        if !resultBuffer.push(result, waitForRoom: configuration.dropPolicy == .block) { stats.resultDiscarded() }
    }

    private func process(_ item: FrameQueue.Item, pool: PixelBufferPool) -> FrameResult {
        let clock = ContinuousClock()
        var timings = StageTimings()
        timings.queueWait = clock.now - item.submitted
        let frame = item.frame
        var result = FrameResult(frameID: frame.id, timestamp: frame.timestamp, status: .complete, recognition: nil,
                                 error: nil, timings: timings, backend: .cpu)
        do {
            let prepared = try (frame.pipeline ?? configuration.pipeline).run(frame.buffer, pool: pool)
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
            let recognition = try recognizer.recognize(prepared, options: frame.options ?? configuration.options, deadline: deadline)
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

// MARK: - Queue

/// The bounded frame queue: a lock and a condition variable (`NSCondition`), because workers and
/// a `.block` producer must sleep until there is work or room — a `Mutex` alone cannot wait.
final class FrameQueue: @unchecked Sendable {
    struct Item {
        var frame: Frame
        var submitted: ContinuousClock.Instant
    }

    private let condition = NSCondition()
    private var items: [Item] = []
    private var head = 0
    private var stopped = false
    private var closed = false
    private var inFlight = 0
    private var lastAccepted: Duration?
    private var highWater = 0
    private var roomWaiters: [CheckedContinuation<FrameProcessor.SubmitOutcome?, Never>] = []
    let capacity: Int
    let policy: FrameProcessor.DropPolicy
    let minimumInterval: Duration?

    init(capacity: Int, policy: FrameProcessor.DropPolicy, targetFrameRate: Double?) {
        self.capacity = capacity
        self.policy = policy
        minimumInterval = targetFrameRate.map { .nanoseconds(Int64(1e9 / $0)) }
        items.reserveCapacity(capacity + 1)
    }

    private var count: Int { items.count - head }

    /// Queues `frame` under the policy; `.block` waits on the condition (a blocking thread).
    func push(_ frame: Frame) -> FrameProcessor.SubmitOutcome {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let outcome = enqueueLocked(frame) { return outcome }
            condition.wait()  // `.block` and full: wait for a worker to take a frame
        }
    }

    /// Queues `frame` under the policy; `.block` suspends the task (no thread is blocked).
    func pushSuspending(_ frame: Frame) async -> FrameProcessor.SubmitOutcome {
        while true {
            let outcome = await withCheckedContinuation { (c: CheckedContinuation<FrameProcessor.SubmitOutcome?, Never>) in
                condition.lock()
                if let outcome = enqueueLocked(frame) {
                    condition.unlock()
                    c.resume(returning: outcome)
                } else {
                    roomWaiters.append(c)  // resumed with nil by pop/stop/close: try again
                    condition.unlock()
                }
            }
            if let outcome { return outcome }
        }
    }

    /// The shared part of both pushes, under the lock: nil means "full, `.block`: wait".
    private func enqueueLocked(_ frame: Frame) -> FrameProcessor.SubmitOutcome? {
        guard !stopped, !closed else { return .dropped(.stopped) }
        if let minimumInterval, let last = lastAccepted, frame.timestamp - last < minimumInterval {
            return .dropped(.rateLimited)
        }
        var outcome = FrameProcessor.SubmitOutcome.queued
        if count >= capacity {
            switch policy {
            case .latestWins:
                outcome = .queuedDroppingOldest(frameID: items[head].frame.id)
                head += 1
            case .dropNewest:
                return .dropped(.queueFull)
            case .block:
                return nil
            }
        }
        compact()
        items.append(Item(frame: frame, submitted: ContinuousClock().now))
        lastAccepted = frame.timestamp
        highWater = max(highWater, count)
        condition.broadcast()
        return outcome
    }

    /// Wakes every suspended `.block` producer (call with the lock held; they resume after).
    private func takeRoomWaiters() -> [CheckedContinuation<FrameProcessor.SubmitOutcome?, Never>] {
        defer { roomWaiters.removeAll() }
        return roomWaiters
    }

    /// The next frame, waiting for one; nil once stopped, or closed and empty.
    func pop() -> Item? {
        condition.lock()
        while count == 0 && !stopped && !closed { condition.wait() }
        guard !stopped, count > 0 else {
            condition.unlock()
            return nil
        }
        let item = items[head]
        head += 1
        inFlight += 1
        compact()
        condition.broadcast()  // room for a blocked producer
        let waiters = takeRoomWaiters()
        condition.unlock()
        waiters.forEach { $0.resume(returning: nil) }
        return item
    }

    /// A worker is done with the frame it popped.
    func released() {
        condition.lock()
        inFlight -= 1
        condition.unlock()
    }

    /// Stops: returns the frames still queued (to be counted as dropped).
    @discardableResult
    func stop() -> [Item] {
        condition.lock()
        stopped = true
        let left = Array(items[head...])
        items.removeAll()
        head = 0
        condition.broadcast()
        let waiters = takeRoomWaiters()
        condition.unlock()
        waiters.forEach { $0.resume(returning: nil) }
        return left
    }

    /// Accepts no more frames; workers drain what is queued.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        let waiters = takeRoomWaiters()
        condition.unlock()
        waiters.forEach { $0.resume(returning: nil) }
    }

    var depthHighWater: Int {
        condition.lock()
        defer { condition.unlock() }
        return highWater
    }

    /// Frames queued or being processed (each holds its buffer).
    var framesHeld: Int {
        condition.lock()
        defer { condition.unlock() }
        return count + inFlight
    }

    /// Drops consumed slots so the array stays at capacity + 1 (no growth).
    private func compact() {
        if head > 0 && head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head > capacity {
            items.removeFirst(head)
            head = 0
        }
    }
}

/// Results waiting for the consumer of `results` (an `AsyncStream(unfolding:)` pulls from it, so
/// the buffer knows exactly when a result was taken). Bounded: a full buffer makes `push` wait
/// (back-pressure) or discard its oldest result.
final class ResultBuffer: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [FrameResult] = []
    private var head = 0
    private var waiter: CheckedContinuation<FrameResult?, Never>?
    private var finished = false
    private var released = false
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// Hands `result` to a waiting consumer or buffers it. Returns false when a result was
    /// discarded (the oldest, to make room; or this one, after `finish`).
    func push(_ result: FrameResult, waitForRoom: Bool) -> Bool {
        condition.lock()
        if waitForRoom {
            while items.count - head >= capacity && waiter == nil && !finished && !released { condition.wait() }
        }
        if let w = waiter {
            waiter = nil
            condition.unlock()
            w.resume(returning: result)
            return true
        }
        defer { condition.unlock() }
        guard !finished else { return false }
        var kept = true
        if items.count - head >= capacity {
            head += 1
            kept = false
        }
        if head > capacity {
            items.removeFirst(head)
            head = 0
        }
        items.append(result)
        return kept
    }

    /// The next result, waiting for one; nil once finished and empty. One consumer at a time.
    func next() async -> FrameResult? {
        await withCheckedContinuation { (c: CheckedContinuation<FrameResult?, Never>) in
            condition.lock()
            if head < items.count {
                let r = items[head]
                head += 1
                if head == items.count {
                    items.removeAll(keepingCapacity: true)
                    head = 0
                }
                condition.broadcast()
                condition.unlock()
                c.resume(returning: r)
            } else if finished {
                condition.unlock()
                c.resume(returning: nil)
            } else {
                waiter = c
                condition.broadcast()
                condition.unlock()
            }
        }
    }

    /// Stops back-pressure: pushes no longer wait (used when stopping).
    func release() {
        condition.lock()
        released = true
        condition.broadcast()
        condition.unlock()
    }

    /// No more results: a waiting consumer gets nil once the buffer is empty.
    func finish() {
        condition.lock()
        finished = true
        let w = head < items.count ? nil : waiter
        if w != nil { waiter = nil }
        condition.broadcast()
        condition.unlock()
        w?.resume(returning: nil)
    }
}

/// Counts worker threads out; `wait()` returns once all have left.
final class WorkerGroup: Sendable {
    private struct State {
        var running: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state: Mutex<State>

    init(count: Int) { state = Mutex(State(running: count)) }

    func leave() {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.running -= 1
            guard s.running == 0 else { return [] }
            defer { s.waiters.removeAll() }
            return s.waiters
        }
        waiters.forEach { $0.resume() }
    }

    func wait() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let done = state.withLock { s -> Bool in
                if s.running == 0 { return true }
                s.waiters.append(c)
                return false
            }
            if done { c.resume() }
        }
    }
}
