import Dispatch
import FrameOCR
import Synchronization

/// The one job loop of the command line and the benchmark (`frameocr recognize --jobs`, `frameocr
/// eval`, the benchmark's batch rows): work items taken by `jobs` threads from one shared counter.
///
/// The threads are Dispatch's (`concurrentPerform`), as many as there are jobs and items; each
/// takes the next index as it finishes one, so items start in the order given and finish in any.
/// Each thread has its own ``PixelBufferPool`` (capacity 4) for the buffers of its images.
package enum JobLoop {
    /// Calls `body` with every index of `order` (default `0..<count`), in that order, from `jobs`
    /// threads, and the thread's own pool; returns when every call has returned.
    package static func run(
        _ count: Int, jobs: Int, order: [Int]? = nil, _ body: @Sendable (_ index: Int, _ pool: PixelBufferPool) -> Void
    ) {
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: min(max(1, jobs), max(1, count))) { _ in
            let pool = PixelBufferPool(capacity: 4)
            while true {
                let k = next.add(1, ordering: .relaxed).oldValue
                guard k < count else { return }
                body(order?[k] ?? k, pool)
            }
        }
    }

    /// `body` for every index as ``run(_:jobs:order:_:)`` calls it; each index's value at its index.
    package static func map<T: Sendable>(
        _ count: Int, jobs: Int, order: [Int]? = nil, _ body: @Sendable (_ index: Int, _ pool: PixelBufferPool) -> T
    ) -> [T] {
        let values = Mutex([T?](repeating: nil, count: count))
        run(count, jobs: jobs, order: order) { i, pool in
            let value = body(i, pool)
            values.withLock { $0[i] = value }
        }
        return values.withLock { $0.map { $0! } }
    }
}
