/// A block (a region of text: a column, a label, a caption).
public struct TextBlock: Hashable, Sendable, Codable {
    /// Lines joined by `\n`, paragraphs separated by an empty line.
    public var text: String
    /// Mean of the word confidences (0…1); nil without words.
    public var confidence: Float?
    public var box: TextBox
    public var lines: [TextLine]
}
