/// The reading of one frame: the page (``PageReading``), then the second readings as strategies
/// over one ``ReadingContext``, in ``strategies``' order, those ``SecondReadings`` switches on,
/// each timed into ``StageTimings/automatic`` (the text detector's model into
/// ``StageTimings/detection``); a strategy that reads the frame as a whole (the MRZ) ends the
/// plan.
struct ReadingPlan {
    /// Every second reading, in the order they run. Values without state: the plan allocates
    /// nothing to choose them.
    static let strategies: [any ReadingStrategy] = [
        MachineReadableZoneReading(), SparseReading(), DominantLineReading(), TextLinesReading(), SceneTextReading(),
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
    func read(
        _ frame: PixelBuffer, prepared: PreprocessedFrame?, engines: EnginePool,
        pool: PixelBufferPool?
    ) throws(FrameOCRError) -> RecognitionResult {
        let (result, from) = try page.read(frame, prepared: prepared, engines: engines, pool: pool)
        guard page.readsAgain, let automatic = page.pipeline.automatic else { return result }
        var context = ReadingContext(
            engines: engines, frame: frame, pipeline: page.pipeline, automatic: automatic,
            options: page.options, readings: readings, pool: pool, prepared: from, result: result)
        let clock = ContinuousClock()
        for strategy in Self.strategies where strategy.isOn(in: readings) {
            let started = clock.now
            let detected = context.result.timings.detection
            let final = try strategy.read(&context)
            // The detector's time is its own stage; the rest of the strategy's is automatic.
            context.result.timings.automatic += clock.now - started - (context.result.timings.detection - detected)
            if final { break }
        }
        return context.result
    }
}
