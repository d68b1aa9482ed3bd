/// What the reading strategies of one frame share: the frame and how it was prepared, the engine
/// pool to read with, the reading so far, and the upright gray image that the line and page
/// strategies cut from — made once, on first use.
///
/// The result is rebuilt in one place (``adopt(_:)`` after ``rebuilt(_:)``): a strategy hands
/// over a block tree, the context makes texts and confidences from its words and keeps the
/// page's status and transform, so boxes stay in upright-frame pixels whichever reading they
/// came from.
struct ReadingContext {
    /// The engine pool every reading goes to.
    let engines: EnginePool
    /// The frame, as given to the recognizer.
    let frame: PixelBuffer
    /// How it was prepared.
    let pipeline: Pipeline
    /// The automatic preprocessing that prepared it (second readings run only with it).
    let automatic: AutomaticPreprocessing
    /// The per-call settings, the recognizer's defaults filled in.
    let options: RecognitionOptions
    /// The second readings asked for (``RecognitionOptions/secondReadings``, resolved).
    let readings: SecondReadings
    /// Buffers for the strategies' preprocessing (nil: allocate).
    let pool: PixelBufferPool?
    /// The preprocessed frame the page was read from.
    let prepared: PreprocessedFrame
    /// The reading so far.
    var result: RecognitionResult
    private var gray: PreprocessedFrame?
    private var colour: (image: PixelBuffer, origin: Point)?
    private var measuredGray: (normalized: PixelBuffer, analysis: TextAnalysis)?
    /// The text detector's regions of the upright region when it ran already (in pixels of
    /// ``uprightColour()``'s image), so that a later strategy does not run it again.
    var detected: [DetectedText]?
    /// The engines whose device is noted in the reasons already (``noteDevice(_:of:)``).
    private var notedDevices: Set<String> = []

    init(
        engines: EnginePool, frame: PixelBuffer, pipeline: Pipeline, automatic: AutomaticPreprocessing,
        options: RecognitionOptions, readings: SecondReadings, pool: PixelBufferPool?, prepared: PreprocessedFrame,
        result: RecognitionResult
    ) {
        self.engines = engines
        self.frame = frame
        self.pipeline = pipeline
        self.automatic = automatic
        self.options = options
        self.readings = readings
        self.pool = pool
        self.prepared = prepared
        self.result = result
    }

    /// The frame through the pipeline without its automatic preprocessing, in the orientation the
    /// page was read in: the upright gray region (unscaled unless the caller's ``Pipeline/scale``
    /// scales it) that the lines are cut from and the page is read "as captured" from.
    mutating func uprightGray() throws(FrameOCRError) -> PreprocessedFrame {
        if let gray { return gray }
        var plain = pipeline
        plain.automatic = nil
        plain.orientation = .known(result.transform.orientation)
        let made = try plain.run(frame, pool: pool)
        gray = made
        return made
    }

    /// ``uprightGray()`` when it is the unscaled upright region (no caller's ``Pipeline/scale``):
    /// what the line strategies cut their lines from; nil otherwise.
    mutating func unscaledUprightGray() throws(FrameOCRError) -> PreprocessedFrame? {
        let gray = try uprightGray()
        return gray.transform.scaleX == 1 && gray.transform.scaleY == 1 && gray.transform.padding == 0 ? gray : nil
    }

    /// ``unscaledUprightGray()``'s image measured (``TextAnalysis/measure(_:pool:)``: its
    /// text-like components, and the image polarity-normalized, light-on-dark regions inverted),
    /// once a frame: the early scene test's line count and the text-line reading both look for
    /// lines in it. nil when there is no unscaled upright region.
    mutating func measuredUprightGray() throws(FrameOCRError) -> (normalized: PixelBuffer, analysis: TextAnalysis)? {
        if let measuredGray { return measuredGray }
        guard let image = try unscaledUprightGray()?.image else { return nil }
        let made = try TextAnalysis.measure(image, pool: pool)
        measuredGray = made
        return made
    }

    /// The upright region (``uprightGray()``'s, unscaled) in colour, BGR: what the text detector
    /// and the CTC line recognizer see; `origin` is its top-left pixel in the upright frame.
    mutating func uprightColour() throws(FrameOCRError) -> (image: PixelBuffer, origin: Point) {
        if let colour { return colour }
        let gray = try uprightGray()
        let region = gray.transform.region
        // Turned as the page was read (the pipeline's orientation, which may differ from the
        // buffer's own: given, or detected).
        var stored = frame
        stored.orientation = gray.transform.orientation
        var image = try stored.convertedToBGR(upright: true, pool: pool)
        if region.width != image.width || region.height != image.height {
            image = try image.cropped(to: region)
        }
        let made = (image: image, origin: Point(x: Double(region.x), y: Double(region.y)))
        colour = made
        return made
    }

