/// The reading of one frame: the page (``PageReading``), then the second readings as strategies
/// over one ``ReadingContext``, in ``strategies``' order, those ``SecondReadings`` switches on,
/// each timed into ``StageTimings/automatic`` (the text detector's model into
/// ``StageTimings/detection``, the CTC recognizer's into ``StageTimings/lineRecognition``, the
/// engines loaded on first use into ``StageTimings/engineLoad``: the stages add up to the call's
/// time); a strategy that reads the frame as a whole (the MRZ) ends the
/// plan. With a time limit (``Recognizer/recognize(_:pipeline:options:deadline:timeLimit:pool:)``)
/// no second reading starts once it has run out: the result is what was read by then, its status
/// ``RecognitionResult/Status/budgetExceeded`` and a reason naming the second readings that did
/// not run (each might have found nothing to read again).
struct ReadingPlan {
    /// Every second reading, in the order they run. Values without state: the plan allocates
    /// nothing to choose them.
    static let strategies: [any ReadingStrategy] = [
        MachineReadableZoneReading(), SparseReading(), DominantLineReading(), TextLinesReading(),
        EngineChoiceReading(), SceneTextReading(),
    ]
    let page: PageReading
    /// The second readings asked for: the options', else the recognizer's default options', else
    /// all of them.
    let readings: SecondReadings

    init(pipeline: Pipeline, options: RecognitionOptions, defaults: RecognitionOptions, deadline: Duration?) {
        page = PageReading(pipeline: pipeline, options: options, deadline: deadline)
        readings = options.secondReadings ?? defaults.secondReadings ?? SecondReadings()
    }

    /// Reads `frame` (or `prepared`, already made from it by the pipeline) with `recognizer`.
    ///
    /// When the recognizer's engine allows the CTC recognizer (``EngineSelection``), the frame is
    /// first measured and may be read as a scene without its page
    /// (``SceneTextReading/readEarly(_:)``); the measurement is then the page's first preparation.
    ///
    /// `until`: when the time limit runs out (nil: none); checked before each second reading.
    func read(
        _ frame: PixelBuffer, prepared: PreprocessedFrame?, engines: EnginePool,
        pool: PixelBufferPool?, until: ContinuousClock.Instant? = nil
    ) throws(FrameOCRError) -> RecognitionResult {
        // Checked here, not only where Tesseract reads: a scene read early never reaches it.
        try page.options.validate()
        var measured: PreprocessedFrame?
        var detected: [DetectedText]?
        var early: RecognitionResult?
        if page.readsAgain, let automatic = page.pipeline.automatic, engines.configuration.engine != .tesseract {
            let made: PreprocessedFrame
            if let prepared { made = prepared } else { made = try page.pipeline.run(frame, pool: pool) }
            var context = ReadingContext(
                engines: engines, frame: frame, pipeline: page.pipeline, automatic: automatic,
                options: page.options, readings: readings, pool: pool, prepared: made, result: Self.unread(made))
            let clock = ContinuousClock()
            let started = clock.now
            let read = try SceneTextReading.readEarly(&context)
            // The test's own work (the colour region, the line count, the cuts) between its stages.
            context.result.timings.charge(clock.now - started, since: made.timings)
            if read {
                context.result.timings.total = made.timings.total + (clock.now - started)
                return context.result
            }
            measured = made
            detected = context.detected
            early = context.result
        }
        var (result, from) = try page.read(
            frame, prepared: prepared, measured: measured, engines: engines, pool: pool)
        if let early, let measured {
            // What the early test found and cost stays in the result: its reasons, its stages' times.
            let before = measured.decisions?.reasons.count ?? 0
            result.preprocessing?.reasons += early.preprocessing?.reasons.dropFirst(before) ?? []
            result.timings.add(from: measured.timings, to: early.timings)
        }
        guard page.readsAgain, let automatic = page.pipeline.automatic else { return result }
        var context = ReadingContext(
            engines: engines, frame: frame, pipeline: page.pipeline, automatic: automatic,
            options: page.options, readings: readings, pool: pool, prepared: from, result: result)
        // The detector's regions are the upright frame's as it was read: kept only when no turn
        // was found since.
        if from.transform.orientation == measured?.transform.orientation { context.detected = detected }
        let clock = ContinuousClock()
        // Over the static list as it is (a live frame reads here: nothing allocated per frame);
        // the names of those skipped are made only when the time limit is reached.
        for (k, strategy) in Self.strategies.enumerated() where strategy.isOn(in: readings) {
            if let until, clock.now >= until {
                let skipped = Self.strategies[k...].filter { $0.isOn(in: readings) }.map {
                    String(describing: type(of: $0))
                }
                context.note(
                    "time limit reached: these second readings did not run (\(skipped.joined(separator: ", ")))")
                context.result.status = .budgetExceeded
                break
            }
            let started = clock.now
            let before = context.result.timings
            let final = try strategy.read(&context)
            // The detector's, the line recognizer's and the engines' loads are their own stages; the
            // rest of the strategy's is automatic.
            context.result.timings.charge(clock.now - started, since: before)
            if final { break }
        }
        return context.result
    }

    /// The result of `prepared` before anything is read: no text, its transform, decisions and
    /// timings.
    static func unread(_ prepared: PreprocessedFrame) -> RecognitionResult {
        var result = ResultBuilder.finish([], status: .complete, transform: prepared.transform)
        result.regionClamped = prepared.regionClamped
        result.backend = prepared.backend
        result.backendFallback = prepared.fallbackReason
        result.preprocessing = prepared.decisions
        result.timings = prepared.timings
        return result
    }
}
