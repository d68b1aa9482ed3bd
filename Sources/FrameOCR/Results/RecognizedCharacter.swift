/// One character of a line read alone (``LineRecognition/characters``): its text, where it lies
/// along the line, how sure the engine is, and the engine's other choices.
public struct RecognizedCharacter: Hashable, Sendable, Codable {
    /// One character (a key of the engine's alphabet: a grapheme; `" "` for the space between
    /// words).
    public var text: String
    /// Where it lies, in pixels of the line image that was read (continuous coordinates, top-left
    /// origin, inside the image). With the CTC engine the box spans the image's height and, along
    /// the line, the time steps at which the engine output the character: it marks where the
    /// character was seen rather than its ink (a narrow character's box may be wider than its
    /// ink, a wide one's narrower), boxes of successive characters increase in x and do not
    /// overlap. With Tesseract, the symbol's box; for the space between two words, the gap
    /// between their boxes.
    public var box: Rect
    /// 0…1, as ``TextSymbol/confidence``. CTC engine: the highest probability the network gave the
    /// character over the time steps it was output at. Tesseract: the symbol's confidence / 100.
    /// nil when the engine gives none (Tesseract's space between words).
    public var confidence: Float?
    /// The engine's top choices for this character, most probable first; the first is the
    /// character's own text. **Empty unless asked for** (``TextLineRecognizer/Configuration/alternates``,
    /// ``RecognitionOptions/alternates``, which a ``Recognizer`` hands to the CTC engine per call:
    /// ``TextLineRecognizer/recognizeLine(_:choices:)``). CTC engine: the allowed classes at the time step where
    /// the character was most probable, each with its probability there as
    /// ``Alternate/confidence`` and ``Alternate/log10RelativeLikelihood`` = log₁₀ of its
    /// probability over the first's. Tesseract: ``TextSymbol/choices``. JSON key `alternates`.
    public var choices: [Alternate]

    enum CodingKeys: String, CodingKey {
        case text, box, confidence
        case choices = "alternates"
    }

    public init(text: String, box: Rect, confidence: Float?, choices: [Alternate] = []) {
        self.text = text
        self.box = box
        self.confidence = confidence
        self.choices = choices
    }
}
