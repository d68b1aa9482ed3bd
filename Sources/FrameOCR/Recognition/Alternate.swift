/// Another reading of a symbol, with the engine's confidence (0…1).
public struct Alternate: Hashable, Sendable, Codable {
    public var text: String
    public var confidence: Float?
}
