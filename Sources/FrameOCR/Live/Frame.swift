/// A frame of a stream: pixels plus the identity and time a camera or decoder gives it.
public struct Frame: Sendable {
    /// Caller-chosen identifier (usually a running frame number); echoed in ``FrameResult``.
    public var id: UInt64
    /// Presentation timestamp: time since the start of the stream (as `CMTime` / a PTS).
    public var timestamp: Duration
    /// The pixels; their `orientation` says how to make them upright.
    public var buffer: PixelBuffer
    /// Preprocessing for this frame only (e.g. a region that follows a tracked object); nil:
    /// the processor's.
    public var pipeline: Pipeline?
    /// Recognition options for this frame only; nil: the processor's.
    public var options: Recognizer.Options?

    public init(id: UInt64, timestamp: Duration, buffer: PixelBuffer, pipeline: Pipeline? = nil,
                options: Recognizer.Options? = nil) {
        self.id = id
        self.timestamp = timestamp
        self.buffer = buffer
        self.pipeline = pipeline
        self.options = options
    }

    /// How the stored pixels relate to the upright image (the buffer's orientation).
    public var orientation: Orientation {
        get { buffer.orientation }
        set { buffer.orientation = newValue }
    }
}

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
