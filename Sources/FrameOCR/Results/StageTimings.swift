/// Where the time of one frame went, per stage (`Duration`; zero for stages that did not run).
public struct StageTimings: Hashable, Sendable {
    /// Time a frame waited in a ``FrameProcessor`` queue before a worker picked it up.
    public var queueWait: Duration = .zero
    public var colorConversion: Duration = .zero
    public var crop: Duration = .zero
    public var rotation: Duration = .zero
    public var scale: Duration = .zero
    public var threshold: Duration = .zero
    /// Gray, orientation and threshold run fused (the fast CPU path, or the OpenCL device
    /// chain); their time is here (and not in colorConversion, rotation, threshold).
    public var fused: Duration = .zero
    /// Automatic preprocessing's measurements (polarity, text size), border and orientation
    /// detection; its rescale is in `scale`.
    public var automatic: Duration = .zero
    /// The text detector's model (``TextDetector``), when the scene-text reading ran it.
    public var detection: Duration = .zero
    /// Tesseract's recognition.
    public var recognition: Duration = .zero
    /// The CTC line recognizer's (``TextLineRecognizer``): its model over every line it read.
    public var lineRecognition: Duration = .zero
    /// Wall time of the whole call (≥ the sum of the stages); in a ``FrameProcessor``, from
    /// submission to result.
    public var total: Duration = .zero

    public init() {}

    /// The stages and their times in the order they run, for reports.
    public var stages: [(name: String, duration: Duration)] {
        [
            ("queueWait", queueWait), ("colorConversion", colorConversion), ("crop", crop), ("rotation", rotation),
            ("scale", scale),
            ("threshold", threshold), ("fused", fused), ("automatic", automatic), ("detection", detection),
            ("recognition", recognition), ("lineRecognition", lineRecognition), ("total", total),
        ]
    }
}

/// Times `body` on the continuous clock, adding the elapsed time to `into`.
@inline(__always)
func timed<R, E: Error>(_ into: inout Duration, _ body: () throws(E) -> R) throws(E) -> R {
    let clock = ContinuousClock()
    let start = clock.now
    defer { into += clock.now - start }
    return try body()
}
