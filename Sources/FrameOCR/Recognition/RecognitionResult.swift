/// A box in the upright frame: pixels (top-left origin) and normalized 0…1, as a rectangle and as
/// a quad (topLeft, topRight, bottomRight, bottomLeft). Map it to raw-buffer pixels with the
/// result's ``RecognitionResult/transform`` (``FrameTransform/rawPoint(fromUpright:)``).
public struct TextBox: Hashable, Sendable, Codable {
    /// Upright-frame pixels.
    public var rect: Rect
    public var quad: Quad
    /// Normalized to the upright frame's width and height (0…1).
    public var normalizedRect: Rect
    public var normalizedQuad: Quad

    /// The box of an output-image rectangle, mapped back through `transform`.
    init(outputLeft l: Int32, top t: Int32, right r: Int32, bottom b: Int32, transform: FrameTransform) {
        // A box reaching into the padding is clipped to the region's pixels (with skew: to the
        // turned region's bounding box, and its corners, turned back, to the region).
        let content = transform.outputContentRect
        let minX = content.x, minY = content.y, maxX = content.maxX, maxY = content.maxY
        let left = min(max(Double(l), minX), maxX), top = min(max(Double(t), minY), maxY)
        let right = min(max(Double(r), left), maxX), bottom = min(max(Double(b), top), maxY)
        let outQuad = Quad(Rect(x: left, y: top, width: right - left, height: bottom - top))
        if transform.skewDegrees == 0 {
            quad = outQuad.map(transform.uprightPoint(fromOutput:))
        } else {
            let region = Rect(transform.region)
            quad = outQuad.map { o in
                let u = transform.uprightPoint(fromOutput: o)
                return Point(x: min(max(u.x, region.x), region.maxX), y: min(max(u.y, region.y), region.maxY))
            }
        }
        rect = Rect(bounding: quad.points)
        normalizedQuad = quad.map(transform.normalizedPoint(fromUpright:))
        normalizedRect = Rect(bounding: normalizedQuad.points)
    }

    /// ``normalizedRect`` measured from `origin`: as it is for ``CoordinateOrigin/topLeft``;
    /// with y from the bottom edge for ``CoordinateOrigin/bottomLeft``, the coordinates of Apple
    /// Vision's `VNRecognizedTextObservation.boundingBox`.
    public func normalizedRect(origin: CoordinateOrigin) -> Rect {
        origin == .topLeft ? normalizedRect : normalizedRect.flippedVertically
    }

    /// ``normalizedQuad`` measured from `origin` (see ``normalizedRect(origin:)``). The corners
    /// keep their names — `topLeft` is the text's top-left corner in both — so with
    /// ``CoordinateOrigin/bottomLeft`` `topLeft.y` is the larger value, as in Vision's
    /// `VNRectangleObservation`.
    public func normalizedQuad(origin: CoordinateOrigin) -> Quad {
        origin == .topLeft ? normalizedQuad : normalizedQuad.map(\.flippedVertically)
    }
}

/// Another reading of a symbol, with the engine's confidence (0…1).
public struct Alternate: Hashable, Sendable, Codable {
    public var text: String
    public var confidence: Float?
}

/// One character (grapheme) as the engine segmented it.
public struct TextSymbol: Hashable, Sendable, Codable {
    public var text: String
    /// 0…1; nil when the engine gives none.
    public var confidence: Float?
    public var box: TextBox
    /// The engine's top choices for this symbol (up to 3, best first; the first is usually `text`).
    public var alternates: [Alternate]
}

/// A word: text between spaces.
public struct TextWord: Hashable, Sendable, Codable {
    public var text: String
    /// 0…1 (Tesseract's word confidence / 100, the minimum over its characters); nil when none.
    public var confidence: Float?
    public var box: TextBox
    /// Empty when symbols were not requested (``Recognizer/Options/includeSymbols``).
    public var symbols: [TextSymbol]
    /// True when the engine read text but gave it confidence 0 (Tesseract does this for correct
    /// words under a whitelist): the value is passed through, flagged for the caller.
    public var isLowConfidence: Bool { confidence == 0 && !text.isEmpty }
}

/// A line of text.
public struct TextLine: Hashable, Sendable, Codable {
    /// The words joined by single spaces.
    public var text: String
    public var confidence: Float?
    public var box: TextBox
    /// The paragraph of the block this line belongs to (0-based).
    public var paragraph: Int
    public var words: [TextWord]
}

/// A block (a region of text: a column, a label, a caption).
public struct TextBlock: Hashable, Sendable, Codable {
    /// Lines joined by `\n`, paragraphs separated by an empty line.
    public var text: String
    /// Mean of the word confidences (0…1); nil without words.
    public var confidence: Float?
    public var box: TextBox
    public var lines: [TextLine]
}

/// What recognition of one frame (or image) produced.
public struct RecognitionResult: Sendable {
    /// Whether recognition ran to completion.
    public enum Status: String, Sendable, Codable {
        /// Recognition finished.
        case complete
        /// The deadline ran out; the result holds what was recognized by then (possibly nothing).
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
    public init(text: String, confidence: Float? = nil, blocks: [TextBlock] = [], status: Status = .complete,
                transform: FrameTransform, regionClamped: Bool = false, timings: StageTimings = StageTimings(),
                backend: Backend = .cpu) {
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
