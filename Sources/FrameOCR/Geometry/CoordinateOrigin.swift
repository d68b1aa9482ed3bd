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
    /// This normalized point (0…1) with its y axis flipped (`y → 1 − y`): between the two
    /// ``CoordinateOrigin``s, either way.
    public var flippedVertically: Point { Point(x: x, y: 1 - y) }
}

extension Rect {
    /// This normalized rectangle (0…1) with its y axis flipped (`y → 1 − y − height`): between
    /// the two ``CoordinateOrigin``s, either way; the size stays.
    public var flippedVertically: Rect { Rect(x: x, y: 1 - y - height, width: width, height: height) }
}
