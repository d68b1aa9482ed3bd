/// A pixel format, identified by its FourCC as in CoreVideo (`kCVPixelFormatType_…`).
///
/// | format | FourCC | planes | layout |
/// |---|---|---|---|
/// | ``gray8`` | `L008` | 1 | 1 byte per pixel |
/// | ``bgra8`` | `BGRA` | 1 | B, G, R, A bytes |
/// | ``rgba8`` | `RGBA` | 1 | R, G, B, A bytes |
/// | ``bgr8`` | `24BG` | 1 | B, G, R bytes |
/// | ``rgb8`` | `RGB3` | 1 | R, G, B bytes |
/// | ``nv12`` / ``nv12FullRange`` | `420v` / `420f` | 2 | Y (w×h) + interleaved CbCr (⌈w/2⌉×⌈h/2⌉ pairs) |
/// | ``i420`` | `y420` | 3 | Y (w×h) + Cb + Cr (⌈w/2⌉×⌈h/2⌉ each) |
///
/// The format is a required property of every ``PixelBuffer``: FrameOCR never guesses a channel
/// order (a BGRA frame declared as RGBA gives different gray values, by design).
public struct PixelFormat: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The FourCC, big-endian packed (`'BGRA'` is `0x42475241`).
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    init(fourCC: String) {
        self.rawValue = fourCC.utf8.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// 8-bit gray, one plane (`kCVPixelFormatType_OneComponent8`, `L008`).
    public static let gray8 = PixelFormat(fourCC: "L008")
    /// 32-bit B, G, R, A, one plane (`kCVPixelFormatType_32BGRA`).
    public static let bgra8 = PixelFormat(fourCC: "BGRA")
    /// 32-bit R, G, B, A, one plane (`kCVPixelFormatType_32RGBA`).
    public static let rgba8 = PixelFormat(fourCC: "RGBA")
    /// 24-bit B, G, R, one plane (`kCVPixelFormatType_24BGR`, OpenCV's default order).
    public static let bgr8 = PixelFormat(fourCC: "24BG")
    /// 24-bit R, G, B, one plane (V4L2's `RGB3`).
    public static let rgb8 = PixelFormat(fourCC: "RGB3")
    /// Biplanar 4:2:0, video range Y 16…235 (`kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange`).
    public static let nv12 = PixelFormat(fourCC: "420v")
    /// Biplanar 4:2:0, full range Y 0…255 (`kCVPixelFormatType_420YpCbCr8BiPlanarFullRange`).
    public static let nv12FullRange = PixelFormat(fourCC: "420f")
    /// Three-plane 4:2:0, Y then Cb then Cr (`kCVPixelFormatType_420YpCbCr8Planar`).
    public static let i420 = PixelFormat(fourCC: "y420")

    /// All formats FrameOCR reads.
    public static let allSupported: [PixelFormat] = [
        .gray8, .bgra8, .rgba8, .bgr8, .rgb8, .nv12, .nv12FullRange, .i420,
    ]

    /// The FourCC as four characters.
    public var fourCC: String {
        String(decoding: [24, 16, 8, 0].map { UInt8((rawValue >> $0) & 0xFF) }, as: UTF8.self)
    }

    /// A short name: `gray8`, `bgra8`, …, or the FourCC for formats FrameOCR does not know.
    public var description: String {
        switch self {
        case .gray8: "gray8"
        case .bgra8: "bgra8"
        case .rgba8: "rgba8"
        case .bgr8: "bgr8"
        case .rgb8: "rgb8"
        case .nv12: "nv12"
        case .nv12FullRange: "nv12FullRange"
        case .i420: "i420"
        default: fourCC
        }
    }

    /// Number of planes: 1 for packed formats, 2 for NV12, 3 for I420; 0 when unknown.
    public var planeCount: Int {
        switch self {
        case .nv12, .nv12FullRange: 2
        case .i420: 3
        case .gray8, .bgra8, .rgba8, .bgr8, .rgb8: 1
        default: 0
        }
    }

    /// Whether the format is 4:2:0 YCbCr (its gray image is the Y plane, no conversion).
    public var isYCbCr: Bool { planeCount > 1 }

    /// Bytes per sample of `plane` (a CbCr pair of NV12 counts as one 2-byte sample).
    public func bytesPerSample(plane: Int) -> Int {
        switch self {
        case .gray8: 1
        case .bgra8, .rgba8: 4
        case .bgr8, .rgb8: 3
        case .nv12, .nv12FullRange: plane == 0 ? 1 : 2
        case .i420: 1
        default: 0
        }
    }

    /// Width and height in samples of `plane` for an image of `width`×`height` pixels.
    /// Chroma planes of 4:2:0 are ⌈width/2⌉×⌈height/2⌉.
    public func planeSize(_ plane: Int, width: Int, height: Int) -> (width: Int, height: Int) {
        plane == 0 ? (width, height) : ((width + 1) / 2, (height + 1) / 2)
    }
}
