/// Delivers frames at their timestamps, like a camera: frame *t* is due at `start + (t − origin)`.
///
/// Used by `frameocr video --realtime` so a file plays at its own speed and the
/// ``FrameProcessor`` sees the arrival pattern of a live stream (and drops what it cannot keep up
/// with) instead of every frame as fast as the decoder makes them. A frame that is already late
/// (the decoder fell behind) is not waited for and is not skipped: like a camera, the pacer never
/// delivers early and never holds frames back to catch up.
///
/// ```swift
/// let pacer = FramePacer()
/// while let frame = try source.next() {
///     try await pacer.wait(for: frame.timestamp)
///     processor.submit(frame)
/// }
/// ```
public struct FramePacer: Sendable {
    /// The instant the frame with timestamp `origin` is due.
    public let start: ContinuousClock.Instant
    /// The timestamp that is due at `start` (usually zero, the start of the stream).
    public let origin: Duration

    /// - Parameters:
    ///   - start: when the stream starts playing; default now.
    ///   - origin: the timestamp due at `start`; default zero.
    public init(start: ContinuousClock.Instant = ContinuousClock.now, origin: Duration = .zero) {
        self.start = start
        self.origin = origin
    }

    /// When a frame with `timestamp` is due (on the continuous clock).
    public func deadline(for timestamp: Duration) -> ContinuousClock.Instant {
        start + (timestamp - origin)
    }

    /// Sleeps until the frame with `timestamp` is due; returns at once if it is already due.
    /// - Returns: how late the frame is on return (≥ zero; the scheduler's wake-up delay, or how
    ///   far behind the caller already was).
    /// - Throws: `CancellationError` when the task is cancelled while sleeping.
    @discardableResult
    public func wait(for timestamp: Duration) async throws -> Duration {
        let due = deadline(for: timestamp)
        if ContinuousClock.now < due {
            try await Task.sleep(until: due, tolerance: .milliseconds(1), clock: .continuous)
        }
        return max(.zero, ContinuousClock.now - due)
    }
}
