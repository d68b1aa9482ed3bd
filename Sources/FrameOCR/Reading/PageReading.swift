/// The first reading of a frame: the page as the pipeline prepared it — in the rotation that
/// makes it upright when its orientation is unknown (``Pipeline/OrientationSource/unknown``).
///
/// Orientation detection runs when the orientation is unknown, automatic preprocessing is on
/// (``Pipeline/automatic``, no ``Pipeline/threshold``), no region is set (a region is given in
/// upright coordinates, which need a known orientation) and there is no deadline; never in a
/// ``FrameProcessor`` (live frames carry their orientation). The image is read as stored first;
/// a reading that shows it upright (``readsUpright(_:)``: confident, on lines that run across)
/// is kept without detection. Otherwise Tesseract's orientation detection
/// (``Recognizer/detectOrientation(_:)``, `osd.traineddata`) is taken when it is confident
/// (≥ ``confidentOrientation``) and its rotation reads at least as confidently as the image as
/// stored; otherwise, when the stored reading's mean word confidence is below
/// ``confidentReading`` and it took under ``rotationTrialLimit``, the best of the four rotations
/// (two for a strip ``stripAspect``× as wide as tall) by mean word confidence, a rotation having
/// to beat the stored reading by ``rotationMargin``. Below ``unknownBelow`` mean word confidence
/// the orientation is reported as unknown and the image as stored is the reading. Every case —
/// detected, not detected and why, or known — is in the decisions' reasons, so a result always
/// says which meaning its orientation had.
///
/// How its numbers were chosen: `docs/tuning.md#orientation`.
struct PageReading {
    /// Mean word confidence at or above which an upright reading is not second-guessed by trying
    /// the other rotations.
    static let confidentReading: Float = 0.6
    /// Other rotations are read only when the stored one took less than this (each costs as much).
    static let rotationTrialLimit: Duration = .milliseconds(500)
    /// Tesseract's orientation confidence at or above which its answer is taken (its own scale:
    /// above about 2 is reliable).
    static let confidentOrientation: Float = 2
    /// Garbage reads with middling confidence in any rotation: a rotation must read clearly better
    /// than the page as stored, by this much mean word confidence, to be taken.
    static let rotationMargin: Float = 0.15
    /// Below this mean word confidence no rotation reads well: the orientation is unknown.
    static let unknownBelow = 0.5
    /// Mean word confidence at or above which a page read as stored, with at least
    /// ``readsUprightWords`` words on lines mostly wider than tall, is taken as upright without
    /// orientation detection (``readsUpright(_:)``).
    static let readsUprightAt: Float = 0.7
    /// Words a reading needs for ``readsUprightAt`` to apply: a word or two upside down
    /// (`808`, `SOS`) can read confidently.
    static let readsUprightWords = 5

    /// Whether `reading`, of the image as stored, shows that the image is upright, so that
    /// Tesseract's orientation detection (a search of the page for character-like blobs,
    /// classified with the legacy classifier: about a tenth of a document's automatic reading,
    /// and the `osd.traineddata` engine, 36 MB) can be skipped: a mean word confidence
    /// of at least ``readsUprightAt`` over at least ``readsUprightWords`` words, on lines most
    /// of which are wider than tall. A page turned a quarter is read by Tesseract's own layout
    /// as vertical lines (its boxes tall and narrow) and is still detected, so that its
    /// orientation is reported; a page turned upside down reads poorly. How its numbers were
    /// chosen: `docs/tuning.md#orientation`.
    static func readsUpright(_ reading: RecognitionResult) -> Bool {
        guard let confidence = reading.confidence, confidence >= readsUprightAt else { return false }
        let lines = reading.blocks.flatMap(\.lines).filter { line in line.words.contains { !$0.text.isEmpty } }
        let words = lines.reduce(0) { $0 + $1.words.filter { !$0.text.isEmpty }.count }
        let across = lines.filter { $0.box.rect.width > $0.box.rect.height }.count
        return words >= readsUprightWords && 2 * across > lines.count
    }

    /// A strip at least this many times as wide as tall (a line or a word) is either upright or
    /// upside down: only the half turn is tried.
    static let stripAspect = 3

    let pipeline: Pipeline
    let options: RecognitionOptions
    let deadline: Duration?

    /// Whether the frame may be read more than once: automatic preprocessing on (its
    /// measurements say what the image holds), no threshold, no deadline. Orientation detection
    /// and the second readings both need it.
    var readsAgain: Bool { pipeline.automatic != nil && pipeline.threshold == nil && deadline == nil }

    /// Reads `frame` (or `prepared`, what the pipeline already made of it — a
    /// ``FrameProcessor``'s worker prepares each frame itself —: then the orientation is never
    /// detected).
    /// - Returns: the reading and the preprocessed frame it was read from.
    ///
    /// `measured`: the frame through the pipeline as stored, made already (the reading plan's
    /// measurement): used instead of running the pipeline again.
    func read(
        _ frame: PixelBuffer, prepared given: PreprocessedFrame?, measured: PreprocessedFrame? = nil,
        engines: EnginePool, pool: PixelBufferPool?
    ) throws(FrameOCRError) -> (RecognitionResult, PreprocessedFrame) {
        let detects = given == nil && pipeline.orientation == .unknown && readsAgain && pipeline.region == nil
        if detects { return try readDetectingOrientation(frame, measured: measured, engines: engines, pool: pool) }
        let prepared: PreprocessedFrame
        if let given {
            prepared = given
        } else if let measured {
            prepared = measured
        } else {
            prepared = try pipeline.run(frame, pool: pool)
        }
        var result = try engines.recognize(prepared, options: options, deadline: deadline)
        result.preprocessing?.reasons.append(orientationNote(frame, prepared: given != nil))
        return (result, prepared)
    }

