/// Where the y axis of normalized (0…1) coordinates starts — the one difference between
/// FrameOCR's normalized boxes and Apple Vision's.
///
/// FrameOCR, like OpenCV, Tesseract and image files, measures y downwards from the top edge
/// (``topLeft``): every ``TextBox`` and ``RegionOfInterest`` is in these coordinates, in pixels
/// and normalized. Apple Vision (`VNRecognizedTextObservation.boundingBox`, a request's
/// `regionOfInterest`, `VNImageRectForNormalizedRect`) and Core Graphics measure y upwards from
/// the bottom edge (``bottomLeft``). Code ported from Vision takes
/// ``TextBox/normalizedRect(origin:)``, ``TextBox/normalizedQuad(origin:)`` and
/// ``RegionOfInterest/normalized(_:origin:)`` with `.bottomLeft`; x is the same in both.
public enum CoordinateOrigin: String, Hashable, Sendable, Codable, CaseIterable {
    /// y = 0 at the top edge, growing downwards (FrameOCR, OpenCV, Tesseract, image files).
    case topLeft
    /// y = 0 at the bottom edge, growing upwards (Apple Vision, Core Graphics).
    case bottomLeft
}

extension Point {
    /// This point with its y axis flipped within `height` (`y → height − y`): between the two
    /// ``CoordinateOrigin``s, either way. `height` is 1 (the default) for normalized
    /// coordinates, the frame's height for pixels.
    public func flippedVertically(within height: Double = 1) -> Point { Point(x: x, y: height - y) }
}

extension Rect {
    /// This rectangle with its y axis flipped within `height` (`y → height − y − self.height`):
    /// between the two ``CoordinateOrigin``s, either way; the size stays. `height` is 1 (the
    /// default) for normalized coordinates, the frame's height for pixels (what Vision's
    /// `VNImageRectForNormalizedRect` leaves to the caller).
    public func flippedVertically(within height: Double = 1) -> Rect {
        Rect(x: x, y: height - y - self.height, width: width, height: self.height)
    }
}
