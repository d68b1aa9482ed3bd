import Foundation

/// Frames from a video file or a directory of numbered images, in presentation order, each with
/// its id and timestamp — a file-backed stand-in for a camera.
///
/// - A **video file** (MP4, MOV, MKV, AVI, WebM… whatever OpenCV's FFmpeg backend reads) is
///   decoded one frame per ``next()``; the timestamp is the frame's presentation time from the
///   container (`CAP_PROP_POS_MSEC`), or `index / fps` where the container gives none.
/// - A **directory** supplies every image file in it with extension png, jpg, jpeg, tif, tiff,
///   bmp, pgm, ppm or webp (any case), in natural order of the file names — digit runs compare
///   by value, so `1.png, 2.png, 10.png` and `frame_0009.png, frame_0010.png` come in numeric
///   order. Frame *i* has timestamp *i* / ``frameRate``.
///
/// Frame ids run 0, 1, 2… in delivery order. Each ``Frame/buffer`` is a zero-copy
/// ``PixelBuffer`` (`bgr8`, or `gray8` for one-channel images) over memory the decoder allocated
/// for that frame alone; it is freed when the last copy of the buffer goes, so frames may be
/// queued and processed on other threads while later ones are decoded.
///
/// Single owner (`~Copyable`): the decoder has a position, and two copies reading from one
/// position would each see every other frame. It may move between threads (`Sendable`) but is
/// read from one at a time. It is not a `Sequence`: `IteratorProtocol.next()` cannot throw, and
/// a decode error in the middle of a file must not look like the end of it.
///
/// ```swift
/// var source = try VideoSource(path: "clip.mp4")
/// while let frame = try source.next() { processor.submit(frame) }
/// ```
///
/// Implemented by the shim's `focr_video_*` (`cv::VideoCapture`, `cv::CAP_FFMPEG`) for videos and
/// ``PixelBuffer/init(contentsOfFile:)`` (`cv::imdecode`) for images.
public struct VideoSource: ~Copyable, @unchecked Sendable {
    /// Image file extensions (lowercase) taken from a directory.
    public static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "tif", "tiff", "bmp", "pgm", "ppm", "webp"]

    /// Frames per second: the container's rate for a video (or the `frameRate` given to
    /// ``init(path:frameRate:)`` when it reports none); the given rate for a directory.
    public let frameRate: Double
    /// Frames in the source: the image count for a directory; the container's count for a video
    /// (an estimate for some containers), nil when it gives none.
    public let frameCount: Int?
    /// Width of a frame in pixels (for a directory: of the first image).
    public let width: Int
    /// Height of a frame in pixels (for a directory: of the first image).
    public let height: Int
    /// The file or directory read.
    public let path: String
    /// Whether frames come from a directory of images (rather than a video file).
    public var isImageSequence: Bool { imageFiles != nil }

    private let video: Shim.Video?
    private let imageFiles: [String]?
    private var pending: PixelBuffer?
    private var nextIndex = 0

    /// Opens a video file or a directory of numbered images.
    /// - Parameters:
    ///   - path: a video file, or a directory holding image files.
    ///   - frameRate: frames per second (> 0, finite) for a directory — timestamps are
    ///     index / `frameRate` — and for a video whose container gives no rate. Default 30.
    /// - Throws: ``FrameOCRError/Code/io`` for a missing or unreadable path or a directory with
    ///   no image files; ``FrameOCRError/Code/decode`` for a file that is not a video (or a first
    ///   image that does not decode); ``FrameOCRError/Code/invalidParameter`` for a bad
    ///   `frameRate`. Stage `.load`.
    public init(path: String, frameRate: Double = 30) throws(FrameOCRError) {
        guard frameRate.isFinite, frameRate > 0 else {
            throw .invalidParameter("frameRate", "\(frameRate) must be a finite number > 0", stage: .load)
        }
        var isDirectory: ObjCBool = false
        let opened: Opened
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            let files = try Self.imageFiles(in: path)
            let first = try PixelBuffer(contentsOfFile: files[0])
            opened = Opened(
                video: nil, imageFiles: files, first: first, frameRate: frameRate, frameCount: files.count,
                width: first.width, height: first.height)
        } else {
            let video = try Shim.Video(path: path)
            opened = Opened(
                video: video, imageFiles: nil, first: nil, frameRate: video.frameRate > 0 ? video.frameRate : frameRate,
                frameCount: video.frameCount, width: video.width, height: video.height)
        }
        // A noncopyable value is initialized on one path only.
        self.path = path
        video = opened.video
        imageFiles = opened.imageFiles
        pending = opened.first
        self.frameRate = opened.frameRate
        frameCount = opened.frameCount
        width = opened.width
        height = opened.height
    }

    private struct Opened {
        var video: Shim.Video?
        var imageFiles: [String]?
        var first: PixelBuffer?
        var frameRate: Double
        var frameCount: Int?
        var width: Int
        var height: Int
    }

    /// The next frame, or nil at the end of the source (and on every call after it).
    /// - Throws: ``FrameOCRError`` (stage `.load`): `.decode` for a frame that cannot be decoded,
    ///   `.io` for an image file that went missing; `.openCV`/`.outOfMemory` from the decoder.
    ///   The source stays usable: the next call reads the frame after the failed one.
    public mutating func next() throws(FrameOCRError) -> Frame? {
        let index = nextIndex
        if let video {
            guard let (decoded, milliseconds) = try video.read() else { return nil }
            nextIndex += 1
            let buffer = try PixelBuffer(decoded: decoded)
            return Frame(
                id: UInt64(index), timestamp: .nanoseconds(Int64((milliseconds * 1e6).rounded())), buffer: buffer)
        }
        guard let files = imageFiles, index < files.count else { return nil }
        nextIndex += 1
        let buffer: PixelBuffer
        if let first = pending.take() {
            buffer = first
        } else {
            buffer = try PixelBuffer(contentsOfFile: files[index])
        }
        return Frame(
            id: UInt64(index), timestamp: .nanoseconds(Int64((Double(index) * 1e9 / frameRate).rounded())),
            buffer: buffer)
    }

    /// The image files of `directory`, in natural order.
    /// - Throws: `.io` when the directory cannot be listed or holds no image file.
    static func imageFiles(in directory: String) throws(FrameOCRError) -> [String] {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory) } catch {
            throw FrameOCRError(.io, "\(directory): cannot list: \(error.localizedDescription)", stage: .load)
        }
        let images = names.filter { name in
            guard let dot = name.lastIndex(of: "."), !name.hasPrefix(".") else { return false }
            return imageExtensions.contains(name[name.index(after: dot)...].lowercased())
        }
        guard !images.isEmpty else {
            throw FrameOCRError(
                .io, "\(directory): no image files (\(imageExtensions.sorted().joined(separator: ", ")))",
                stage: .load)
        }
        let base = URL(fileURLWithPath: directory)
        return images.sorted(by: naturalOrder).map { base.appendingPathComponent($0).path }
    }

    /// Natural order: runs of ASCII digits compare by numeric value (then by length, so `01`
    /// follows `1`), everything else by Unicode scalar value; a shorter prefix comes first.
    static func naturalOrder(_ a: String, _ b: String) -> Bool {
        let x = Array(a.unicodeScalars)
        let y = Array(b.unicodeScalars)
        var i = 0
        var j = 0
        func isDigit(_ s: Unicode.Scalar) -> Bool { ("0"..."9").contains(s) }
        while i < x.count && j < y.count {
            if isDigit(x[i]) && isDigit(y[j]) {
                var ie = i
                var je = j
                while ie < x.count && isDigit(x[ie]) { ie += 1 }
                while je < y.count && isDigit(y[je]) { je += 1 }
                // Compare values without overflow: strip leading zeros, then length, then digits.
                var ia = i
                var ja = j
                while ia < ie - 1 && x[ia] == "0" { ia += 1 }
                while ja < je - 1 && y[ja] == "0" { ja += 1 }
                if ie - ia != je - ja { return ie - ia < je - ja }
                for k in 0..<(ie - ia) where x[ia + k] != y[ja + k] { return x[ia + k].value < y[ja + k].value }
                if ie - i != je - j { return ie - i < je - j }
                i = ie
                j = je
            } else {
                if x[i] != y[j] { return x[i].value < y[j].value }
                i += 1
                j += 1
            }
        }
        return x.count - i < y.count - j
    }
}