    /// Why the orientation was not detected, for the decisions' reasons (which exist only when
    /// automatic preprocessing ran).
    private func orientationNote(_ frame: PixelBuffer, prepared: Bool) -> String {
        switch pipeline.orientation {
        case .fromFrame: return "orientation: \(frame.orientation), given by the frame: known, not detected"
        case .known(let o): return "orientation: \(o), given by the pipeline: known, not detected"
        case .unknown:
            let why =
                prepared
                ? "in a frame prepared already"
                : pipeline.region != nil
                    ? "with a region set (a region is in upright coordinates)" : "under a deadline"
            return "orientation: unknown, not detected \(why): read as stored"
        }
    }

    /// Reads `frame` in the rotation that makes it upright (see the type's description).
    private func readDetectingOrientation(
        _ frame: PixelBuffer, measured: PreprocessedFrame?, engines: EnginePool,
        pool: PixelBufferPool?
    ) throws(FrameOCRError) -> (RecognitionResult, PreprocessedFrame) {
        // Every reading made here and not kept (the page as stored when a rotation reads better,
        // the rotations tried) is the orientation detection's cost: charged to `automatic`.
        let clock = ContinuousClock()
        var spent: Duration = .zero
        var last: [Orientation: Duration] = [:]
        func read(_ o: Orientation) throws(FrameOCRError) -> (RecognitionResult, PreprocessedFrame) {
            var p = pipeline
            p.orientation = .known(o)
            let started = clock.now
            let prepared = try p.run(frame, pool: pool)
            let reading = try engines.recognize(prepared, options: options)
            last[o] = clock.now - started
            spent += clock.now - started
            return (reading, prepared)
        }
        /// `r`, the latest reading in orientation `o`, with the other readings' time in `automatic`.
        func kept(_ r: RecognitionResult, _ o: Orientation) -> RecognitionResult {
            var r = r
            r.timings.automatic += spent - (last[o] ?? .zero)
            return r
        }
        let prepared: PreprocessedFrame
        let started = clock.now
        if let measured { prepared = measured } else { prepared = try pipeline.run(frame, pool: pool) }
        let upright = try engines.recognize(prepared, options: options)
        last[.up] = clock.now - started
        spent += clock.now - started
        if Self.readsUpright(upright) {
            var result = upright
            let confidence = Double(upright.confidence ?? 0)
            result.preprocessing?.orientation = OrientationDecision(
                orientation: .up, method: .confidence, confidence: confidence)
            result.preprocessing?.reasons.append(
                String(
                    format: "orientation: reads well as stored (mean word confidence %.2f ≥ %.2f, on lines that run"
                        + " across): not detected", confidence, Self.readsUprightAt))
            return (result, prepared)
        }
        // The detection's time goes to `automatic`; loading its engine, the first time, to `engineLoad`.
        let detecting = clock.now
        var loading = Duration.zero
        let detected = try engines.detectOrientation(prepared.image, loading: &loading)
        let detection = clock.now - detecting - loading
        // `r` with the detection's time and its engine's load added.
        func charged(_ r: RecognitionResult) -> RecognitionResult {
            var r = r
            r.timings.automatic += detection
            r.timings.engineLoad += loading
            return r
        }
        if let (o, confidence) = detected, confidence >= Self.confidentOrientation {
            // OSD mistakes some pages for upside down: a rotation is taken only when it also reads
            // at least as confidently as the page as stored.
            let (turned, turnedFrame) = o == .up ? (upright, prepared) : try read(o)
            if (turned.confidence ?? 0) >= (upright.confidence ?? 0) {
                var result = charged(kept(turned, o))
                result.preprocessing?.orientation = OrientationDecision(
                    orientation: o, method: .osd, confidence: Double(confidence))
                result.preprocessing?.reasons.append(
                    "orientation: Tesseract's detection says \(o)"
                        + String(format: " (confidence %.1f)", confidence))
                return (result, turnedFrame)
            }
        }
        var best = upright
        var bestFrame = prepared
        var bestOrientation = Orientation.up
        let tryRotations =
            (best.confidence ?? 0) < Self.confidentReading && upright.timings.recognition < Self.rotationTrialLimit
        if tryRotations {
            let image = prepared.image
            let candidates: [Orientation] =
                image.width >= Self.stripAspect * image.height ? [.down] : [.right, .down, .left]
            for o in candidates {
                let (r, rFrame) = try read(o)
                if (r.confidence ?? 0) > (best.confidence ?? 0) + (bestOrientation == .up ? Self.rotationMargin : 0) {
                    best = r
                    bestFrame = rFrame
                    bestOrientation = o
                }
            }
        }
        best = charged(kept(best, bestOrientation))
        let confidence = Double(best.confidence ?? 0)
        if confidence >= Self.unknownBelow {
            best.preprocessing?.orientation = OrientationDecision(
                orientation: bestOrientation, method: .confidence, confidence: confidence)
            best.preprocessing?.reasons.append(
                (tryRotations
                    ? "orientation: \(bestOrientation) reads best of the rotations tried"
                    : "orientation: reads well as stored")
                    + String(format: " (mean word confidence %.2f)", confidence))
        } else {
            // No rotation reads well either: the image as stored is what is reported.
            best = charged(kept(upright, .up))
            bestFrame = prepared
            best.preprocessing?.orientation = OrientationDecision(
                orientation: nil, method: .inconclusive, confidence: Double(upright.confidence ?? 0))
            best.preprocessing?.reasons.append(
                "orientation: unknown (no confident detection or reading); read as stored")
        }
        return (best, bestFrame)
    }
}
