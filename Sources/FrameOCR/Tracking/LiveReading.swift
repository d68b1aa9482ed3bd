/// Live reading over time: a ``FrameProcessor`` that follows the lines of text of a stream from
/// frame to frame instead of reading every frame from scratch (``FrameProcessor/Configuration/liveReading``).
///
/// Per frame, in the processor's workers:
/// 1. **Gate** (``GateDecision``): a signature of the frame — a copy reduced to
///    ``thumbnailWidth`` pixels wide, and its sharpness (the variance of the Laplacian over the
///    variance of the gradient, of a copy at most 480 px on its longer side: blur lowers it,
///    while the amount of text, its contrast and the light do not) — says whether anything
///    changed since the last frame read (the largest block's mean absolute difference below
///    ``unchangedBelow``: *reused*, nothing read) and whether the frame is too blurred to read
///    (sharpness below ``blurredBelow`` of the recent frames' median: *blurred*, nothing read,
///    counted). `focr_frame_signature`, `focr_frame_difference`, `analysis/frames.cpp`.
/// 2. **Lines**: the lines of text are found (`focr_text_lines` on the gray region, and on the
///    polarity-normalized one for lines of light text on dark: characters at least
///    ``minimumTextHeight`` pixels tall, at most ``maximumLines``). Under a latency budget, in a
///    copy of the region reduced as far as needed for the search to take at most half the time
///    left (its running cost per pixel predicts it; never below 3-pixel lower case), so that the
///    search alone never takes a frame over budget: ``FrameResult/searchScale``,
///    ``FrameProcessor/Statistics/reducedSearches``; `docs/live.md#the-search-within-the-budget`.
/// 3. **Schedule**: the lines of new and unconfirmed tracks are read first, then confirmed
///    tracks whose line changed since their last reading (``changedAbove``, off by default), then those not
///    read for ``rereadEvery`` frames; each line alone (PSM 7 on its crop of the image it was
///    found in, the surface beyond a label's edges cleared). Reading stops when
///    the latency budget would be spent: single lines give the scheduler points at which it can
///    stop, where a page's layout analysis cannot be cut.
///
/// Then, in frame order (whatever order the workers finish in), the **tracker**: the frame's
/// global motion against the frame before (a similarity: phase correlation of a 256 px copy, then
/// `cv::estimateAffinePartial2D` over its tiles' shifts) moves every track; the lines found are matched to the tracks by overlap (at least ``matchOverlap`` of the
/// smaller box); each reading votes into its track's consensus (``TextTrack/text``: the readings
/// aligned character by character and voted, weighted by confidence — ROVER, Fiscus 1997); a
/// track is confirmed once ``confirmAfter`` of its readings agree exactly on its text (a
/// ``TrackEvent/confirmed(_:)`` event), lost when a frame read does not see it,
/// and removed after ``removeAfter`` frames read without it (a frame skipped as blurred does not
/// count, and one read blurred — below ``blurredBelow`` of the sharpness of the frame the track
/// was last seen in — counts a quarter). The frame's result carries the
/// tracks (``FrameResult/tracks``), so it is never worse than the tracker's state; the changes
/// go to ``FrameProcessor/trackEvents``.
///
/// Everything kept is bounded: ``maximumTracks`` tracks, ``readingsPerTrack`` readings each, one
/// signature per worker and one for the last frame read, and at most one pending result per
/// worker waiting for its turn.
///
/// The thresholds were chosen on generated scenes and checked on the project's real video. How:
/// `docs/tuning.md#live-reading`.
public struct LiveReading: Hashable, Sendable {
    // MARK: Gate

    /// Width in pixels of the reduced copy the gate and the motion estimate work on (16…1024;
    /// default 128). Its height follows the frame's aspect.
    public var thumbnailWidth = 128
    /// A frame whose reduced copy differs from the last frame read's by less than this (gray
    /// levels, 0…255; default 3) reuses that frame's reading: nothing is read. The difference is
    /// the largest mean absolute difference over square blocks of thumbnail pixels
    /// (`FrameGate.differenceBlock` on a side at most: an eighth of the frame's width at the
    /// default ``thumbnailWidth``; `focr_frame_difference`), so that a digit changing on a label
    /// is not averaged away over the frame. Sensor noise on a still scene measures about 0.3–1 in every
    /// block; a line that moves by a third of its height, or a changed character 3 thumbnail
    /// pixels tall, several.
    public var unchangedBelow: Double = 3
    /// A frame whose sharpness is below this fraction of the median sharpness of the last
    /// ``sharpnessWindow`` frames (0…1; default 0.35; 0 turns the test off) is too blurred to
    /// read: it is skipped and counted (``FrameProcessor/Statistics/blurred``).
    public var blurredBelow: Double = 0.35
    /// Frames whose sharpness makes the stream's recent level (4…256; default 30). No frame is
    /// called blurred before 4 have been measured.
    public var sharpnessWindow = 30

    // MARK: Lines

