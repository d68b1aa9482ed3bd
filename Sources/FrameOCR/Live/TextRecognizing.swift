/// Something that turns a preprocessed frame into text: ``Recognizer``, or a stand-in in tests
/// and benchmarks. Must be safe to call from several threads at once.
public protocol TextRecognizing: Sendable {
    /// Recognizes `prepared`; boxes are mapped through `prepared.transform`.
    /// - Parameter deadline: the most time recognition may take; on expiry the result has
    ///   status `.budgetExceeded`.
    func recognize(_ prepared: PreprocessedFrame, options: Recognizer.Options?, deadline: Duration?) throws(FrameOCRError) -> RecognitionResult
    /// Recognizes `prepared`, which `pipeline` made from `frame`; a recognizer may read parts of
    /// `frame` again (``Recognizer`` takes automatic preprocessing's second readings when there
    /// is no deadline). Default: ``recognize(_:options:deadline:)``.
    /// - Parameter pool: buffers for any further preprocessing (nil: allocate).
    func recognize(_ prepared: PreprocessedFrame, of frame: PixelBuffer, pipeline: Pipeline, options: Recognizer.Options?,
                   deadline: Duration?, pool: PixelBufferPool?) throws(FrameOCRError) -> RecognitionResult
}

extension TextRecognizing {
    public func recognize(_ prepared: PreprocessedFrame, of frame: PixelBuffer, pipeline: Pipeline, options: Recognizer.Options?,
                          deadline: Duration?, pool: PixelBufferPool?) throws(FrameOCRError) -> RecognitionResult {
        try recognize(prepared, options: options, deadline: deadline)
    }
}

extension Recognizer: TextRecognizing {}
