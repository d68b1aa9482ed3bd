/// A box in the upright frame: pixels (top-left origin) and normalized 0…1, as a rectangle and as
/// a quad (topLeft, topRight, bottomRight, bottomLeft). Map it to raw-buffer pixels with the
/// result's ``RecognitionResult/transform`` (``FrameTransform/rawPoint(fromUpright:)``).
public struct TextBox: Hashable, Sendable, Codable {
    /// Upright-frame pixels.
    public var rect: Rect
    public var quad: Quad
    /// Normalized to the upright frame's width and height (0…1).
    public var normalizedRect: Rect
    public var normalizedQuad: Quad

    /// The box of an output-image rectangle, mapped back through `transform`.
    init(outputLeft l: Int32, top t: Int32, right r: Int32, bottom b: Int32, transform: FrameTransform) {
        // A box reaching into the padding is clipped to the region's pixels (with skew: to the
        // turned region's bounding box, and its corners, turned back, to the region).
        let content = transform.outputContentRect
        let minX = content.x
        let minY = content.y
        let maxX = content.maxX
        let maxY = content.maxY
        let left = min(max(Double(l), minX), maxX)
        let top = min(max(Double(t), minY), maxY)
        let right = min(max(Double(r), left), maxX)
        let bottom = min(max(Double(b), top), maxY)
        let outQuad = Quad(Rect(x: left, y: top, width: right - left, height: bottom - top))
        if transform.skewDegrees == 0 {
            quad = outQuad.map(transform.uprightPoint(fromOutput:))
        } else {
            let region = Rect(transform.region)
            quad = outQuad.map { o in
                let u = transform.uprightPoint(fromOutput: o)
                return Point(x: min(max(u.x, region.x), region.maxX), y: min(max(u.y, region.y), region.maxY))
            }
        }
        rect = Rect(bounding: quad.points)
        normalizedQuad = quad.map(transform.normalizedPoint(fromUpright:))
        normalizedRect = Rect(bounding: normalizedQuad.points)
    }

    /// The box of `rect`, a rectangle of the upright frame (`frameWidth`×`frameHeight` pixels,
    /// both > 0), as an axis-aligned quad.
    init(upright rect: Rect, frameWidth: Int, frameHeight: Int) {
        self.init(upright: Quad(rect), frameWidth: frameWidth, frameHeight: frameHeight)
    }

    /// The box of `quad`, in the upright frame's pixels (`frameWidth`×`frameHeight`, both > 0):
    /// a turned text region's, with ``rect`` its bounding rectangle.
    init(upright quad: Quad, frameWidth: Int, frameHeight: Int) {
        self.quad = quad
        rect = Rect(bounding: quad.points)
        let w = Double(frameWidth)
        let h = Double(frameHeight)
        normalizedQuad = quad.map { Point(x: $0.x / w, y: $0.y / h) }
        normalizedRect = Rect(bounding: normalizedQuad.points)
    }

    /// ``normalizedRect`` measured from `origin`: as it is for ``CoordinateOrigin/topLeft``;
    /// with y from the bottom edge for ``CoordinateOrigin/bottomLeft``, the coordinates of Apple
    /// Vision's `VNRecognizedTextObservation.boundingBox`.
    public func normalizedRect(origin: CoordinateOrigin) -> Rect {
        origin == .topLeft ? normalizedRect : normalizedRect.flippedVertically()
    }

    /// ``normalizedQuad`` measured from `origin` (see ``normalizedRect(origin:)``). The corners
    /// keep their names — `topLeft` is the text's top-left corner in both — so with
    /// ``CoordinateOrigin/bottomLeft`` `topLeft.y` is the larger value, as in Vision's
    /// `VNRectangleObservation`.
    public func normalizedQuad(origin: CoordinateOrigin) -> Quad {
        origin == .topLeft ? normalizedQuad : normalizedQuad.map { $0.flippedVertically() }
    }
}
