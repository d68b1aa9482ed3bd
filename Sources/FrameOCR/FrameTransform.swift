/// The geometry that links a processed image back to the frame it came from.
///
/// Three coordinate spaces, all continuous pixels with a top-left origin:
/// - **output**: the image handed to the recognizer (cropped, upright, scaled);
/// - **upright**: the whole frame after its orientation is applied (what a user sees);
/// - **raw**: the buffer's stored pixels.
///
/// output → upright is `(region.x + (x − padding) / scaleX, region.y + (y − padding) / scaleY)`;
/// upright → raw applies the
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
    /// preprocessing pads tight crops); 0 when none.
    public var padding: Int

    public init(orientation: Orientation, rawWidth: Int, rawHeight: Int, region: PixelRect, scaleX: Double = 1, scaleY: Double = 1,
                padding: Int = 0) {
        self.orientation = orientation
        self.rawWidth = rawWidth
        self.rawHeight = rawHeight
        self.region = region
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.padding = padding
    }

    /// Upright frame size in pixels.
    public var uprightWidth: Int { orientation.swapsDimensions ? rawHeight : rawWidth }
    public var uprightHeight: Int { orientation.swapsDimensions ? rawWidth : rawHeight }
    /// Output image size in pixels (the scaled region plus the padding on both sides).
    public var outputWidth: Int { max(1, Int((Double(region.width) * scaleX).rounded())) + 2 * padding }
    public var outputHeight: Int { max(1, Int((Double(region.height) * scaleY).rounded())) + 2 * padding }

    public func uprightPoint(fromOutput p: Point) -> Point {
        Point(x: Double(region.x) + (p.x - Double(padding)) / scaleX, y: Double(region.y) + (p.y - Double(padding)) / scaleY)
    }
    public func outputPoint(fromUpright p: Point) -> Point {
        Point(x: (p.x - Double(region.x)) * scaleX + Double(padding), y: (p.y - Double(region.y)) * scaleY + Double(padding))
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
        return PixelRect(x: Int(x0.rounded()), y: Int(y0.rounded()), width: Int((x1 - x0).rounded()), height: Int((y1 - y0).rounded()))
    }
}
