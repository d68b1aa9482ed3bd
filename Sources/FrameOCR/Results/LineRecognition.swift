/// One line of text read alone by a line engine (``LineRecognizing/recognizeLine(_:)``): its text,
/// its confidence, each character with its box and choices, and the engine that read it.
///
/// Coordinates are the line image's pixels as it was given (top-left origin); map them to a
/// frame by the crop's offset and scale.
public struct LineRecognition: Hashable, Sendable, Codable {
    /// The characters' texts joined: `characters.map(\.text).joined()`. Empty when nothing was
    /// read.
    public var text: String
    /// 0…1, as ``TextLine/confidence``; nil when nothing was read. CTC engine: the mean of the
    /// characters' confidences (PaddleOCR's line score). Tesseract: the mean of its words'
    /// confidences (each the minimum over its symbols).
    public var confidence: Float?
    /// Left to right; spaces between words included.
    public var characters: [RecognizedCharacter]
    /// Which engine read the line.
    public var engine: RecognitionEngine

    public init(text: String, confidence: Float?, characters: [RecognizedCharacter], engine: RecognitionEngine) {
        self.text = text
        self.confidence = confidence
        self.characters = characters
        self.engine = engine
    }

    /// A line of `characters` read by `engine`: its ``text`` their texts joined, its
    /// ``confidence`` the mean of theirs (nil when none has one).
    init(characters: [RecognizedCharacter], engine: RecognitionEngine) {
        let confidences = characters.compactMap(\.confidence)
        self.init(
            text: characters.map(\.text).joined(),
            confidence: confidences.isEmpty ? nil : confidences.reduce(0, +) / Float(confidences.count),
            characters: characters, engine: engine)
    }
}
