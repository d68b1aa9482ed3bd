import Foundation

/// The bounded frame queue: a lock and a condition variable (`NSCondition`), because workers and
/// a `.block` producer must sleep until there is work or room — a `Mutex` alone cannot wait.
final class FrameQueue: @unchecked Sendable {
    struct Item {
        var frame: Frame
        var submitted: ContinuousClock.Instant
        /// The order it was taken from the queue in (0, 1, 2…; set by ``pop()``): frame order.
        var sequence: UInt64 = 0
    }

    private let condition = NSCondition()
    private var items: [Item] = []
    private var head = 0
    private var stopped = false
    private var closed = false
    private var inFlight = 0
    private var lastAccepted: Duration?
    private var highWater = 0
    private var popped: UInt64 = 0
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
            let outcome = await withCheckedContinuation {
                (c: CheckedContinuation<FrameProcessor.SubmitOutcome?, Never>) in
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

    /// Wakes the threads waiting on the condition and the suspended `.block` producers (which
    /// retry their push), releasing the lock before resuming continuations. Call with the lock held.
    private func wakeEveryoneAndUnlock() {
        condition.broadcast()
        let waiters = roomWaiters
        roomWaiters.removeAll()
        condition.unlock()
        for waiter in waiters { waiter.resume(returning: nil) }
    }

    /// The next frame, waiting for one; nil once stopped, or closed and empty.
    func pop() -> Item? {
        condition.lock()
        while count == 0 && !stopped && !closed { condition.wait() }
        guard !stopped, count > 0 else {
            condition.unlock()
            return nil
        }
        var item = items[head]
        item.sequence = popped
        popped += 1
        head += 1
        inFlight += 1
        compact()
        wakeEveryoneAndUnlock()  // room for a blocked or suspended producer
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
        wakeEveryoneAndUnlock()
        return left
    }

    /// Accepts no more frames; workers drain what is queued.
    func close() {
        condition.lock()
        closed = true
        wakeEveryoneAndUnlock()
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
