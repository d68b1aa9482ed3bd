/// What a worker saw in one frame, for the tracker: the gate's decision, the frame's signature,
/// and the lines it found with the readings it took.
struct LiveObservation: Sendable {
    /// A line found in a frame read, and its reading when it was read (nil: found, not read —
    /// the budget ran out, or its track was read recently).
    struct Line: Sendable {
        /// Upright-frame pixels.
        var box: Rect
        var reading: TextConsensus.Reading?
        /// The text's box touches the edge of the frame (or region): part of the line may be
        /// outside it, and its reading may hold only part of the text.
        var cut = false
        /// The line's profile when it was read (nil: not read).
        var profile: LineProfile?
        /// The line changed since its track's last reading (``LiveReading/changedAbove``): its
        /// reading starts the consensus again.
        var changed = false
        /// The line is a track's detector region (``TextTracker/Plan/region``) the line finder did
        /// not find in this frame: the tracker keeps the track's region as it is.
        var detected = false
    }

    var frameID: UInt64
    var timestamp: Duration
    var gate: GateDecision
    /// nil when the frame failed before it was measured.
    var signature: FrameSignature?
    /// The frame's sharpness (``FrameSignature/sharpness``; nil: not measured). A separate
    /// field so that the tracker's tests can give one without a signature.
    var sharpness: Float?
    /// The upright frame's size, pixels.
    var frameWidth: Int
    var frameHeight: Int
    var lines: [Line]
}

/// Follows lines of text from frame to frame (``LiveReading``): single-threaded, fed in frame
/// order by the ``TrackingStage``. Everything it keeps is bounded: at most
/// ``LiveReading/maximumTracks`` tracks of at most ``LiveReading/readingsPerTrack`` readings,
/// and one signature.
struct TextTracker: Sendable {
    private struct Track: Sendable {
        var id: UInt64
        var consensus: TextConsensus
        var box: Rect
        var state: TextTrack.State = .new
        var firstSeen: Duration
        var lastSeen: Duration
        var firstFrameID: UInt64
        var lastFrameID: UInt64
        /// Frames read in a row without this line.
        var missed = 0
        /// Of those, frames read blurred (``isBlurredRead(_:_:)``): each counts a quarter.
        var blurredMisses = 0
        /// The sharpness of the frame it was last seen in (nil: not measured).
        var seenSharpness: Float?
        /// The tracker's count of frames read when the line was last read (nil: never).
        var lastRead: Int?
        /// The consensus text last reported (nil: never reported, no event yet).
        var reported: String?
        /// The consensus text last confirmed and reported (``TrackEvent/confirmed(_:)``) since its
        /// consensus last started; nil: none. The track is confirmed while its consensus is this
        /// text.
        var confirmedText: String?
        /// The widest aspect (width / height) of the boxes its kept readings were taken on.
        var readAspect = 0.0
        /// Kept readings of the whole line (not ``LiveObservation/Line/cut``).
        var wholeReadings = 0
        /// The line's profile at its last reading.
        var profile: LineProfile?
        /// The text detector's region of the line (upright-frame pixels, moved with the frame
        /// since), when the detector found it (``LiveReading/detectEvery``).
        var region: DetectedText?
        /// The tracker's count of frames read when the detector last found the line (nil: never).
        var detectedAt: Int?
        /// The engine of its last reading (nil: never read).
        var engine: RecognitionEngine?
        /// It was last seen as its detector region (``LiveObservation/Line/detected``), not as a
        /// line the finder found: its box is then the region's quad.
        var seenAsRegion = false
    }

    /// A reading taken on a box this much wider for its height than any the track's readings
    /// were taken on (a line that came into view, was cut before, or lost a cover) sees more text
    /// than they did: the consensus of a track not yet confirmed starts again from it, as the
    /// older readings would vote the new text down. A confirmed consensus is kept: a box that
    /// grows by junk at its edge (a neighbour's mark, a reflection) would otherwise throw away
    /// settled text, and the junk now loses the vote instead.
    static let moreTextAspect = 1.25
    // Readings of a line cut by the frame's edge hold part of its text: they make a track's text
    // until the first reading of the whole line, which starts the consensus again; after it they
    // do not vote (a line leaving the frame keeps the text it had).

    /// A track as the scheduler sees it: where it was last, whether it is confirmed, and how
    /// many frames read ago it was read.
    struct Plan: Sendable {
        var id: UInt64
        var box: Rect
        var confirmed: Bool
        /// Frames read since its last reading (nil: never read).
        var readAgo: Int?
        /// The line's profile at its last reading.
        var profile: LineProfile?
        /// The detector's region of the line, upright-frame pixels (nil: the detector never found it).
        var region: DetectedText? = nil
        /// Frames read since the detector last found it (nil: never).
        var detectedAgo: Int? = nil
        /// The engine of its last reading (nil: never read).
        var engine: RecognitionEngine? = nil
    }

