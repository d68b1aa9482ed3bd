/// How the stored pixels relate to the upright image, with the meaning of EXIF orientation and
/// `CGImagePropertyOrientation` (raw values 1…8 are the EXIF values).
///
/// `.right` means "rotate 90° clockwise to make it upright" (a phone held in portrait with its
/// sensor in landscape); the mirrored variants add a horizontal flip (front cameras).
public enum Orientation: UInt32, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case up = 1
    case upMirrored = 2
    case down = 3
    case downMirrored = 4
    case leftMirrored = 5
    case right = 6
    case rightMirrored = 7
    case left = 8

    /// Whether the upright image has width and height swapped relative to the stored pixels.
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The orientation that undoes this one: storing an upright image with
    /// `applyingOrientation(o.inverse)` gives pixels whose orientation is `o`.
    public var inverse: Orientation {
        switch self {
        case .right: .left
        case .left: .right
        default: self
        }
    }

    /// Clockwise rotation in degrees (0, 90, 180, 270) applied after the optional mirror.
    public var clockwiseDegrees: Int {
        switch self {
        case .up, .upMirrored: 0
        case .right, .rightMirrored: 90
        case .down, .downMirrored: 180
        case .left, .leftMirrored: 270
        }
    }

    /// The orientation that rotates `degrees` clockwise to upright (0, 90, 180 or 270).
    public init?(clockwiseDegrees degrees: Int) {
        switch ((degrees % 360) + 360) % 360 {
        case 0: self = .up
        case 90: self = .right
        case 180: self = .down
        case 270: self = .left
        default: return nil
        }
    }

    /// Parses `up`, `down`, `left`, `right`, their `…Mirrored` forms, EXIF numbers 1…8, or
    /// clockwise degrees `0`, `90`, `180`, `270` written with a `deg` suffix (`90deg`).
    public init?(parsing text: String) {
        let t = text.lowercased()
        if let n = UInt32(t), let o = Orientation(rawValue: n) {
            self = o
            return
        }
        if t.hasSuffix("deg"), let d = Int(t.dropLast(3)), let o = Orientation(clockwiseDegrees: d) {
            self = o
            return
        }
        guard let o = Orientation.allCases.first(where: { $0.description.lowercased() == t }) else { return nil }
        self = o
    }

    public var description: String {
        switch self {
        case .up: "up"
        case .upMirrored: "upMirrored"
        case .down: "down"
        case .downMirrored: "downMirrored"
        case .leftMirrored: "leftMirrored"
        case .right: "right"
        case .rightMirrored: "rightMirrored"
        case .left: "left"
        }
    }

    /// Maps a point of the upright image (continuous pixel coordinates, top-left origin) to the
    /// stored image of `storedWidth`×`storedHeight` pixels.
    public func storedPoint(fromUpright p: Point, storedWidth w: Double, storedHeight h: Double) -> Point {
        switch self {
        case .up: Point(x: p.x, y: p.y)
        case .upMirrored: Point(x: w - p.x, y: p.y)
        case .down: Point(x: w - p.x, y: h - p.y)
        case .downMirrored: Point(x: p.x, y: h - p.y)
        case .leftMirrored: Point(x: p.y, y: p.x)
        case .right: Point(x: p.y, y: h - p.x)
        case .rightMirrored: Point(x: w - p.y, y: h - p.x)
        case .left: Point(x: w - p.y, y: p.x)
        }
    }

    /// The inverse of ``storedPoint(fromUpright:storedWidth:storedHeight:)``: the stored image
    /// is the upright image of ``inverse``.
    public func uprightPoint(fromStored p: Point, storedWidth w: Double, storedHeight h: Double) -> Point {
        swapsDimensions
            ? inverse.storedPoint(fromUpright: p, storedWidth: h, storedHeight: w)
            : inverse.storedPoint(fromUpright: p, storedWidth: w, storedHeight: h)
    }
}
