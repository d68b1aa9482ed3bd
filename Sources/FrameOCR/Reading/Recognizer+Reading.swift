// The recognizer's entry points that read a whole frame: the reading plan (``ReadingPlan``) over
// the engine pool.
extension Recognizer {
    /// Preprocesses `frame` with `pipeline`, recognizes the result, and maps every box back to
    /// the upright frame.
    ///
    /// - Parameters:
    ///   - frame: the frame or image (any ``PixelFormat``, any `bytesPerRow`).
    ///   - pipeline: how to prepare it (default: the whole frame, its own orientation, gray).
    ///   - options: per-call settings; nil: ``Configuration/defaultOptions``.
    ///   - deadline: the most time recognition may take (Tesseract's deadline monitor); when it
    ///     runs out the result has status `.budgetExceeded` and the partial text. With a
    ///     deadline the frame is read once.
    ///   - pool: buffers for preprocessing (nil: allocate).
    /// - Throws: ``FrameOCRError`` from preprocessing (bad region, parameters) or recognition.
    ///
    /// **Orientation.** With ``Pipeline/OrientationSource/unknown``, automatic preprocessing on, no
    /// region and no deadline, the rotation that makes the frame upright is found first
    /// (Tesseract's orientation detection when confident, else the best of the rotations by mean
    /// word confidence; see `PageReading`) and the decision is in
    /// ``PreprocessingDecisions/orientation``. With ``Pipeline/OrientationSource/fromFrame`` (the
    /// default) or ``Pipeline/OrientationSource/known(_:)`` the orientation is taken as known and
    /// never detected; the reasons say which applied.
    ///
    /// **Second readings.** With ``Pipeline/automatic``, no ``Pipeline/threshold`` and no
    /// deadline, parts of the frame are read again where the first reading calls for it
    /// (``SecondReadings``, switched in ``Options/secondReadings``): a passport's or ID card's
    /// machine readable zone, read with the MRZ alphabet and repaired by the ICAO layout and
    /// check digits (``MachineReadableZone``); otherwise a poorly read page, read again four
    /// times and voted on; a poor reading of an image that holds a line of large text (a plate, a
    /// cropped sign) compared with the reading of that line alone; and each other line of large
    /// text (a sign's rows) with its reading alone.
    public func recognize(
        _ frame: PixelBuffer, pipeline: Pipeline = Pipeline(), options: Options? = nil,
        deadline: Duration? = nil, pool: PixelBufferPool? = nil
    ) throws(FrameOCRError) -> RecognitionResult {
        let clock = ContinuousClock()
        let start = clock.now
        let plan = ReadingPlan(
            pipeline: pipeline, options: options ?? configuration.defaultOptions,
            defaults: configuration.defaultOptions,
            deadline: deadline)
        var result = try plan.read(frame, prepared: nil, recognizer: self, pool: pool)
        result.timings.total = clock.now - start
        return result
    }

    /// Recognizes `prepared`, which `pipeline` made from `frame`, and — with
    /// ``Pipeline/automatic``, no ``Pipeline/threshold`` and no deadline — takes the second
    /// readings of parts of the frame (see ``recognize(_:pipeline:options:deadline:pool:)``).
    /// What ``FrameProcessor`` calls: the orientation is never detected here.
    /// - Parameters:
    ///   - prepared: what `pipeline` made from `frame`.
    ///   - frame: the frame, for the second readings' own preprocessing.
    ///   - pipeline: the pipeline that made `prepared`.
    ///   - options: per-call settings; nil: ``Configuration/defaultOptions``.
    ///   - deadline: as in ``recognize(_:options:deadline:)``; with one, only `prepared` is read.
    ///   - pool: buffers for the second readings' preprocessing (nil: allocate).
    /// - Throws: ``FrameOCRError`` from recognition or the second readings.
    public func recognize(
        _ prepared: PreprocessedFrame, of frame: PixelBuffer, pipeline: Pipeline, options: Options?,
        deadline: Duration?, pool: PixelBufferPool?
    ) throws(FrameOCRError) -> RecognitionResult {
        let plan = ReadingPlan(
            pipeline: pipeline, options: options ?? configuration.defaultOptions,
            defaults: configuration.defaultOptions,
            deadline: deadline)
        return try plan.read(frame, prepared: prepared, recognizer: self, pool: pool)
    }
}