    /// The engine that reads, by the recognizer's ``RecognizerConfiguration/engine``: Tesseract
    /// alone when the CTC recognizer cannot honour the call's character set (a whitelist or a
    /// blacklist other than its own).
    var engine: EngineSelection {
        let configured = engines.configuration.engine
        guard configured != .tesseract else { return .tesseract }
        let own =
            engines.configuration.textLineRecognizer?.whitelist
            ?? engines.configuration.defaultOptions.characterWhitelist
        if (options.characterWhitelist ?? "") != (own ?? "") || !(options.characterBlacklist ?? "").isEmpty {
            return .tesseract
        }
        return configured
    }

    /// The CTC line recognizer, or nil when none is configured; when it cannot be loaded (its model
    /// missing, OpenVINO not installed: ``FrameOCRError/Code/neuralRuntimeMissing``), nil with a
    /// note in the reasons under ``EngineSelection/auto`` (Tesseract reads), and the error thrown
    /// under ``EngineSelection/ctc``, which names the engine: no other engine reads in its place.
    mutating func lineRecognizer() throws(FrameOCRError) -> TextLineRecognizer? {
        let engines = engines
        let recognizer = try neuralEngine(
            { () throws(FrameOCRError) in try engines.textLineRecognizer() },
            otherwise: { "engines: the CTC line recognizer cannot be loaded (\($0.message)): Tesseract reads" })
        if let recognizer { noteDevice(recognizer.deviceDecision, of: "the CTC recognizer's") }
        return recognizer
    }

    /// A neural engine `load` gives (nil when none is configured). When it cannot be had (its
    /// model missing, OpenVINO not installed): under ``EngineSelection/ctc``, which names the
    /// neural engines, the error is thrown (no other engine reads in their place); otherwise nil,
    /// with `otherwise`'s note of the error in the reasons. The one place that rule is written.
    /// The load's time (the first call's) is in ``StageTimings/engineLoad``.
    mutating func neuralEngine<Engine>(
        _ load: () throws(FrameOCRError) -> Engine?, otherwise: (FrameOCRError) -> String
    ) throws(FrameOCRError) -> Engine? {
        do {
            // Loaded on first use: its time is the engines' load, not a reading's.
            return try timed(&result.timings.engineLoad) { () throws(FrameOCRError) in try load() }
        } catch {
            if engine == .ctc { throw error }
            note(otherwise(error))
            return nil
        }
    }

    /// The text-angle classifier, or nil (noted in the reasons) when none is configured or it
    /// cannot be loaded.
    mutating func angleClassifier() -> TextAngleClassifier? {
        let engines = engines
        do {
            return try timed(&result.timings.engineLoad) { () throws(FrameOCRError) in
                try engines.textAngleClassifier()
            }
        } catch {
            note("engines: the text-angle classifier cannot be loaded (\(error.message)): regions read as found")
            return nil
        }
    }

    /// Reads `image` once with `options` (the engine pool's plain reading).
    func read(_ image: PreprocessedFrame, options: RecognitionOptions) throws(FrameOCRError) -> RecognitionResult {
        try engines.recognize(image, options: options, deadline: nil)
    }

    /// `blocks` as a result of this frame: texts, confidences and empty lines and blocks from its
    /// words, the page's status and transform (``ResultBuilder/finish(_:status:transform:)``).
    func rebuilt(_ blocks: [TextBlock]) -> RecognitionResult {
        ResultBuilder.finish(blocks, status: result.status, transform: result.transform)
    }

    /// Takes `reading`'s blocks, text and confidence as the result's; everything else (status,
    /// transform, timings, decisions) stays.
    mutating func adopt(_ reading: RecognitionResult) {
        result.blocks = reading.blocks
        result.text = reading.text
        result.confidence = reading.confidence
    }

    /// Adds a reason to the decisions (when automatic preprocessing ran).
    mutating func note(_ reason: String) {
        result.preprocessing?.reasons.append(reason)
    }

    /// Notes where `engine`'s network runs and why ("engines: the text detector's device gpu: cpu
    /// (…)"), once per result, when its configuration asked for another device than
    /// ``NeuralDevice/cpu``.
    mutating func noteDevice(_ decision: NeuralDeviceDecision, of engine: String) {
        guard decision.requested != .cpu, notedDevices.insert(engine).inserted else { return }
        note("engines: \(engine) device \(decision)")
    }
}
