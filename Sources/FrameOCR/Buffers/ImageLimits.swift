/// The largest image FrameOCR decodes, wraps or reads from a video, checked before any pixel
/// memory is allocated.
///
/// - Image files (``PixelBuffer/init(contentsOfFile:limits:)``, ``PixelBuffer/init(encoded:limits:)``):
///   the size is read from the file's header (Leptonica's `pixReadHeaderMem` for PNG, JPEG,
///   TIFF, PNM, WebP and JP2; BMP's and GIF's size fields directly) before any decoder runs, so a 60000×60000 PNG header is
///   refused without its 3.6 GB being allocated. A header that cannot be read so is checked once
///   decoded.
/// - Video (``VideoSource/Options/limits``): the frame size the container or backend claims is
///   checked when the source opens, and every frame as it is read.
/// - Raw frames (``PixelBuffer/init(wrapping:width:height:pixelFormat:orientation:deallocator:)``
///   and the other initializers): a side over ``maximumSide`` is refused; their pixels are the
///   caller's memory, so ``maximumPixels`` does not apply to them.
///
/// Over a limit: ``FrameOCRError/Code/imageTooLarge``, whose message names the size and the limit.
public struct ImageLimits: Sendable, Hashable {
    /// The most pixels (width × height) of a decoded image or video frame, in
    /// 1…``maximumPixelsCeiling``. Default ``defaultMaximumPixels``.
    public var maximumPixels: Int

    /// 2^28 = 268,435,456 pixels: a 16384×16384 scan, 268 MB as `gray8` and 805 MB as `bgr8`.
    public static let defaultMaximumPixels = 1 << 28
    /// 2^30 pixels, OpenCV's own ceiling for `cv::imdecode` (`CV_IO_MAX_IMAGE_PIXELS`).
    public static let maximumPixelsCeiling = 1 << 30
    /// 65536: the widest and tallest image FrameOCR handles, files, frames and buffers alike
    /// (the shim's image descriptors hold sizes as 32-bit integers). Not configurable.
    public static let maximumSide = 1 << 16

    /// The defaults: ``defaultMaximumPixels``.
    public static let `default` = ImageLimits()

    public init(maximumPixels: Int = ImageLimits.defaultMaximumPixels) {
        self.maximumPixels = maximumPixels
    }

    /// Checks the range.
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` naming `maximumPixels` (stage `stage`).
    public func validate(stage: FrameOCRError.Stage = .load) throws(FrameOCRError) {
        guard maximumPixels >= 1, maximumPixels <= Self.maximumPixelsCeiling else {
            throw .invalidParameter(
                "maximumPixels", "\(maximumPixels) is outside 1…\(Self.maximumPixelsCeiling)", stage: stage)
        }
    }
}
