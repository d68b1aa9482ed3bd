/// A region of interest, always in **upright-frame** coordinates (after the frame's orientation
/// is applied), so callers never have to think about how the sensor was mounted.
public enum RegionOfInterest: Hashable, Sendable, Codable {
    /// Pixels of the upright frame: origin top-left, `width`×`height`.
    case pixels(PixelRect)
    /// Fractions of the upright frame, each 0…1, origin top-left (`Rect(x: 0.1, y: 0.4, width:
    /// 0.8, height: 0.2)`); ``normalized(_:origin:)`` takes Apple Vision's bottom-left origin.
    case normalized(Rect)
    /// Percentages of the upright frame, 0…100, as camera scan-region plugins take them
    /// (`left`, `top`, `width`, `height`).
    case scanRegion(left: Double, top: Double, width: Double, height: Double)

    /// A region of fractions of the upright frame measured from `origin`: `.normalized(rect)`
    /// for ``CoordinateOrigin/topLeft``; for ``CoordinateOrigin/bottomLeft`` (Apple Vision's
    /// `regionOfInterest`, y from the bottom edge) the same region flipped to FrameOCR's top-left
    /// origin.
    public static func normalized(_ rect: Rect, origin: CoordinateOrigin) -> RegionOfInterest {
        .normalized(origin == .topLeft ? rect : rect.flippedVertically())
    }

    /// What to do with a region that lies partly outside the frame.
    public enum Policy: String, Hashable, Sendable, Codable {
        /// Use the part inside the frame and report `regionClamped == true` (default).
        case clamp
        /// Throw ``FrameOCRError/Code/invalidROI``.
        case strict
    }

    /// The region in whole pixels of a `width`×`height` upright frame.
    ///
    /// Fractional edges are rounded to the nearest pixel. A region with zero or negative size (in
    /// any unit), one with non-finite values, or one entirely outside the frame always throws;
    /// one partly outside is clamped (`.clamp`, `clamped == true`) or throws (`.strict`).
    /// - Throws: ``FrameOCRError/Code/invalidROI``.
    public func resolve(width: Int, height: Int, policy: Policy = .clamp) throws(FrameOCRError) -> (
        rect: PixelRect, clamped: Bool
    ) {
        let frameWidth = Double(width)
        let frameHeight = Double(height)
        let requested: PixelRect
        switch self {
        case .pixels(let r):
            requested = r
        case .normalized(let r):
            requested = try Self.round(
                x: r.x * frameWidth, y: r.y * frameHeight, maxX: (r.x + r.width) * frameWidth,
                maxY: (r.y + r.height) * frameHeight,
                given: r.width > 0 && r.height > 0, description: "\(self)")
        case .scanRegion(let l, let t, let w, let h):
            requested = try Self.round(
                x: l / 100 * frameWidth, y: t / 100 * frameHeight, maxX: (l + w) / 100 * frameWidth,
                maxY: (t + h) / 100 * frameHeight,
                given: w > 0 && h > 0, description: "\(self)")
        }
        guard !requested.isEmpty else {
            throw FrameOCRError(.invalidROI, "region \(requested) has zero or negative size", stage: .crop)
        }
        let frame = PixelRect(x: 0, y: 0, width: width, height: height)
        guard let inside = requested.intersection(frame) else {
            throw FrameOCRError(
                .invalidROI, "region \(requested) lies outside the \(width)x\(height) upright frame", stage: .crop)
        }
        let clamped = inside != requested
        if clamped, policy == .strict {
            throw FrameOCRError(
                .invalidROI, "region \(requested) is not inside the \(width)x\(height) upright frame (strict)",
                stage: .crop)
        }
        return (inside, clamped)
    }

    /// `description` is only built for an error: a frame's steady path allocates nothing here.
    private static func round(
        x: Double, y: Double, maxX: Double, maxY: Double, given: Bool,
        description: @autoclosure () -> String
    ) throws(FrameOCRError) -> PixelRect {
        guard x.isFinite, y.isFinite, maxX.isFinite, maxY.isFinite, abs(x) < 1e9, abs(y) < 1e9, abs(maxX) < 1e9,
            abs(maxY) < 1e9
        else {
            throw FrameOCRError(.invalidROI, "region \(description()) has values that are not finite", stage: .crop)
        }
        guard given else {
            throw FrameOCRError(.invalidROI, "region \(description()) has zero or negative size", stage: .crop)
        }
        let x0 = Int(x.rounded())
        let y0 = Int(y.rounded())
        return PixelRect(x: x0, y: y0, width: Int(maxX.rounded()) - x0, height: Int(maxY.rounded()) - y0)
    }
}
