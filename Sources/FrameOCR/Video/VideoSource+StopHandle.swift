import Dispatch
import Synchronization

extension VideoSource {
    /// Ends a ``VideoSource`` from another thread — a signal handler's queue, a UI, a timer —
    /// while ``VideoSource/next()`` may be waiting for a frame.
    ///
    /// After ``stop()`` the source delivers no new frame: a ``VideoSource/next()`` waiting for a
    /// live frame, or between reconnect attempts, returns nil within milliseconds, and every
    /// later call returns nil. Frames already handed out are unaffected. Get one from
    /// ``VideoSource/stopHandle`` before the read loop (the source itself is `~Copyable`);
    /// copies share the source.
    ///
    /// ```swift
    /// var source = try VideoSource(.url("rtsp://camera/stream"))
    /// let stop = source.stopHandle
    /// signalQueue.async { stop.stop() }
    /// while let frame = try source.next() { processor.submit(frame) }   // ends after stop()
    /// ```
    ///
    /// Implemented by the shim's `focr_video_interrupt` (it wakes the caller waiting on the reader
    /// thread) and a wake-up of the reconnect delay.
    public struct StopHandle: Sendable {
        let control: Control

        /// Ends the source; safe from any thread, any number of times.
        public func stop() { control.stop() }

        /// Whether ``stop()`` was called.
        public var isStopped: Bool { control.isStopped }
    }

    /// What a source shares with its stop handles: whether it was stopped, and the video being
    /// read (to interrupt it).
    final class Control: Sendable {
        private struct State {
            var stopped = false
            var video: Shim.Video?
        }
        private let state = Mutex(State())
        /// Signalled by stop(): cuts a reconnect delay short.
        private let wake = DispatchSemaphore(value: 0)

        var isStopped: Bool { state.withLock { $0.stopped } }

        func stop() {
            let video = state.withLock { state -> Shim.Video? in
                state.stopped = true
                return state.video
            }
            video?.interrupt()
            wake.signal()
        }

        /// Makes `video` the one a stop interrupts; false (and `video` interrupted) when the source
        /// was stopped already.
        @discardableResult
        func install(_ video: Shim.Video?) -> Bool {
            let installed = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.video = video
                return true
            }
            if !installed { video?.interrupt() }
            return installed
        }

        /// Waits `delay` or until stopped; true when the wait ran out without a stop.
        func sleep(_ delay: Duration) -> Bool {
            guard !isStopped else { return false }
            if delay > .zero {
                let nanoseconds = Int(min(Double(Shim.Video.milliseconds(delay)) * 1e6, Double(Int.max)))
                _ = wake.wait(timeout: .now() + .nanoseconds(nanoseconds))
            }
            return !isStopped
        }
    }
}
