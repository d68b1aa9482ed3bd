/// One character (grapheme) as the engine segmented it.
public struct TextSymbol: Hashable, Sendable, Codable {
    public var text: String
    /// 0…1; nil when the engine gives none.
    public var confidence: Float?
    public var box: TextBox
    /// The engine's top choices for this symbol (up to 3, best first; the first is usually `text`).
    public var alternates: [Alternate]
}
