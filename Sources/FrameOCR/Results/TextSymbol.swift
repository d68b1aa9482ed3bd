/// One character (grapheme) as the engine segmented it.
public struct TextSymbol: Hashable, Sendable, Codable {
    public var text: String
    /// 0…1; nil when the engine gives none.
    public var confidence: Float?
    public var box: TextBox
    /// The engine's top choices for this symbol, best first (the first is the symbol's own text),
    /// as many as ``RecognitionOptions/alternates`` asked for (1…3) or fewer when the engine has
    /// fewer. **Empty unless asked for**: ``RecognitionOptions/alternates`` is 0 by default,
    /// because the choices cost recognition time (another beam search per line for each choice
    /// after the first). JSON key `alternates`.
    public var choices: [Alternate]

    enum CodingKeys: String, CodingKey {
        case text, confidence, box
        case choices = "alternates"
    }

    public init(text: String, confidence: Float?, box: TextBox, choices: [Alternate]) {
        self.text = text
        self.confidence = confidence
        self.box = box
        self.choices = choices
    }

    /// The symbol's choices under their old name: once filled by default, now empty unless
    /// ``RecognitionOptions/alternates`` asks for them.
    @available(
        *, deprecated, renamed: "choices",
        message:
            "empty unless RecognitionOptions.alternates (--alternates) asks for 1…3 choices: they are off by default since they cost recognition time"
    )
    public var alternates: [Alternate] {
        get { choices }
        set { choices = newValue }
    }
}
