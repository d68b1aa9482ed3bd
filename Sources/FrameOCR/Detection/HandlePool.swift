import Foundation
import Synchronization

/// Handles of a model that one thread at a time may use (an OpenCV `Net` is not thread-safe),
/// kept for reuse between calls: ``TextDetector``'s and ``TextLineRecognizer``'s pools (the
/// recognition room may use this one).
///
/// A caller takes an idle handle, or makes one when none is idle, and gives it back after its
/// call; at most ``capacity`` handles are kept idle (the number of active processors, at most
/// ``maximumIdle``), a handle beyond them is freed.
final class HandlePool<Handle: Sendable>: Sendable {
    /// Most handles kept between calls (each holds a network: tens to hundreds of MB).
    static var maximumIdle: Int { 4 }
    private let idle: Mutex<[Handle]>
    /// Idle handles kept at most.
    let capacity: Int

    /// A pool holding `first`, made by the owner's initializer (which checks the model with it).
    init(first: Handle) {
        idle = Mutex([first])
        capacity = min(max(1, ProcessInfo.processInfo.activeProcessorCount), Self.maximumIdle)
    }

    /// `body` with an idle handle, or one `make` makes when none is idle; the handle goes back
    /// to the pool after (freed when ``capacity`` are idle already).
    /// - Throws: what `make` or `body` throws.
    func with<R>(
        make: () throws(FrameOCRError) -> Handle, _ body: (Handle) throws(FrameOCRError) -> R
    ) throws(FrameOCRError) -> R {
        let handle: Handle
        if let reused = idle.withLock({ $0.popLast() }) { handle = reused } else { handle = try make() }
        defer { idle.withLock { if $0.count < capacity { $0.append(handle) } } }
        return try body(handle)
    }
}
