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
    public var options: RecognitionOptions?

    public init(
        id: UInt64, timestamp: Duration, buffer: PixelBuffer, pipeline: Pipeline? = nil,
        options: RecognitionOptions? = nil
    ) {
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
