import Foundation

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