    /// Frames whose motion the tracker keeps (``detected(_:frameID:)`` carries a detection this
    /// many frames old at most to the frame it is at).
    static let motionsKept = 256

    let settings: LiveReading
    private var tracks: [Track] = []
    private var nextID: UInt64 = 1
    /// Frames read so far (the clock of ``LiveReading/rereadEvery`` and ``LiveReading/removeAfter``).
    private(set) var framesRead = 0
    private var previous: FrameSignature?
    /// Tracks that got text, and tracks removed after having it, so far.
    private(set) var added = 0
    private(set) var removed = 0
    /// Whether the motion is measured on every frame (a detector's regions are carried with it),
    /// or only while there are tracks.
    let followsMotion: Bool
    /// The last frames' motions, each from the frame before it (`since`), oldest first, at most
    /// ``motionsKept``.
    private var motions: [(frameID: UInt64, since: UInt64, motion: FrameMotion)] = []
    private var lastSignatureFrame: UInt64?
    /// The last frame observed: its id, timestamp and upright size (nil: none yet).
    private(set) var lastFrame: (id: UInt64, timestamp: Duration, width: Int, height: Int)?
    /// Detections that came too late to be carried to the tracker's frame (older than the
    /// motions kept).
    private(set) var detectionsTooOld = 0

    /// `followsMotion`: measure every frame's motion (for a live detector), not only while
    /// there are tracks.
    init(_ settings: LiveReading, followsMotion: Bool = false) {
        self.settings = settings
        self.followsMotion = followsMotion
    }

    /// Moves every track with the frame's motion, matches the lines the frame read to the
    /// tracks, adds their readings to the consensus, ages and removes tracks; the events in the
    /// order they happened.
    mutating func update(_ o: LiveObservation) throws(FrameOCRError) -> [TrackEvent] {
        lastFrame = (o.frameID, o.timestamp, o.frameWidth, o.frameHeight)
        if let signature = o.signature {
            // Only tracks, and a detector's regions on their way, need the motion (a few
            // milliseconds a frame).
            if let previous, let since = lastSignatureFrame, !tracks.isEmpty || followsMotion {
                let motion = try signature.motion(since: previous)
                if motion != .identity {
                    for i in tracks.indices {
                        tracks[i].box = motion.moved(tracks[i].box)
                        tracks[i].region = tracks[i].region.map { motion.moved($0) }
                    }
                }
                if followsMotion {
                    if motions.count == Self.motionsKept { motions.removeFirst() }
                    motions.append((o.frameID, since, motion))
                }
            }
            previous = signature
            lastSignatureFrame = o.frameID
        }
        var events: [TrackEvent] = []
        guard o.gate == .read else {
            // A frame the same as the last one read still shows the tracks seen in that one.
            if o.gate == .reused {
                for i in tracks.indices where tracks[i].missed == 0 && tracks[i].blurredMisses == 0 {
                    tracks[i].lastSeen = o.timestamp
                    tracks[i].lastFrameID = o.frameID
                }
            }
            return events
        }
        framesRead += 1
        // Greedy matching by overlap, the largest first; a line and a track of very different
        // heights (another line over it) never match.
        var pairs: [(line: Int, track: Int, overlap: Double)] = []
        for (l, line) in o.lines.enumerated() {
            for (t, track) in tracks.enumerated() {
                if let overlap = matchOverlap(line.box, track.box) { pairs.append((l, t, overlap)) }
            }
        }
        pairs.sort { ($0.overlap, -$0.line, -$0.track) > ($1.overlap, -$1.line, -$1.track) }
        var lineTrack = [Int?](repeating: nil, count: o.lines.count)
        var seen = [Bool](repeating: false, count: tracks.count)
        for p in pairs where lineTrack[p.line] == nil && !seen[p.track] {
            lineTrack[p.line] = p.track
            seen[p.track] = true
        }
        for (l, line) in o.lines.enumerated() {
            if let t = lineTrack[l] {
                observe(&tracks[t], line, o)
            } else if tracks.count < settings.maximumTracks {
                var track = Track(
                    id: nextID, consensus: TextConsensus(capacity: settings.readingsPerTrack), box: line.box,
                    firstSeen: o.timestamp, lastSeen: o.timestamp, firstFrameID: o.frameID, lastFrameID: o.frameID)
                nextID += 1
                observe(&track, line, o)
                tracks.append(track)
                seen.append(true)
            }
        }
        // Tracks not seen in this frame read: lost, then removed. A frame read blurred (the
        // line may be there, smeared past finding) counts a quarter, so a quick move of the
        // camera does not end its tracks, and a stream that stays blurred still does.
        var kept: [Track] = []
        for (t, var track) in tracks.enumerated() {
            if !seen[t] {
                if isBlurredRead(o, track) { track.blurredMisses += 1 } else { track.missed += 1 }
                track.state = .lost
                if track.missed + track.blurredMisses / 4 >= settings.removeAfter {
                    if track.reported != nil {
                        removed += 1
                        events.append(.removed(snapshot(track, o.frameWidth, o.frameHeight)))
                    }
                    continue
                }
            }
            let text = track.consensus.text
            if !text.isEmpty, track.reported != text {
                events.append(
                    track.reported == nil
                        ? .added(snapshot(track, o.frameWidth, o.frameHeight))
                        : .updated(snapshot(track, o.frameWidth, o.frameHeight)))
                if track.reported == nil { added += 1 }
                track.reported = text
            }
            if track.state == .confirmed, track.confirmedText != text {
                events.append(.confirmed(snapshot(track, o.frameWidth, o.frameHeight)))
                track.confirmedText = text
            }
            kept.append(track)
        }
        tracks = kept
        return events
    }

