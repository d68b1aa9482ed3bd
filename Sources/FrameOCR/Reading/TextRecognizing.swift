/// Something that turns a preprocessed frame into text: ``Recognizer``, or a stand-in in tests
/// and benchmarks. Must be safe to call from several threads at once.
public protocol TextRecognizing: Sendable {
    /// Recognizes `prepared`; boxes are mapped through `prepared.transform`.
    /// - Parameters:
    ///   - prepared: the preprocessed frame (``Pipeline/run(_:pool:)``).
    ///   - options: per-call settings; nil: the recognizer's defaults.
    ///   - deadline: the most time recognition may take; on expiry the result has status
    ///     `.budgetExceeded`.
    /// - Throws: ``FrameOCRError`` when recognition fails.
    func recognize(_ prepared: PreprocessedFrame, options: RecognitionOptions?, deadline: Duration?)
        throws(FrameOCRError) -> RecognitionResult
    /// Recognizes `prepared`, which `pipeline` made from `frame`; a recognizer may read parts of
    /// `frame` again (``Recognizer`` takes automatic preprocessing's second readings when there
    /// is no deadline). Default: ``recognize(_:options:deadline:)``.
    /// - Parameters:
    ///   - prepared: what `pipeline` made from `frame`.
    ///   - frame: the frame as submitted.
    ///   - pipeline: the pipeline that prepared it (the frame's own or the processor's).
    ///   - options: per-call settings; nil: the recognizer's defaults.
    ///   - deadline: what is left of the latency budget; nil: none.
    ///   - pool: buffers for any further preprocessing (nil: allocate).
    /// - Throws: ``FrameOCRError`` when preprocessing or recognition fails.
    func recognize(
        _ prepared: PreprocessedFrame, of frame: PixelBuffer, pipeline: Pipeline, options: RecognitionOptions?,
        deadline: Duration?, pool: PixelBufferPool?
    ) throws(FrameOCRError) -> RecognitionResult
    /// The CTC line recognizer that reads the lines this recognizer reads poorly, when its engine
    /// selection allows one (``EngineSelection``): live reading asks it for a tracked line
    /// Tesseract read below ``SecondReadings/poorBelow``. Default: nil (none).
    func lineRecognizer() -> TextLineRecognizer?
    /// The text detector that finds scene text on live frames (``LiveReading/detectEvery``), read
    /// by ``lineRecognizer()``, when its engine selection allows one. Default: nil (none).
    func regionDetector() -> TextDetector?
}

extension TextRecognizing {
    public func recognize(
        _ prepared: PreprocessedFrame, of frame: PixelBuffer, pipeline: Pipeline, options: RecognitionOptions?,
        deadline: Duration?, pool: PixelBufferPool?
    ) throws(FrameOCRError) -> RecognitionResult {
        try recognize(prepared, options: options, deadline: deadline)
    }

    public func lineRecognizer() -> TextLineRecognizer? { nil }

    public func regionDetector() -> TextDetector? { nil }
}

extension Recognizer: TextRecognizing {
    /// The CTC line recognizer of ``RecognizerConfiguration/textLineRecognizer`` (loaded on first
    /// use) unless ``RecognizerConfiguration/engine`` is ``EngineSelection/tesseract``; nil when
    /// there is none or it cannot be loaded.
    public func lineRecognizer() -> TextLineRecognizer? {
        guard configuration.engine != .tesseract else { return nil }
        return try? engines.textLineRecognizer()
    }

    /// The text detector of ``RecognizerConfiguration/textDetector`` (loaded on first use) unless
    /// ``RecognizerConfiguration/engine`` is ``EngineSelection/tesseract``; nil when there is none
    /// or it cannot be loaded.
    public func regionDetector() -> TextDetector? {
        guard configuration.engine != .tesseract else { return nil }
        return try? engines.textDetector()
    }
}
