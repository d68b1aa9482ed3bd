/// A point in continuous pixel coordinates (top-left origin; pixel (i, j) covers [i, i+1)×[j, j+1)).
public struct Point: Hashable, Sendable, Codable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    public var description: String { "(\(x), \(y))" }
}