    /// Whether frame `o`, read, is blurred for `track`: its sharpness is below
    /// ``LiveReading/blurredBelow`` of the sharpness of the frame the track was last seen in — the
    /// gate's own test (``GateDecision/blurred``), against where the line was last found rather
    /// than the recent frames' median, which a long blur drags down until blurred frames pass.
    /// Never with the test off (0) or either sharpness unmeasured.
    private func isBlurredRead(_ o: LiveObservation, _ track: Track) -> Bool {
        guard settings.blurredBelow > 0, let now = o.sharpness, let then = track.seenSharpness else { return false }
        return Double(now) < settings.blurredBelow * Double(then)
    }

    /// A line seen on `track` in frame `o`.
    private func observe(_ track: inout Track, _ line: LiveObservation.Line, _ o: LiveObservation) {
        track.box = line.box
        track.seenAsRegion = line.detected
        if let engine = line.reading?.engine { track.engine = engine }
        track.lastSeen = o.timestamp
        track.lastFrameID = o.frameID
        track.missed = 0
        track.blurredMisses = 0
        track.seenSharpness = o.sharpness
        if let reading = line.reading, !(line.cut && track.wholeReadings > 0) {
            let aspect = line.box.width / max(line.box.height, 1)
            let wholeAfterCut = !line.cut && track.wholeReadings == 0
            let confirmed = track.confirmedText != nil && track.confirmedText == track.consensus.text
            let moreText = !confirmed && aspect > Self.moreTextAspect * track.readAspect
            if track.consensus.count > 0, line.changed || wholeAfterCut || moreText {
                track.consensus = TextConsensus(capacity: settings.readingsPerTrack)
                track.readAspect = 0
                track.wholeReadings = 0
                track.confirmedText = nil
            }
            track.consensus.add(reading)
            track.readAspect = max(track.readAspect, aspect)
            if !line.cut { track.wholeReadings += 1 }
            track.profile = line.profile
            track.lastRead = framesRead
        }
        // Confirmed once `confirmAfter` kept readings agree with the consensus (read it exactly; at
        // most all the kept readings), and while the consensus stays the text confirmed: a
        // reading that disagrees does not unconfirm it, a consensus that moves to another text
        // does, until that text is agreed on in turn.
        let text = track.consensus.text
        let needed = min(settings.confirmAfter, settings.readingsPerTrack)
        let agreed = track.confirmedText == text || track.consensus.agreeingReadings >= needed
        track.state = agreed && !text.isEmpty ? .confirmed : .new
    }

    /// The tracks that have text, top to bottom then left to right, in a `frameWidth`×`frameHeight`
    /// upright frame.
    func snapshot(frameWidth: Int, frameHeight: Int) -> [TextTrack] {
        tracks.filter { !$0.consensus.text.isEmpty }
            .sorted { ($0.box.y, $0.box.x, $0.id) < ($1.box.y, $1.box.x, $1.id) }
            .map { snapshot($0, frameWidth, frameHeight) }
    }

    /// The scheduler's view of every track (with text or not).
    var plans: [Plan] {
        tracks.map { t in
            Plan(
                id: t.id, box: t.box, confirmed: t.state == .confirmed, readAgo: t.lastRead.map { framesRead - $0 },
                profile: t.profile, region: t.region, detectedAgo: t.detectedAt.map { framesRead - $0 },
                engine: t.engine)
        }
    }

