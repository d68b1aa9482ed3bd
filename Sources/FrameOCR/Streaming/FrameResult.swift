/// What a ``FrameProcessor`` delivers for each frame it processed.
public struct FrameResult: Sendable {
    public enum Status: String, Sendable, Codable {
        /// Recognized within the budget (or without one).
        case complete
        /// The latency budget ran out: `recognition` holds the partial text recognized by the
        /// deadline, or is nil when the budget was spent before recognition could start.
        case budgetExceeded
        /// Preprocessing or recognition threw; see `error`. The processor goes on.
        case failed
    }

    /// The frame's ``Frame/id`` and ``Frame/timestamp``.
    public var frameID: UInt64
    public var timestamp: Duration
    public var status: Status
    /// The recognition result (text, boxes in upright-frame coordinates); nil when none was made.
    public var recognition: RecognitionResult?
    public var error: FrameOCRError?
    /// Time per stage, with `queueWait` and `total` (submission to result).
    public var timings: StageTimings
    /// The preprocessing backend that ran.
    public var backend: Backend
    /// With live reading (``FrameProcessor/Configuration/liveReading``): what the gate decided
    /// for this frame; nil otherwise.
    public var gate: GateDecision?
    /// With live reading: the tracks after this frame, top to bottom then left to right — the
    /// text the stream holds, never worse than the tracker's state; nil otherwise. (Then
    /// ``recognition`` holds only the lines read in this frame.)
    public var tracks: [TextTrack]?
    /// With live reading: the lines read in this frame (0 for a reused or blurred frame).
    public var linesRead = 0
    /// With live reading: how large the copy of the region was that this frame's lines were
    /// searched in, in its pixels per pixel of the region, 0…1: 1 at full size; below 1 when the
    /// search at full size would have taken more than half the time left of the latency budget
    /// (the smallest lines may then go unfound). nil for a frame not searched (reused, blurred) and
    /// without live reading. See ``LiveReading``.
    public var searchScale: Double?

    /// The recognized text ("" when there is none): with live reading, the tracks' consensus
    /// texts, one line each; otherwise the recognition's text.
    public var text: String {
        if let tracks { return tracks.map(\.text).joined(separator: "\n") }
        return recognition?.text ?? ""
    }
}
