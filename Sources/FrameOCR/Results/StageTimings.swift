/// Where the time of one frame went, per stage (`Duration`; zero for stages that did not run).
public struct StageTimings: Hashable, Sendable {
    /// Time a frame waited in a ``FrameProcessor`` queue before a worker picked it up.
    public var queueWait: Duration = .zero
    /// Engines loaded on their first use by this call: a Tesseract engine made for the engine
    /// pool (its languages read) or for orientation detection (`osd.traineddata`), the neural
    /// networks (``TextDetector``, ``TextLineRecognizer``, ``TextAngleClassifier``) read and
    /// compiled by OpenVINO. Zero once they are loaded (a
    /// ``FrameProcessor`` loads its Tesseract engines before its first frame; the neural ones
    /// load on the first frame that needs them: 0.3–0.6 s on a 2-core x86-64 machine).
    public var engineLoad: Duration = .zero
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

    /// The stages and their times in the order they run, `total` last, for reports.
    public var stages: [(name: String, duration: Duration)] {
        Self.fields.map { ($0.name, self[keyPath: $0.path]) } + [("total", total)]
    }

    /// Every stage but `total`, by name: the one list that reports, sums and differences go over.
    static let fields: [(name: String, path: any WritableKeyPath<StageTimings, Duration> & Sendable)] = [
        ("queueWait", \.queueWait), ("engineLoad", \.engineLoad), ("colorConversion", \.colorConversion),
        ("crop", \.crop), ("rotation", \.rotation), ("scale", \.scale), ("threshold", \.threshold),
        ("fused", \.fused), ("automatic", \.automatic), ("detection", \.detection),
        ("recognition", \.recognition), ("lineRecognition", \.lineRecognition),
    ]

    /// The stages' sum, `total` left out.
    var sumOfStages: Duration { Self.fields.reduce(.zero) { $0 + self[keyPath: $1.path] } }

    /// Charges the part of `elapsed` (the wall time of a step that began when the timings were
    /// `before`) that no stage took since to `stage` (by default ``automatic``): the step's own
    /// work between the stages it ran, so that the stages add up to the wall time.
    mutating func charge(
        _ elapsed: Duration, since before: StageTimings, to stage: WritableKeyPath<StageTimings, Duration> = \.automatic
    ) {
        let rest = elapsed - (sumOfStages - before.sumOfStages)
        if rest > .zero { self[keyPath: stage] += rest }
    }

    /// Adds to each stage what it grew by from `before` to `after` (`total` left out): the
    /// stages of a step taken on other timings, carried over.
    mutating func add(from before: StageTimings, to after: StageTimings) {
        for f in Self.fields { self[keyPath: f.path] += after[keyPath: f.path] - before[keyPath: f.path] }
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
