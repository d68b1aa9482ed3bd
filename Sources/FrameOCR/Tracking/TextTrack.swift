/// A line of text followed from frame to frame, with a stable id and the consensus of every
/// reading of it: the Linux counterpart of VisionKit's `RecognizedItem.text` in a data scanner.
///
/// A ``FrameProcessor`` with ``FrameProcessor/Configuration/liveReading`` delivers the tracks of
/// each frame in ``FrameResult/tracks`` and their changes on ``FrameProcessor/trackEvents``. A
/// track is reported once it has text; its id never changes and is never reused in a processor.
public struct TextTrack: Sendable, Hashable, Identifiable {
    /// Where a track is in its life.
    public enum State: String, Sendable, Hashable, Codable {
        /// Seen, with fewer agreeing readings than ``LiveReading/confirmAfter``.
        case new
        /// ``LiveReading/confirmAfter`` of its kept readings read exactly its consensus text, and
        /// it was seen in the last frame read. It stays confirmed through readings that disagree
        /// while the consensus keeps that text; a consensus that moves to another text makes it
        /// `new` again until the new text is agreed on (a ``TrackEvent/confirmed(_:)`` again).
        case confirmed
        /// Not seen in the last frame read (hidden, or gone); its box follows the frame's motion.
        /// Seen again within ``LiveReading/removeAfter`` frames read, it keeps its id; else it is
        /// removed.
        case lost
    }

    /// The track's identifier: 1, 2, 3… in the order tracks are created.
    public var id: UInt64
    /// The consensus of its readings (see ``LiveReading``): every reading votes, character by
    /// character, weighted by its confidence.
    public var text: String
    /// 0…1: rises with the agreement among the readings and with the engine's confidence.
    public var confidence: Float
    /// 0…1: the weighted share of the kept readings' characters that agree with ``text``.
    public var agreement: Double
    /// Readings of this line so far (not only those kept for the vote).
    public var readings: Int
    public var state: State
    /// Where the line is (last seen, moved with the frame since): upright-frame pixels and
    /// normalized, like every box.
    public var box: TextBox
    /// The stream timestamps (``Frame/timestamp``) of the first and last frames it was seen in: a
    /// frame read in which a line matched it, or a frame the gate reused while it was in view.
    public var firstSeen: Duration
    public var lastSeen: Duration
    /// The frame ids (``Frame/id``) of the first and last frames it was seen in.
    public var firstFrameID: UInt64
    public var lastFrameID: UInt64
    /// The engine of its latest reading: ``RecognitionEngine/tesseract`` for the line finder's
    /// lines, ``RecognitionEngine/ctc`` for the text detector's regions and for lines Tesseract
    /// read poorly that the CTC recognizer read better (nil: never read). Both engines' readings
    /// vote in one consensus.
    public var engine: RecognitionEngine? = nil
    /// The text detector found the line (``LiveReading/detectEvery``). While the line finder does
    /// not find it, its ``box`` is the detector's region, a quad that follows turned text, moved
    /// with the frame since.
    public var detected = false

    /// A track with these values (for tests and for tracks made elsewhere; the processor makes
    /// its own).
    public init(
        id: UInt64, text: String, confidence: Float, agreement: Double, readings: Int, state: State, box: TextBox,
        firstSeen: Duration, lastSeen: Duration, firstFrameID: UInt64, lastFrameID: UInt64
    ) {
        self.id = id
        self.text = text
        self.confidence = confidence
        self.agreement = agreement
        self.readings = readings
        self.state = state
        self.box = box
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.firstFrameID = firstFrameID
        self.lastFrameID = lastFrameID
    }
}

/// A change of the tracks, in frame order: VisionKit's added / updated / removed, and the
/// moment a track's text is settled.
///
/// `.added` comes with a track's first reading, which may be poor (a line coming into view, a
/// blurred frame); `.confirmed` says the text can be trusted: ``LiveReading/confirmAfter``
/// readings agree on it exactly. A user who acts on text (a label scanned, a plate logged) waits
/// for `.confirmed`; one who shows text as it comes uses `.added` and `.updated`.
public enum TrackEvent: Sendable, Hashable {
    /// A track got its first text.
    case added(TextTrack)
    /// A track's consensus text changed (not emitted for a box that only moved).
    case updated(TextTrack)
    /// A track became ``TextTrack/State/confirmed``: once per text confirmed (again when its
    /// consensus moved to another text that was agreed on in turn, or started again because its
    /// line changed), after its `.added` or `.updated` of the same frame.
    case confirmed(TextTrack)
    /// A track was not seen for ``LiveReading/removeAfter`` frames read, or the stream ended.
    case removed(TextTrack)

    /// The track the event is about, as it was then.
    public var track: TextTrack {
        switch self {
        case .added(let t), .updated(let t), .confirmed(let t), .removed(let t): t
        }
    }
}
