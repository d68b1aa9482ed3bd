import Foundation

extension VideoSource {
    /// Reconnecting a live source that stalled or whose stream ended: up to ``attempts`` tries
    /// per interruption, the *k*-th after a delay of ``initialDelay`` × ``multiplier``^(*k*−1),
    /// at most ``maximumDelay`` (exponential backoff: 0.5, 1, 2, 4… s by default).
    ///
    /// A try opens the location again with the source's ``Options/openTimeout``; once one
    /// succeeds, reading goes on with the next frame id (ids keep increasing) and the attempts
    /// start afresh for the next interruption. ``VideoSource/reconnectCount`` counts the
    /// successes, ``VideoSource/reconnectAttempts`` every try. When every try fails,
    /// ``VideoSource/next()`` throws the interruption's error (`.streamStalled` for a stall,
    /// `.io` for an ended stream) with the number of tries and the last one's reason.
    ///
    /// The delays are waited inside ``VideoSource/next()``, and ``VideoSource/StopHandle/stop()``
    /// cuts them short. Opening at ``VideoSource/init(_:options:)`` is not retried: a wrong
    /// address fails at once.
    public struct ReconnectPolicy: Sendable, Equatable {
        /// Tries per interruption, ≥ 1.
        public var attempts: Int
        /// The delay before the first try, ≥ 0. Default 0.5 s.
        public var initialDelay: Duration
        /// The factor from one delay to the next, ≥ 1. Default 2.
        public var multiplier: Double
        /// The longest delay, ≥ ``initialDelay``. Default 10 s.
        public var maximumDelay: Duration

        public init(
            attempts: Int, initialDelay: Duration = .milliseconds(500), multiplier: Double = 2,
            maximumDelay: Duration = .seconds(10)
        ) {
            self.attempts = attempts
            self.initialDelay = initialDelay
            self.multiplier = multiplier
            self.maximumDelay = maximumDelay
        }

        /// The wait before try `attempt` (1-based): `initialDelay × multiplier^(attempt − 1)`,
        /// at most ``maximumDelay``.
        public func delay(beforeAttempt attempt: Int) -> Duration {
            let factor = pow(multiplier, Double(max(attempt, 1) - 1))
            let seconds = initialDelay.seconds * factor
            guard seconds.isFinite, seconds < maximumDelay.seconds else { return maximumDelay }
            return .nanoseconds(Int64((seconds * 1e9).rounded()))
        }

        /// Checks every field's range.
        /// - Throws: ``FrameOCRError/Code/invalidParameter`` naming the field (stage `.load`).
        public func validate() throws(FrameOCRError) {
            guard attempts >= 1 else {
                throw .invalidParameter("reconnect.attempts", "\(attempts) must be ≥ 1", stage: .load)
            }
            guard initialDelay >= .zero else {
                throw .invalidParameter("reconnect.initialDelay", "\(initialDelay) must be ≥ 0", stage: .load)
            }
            guard multiplier.isFinite, multiplier >= 1 else {
                throw .invalidParameter(
                    "reconnect.multiplier", "\(multiplier) must be a finite number ≥ 1", stage: .load)
            }
            guard maximumDelay >= initialDelay else {
                throw .invalidParameter(
                    "reconnect.maximumDelay", "\(maximumDelay) must be ≥ initialDelay (\(initialDelay))", stage: .load)
            }
        }
    }
}
