/// The timestamps of a live source's frames, as ``VideoSource`` documents them: zero at the
/// first frame; the first frame of each connection at its arrival time on the monotonic clock;
/// later frames of a connection at the backend's time differences, where it gives increasing
/// times (FFmpeg, V4L2), else at their arrival times (GStreamer); always strictly increasing
/// (a frame that would not be is put 1 ms after the one before).
struct LiveTimestamps {
    /// The arrival time of the source's first frame (nanoseconds, the shim's monotonic clock).
    private var origin: Int64?
    /// The backend time of the connection's anchor frame and that frame's timestamp.
    private var anchor: (milliseconds: Double, timestamp: Duration)?
    /// The backend time of the frame before, in this connection.
    private var previousMilliseconds: Double?
    private var previous: Duration?

    /// Starts a new connection: its first frame is anchored at its arrival time.
    mutating func reconnected() {
        anchor = nil
        previousMilliseconds = nil
    }

    /// The timestamp of a frame the backend timed at `milliseconds` (nil: no time) that
    /// arrived at `receivedNanoseconds`.
    mutating func timestamp(milliseconds: Double?, receivedNanoseconds: Int64) -> Duration {
        let origin = self.origin ?? receivedNanoseconds
        self.origin = origin
        var t: Duration
        if let milliseconds, let anchor, let before = previousMilliseconds, milliseconds > before {
            t = anchor.timestamp + .nanoseconds(Int64(((milliseconds - anchor.milliseconds) * 1e6).rounded()))
        } else {
            // The connection's first frame, a backend without times, or one whose time went back.
            t = .nanoseconds(receivedNanoseconds - origin)
            if let previous, t <= previous { t = previous + .milliseconds(1) }
            anchor = milliseconds.map { ($0, t) }
        }
        if let previous, t <= previous { t = previous + .milliseconds(1) }
        previousMilliseconds = milliseconds
        previous = t
        return t
    }
}
