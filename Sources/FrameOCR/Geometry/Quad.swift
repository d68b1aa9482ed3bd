/// Four corners of a (possibly rotated) box, clockwise from the top-left of the text.
///
/// In upright-frame coordinates a box of upright text has `topLeft` at its top-left corner. The
/// same quad mapped to raw-buffer coordinates keeps the corner *names* (the text's top-left), so
/// the corners are rotated with the buffer.
public struct Quad: Hashable, Sendable, Codable {
    public var topLeft: Point
    public var topRight: Point
    public var bottomRight: Point
    public var bottomLeft: Point
    public init(topLeft: Point, topRight: Point, bottomRight: Point, bottomLeft: Point) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
    }
    public init(_ r: Rect) {
        self.init(
            topLeft: Point(x: r.x, y: r.y), topRight: Point(x: r.maxX, y: r.y),
            bottomRight: Point(x: r.maxX, y: r.maxY), bottomLeft: Point(x: r.x, y: r.maxY))
    }
    public var points: [Point] { [topLeft, topRight, bottomRight, bottomLeft] }
    /// Applies `transform` to each corner.
    public func map(_ transform: (Point) -> Point) -> Quad {
        Quad(
            topLeft: transform(topLeft), topRight: transform(topRight),
            bottomRight: transform(bottomRight), bottomLeft: transform(bottomLeft))
    }
}
