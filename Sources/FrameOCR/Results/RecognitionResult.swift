/// What recognition of one frame (or image) produced.
public struct RecognitionResult: Sendable {
    /// Whether recognition ran to completion.
    public enum Status: String, Sendable, Codable {
        /// Recognition finished.
        case complete
        /// The deadline ran out; the result holds what was recognized by then (possibly nothing).
        /// Also: the time limit passed before the second readings had all run (a reason
        /// `time limit reached: …` names those that did not; the first reading is whole).
        case budgetExceeded
    }

    /// All the text: blocks separated by an empty line.
    public var text: String
    /// Mean word confidence over words with text (0…1); nil when there are none.
    public var confidence: Float?
    public var blocks: [TextBlock]
    public var status: Status
    /// Output image → upright frame → raw buffer.
    public var transform: FrameTransform
    /// Whether the region of interest was clamped to the frame.
    public var regionClamped: Bool
    /// Time per stage.
    public var timings: StageTimings
    /// The preprocessing backend that ran.
    public var backend: Backend
    /// Why `Backend.automatic` ran on the CPU; nil when it did not fall back.
    public var backendFallback: String?
    /// What automatic preprocessing decided (``Pipeline/automatic``); nil when it did not run.
    public var preprocessing: PreprocessingDecisions?

    /// Makes a result by hand (recognizer stand-ins in tests and benchmarks).
    public init(
        text: String, confidence: Float? = nil, blocks: [TextBlock] = [], status: Status = .complete,
        transform: FrameTransform, regionClamped: Bool = false, timings: StageTimings = StageTimings(),
        backend: Backend = .cpu
    ) {
        self.text = text
        self.confidence = confidence
        self.blocks = blocks
        self.status = status
        self.transform = transform
        self.regionClamped = regionClamped
        self.timings = timings
        self.backend = backend
    }

    /// Upright frame size in pixels.
    public var frameWidth: Int { transform.uprightWidth }
    public var frameHeight: Int { transform.uprightHeight }

    /// Every line, in reading order.
    public var lines: [TextLine] { blocks.flatMap(\.lines) }
    /// Every word, in reading order.
    public var words: [TextWord] { blocks.flatMap { $0.lines.flatMap(\.words) } }
}
