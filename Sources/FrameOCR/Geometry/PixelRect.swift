/// An axis-aligned rectangle in integer pixels: origin top-left, `width`×`height` pixels.
public struct PixelRect: Hashable, Sendable, Codable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    /// The smallest pixel rectangle that holds `rect` (edges rounded outwards), grown by
    /// `padding` pixels on every side — e.g. a region of interest around a recognized word.
    public init(enclosing rect: Rect, padding: Int = 0) {
        let x0 = Int(rect.x.rounded(.down)) - padding
        let y0 = Int(rect.y.rounded(.down)) - padding
        let x1 = Int(rect.maxX.rounded(.up)) + padding
        let y1 = Int(rect.maxY.rounded(.up)) + padding
        self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public var description: String { "(\(x),\(y),\(width),\(height))" }

    /// `width` × `height`, pixels.
    public var area: Int { width * height }

    /// The intersection with `other`, or nil when they do not overlap.
    public func intersection(_ other: PixelRect) -> PixelRect? {
        let x0 = max(x, other.x)
        let y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX)
        let y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
