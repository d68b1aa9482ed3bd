/// One character (grapheme) as the engine segmented it.
public struct TextSymbol: Hashable, Sendable, Codable {
    public var text: String
    /// 0…1; nil when the engine gives none.
    public var confidence: Float?
    public var box: TextBox
    /// The engine's top choices for this symbol, best first (the first is the symbol's own text),
    /// as many as ``Recognizer/Options/alternates`` asked for (0…3) or fewer when the engine has
    /// fewer; empty by default.
    public var alternates: [Alternate]
}
