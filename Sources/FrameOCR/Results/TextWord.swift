/// A word: text between spaces.
public struct TextWord: Hashable, Sendable, Codable {
    public var text: String
    /// 0…1 (Tesseract's word confidence / 100, the minimum over its characters); nil when none.
    public var confidence: Float?
    public var box: TextBox
    /// Empty when symbols were not requested (``RecognitionOptions/includeSymbols``).
    public var symbols: [TextSymbol]
    /// The engine that read the word (``RecognitionEngine``): Tesseract, or the CTC line
    /// recognizer (``TextLineRecognizer``), per ``RecognizerConfiguration/engine``. nil in results
    /// decoded from JSON written before the CTC engine existed.
    public var engine: RecognitionEngine? = .tesseract
    /// True when the engine read text but gave it confidence 0 (Tesseract does this for correct
    /// words under a whitelist): the value is passed through, flagged for the caller.
    public var isLowConfidence: Bool { confidence == 0 && !text.isEmpty }
}
