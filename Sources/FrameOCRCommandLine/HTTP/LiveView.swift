internal import CFrameOCRHTTP
import Dispatch
import Foundation
import FrameOCR
import Synchronization

/// What `frameocr video --http` shows (docs/http.md, "The live page"): the latest frame read,
/// with each track's box, id and text drawn on it, as JPEG; the tracks; the track events; the
/// processor's figures. Fed from the video command's consumers, read by the viewers' connection
/// threads. Bounded: a few frames kept for annotation, one JPEG, ``eventCapacity`` events.
/// Viewers never hold the processor back: the JPEG is made on a thread of its own at a lower
/// priority (nice ``encoderNice``), at most ``maximumStreamRate`` a second, a frame arriving while
/// one is being made is skipped (counted), and each viewer takes the latest.
package final class LiveView: Sendable {
    /// Events kept for `/events` (older ones are gone for a viewer that lags further).
    static let eventCapacity = 256
    /// Frames kept for annotation: the frames in flight in the processor, and one.
    let frameCapacity: Int
    /// JPEG quality of `/stream.mjpg`.
    static let jpegQuality = 70
    /// The fastest `/stream.mjpg` is made, frames per second.
    static let maximumStreamRate = 10.0
    /// The encoding thread's nice value: below the reader's threads, so that on a busy machine
    /// the stream loses frames and the reader keeps its budget.
    static let encoderNice: Int32 = 10

    private struct State {
        var frames: [(id: UInt64, frame: Frame)] = []
        var jpeg: [UInt8] = []
        var jpegSequence: UInt64 = 0
        var lastEncoded: ContinuousClock.Instant?
        var encoding = false
        /// The frame to draw and encode next (the encoder takes it; a newer one replaces it).
        var job: (Frame, [Annotation])?
        var tracks: [TextTrack] = []
        var events: [(sequence: UInt64, json: String)] = []
        var eventSequence: UInt64 = 0
        var resultsSeen = 0
        var framesSkipped = 0
        var finished = false
    }
    private let state = Mutex(State())
    private let changed = NSCondition()
    /// Viewers of `/stream.mjpg` now, and the frames they skipped (a slow viewer takes the latest).
    let viewers = Atomic<Int>(0)
    let viewerFramesSkipped = Atomic<Int>(0)

    /// The processor's figures, read when `/metrics` is asked for (not per frame).
    private let statistics: @Sendable () -> FrameProcessor.Statistics

    package init(inFlight: Int, statistics: @escaping @Sendable () -> FrameProcessor.Statistics) {
        frameCapacity = inFlight + 1
        self.statistics = statistics
        // The encoder: a thread of its own, niced (a Dispatch pool thread would keep the nice
        // value for whatever runs on it next).
        let encoder = Thread { [self] in encode() }
        encoder.name = "frameocr.live-view.jpeg"
        encoder.start()
    }

    /// The encoder thread: draws and encodes each job until the stream is finished.
    private func encode() {
        _ = focr_http_thread_nice(Self.encoderNice)
        while true {
            changed.lock()
            var next: (Frame, [Annotation])?
            var finished = false
            while true {
                (next, finished) = state.withLock { s in
                    defer { s.job = nil }
                    return (s.job, s.finished)
                }
                if next != nil || finished { break }
                _ = changed.wait(until: Date(timeIntervalSinceNow: 0.5))
            }
            changed.unlock()
            guard let (frame, annotations) = next else { return }
            let jpeg = try? frame.buffer.annotated(with: annotations).encoded(as: "jpg", quality: Self.jpegQuality)
            state.withLock { s in
                s.encoding = false
                if let jpeg {
                    s.jpeg = jpeg
                    s.jpegSequence += 1
                }
            }
            broadcast()
        }
    }

    // MARK: Fed by the video command

    /// A frame submitted: kept until its result comes (at most ``frameCapacity``).
    package func add(_ frame: Frame) {
        state.withLock { s in
            s.frames.append((frame.id, frame))
            if s.frames.count > frameCapacity { s.frames.removeFirst(s.frames.count - frameCapacity) }
        }
    }

    /// A result: its tracks become the page's, and its frame is annotated and encoded (not when
    /// no one watches, not faster than ``maximumStreamRate``, not while the last is being made).
    package func deliver(_ result: FrameResult) {
        let job: (Frame, [Annotation])? = state.withLock { s in
            s.resultsSeen += 1
            if let tracks = result.tracks { s.tracks = tracks }
            guard let i = s.frames.firstIndex(where: { $0.id == result.frameID }) else { return nil }
            let frame = s.frames[i].frame
            s.frames.removeFirst(i + 1)
            guard viewers.load(ordering: .relaxed) > 0 else { return nil }
            let now = ContinuousClock.now
            if s.encoding
                || s.lastEncoded.map({ now - $0 < .seconds(1 / Self.maximumStreamRate) }) == true
            {
                s.framesSkipped += 1
                return nil
            }
            s.encoding = true
            s.lastEncoded = now
            s.job = (frame, Annotation.annotations(for: result))
            return s.job
        }
        if job != nil { broadcast() }
    }

    /// A track event, kept for `/events`.
    package func event(_ event: TrackEvent) {
        let json = VideoOutput.eventJSON(event)
        state.withLock { s in
            s.eventSequence += 1
            s.events.append((s.eventSequence, json))
            if s.events.count > Self.eventCapacity { s.events.removeFirst(s.events.count - Self.eventCapacity) }
        }
        broadcast()
    }

    /// The stream ended: every viewer's stream ends after what is left.
    package func finish() {
        state.withLock { $0.finished = true }
        broadcast()
    }

    private func broadcast() {
        changed.lock()
        changed.broadcast()
        changed.unlock()
    }

    /// Waits at most `timeout` for a change.
    private func wait(_ timeout: TimeInterval) {
        changed.lock()
        _ = changed.wait(until: Date(timeIntervalSinceNow: timeout))
        changed.unlock()
    }

    // MARK: Read by the viewers

    /// `{"tracks":[…],"results":N}`: every track with text, as `frameocr video --format jsonl`
    /// writes them.
    package var tracksJSON: String {
        let (tracks, results) = state.withLock { ($0.tracks, $0.resultsSeen) }
        var o = JSONOutput.Object()
        o.add("results", results)
        o.add("tracks", json: "[" + tracks.map(VideoOutput.trackJSON).joined(separator: ",") + "]")
        return o.json
    }

    /// The `/stream.mjpg` body: each new JPEG as a part of `multipart/x-mixed-replace`, the
    /// latest when the viewer is ready for one (the ones it missed counted as skipped).
    package func mjpegStream() -> (
        next: @Sendable (UnsafeMutableRawBufferPointer) -> Int, ended: @Sendable () -> Void
    ) {
        viewers.add(1, ordering: .relaxed)
        let cursor = Cursor()
        let ended: @Sendable () -> Void = { [self] in viewers.subtract(1, ordering: .relaxed) }
        let next: @Sendable (UnsafeMutableRawBufferPointer) -> Int = { [self] buffer in
            // The rest of the part being sent first.
            if cursor.pending.isEmpty {
                var next: (UInt64, [UInt8])?
                for _ in 0..<10 {
                    next = state.withLock { s in
                        s.jpegSequence > cursor.sent && !s.jpeg.isEmpty ? (s.jpegSequence, s.jpeg) : nil
                    }
                    if next != nil || state.withLock({ $0.finished }) { break }
                    wait(0.1)
                }
                guard let (sequence, jpeg) = next else {
                    if state.withLock({ $0.finished }) { return -1 }
                    // Nothing new for a second: the part boundary alone keeps the connection.
                    cursor.pending = Array("\r\n".utf8)
                    return cursor.take(into: buffer)
                }
                if cursor.sent > 0, sequence > cursor.sent + 1 {
                    viewerFramesSkipped.add(Int(sequence - cursor.sent - 1), ordering: .relaxed)
                }
                cursor.sent = sequence
                cursor.pending =
                    Array("--frame\r\nContent-Type: image/jpeg\r\nContent-Length: \(jpeg.count)\r\n\r\n".utf8) + jpeg
                    + Array("\r\n".utf8)
            }
            return cursor.take(into: buffer)
        }
        return (next, ended)
    }

    /// The `/events` body: Server-Sent Events, one `event: track` per track event (its JSON
    /// Lines object as data, its sequence number as `id`), from the oldest kept, or after
    /// `lastEventID` (a reconnecting `EventSource`'s `Last-Event-ID`); a comment every second
    /// keeps the connection.
    package func eventStream(after lastEventID: UInt64 = 0) -> @Sendable (UnsafeMutableRawBufferPointer) -> Int {
        let cursor = Cursor()
        cursor.sent = lastEventID
        return { [self] buffer in
            if cursor.pending.isEmpty {
                var batch: [(UInt64, String)] = []
                for _ in 0..<10 {
                    batch = state.withLock { s in s.events.filter { $0.sequence > cursor.sent } }
                    if !batch.isEmpty || state.withLock({ $0.finished }) { break }
                    wait(0.1)
                }
                if batch.isEmpty {
                    if state.withLock({ $0.finished }) { return -1 }
                    cursor.pending = Array(": keep-alive\n\n".utf8)
                } else {
                    cursor.sent = batch.last!.0
                    cursor.pending = Array(
                        batch.map { "id: \($0.0)\nevent: track\ndata: \($0.1)\n\n" }.joined().utf8)
                }
            }
            return cursor.take(into: buffer)
        }
    }

    /// One viewer's place in a stream: the last part sent, and what is left of the one being sent.
    private final class Cursor: @unchecked Sendable {  // used by its connection's thread alone
        var sent: UInt64 = 0
        var pending: [UInt8] = []

        func take(into buffer: UnsafeMutableRawBufferPointer) -> Int {
            let n = min(buffer.count, pending.count)
            pending.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            pending.removeFirst(n)
            return n
        }
    }

    /// Adds the live run's families to `p`: frames submitted, processed, dropped, reused,
    /// blurred, over budget, searched reduced; tracks added and removed; stage latencies; viewers.
    package func metrics(into p: inout PrometheusText) {
        let skipped = state.withLock { $0.framesSkipped }
        let s = statistics()
        let counters: [(String, String, Int)] = [
            ("frameocr_frames_submitted_total", "Frames submitted to the processor.", s.submitted),
            (
                "frameocr_frames_processed_total", "Frames processed (read, reused or skipped as blurred).",
                s.processed
            ),
            ("frameocr_frames_dropped_total", "Frames dropped by the drop policy.", s.droppedTotal),
            ("frameocr_frames_reused_total", "Frames the gate found unchanged.", s.reused),
            ("frameocr_frames_blurred_total", "Frames the gate skipped as blurred.", s.blurred),
            ("frameocr_frames_over_budget_total", "Frames over the latency budget.", s.overBudget),
            (
                "frameocr_frames_searched_reduced_total",
                "Frames whose lines were searched in a reduced copy to keep the budget.", s.reducedSearches
            ),
            ("frameocr_tracks_added_total", "Tracks that got text.", s.tracksAdded),
            ("frameocr_tracks_removed_total", "Tracks removed after having text.", s.tracksRemoved),
        ]
        for (name, help, value) in counters {
            p.family(name, "counter", help)
            p.sample(name, [], Double(value))
        }
        p.family("frameocr_frames_held", "gauge", "Frames queued or being read now.")
        p.sample("frameocr_frames_held", [], Double(s.framesHeld))
        // The processor keeps percentiles per stage (FrameProcessor.Statistics.stages): a
        // summary.
        p.family(
            "frameocr_frame_stage_duration_seconds", "summary", "Time of each stage of a frame, and its total.")
        for stage in s.stages {
            for (q, d) in [("0.5", stage.p50), ("0.9", stage.p90), ("0.99", stage.p99)] {
                p.sample(
                    "frameocr_frame_stage_duration_seconds", [("stage", stage.name), ("quantile", q)], d.seconds)
            }
            p.sample(
                "frameocr_frame_stage_duration_seconds_sum", [("stage", stage.name)],
                stage.mean.seconds * Double(stage.count))
            p.sample("frameocr_frame_stage_duration_seconds_count", [("stage", stage.name)], Double(stage.count))
        }
        p.family("frameocr_stream_viewers", "gauge", "Viewers of /stream.mjpg now.")
        p.sample("frameocr_stream_viewers", [], Double(viewers.load(ordering: .relaxed)))
        p.family(
            "frameocr_stream_frames_skipped_total", "counter",
            "Frames not made into JPEG (one being made, or faster than the stream's rate), and JPEGs a slow viewer missed."
        )
        p.sample(
            "frameocr_stream_frames_skipped_total", [],
            Double(skipped + viewerFramesSkipped.load(ordering: .relaxed)))
    }
}
