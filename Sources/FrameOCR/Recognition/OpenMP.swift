import Foundation
import Synchronization

/// Process-wide OpenMP policy (see ``Recognizer``'s "Threads").
enum OpenMP {
    private static let done = Mutex(false)

    static func limitOnce() {
        done.withLock { done in
            guard !done else { return }
            done = true
            let env = ProcessInfo.processInfo.environment
            if env["OMP_THREAD_LIMIT"] != nil || env["OMP_NUM_THREADS"] != nil { return }
            Shim.limitOpenMP()
        }
    }
}
