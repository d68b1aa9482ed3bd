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
