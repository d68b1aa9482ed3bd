import Foundation

/// The geometry that links a processed image back to the frame it came from.
///
/// Three coordinate spaces, all continuous pixels with a top-left origin:
/// - **output**: the image handed to the recognizer (cropped, upright, scaled);
/// - **upright**: the whole frame after its orientation is applied (what a user sees);
/// - **raw**: the buffer's stored pixels.
///
/// output → upright is `(region.x + (x − padding) / scaleX, region.y + (y − padding) / scaleY)`,
/// with, when ``skewDegrees`` is not 0, the point `(x − padding, y − padding)` first turned
/// `skewDegrees` clockwise about the center of the scaled region (`scaledWidth / 2`,
/// `scaledHeight / 2`) — undoing automatic preprocessing's skew correction, which turned the
/// scaled region back by that angle; upright → raw applies the
/// orientation (``Orientation/storedPoint(fromUpright:storedWidth:storedHeight:)``). All maps are
/// exact inverses of each other (up to floating-point rounding).
public struct FrameTransform: Hashable, Sendable, Codable {
    /// How the raw buffer is stored relative to upright.
    public var orientation: Orientation
    /// Raw buffer size in pixels.
    public var rawWidth: Int
    public var rawHeight: Int
    /// The region of the upright frame that was processed, in upright pixels.
    public var region: PixelRect
    /// Output pixels per upright pixel along x and y (1 when not scaled).
    public var scaleX: Double
    public var scaleY: Double
    /// Output pixels of border added around the scaled region on every side (automatic
    /// preprocessing pads tight crops, and makes room for the corners of a skew-corrected
    /// region); 0 when none.
    public var padding: Int
    /// How far the text of the scaled region was turned, in degrees clockwise as displayed
    /// (positive: lines descend to the right; −45…45); the output holds the scaled region turned
    /// back by this angle about its center (automatic preprocessing's skew correction). 0 (the
    /// default): not turned, and every map is exactly what it is without skew.
    public var skewDegrees: Double

    public init(
        orientation: Orientation, rawWidth: Int, rawHeight: Int, region: PixelRect, scaleX: Double = 1,
        scaleY: Double = 1,
        padding: Int = 0, skewDegrees: Double = 0
    ) {
        self.orientation = orientation
        self.rawWidth = rawWidth
        self.rawHeight = rawHeight
        self.region = region
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.padding = padding
        self.skewDegrees = skewDegrees
    }

