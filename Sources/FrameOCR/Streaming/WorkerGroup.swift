import Synchronization

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
        for waiter in waiters { waiter.resume() }
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
