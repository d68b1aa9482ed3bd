/// Writes frames to a video file, one after another at a constant frame rate: the counterpart of
/// ``VideoSource``, for annotated videos a person looks at (``AnnotatedVideoRecorder``).
///
/// Frames may be in any ``PixelFormat`` and ``Orientation``: each is written as its upright
/// image in `bgr8` (``PixelBuffer/convertedToBGR(upright:into:pool:)``, into one buffer the
/// writer keeps, so a steady stream allocates nothing), and must have the writer's upright
/// size. The container comes from the file's extension; the codec is `fourCC`, or by the
/// extension: `.mp4`, `.m4v`, `.mov`, `.mkv` → `mp4v` (MPEG-4 part 2), `.avi` → `MJPG`. 4:2:0
/// codecs need even sizes, so an odd ``width`` or ``height`` is stored one pixel larger, the
/// last column or row repeated (``encodedWidth``, ``encodedHeight``).
///
/// Single owner (`~Copyable`) like ``VideoSource``: the encoder has a position. It may move
/// between threads (`Sendable`) but is written from one at a time. Call ``finish()`` to
/// complete the file; a writer dropped without it finishes the file as well, but cannot report
/// a failure.
///
/// ```swift
/// var writer = try VideoWriter(path: "out.mp4", frameRate: 25, width: 640, height: 480)
/// try writer.write(frame.buffer, annotations: Annotation.annotations(for: result))
/// try writer.finish()
/// ```
///
/// Implemented by the shim's `focr_video_writer_*` (`cv::VideoWriter`, `cv::CAP_FFMPEG`).
public struct VideoWriter: ~Copyable, @unchecked Sendable {
    /// The file written.
    public let path: String
    /// Frames per second of the file.
    public let frameRate: Double
    /// The upright size of the frames it takes, in pixels.
    public let width: Int
    public let height: Int
    /// The size of the frames in the file: ``width`` and ``height``, each rounded up to even.
    public let encodedWidth: Int
    public let encodedHeight: Int
    /// Frames written so far.
    public private(set) var framesWritten = 0

    private let writer: Shim.VideoWriter
    private var canvas: PixelBuffer?
    private var finished = false

    /// Creates (or replaces) the video file at `path`.
    /// - Parameters:
    ///   - path: the file; its extension picks the container (and, without `fourCC`, the codec).
    ///   - frameRate: frames per second, finite, in (0, 1000].
    ///   - width: the frames' upright width in pixels, 1…65536.
    ///   - height: the frames' upright height in pixels, 1…65536.
    ///   - fourCC: the codec's four characters (`"mp4v"`, `"avc1"`, `"MJPG"`…); nil (default):
    ///     by the extension.
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for a bad frame rate, size or FourCC;
    ///   ``FrameOCRError/Code/io`` when the directory is missing or not writable, or `path` is a
    ///   directory; ``FrameOCRError/Code/unsupportedFormat`` for an extension without a default
    ///   codec, or a codec FFmpeg cannot write in that container. Stage `.write`.
    public init(path: String, frameRate: Double, width: Int, height: Int, fourCC: String? = nil)
        throws(FrameOCRError)
    {
        writer = try Shim.VideoWriter(path: path, frameRate: frameRate, width: width, height: height, fourCC: fourCC)
        self.path = path
        self.frameRate = frameRate
        self.width = width
        self.height = height
        encodedWidth = writer.fileWidth
        encodedHeight = writer.fileHeight
    }

    /// Appends `frame`'s upright image (any format; converted to `bgr8` unless it is `bgr8`
    /// stored `.up` already, which is encoded as it is).
    /// - Throws: ``FrameOCRError/Code/invalidBuffer`` for a frame whose upright size is not
    ///   ``width`` × ``height``; ``FrameOCRError/Code/invalidParameter`` after ``finish()``;
    ///   ``FrameOCRError/Code/openCV`` from the encoder. Stage `.write`.
    public mutating func write(_ frame: PixelBuffer) throws(FrameOCRError) {
        try checkOpen()
        try checkSize(frame)
        if frame.pixelFormat == .bgr8 && frame.orientation == .up {
            try writer.write(frame)
        } else {
            let image = try frame.convertedToBGR(upright: true, into: reusableCanvas())
            try writer.write(image)
        }
        framesWritten += 1
    }

    /// Appends `frame`'s upright image with `annotations` drawn on it
    /// (``PixelBuffer/annotated(with:into:pool:)``, into the writer's own buffer; `frame` is not
    /// changed).
    /// - Throws: as ``write(_:)``, and ``FrameOCRError/Code/invalidParameter`` (stage
    ///   `.annotation`) for an annotation whose corners are not finite.
    public mutating func write(_ frame: PixelBuffer, annotations: [Annotation]) throws(FrameOCRError) {
        try checkOpen()
        try checkSize(frame)
        let image = try frame.annotated(with: annotations, into: reusableCanvas())
        try writer.write(image)
        framesWritten += 1
    }

    /// Completes the file (flushes the encoder, writes the container's index). Later calls do
    /// nothing; later writes throw.
    /// - Throws: ``FrameOCRError/Code/io`` when the file is not there afterwards (stage `.write`).
    public mutating func finish() throws(FrameOCRError) {
        guard !finished else { return }
        finished = true
        canvas = nil
        try writer.close()
    }

    // MARK: Helpers

    private func checkOpen() throws(FrameOCRError) {
        if finished { throw .invalidParameter("write", "\(path): the writer is finished", stage: .write) }
    }

    private func checkSize(_ frame: PixelBuffer) throws(FrameOCRError) {
        guard frame.uprightWidth == width, frame.uprightHeight == height else {
            throw FrameOCRError(
                .invalidBuffer,
                "frame is \(frame.uprightWidth)x\(frame.uprightHeight) upright, \(path) takes \(width)x\(height)",
                stage: .write)
        }
    }

    /// The writer's own `bgr8` buffer of the upright size, made on first use.
    private mutating func reusableCanvas() throws(FrameOCRError) -> PixelBuffer {
        if let canvas { return canvas }
        let made = try PixelBuffer(width: width, height: height, pixelFormat: .bgr8)
        canvas = made
        return made
    }
}
