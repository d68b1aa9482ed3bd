/// Reads a line of text with Tesseract, as one line (PSM 7), behind the same seam as the CTC
/// recognizer (``LineRecognizing``; ``RecognitionEngine/tesseract``).
///
/// The line image is made gray and read as stored (`Pipeline` with a known `.up` orientation, no
/// automatic preprocessing), scaled so that it is ``lineHeight`` pixels tall (area when shrinking,
/// cubic when enlarging; left as it is within 5 %, and by at most ×4 or ×¼), given a white border
/// of a quarter of that height (Tesseract reads text that touches the image's edge poorly), and
/// read once by an engine of the pool (`TessBaseAPI`, PSM 7 ``PageSegmentationMode/singleLine``,
/// symbols on) with ``options``' whitelist, blacklist, resolution, alternates, binarization and
/// inverted-line reading. Boxes come back in the line image's pixels.
///
/// It is `Sendable`: call ``recognizeLine(_:)`` from any number of threads; the engine pool
/// (one `TessBaseAPI` per concurrent caller) is the ``Recognizer``'s when made with
/// ``init(sharing:options:)``, else its own.
public final class TesseractLineRecognizer: LineRecognizing, Sendable {
    /// The line image's height Tesseract reads it at, pixels: the height a region a
    /// ``TextDetector`` found is read at in the scene-text reading (`docs/tuning.md#scene-text`).
    public static let lineHeight = 48
    /// The white border around the scaled line, pixels.
    static let border = lineHeight / 4

    /// The settings of every reading; ``RecognitionOptions/pageSegmentationMode`` is always
    /// ``PageSegmentationMode/singleLine`` and ``RecognitionOptions/includeSymbols`` always true,
    /// whatever was given.
    public let options: RecognitionOptions
    public var engine: RecognitionEngine { .tesseract }
    let engines: EnginePool

    /// A recognizer with an engine pool of its own (loads the first engine's models).
    /// - Parameters:
    ///   - configuration: the languages, models and defaults the engines are made with.
    ///   - options: the per-reading settings (default: `configuration`'s
    ///     ``RecognizerConfiguration/defaultOptions``), with PSM 7 and symbols.
    /// - Throws: ``FrameOCRError/Code/tesseract`` when a language's model cannot be loaded,
    ///   ``FrameOCRError/Code/invalidParameter`` for bad options.
    public convenience init(
        configuration: RecognizerConfiguration = RecognizerConfiguration(), options: RecognitionOptions? = nil
    ) throws(FrameOCRError) {
        let engines = try EnginePool(configuration: configuration, maxIdleEngines: nil)
        try self.init(engines: engines, options: options ?? configuration.defaultOptions)
    }

    /// A recognizer over `engines` (shared with a ``Recognizer`` or the reading plan).
    init(engines: EnginePool, options: RecognitionOptions) throws(FrameOCRError) {
        var o = options
        o.pageSegmentationMode = .singleLine
        o.includeSymbols = true
        try o.validate()
        self.options = o
        self.engines = engines
    }

    /// Reads the one line of text in `image` (see the type's overview).
    /// - Parameter image: any ``PixelFormat``, any `bytesPerRow`, as stored (its orientation is not
    ///   applied): the line's crop, upright.
    /// - Returns: the line read by ``RecognitionEngine/tesseract``: its symbols left to right, with a
    ///   space between words (its box the gap between them, no confidence), boxes in `image`'s
    ///   pixels; the confidence is the mean of the words' (each the minimum of its symbols'); empty
    ///   text and a nil confidence when nothing was read.
    /// - Throws: ``FrameOCRError`` from preprocessing (an image it cannot take) or recognition
    ///   (``FrameOCRError/Code/tesseract``).
    public func recognizeLine(_ image: PixelBuffer) throws(FrameOCRError) -> LineRecognition {
        var prepared = try Pipeline(orientation: .known(.up)).runSteps(image, pool: nil)
        let factor = min(max(Double(Self.lineHeight) / Double(max(prepared.image.height, 1)), 0.25), 4)
        if abs(factor - 1) > 0.05 { try prepared.rescale(by: factor, pool: nil) }
        try prepared.pad(by: Self.border, pool: nil)
        var decisions = PreprocessingDecisions()
        decisions.singleLine = true
        decisions.pageSegmentationMode = .singleLine
        decisions.border = Self.border
        prepared.decisions = decisions
        let result = try engines.recognize(prepared, options: options, deadline: nil)
        let words = result.words.sorted { $0.box.rect.x < $1.box.rect.x }
        var characters: [RecognizedCharacter] = []
        for (i, word) in words.enumerated() {
            if i > 0 {
                let left = words[i - 1].box.rect
                let right = word.box.rect
                let top = min(left.y, right.y)
                let bottom = max(left.maxY, right.maxY)
                characters.append(
                    RecognizedCharacter(
                        text: " ",
                        box: Rect(x: left.maxX, y: top, width: max(0, right.x - left.maxX), height: bottom - top),
                        confidence: nil))
            }
            for symbol in word.symbols {
                characters.append(
                    RecognizedCharacter(
                        text: symbol.text, box: symbol.box.rect, confidence: symbol.confidence,
                        choices: symbol.choices))
            }
        }
        return LineRecognition(
            text: characters.map(\.text).joined(), confidence: characters.isEmpty ? nil : result.confidence,
            characters: characters, engine: .tesseract)
    }
}
