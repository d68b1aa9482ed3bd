import Dispatch
import Foundation
import FrameOCR
import Synchronization

// `frameocr video`'s source: the forms of SOURCE, the options that open it and keep it going,
// Ctrl-C, and what the report says about it.
extension VideoCommand {
    /// The options of this file (values).
    static let sourceValued: Set<String> = ["reconnect", "reconnect-delay", "stall-timeout", "open-timeout", "frames"]

    static let sourceHelp = """
          SOURCE is a video file, a directory of images, a camera (/dev/video0, or its index 0),
          a stream URL (rtsp://, rtsps://, rtmp://, http://, https://, udp://, tcp://, rtp://,
          srt://; through FFmpeg) or a GStreamer pipeline that ends in appsink (quote it:
          'videotestsrc ! videoconvert ! appsink'). Cameras, pipelines and streams are live:
          no frame count, read until they end, stall, or Ctrl-C.
          --stall-timeout D         a live source that delivers no frame for D fails (or
                                    reconnects): 5s (default), 500ms, or off
          --open-timeout D          opening a live source may take D: 10s (default), or off
          --reconnect N             after a stall or the end of a live stream, try N times to
                                    open it again, waiting 0.5 s, 1 s, 2 s… (default 0: off)
          --reconnect-delay D       the first wait before a reconnect (default 500ms), doubling
                                    up to 10 s
          --frames N                stop after N frames have been read
        """

    /// The source options: timeouts, reconnects and the frame size limit.
    /// - Throws: `UsageError` for a bad option value.
    static func sourceOptions(_ a: Arguments, frameRate: Double) throws -> VideoSource.Options {
        var options = VideoSource.Options(frameRate: frameRate, limits: try CommonOptions.limits(a))
        if let d = try timeout(a, "stall-timeout") { options.stallTimeout = d }
        if let d = try timeout(a, "open-timeout") { options.openTimeout = d }
        if let n = try a.int("reconnect") {
            guard n >= 0 else { throw UsageError("--reconnect: \(n) must be ≥ 0 (0: off)") }
            if n > 0 {
                var policy = VideoSource.ReconnectPolicy(attempts: n)
                if let d = try a.duration("reconnect-delay") {
                    policy.initialDelay = d
                    policy.maximumDelay = max(policy.maximumDelay, d)
                }
                options.reconnect = policy
            }
        } else if a.value("reconnect-delay") != nil {
            throw UsageError("--reconnect-delay needs --reconnect N")
        }
        return options
    }

    /// `--frames N`: nil, or N ≥ 1.
    static func frameLimit(_ a: Arguments) throws(UsageError) -> Int? {
        guard let n = try a.int("frames") else { return nil }
        guard n >= 1 else { throw UsageError("--frames: \(n) must be ≥ 1") }
        return n
    }

    /// A timeout option: a duration, or `off` (no limit: `.some(nil)`); nil when not given.
    private static func timeout(_ a: Arguments, _ name: String) throws(UsageError) -> Duration?? {
        guard let v = a.value(name) else { return nil }
        if v.lowercased() == "off" { return .some(nil) }
        return .some(try a.duration(name))
    }

    /// The `source` object of `--stats-json`: what was read and how it ended.
    static func sourceReport(_ source: borrowing VideoSource, stoppedBy: String) -> VideoReport.Source {
        VideoReport.Source(
            path: source.path, kind: source.location.kind, live: source.isLive, backend: .init(source.backendName),
            frameRate: source.frameRate, frameCount: .init(source.frameCount), reconnects: source.reconnectCount,
            reconnectAttempts: source.reconnectAttempts, stoppedBy: stoppedBy)
    }

    /// One line after the report for a live source, or for any source stopped by a signal:
    /// `source: LOCATION (KIND, BACKEND, live): reconnected N times (M attempts); stopped by WHAT`.
    static func sourceLine(_ source: borrowing VideoSource, stoppedBy: String) -> String? {
        guard source.isLive || stoppedBy.hasPrefix("SIG") else { return nil }
        var what = [source.location.kind]
        if let backend = source.backendName { what.append(backend) }
        if source.isLive { what.append("live") }
        let n = source.reconnectCount
        return "source: \(source.path) (\(what.joined(separator: ", "))): reconnected \(n) time\(n == 1 ? "" : "s") "
            + "(\(source.reconnectAttempts) attempt\(source.reconnectAttempts == 1 ? "" : "s")); stopped by \(stoppedBy)"
    }

    /// Ctrl-C (SIGINT) and SIGTERM during `frameocr video`, on Dispatch signal sources (the
    /// signals themselves are ignored, so nothing runs in a signal handler). The first stops the
    /// source through its `VideoSource.StopHandle` — no new frame is read; the frames already
    /// submitted are still processed (`FrameProcessor.finish()`) and the report is printed —
    /// and the command exits 0 unless something failed. The second exits at once with
    /// 128 + the signal's number (130 for SIGINT), without a report.
    final class Interruption: @unchecked Sendable {  // the signal sources are only kept alive
        private final class First: Sendable { let signal = Mutex<Int32?>(nil) }
        private let sources: [any DispatchSourceSignal]
        private let first: First

        init(stopping stop: VideoSource.StopHandle) {
            let queue = DispatchQueue(label: "frameocr.signals")
            let first = First()
            self.first = first
            sources = [SIGINT, SIGTERM].map { signo in
                signal(signo, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signo, queue: queue)
                // Not isolated to any actor (this init is not): it runs on `queue`.
                source.setEventHandler {
                    // Dispatch coalesces signals that arrive together: `data` counts them.
                    let count = max(Int(clamping: source.data), 1)
                    let isFirst = first.signal.withLock { seen -> Bool in
                        guard seen == nil else { return false }
                        seen = signo
                        return true
                    }
                    guard isFirst, count == 1 else { _exit(128 + signo) }
                    printError(
                        "frameocr: \(Self.name(signo)): no new frames; finishing the frames read "
                            + "(again to quit at once)")
                    stop.stop()
                }
                source.resume()
                return source
            }
        }

        /// The first signal received (`SIGINT`, `SIGTERM`), or nil.
        var signalName: String? { first.signal.withLock { $0 }.map(Self.name) }

        static func name(_ signo: Int32) -> String {
            signo == SIGINT ? "SIGINT" : signo == SIGTERM ? "SIGTERM" : "signal \(signo)"
        }
    }
}
