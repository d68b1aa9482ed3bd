import Foundation

/// A region of text a ``TextDetector`` found: a turned rectangle, in pixels of the image it was
/// given (continuous coordinates, top-left origin).
public struct DetectedText: Hashable, Sendable, Codable {
    /// The rectangle's center, pixels.
    public var center: Point
    /// Its size along the text (`width`) and across it (`height`), pixels; `width ≥ height`,
    /// except for a region under 1.5 times as wide as tall turned more than 45°, which is taken
    /// as running within 45° of the horizontal (a short word: Latin text in a scene mostly does).
    public var width: Double
    public var height: Double
    /// The direction the text runs, degrees clockwise as displayed (positive: descending to the
    /// right), in (−90, 90].
    public var angleDegrees: Double
    /// The model's mean probability of text inside the region, 0…1.
    public var score: Float

    public init(center: Point, width: Double, height: Double, angleDegrees: Double, score: Float) {
        self.center = center
        self.width = width
        self.height = height
        self.angleDegrees = angleDegrees
        self.score = score
    }

    /// The corners, clockwise from the text's top-left: `topLeft`→`topRight` runs along the
    /// text.
    public var quad: Quad {
        let t = angleDegrees * .pi / 180
        let (ux, uy) = (cos(t) * width / 2, sin(t) * width / 2)  // half the width along the text
        let (vx, vy) = (-sin(t) * height / 2, cos(t) * height / 2)  // half the height across it, downwards
        let c = center
        return Quad(
            topLeft: Point(x: c.x - ux - vx, y: c.y - uy - vy), topRight: Point(x: c.x + ux - vx, y: c.y + uy - vy),
            bottomRight: Point(x: c.x + ux + vx, y: c.y + uy + vy),
            bottomLeft: Point(x: c.x - ux + vx, y: c.y - uy + vy))
    }

    /// The smallest axis-aligned rectangle holding ``quad``.
    public var boundingBox: Rect { Rect(bounding: quad.points) }
}