    /// Smallest height, in pixels of the upright frame, of a line that is read: of its text's box,
    /// from the top of its capitals and ascenders to the foot of its descenders (≥ 3; default 10).
    /// Lower-case letters down to `LiveReader.lowerCase` of it are part of the line.
    public var minimumTextHeight: Double = 10
    /// Most lines found per frame, the most ink first (1…64; default 8).
    public var maximumLines = 8
    /// A confirmed track is read again when its last reading is this many frames read old
    /// (≥ 1; default 8), so that a change of its text is seen.
    public var rereadEvery = 8
    /// When above 0, a confirmed track is read again at once, and its consensus starts again
    /// from that reading, when its line's profile (`LineProfile`: darkness of the text's box
    /// reduced to a grid of cells, divided by its mean) differs from the one at its last reading by
    /// more than this in some eighth of the line (the mean absolute difference there, the best
    /// of the profiles shifted by a column either way; 0…; default 0: off): for a display whose
    /// text changes (a meter, a price, a screen), where the older readings, of the old text,
    /// would outvote the new one. A line whose box is found a pixel or two off measures up to
    /// about 0.5, one changed digit about 0.25, a changed number up to 0.9: the profile tells a
    /// change from a shift poorly. Off by default because a hand or a shadow passing over a line
    /// changes its pixels too (0.4 reads every changed number of the generated scenes, and
    /// loses words of a sign held in moving hands: `docs/tuning.md#live-reading`). Without it a
    /// change is read within ``rereadEvery`` frames read and outvotes the old text as readings
    /// come.
    public var changedAbove: Double = 0

    // MARK: Tracker

    /// A line found in a frame belongs to a track when their boxes overlap by at least this
    /// share of the smaller box, after the track has moved with the frame (0…1; default 0.3).
    public var matchOverlap: Double = 0.3
    /// Kept readings that must read a track's consensus text exactly for it to be confirmed
    /// (≥ 1; default 2; above ``readingsPerTrack``, all the kept readings): two readings that
    /// disagree do not confirm a track.
    public var confirmAfter = 2
    /// Frames read without a track's line after which it is removed (≥ 1; default 12). Frames
    /// skipped as blurred do not count; a frame read whose sharpness is below ``blurredBelow`` of
    /// the sharpness of the frame the track was last seen in counts a quarter (so a quick move
    /// of the camera keeps the track's id, and a stream that stays blurred ends it after
    /// 4 × `removeAfter` such frames).
    public var removeAfter = 12
    /// Readings kept per track for its consensus (1…256; default 16).
    public var readingsPerTrack = 16
    /// Most tracks kept at once (1…1024; default 32); a line beyond that is not tracked.
    public var maximumTracks = 32

    // MARK: Detector

    /// With a recognizer that has a text detector and a CTC line recognizer (``Recognizer``
    /// unless its engine is ``EngineSelection/tesseract``, with the neural runtime installed),
    /// the detector runs on a frame read at most every this many frames read (0…; default 15;
    /// 0: never), and sooner — after a quarter of that — when the frame read holds no track, or
    /// fewer than half the tracks of the frame it last ran on. It runs off the frames' critical
    /// path on a thread of its own (the newest frame offered waits in one slot; no frame waits for
    /// it), and its regions are carried to the current frame with the motion measured since. A
    /// region the line finder did not find becomes a track of its own; such lines are read by
    /// the CTC recognizer, several in one run of its network, with the time the frame has left.
    /// `docs/live.md#the-detector-on-live-frames`.
    public var detectEvery = 15
    /// The longer side, in pixels, of the detector's input on live frames (32…1920; default
    /// 640: a 1280×720 frame is searched at 640×360, about 60 ms a run on 2 cores beside two
    /// workers, against 150–180 ms at 960; it finds characters from about 16 px tall in such a
    /// frame).
    public var detectorLongSide = 640

    /// The defaults above.
    public init() {}

    /// - Throws: ``FrameOCRError/Code/invalidParameter`` naming the setting out of its range.
    public func validate() throws(FrameOCRError) {
        func check(_ ok: Bool, _ name: String, _ value: Any, _ range: String) throws(FrameOCRError) {
            guard ok else { throw .invalidParameter(name, "\(value) not in \(range)", stage: .recognition) }
        }
        try check((16...1024).contains(thumbnailWidth), "thumbnailWidth", thumbnailWidth, "16…1024")
        try check(unchangedBelow.isFinite && unchangedBelow >= 0, "unchangedBelow", unchangedBelow, "≥ 0")
        try check((0...1).contains(blurredBelow), "blurredBelow", blurredBelow, "0…1")
        try check((4...256).contains(sharpnessWindow), "sharpnessWindow", sharpnessWindow, "4…256")
        try check(minimumTextHeight.isFinite && minimumTextHeight >= 3, "minimumTextHeight", minimumTextHeight, "≥ 3")
        try check((1...64).contains(maximumLines), "maximumLines", maximumLines, "1…64")
        try check(rereadEvery >= 1, "rereadEvery", rereadEvery, "≥ 1")
        try check(changedAbove.isFinite && changedAbove >= 0, "changedAbove", changedAbove, "≥ 0")
        try check((0...1).contains(matchOverlap), "matchOverlap", matchOverlap, "0…1")
        try check(confirmAfter >= 1, "confirmAfter", confirmAfter, "≥ 1")
        try check(removeAfter >= 1, "removeAfter", removeAfter, "≥ 1")
        try check((1...256).contains(readingsPerTrack), "readingsPerTrack", readingsPerTrack, "1…256")
        try check((1...1024).contains(maximumTracks), "maximumTracks", maximumTracks, "1…1024")
        try check(detectEvery >= 0, "detectEvery", detectEvery, "≥ 0")
        try check((32...1920).contains(detectorLongSide), "detectorLongSide", detectorLongSide, "32…1920")
    }
}

/// What the gate decided for a frame (``LiveReading``).
public enum GateDecision: String, Sendable, Hashable, Codable {
    /// The frame was read (its lines found and scheduled).
    case read
    /// Nothing changed since the last frame read: its reading stands, nothing was read.
    case reused
    /// Too blurred to read: skipped, the tracks kept as they were (moved with the frame).
    case blurred
}
