import Foundation
import FrameOCR

/// What `frameocr video` writes per result and per track event: a text line, or a JSON Lines
/// object (its keys sorted, durations in milliseconds to the microsecond).
enum VideoOutput {
    /// `#ID SECONDS [STATUS] TEXT`, the text's non-empty lines joined by " | ".
    static func textLine(_ r: FrameResult) -> String {
        let seconds = String(format: "%.3f", r.timestamp.milliseconds / 1000)
        var text = r.text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " | ")
        if r.status == .failed, let e = r.error { text = e.description }
        return "#\(r.frameID) \(seconds) [\(r.status.rawValue)] \(text)"
    }

    /// `+ SECONDS #ID TEXT` for a track that got text, `~` for one whose text changed, `=` for
    /// one confirmed (its text settled), `-` for one removed; SECONDS is the stream time it was
    /// last seen.
    static func eventLine(_ e: TrackEvent) -> String {
        let t = e.track
        return "\(kind(e).mark) \(String(format: "%.3f", t.lastSeen.milliseconds / 1000)) #\(t.id) \(t.text)"
    }

    /// An event's mark in the text lines and its name in JSON.
    static func kind(_ e: TrackEvent) -> (mark: String, name: String) {
        switch e {
        case .added: ("+", "added")
        case .updated: ("~", "updated")
        case .confirmed: ("=", "confirmed")
        case .removed: ("-", "removed")
        }
    }

    /// A track as JSON: id, text, confidence, agreement, state, readings, box (upright pixels and
    /// normalized, as every box; the detector's quad for a track it found), firstSeenMs,
    /// lastSeenMs, engine (of its latest reading: "tesseract" or "ctc"; absent before one) and
    /// detected (true when the text detector found the line).
    struct Track: Encodable {
        var id: UInt64
        var text: String
        var confidence: Double
        var agreement: Double
        var state: String
        var readings: Int
        var box: TextBox
        var firstSeenMs: Double
        var lastSeenMs: Double
        var engine: String?
        var detected: Bool

        init(_ t: TextTrack) {
            id = t.id
            text = t.text
            confidence = Double((t.confidence * 1000).rounded() / 1000)
            agreement = (t.agreement * 1000).rounded() / 1000
            state = t.state.rawValue
            readings = t.readings
            box = t.box
            firstSeenMs = JSONOutput.milliseconds(t.firstSeen)
            lastSeenMs = JSONOutput.milliseconds(t.lastSeen)
            engine = t.engine?.rawValue
            detected = t.detected
        }
    }

    /// One result as JSON: frame, timestampMs, status, text, backend, timingsMs (per stage),
    /// error, with live reading gate, tracks, linesRead and searchScale (a searched frame's, to
    /// three decimals), and the recognition result as `frameocr recognize --format json` writes
    /// it (with live reading: the lines read in this frame).
    struct FrameRow: Encodable {
        var frame: UInt64
        var timestampMs: Double
        var status: String
        var text: String
        var backend: String
        var timingsMs: [String: Double]
        var error: String?
        var gate: String?
        var tracks: [Track]?
        var linesRead: Int?
        var searchScale: Double?
        var recognition: RecognitionResult?

        init(_ r: FrameResult) {
            frame = r.frameID
            timestampMs = JSONOutput.milliseconds(r.timestamp)
            status = r.status.rawValue
            text = r.text
            backend = r.backend.description
            timingsMs = Dictionary(
                uniqueKeysWithValues: r.timings.stages.map { ($0.name, JSONOutput.milliseconds($0.duration)) })
            error = r.error?.description
            gate = r.gate?.rawValue
            tracks = r.tracks?.map(Track.init)
            linesRead = r.tracks == nil ? nil : r.linesRead
            searchScale = r.searchScale.map { ($0 * 1000).rounded() / 1000 }
            recognition = r.recognition
        }
    }

    /// One result's JSON Lines row.
    static func jsonLine(_ r: FrameResult) -> String { JSONOutput.encode(FrameRow(r)) }

    /// A track's JSON (``Track``).
    static func trackJSON(_ t: TextTrack) -> String { JSONOutput.encode(Track(t)) }

    /// A track event's JSON: `{"event": "added"|"updated"|"confirmed"|"removed", "track": {…}}`,
    /// with `frame` (the track's last frame seen) after `event` when `frame` is true (`video
    /// --events`).
    static func eventJSON(_ e: TrackEvent, frame: Bool = false) -> String {
        var o = JSONOutput.Object()
        o.add("event", kind(e).name)
        if frame { o.add("frame", Int(e.track.lastFrameID)) }
        o.add("track", json: trackJSON(e.track))
        return o.json
    }
}
