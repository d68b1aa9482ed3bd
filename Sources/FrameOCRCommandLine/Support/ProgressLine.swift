import Foundation
import FrameOCR
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The one progress line of the command line: a line on standard error, rewritten in place
/// (`\r`, the text, then erase to the end of the line) at most once per `interval`, drawn only
/// when standard error is a terminal. `recognize --format jsonl` counts images with it (see
/// ``describe(done:total:skipped:elapsed:)``), `video` frames.
final class ProgressLine: Sendable {
    private struct State {
        var done = 0
        var lastDrawn: ContinuousClock.Instant?
    }
    private let interval: Duration
    private let enabled: Bool
    private let start = ContinuousClock.now
    private let state = Mutex(State())

    /// - Parameters:
    ///   - interval: the least time between two drawings (the last one of a known total is
    ///     always drawn).
    ///   - enabled: draw at all (default: when standard error is a terminal).
    init(interval: Duration, enabled: Bool = isatty(STDERR_FILENO) != 0) {
        self.interval = interval
        self.enabled = enabled
    }

    /// Counts what is done — `done`, or one more than before when nil — and redraws the line with
    /// `text(done, elapsed)`, unless it was drawn less than ``interval`` ago and `done` is not
    /// `total`.
    func update(done: Int? = nil, total: Int? = nil, _ text: (_ done: Int, _ elapsed: Duration) -> String) {
        guard enabled else { return }
        let now = ContinuousClock.now
        let line: String? = state.withLock { s in
            s.done = done ?? s.done + 1
            if let last = s.lastDrawn, now - last < interval, s.done != total { return nil }
            s.lastDrawn = now
            return text(s.done, now - start)
        }
        if let line { FileHandle.standardError.write(Data(("\r" + line + "\u{1B}[K").utf8)) }
    }

    /// Ends the line: keeps it (a newline after it) or erases it.
    func finish(keeping: Bool) {
        guard enabled else { return }
        FileHandle.standardError.write(Data((keeping ? "\n" : "\r\u{1B}[K").utf8))
    }

    /// `1234/10000 images (7 done before) · 4.2 images/s · 35m 40s left`: images done of `total`
    /// (and those skipped), the rate, the time left.
    static func describe(done: Int, total: Int, skipped: Int, elapsed: Duration) -> String {
        let seconds = elapsed.milliseconds / 1000
        let rate = seconds > 0 ? Double(done) / seconds : 0
        var text = "\(done)/\(total) images"
        if skipped > 0 { text += " (\(skipped) done before)" }
        text += String(format: " · %.1f images/s", rate)
        if rate > 0, done < total {
            let left = Int((Double(total - done) / rate).rounded())
            text +=
                " · " + (left >= 3600 ? "\(left / 3600)h \(left % 3600 / 60)m" : "\(left / 60)m \(left % 60)s")
                + " left"
        }
        return text
    }
}