    /// Decodes a transform; `skewDegrees` may be absent (0), as in JSON written before it existed.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            orientation: try c.decode(Orientation.self, forKey: .orientation),
            rawWidth: try c.decode(Int.self, forKey: .rawWidth),
            rawHeight: try c.decode(Int.self, forKey: .rawHeight),
            region: try c.decode(PixelRect.self, forKey: .region),
            scaleX: try c.decode(Double.self, forKey: .scaleX), scaleY: try c.decode(Double.self, forKey: .scaleY),
            padding: try c.decode(Int.self, forKey: .padding),
            skewDegrees: try c.decodeIfPresent(Double.self, forKey: .skewDegrees) ?? 0)
    }

    /// Upright frame size in pixels.
    public var uprightWidth: Int { orientation.swapsDimensions ? rawHeight : rawWidth }
    public var uprightHeight: Int { orientation.swapsDimensions ? rawWidth : rawHeight }
    /// Scaled region size in pixels (the region × scale, rounded, at least 1).
    public var scaledWidth: Int { max(1, Int((Double(region.width) * scaleX).rounded())) }
    public var scaledHeight: Int { max(1, Int((Double(region.height) * scaleY).rounded())) }
    /// Output image size in pixels (the scaled region plus the padding on both sides).
    public var outputWidth: Int { scaledWidth + 2 * padding }
    public var outputHeight: Int { scaledHeight + 2 * padding }

    public func uprightPoint(fromOutput p: Point) -> Point {
        guard skewDegrees != 0 else {
            return Point(
                x: Double(region.x) + (p.x - Double(padding)) / scaleX,
                y: Double(region.y) + (p.y - Double(padding)) / scaleY)
        }
        let s = turned(Point(x: p.x - Double(padding), y: p.y - Double(padding)), by: skewDegrees)
        return Point(x: Double(region.x) + s.x / scaleX, y: Double(region.y) + s.y / scaleY)
    }
    public func outputPoint(fromUpright p: Point) -> Point {
        guard skewDegrees != 0 else {
            return Point(
                x: (p.x - Double(region.x)) * scaleX + Double(padding),
                y: (p.y - Double(region.y)) * scaleY + Double(padding))
        }
        let q = turned(
            Point(x: (p.x - Double(region.x)) * scaleX, y: (p.y - Double(region.y)) * scaleY), by: -skewDegrees)
        return Point(x: q.x + Double(padding), y: q.y + Double(padding))
    }

    /// `p` (scaled-region pixels) turned `degrees` clockwise as displayed about the scaled
    /// region's center.
    private func turned(_ p: Point, by degrees: Double) -> Point {
        let cx = Double(scaledWidth) / 2
        let cy = Double(scaledHeight) / 2
        let t = degrees * .pi / 180
        let c = cos(t)
        let s = sin(t)
        let dx = p.x - cx
        let dy = p.y - cy
        return Point(x: cx + c * dx - s * dy, y: cy + s * dx + c * dy)
    }

    /// The part of the output image that shows the region, in output pixels: the scaled region
    /// inside the padding, or, when ``skewDegrees`` is not 0, the bounding box of the turned
    /// region (within the output).
    var outputContentRect: Rect {
        let p = Double(padding)
        guard skewDegrees != 0 else {
            return Rect(x: p, y: p, width: Double(scaledWidth), height: Double(scaledHeight))
        }
        let t = skewDegrees * .pi / 180
        let c = abs(cos(t))
        let s = abs(sin(t))
        let w = Double(scaledWidth)
        let h = Double(scaledHeight)
        let ex = min((w * c + h * s) / 2, w / 2 + p)
        let ey = min((w * s + h * c) / 2, h / 2 + p)
        return Rect(x: w / 2 + p - ex, y: h / 2 + p - ey, width: 2 * ex, height: 2 * ey)
    }
    public func rawPoint(fromUpright p: Point) -> Point {
        orientation.storedPoint(fromUpright: p, storedWidth: Double(rawWidth), storedHeight: Double(rawHeight))
    }
    public func uprightPoint(fromRaw p: Point) -> Point {
        orientation.uprightPoint(fromStored: p, storedWidth: Double(rawWidth), storedHeight: Double(rawHeight))
    }
    public func rawPoint(fromOutput p: Point) -> Point { rawPoint(fromUpright: uprightPoint(fromOutput: p)) }
    public func outputPoint(fromRaw p: Point) -> Point { outputPoint(fromUpright: uprightPoint(fromRaw: p)) }

    /// A point of the upright frame in normalized 0…1 coordinates.
    public func normalizedPoint(fromUpright p: Point) -> Point {
        Point(x: p.x / Double(uprightWidth), y: p.y / Double(uprightHeight))
    }

    /// The raw-buffer rectangle (stored pixels) covered by `uprightRect`.
    public func rawRect(fromUpright r: PixelRect) -> PixelRect {
        // The corners' bounding box, without arrays (this runs once per frame).
        let q = Quad(Rect(r)).map(rawPoint(fromUpright:))
        let x0 = min(q.topLeft.x, q.topRight.x, q.bottomRight.x, q.bottomLeft.x)
        let y0 = min(q.topLeft.y, q.topRight.y, q.bottomRight.y, q.bottomLeft.y)
        let x1 = max(q.topLeft.x, q.topRight.x, q.bottomRight.x, q.bottomLeft.x)
        let y1 = max(q.topLeft.y, q.topRight.y, q.bottomRight.y, q.bottomLeft.y)
        return PixelRect(
            x: Int(x0.rounded()), y: Int(y0.rounded()), width: Int((x1 - x0).rounded()),
            height: Int((y1 - y0).rounded()))
    }
}
