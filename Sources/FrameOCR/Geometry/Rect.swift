/// An axis-aligned rectangle in continuous coordinates (pixels or normalized 0…1).
public struct Rect: Hashable, Sendable, Codable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    public init(_ r: PixelRect) {
        self.init(x: Double(r.x), y: Double(r.y), width: Double(r.width), height: Double(r.height))
    }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    /// The bounding rectangle of `points`.
    public init(bounding points: [Point]) {
        let xs = points.map(\.x)
        let ys = points.map(\.y)
        let x0 = xs.min() ?? 0
        let y0 = ys.min() ?? 0
        self.init(x: x0, y: y0, width: (xs.max() ?? 0) - x0, height: (ys.max() ?? 0) - y0)
    }

    /// `self` ∩ `bounds`: empty (zero width or height, at the nearest edge) when they do not
    /// overlap.
    public func clipped(to bounds: Rect) -> Rect {
        let x0 = min(max(x, bounds.x), bounds.maxX)
        let y0 = min(max(y, bounds.y), bounds.maxY)
        let x1 = max(min(maxX, bounds.maxX), x0)
        let y1 = max(min(maxY, bounds.maxY), y0)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The area of `self` ∩ `other` as a fraction of the smaller of the two: 0…1, 1 when one
    /// lies inside the other, 0 when they do not overlap or either is empty.
    public func overlapFraction(with other: Rect) -> Double {
        let w = min(maxX, other.maxX) - max(x, other.x)
        let h = min(maxY, other.maxY) - max(y, other.y)
        let smaller = min(width * height, other.width * other.height)
        guard w > 0, h > 0, smaller > 0 else { return 0 }
        return w * h / smaller
    }
}
