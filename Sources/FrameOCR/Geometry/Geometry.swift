/// A point in continuous pixel coordinates (top-left origin; pixel (i, j) covers [i, i+1)×[j, j+1)).
public struct Point: Hashable, Sendable, Codable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public var description: String { "(\(x), \(y))" }
}

/// An axis-aligned rectangle in integer pixels: origin top-left, `width`×`height` pixels.
public struct PixelRect: Hashable, Sendable, Codable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    /// The smallest pixel rectangle that holds `rect` (edges rounded outwards), grown by
    /// `padding` pixels on every side — e.g. a region of interest around a recognized word.
    public init(enclosing rect: Rect, padding: Int = 0) {
        let x0 = Int(rect.x.rounded(.down)) - padding, y0 = Int(rect.y.rounded(.down)) - padding
        let x1 = Int(rect.maxX.rounded(.up)) + padding, y1 = Int(rect.maxY.rounded(.up)) + padding
        self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public var description: String { "(\(x),\(y),\(width),\(height))" }

    /// The intersection with `other`, or nil when they do not overlap.
    public func intersection(_ other: PixelRect) -> PixelRect? {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// An axis-aligned rectangle in continuous coordinates (pixels or normalized 0…1).
public struct Rect: Hashable, Sendable, Codable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public init(_ r: PixelRect) { self.init(x: Double(r.x), y: Double(r.y), width: Double(r.width), height: Double(r.height)) }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    /// The bounding rectangle of `points`.
    public init(bounding points: [Point]) {
        let xs = points.map(\.x), ys = points.map(\.y)
        let x0 = xs.min() ?? 0, y0 = ys.min() ?? 0
        self.init(x: x0, y: y0, width: (xs.max() ?? 0) - x0, height: (ys.max() ?? 0) - y0)
    }
}

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
        self.topLeft = topLeft; self.topRight = topRight; self.bottomRight = bottomRight; self.bottomLeft = bottomLeft
    }
    public init(_ r: Rect) {
        self.init(
            topLeft: Point(x: r.x, y: r.y), topRight: Point(x: r.maxX, y: r.y),
            bottomRight: Point(x: r.maxX, y: r.maxY), bottomLeft: Point(x: r.x, y: r.maxY))
    }
    public var points: [Point] { [topLeft, topRight, bottomRight, bottomLeft] }
    /// Applies `transform` to each corner.
    public func map(_ transform: (Point) -> Point) -> Quad {
        Quad(topLeft: transform(topLeft), topRight: transform(topRight),
             bottomRight: transform(bottomRight), bottomLeft: transform(bottomLeft))
    }
}