    /// Ends the stream: every reported track is removed.
    mutating func finish(frameWidth: Int, frameHeight: Int) -> [TrackEvent] {
        let events = tracks.filter { $0.reported != nil }.map {
            TrackEvent.removed(snapshot($0, frameWidth, frameHeight))
        }
        removed += events.count
        tracks.removeAll()
        return events
    }

    private func snapshot(_ t: Track, _ frameWidth: Int, _ frameHeight: Int) -> TextTrack {
        let (w, h) = (max(1, frameWidth), max(1, frameHeight))
        var track = TextTrack(
            id: t.id, text: t.consensus.text, confidence: t.consensus.confidence, agreement: t.consensus.agreement,
            readings: t.consensus.count, state: t.state,
            box: t.seenAsRegion
                ? TextBox(upright: t.region?.quad ?? Quad(t.box), frameWidth: w, frameHeight: h)
                : TextBox(upright: t.box, frameWidth: w, frameHeight: h),
            firstSeen: t.firstSeen, lastSeen: t.lastSeen, firstFrameID: t.firstFrameID, lastFrameID: t.lastFrameID)
        track.engine = t.engine
        track.detected = t.detectedAt != nil
        return track
    }

    /// How much `box` (a line, or a detector's region) overlaps a track's box `trackBox`, when
    /// they match: an overlap of at least ``LiveReading/matchOverlap`` of the smaller box, and
    /// heights within 2× of each other (a line and a track of very different heights — another
    /// line over it — never match); nil otherwise.
    private func matchOverlap(_ box: Rect, _ trackBox: Rect) -> Double? {
        let ratio = box.height / max(trackBox.height, 1)
        guard ratio >= 0.5, ratio <= 2 else { return nil }
        let overlap = box.overlapFraction(with: trackBox)
        return overlap >= settings.matchOverlap ? overlap : nil
    }

    /// The motion that carries frame `frameID`'s content to the last frame observed: the
    /// identity for that frame itself; nil when the frame is not behind the tracker (not observed
    /// yet) or older than the motions kept.
    func motion(since frameID: UInt64) -> FrameMotion? {
        guard let last = lastFrame?.id, frameID <= last else { return nil }
        let later = motions.filter { $0.frameID > frameID }
        // The chain must reach back to the frame: the first motion kept after it starts at or before it.
        if let first = later.first {
            guard first.since <= frameID else { return nil }
        } else if let newest = motions.last?.frameID ?? lastSignatureFrame, newest > frameID {
            return nil
        }
        return later.reduce(FrameMotion.identity) { $0.then($1.motion) }
    }

    /// The text detector's `regions` (upright-frame pixels), found in frame `frameID`, carried to
    /// the frame the tracker is at (``motion(since:)``): a region that overlaps a track (at least
    /// ``LiveReading/matchOverlap`` of the smaller box, heights within 2×) becomes that track's
    /// region; one that touches no track starts a track without text, which the workers read
    /// (``Plan/region``) and which ages like any other (one that touches a track it does not match
    /// starts none: the finder's line there would otherwise match either, and its readings could
    /// move to the new track). Regions mostly outside the frame are left
    /// out. Returns false, doing nothing, when the frame is older than the motions kept (counted in
    /// ``detectionsTooOld``) or not observed yet.
    @discardableResult
    mutating func detected(_ regions: [DetectedText], frameID: UInt64) -> Bool {
        guard let motion = motion(since: frameID), let frame = lastFrame else {
            detectionsTooOld += 1
            return false
        }
        let bounds = Rect(x: 0, y: 0, width: Double(frame.width), height: Double(frame.height))
        let (lastID, timestamp) = (frame.id, frame.timestamp)
        for region in regions {
            let r = motion == .identity ? region : motion.moved(region)
            let box = r.boundingBox
            let inside = box.clipped(to: bounds)
            guard inside.width * inside.height * 2 >= box.width * box.height, inside.height > 0 else { continue }
            let matching = tracks.indices.compactMap { t in matchOverlap(box, tracks[t].box).map { (t, $0) } }
            if let t = matching.max(by: { $0.1 < $1.1 })?.0 {
                tracks[t].region = r
                tracks[t].detectedAt = framesRead
            } else if tracks.count < settings.maximumTracks,
                !tracks.contains(where: { box.overlapFraction(with: $0.box) > 0 })
            {
                var track = Track(
                    id: nextID, consensus: TextConsensus(capacity: settings.readingsPerTrack), box: inside,
                    firstSeen: timestamp, lastSeen: timestamp, firstFrameID: lastID, lastFrameID: lastID)
                track.region = r
                track.detectedAt = framesRead
                nextID += 1
                tracks.append(track)
            }
        }
        return true
    }
}
