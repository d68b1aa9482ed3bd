import Foundation

/// Frames from a video file, a directory of numbered images, a camera, a network stream or a
/// GStreamer pipeline, in delivery order, each with its id and timestamp.
///
/// What is read is a ``Location`` (``Location/init(parsing:)`` recognizes the forms of a
/// command-line string):
///
/// - A **video file** (MP4, MOV, MKV, AVI, WebM… whatever OpenCV's FFmpeg backend reads) is
///   decoded one frame per ``next()``; the timestamp is the frame's presentation time from the
///   container (`CAP_PROP_POS_MSEC`), or `index / fps` where the container gives none.
/// - A **directory** supplies every image file in it with extension png, jpg, jpeg, tif, tiff,
///   bmp, pgm, ppm or webp (any case), in natural order of the file names — digit runs compare
///   by value, so `1.png, 2.png, 10.png` and `frame_0009.png, frame_0010.png` come in numeric
///   order. Frame *i* has timestamp *i* / ``frameRate``.
/// - A **camera** (`/dev/video0`, V4L2), a **network stream** (`rtsp://`, `http(s)://`,
///   `udp://`, `tcp://`…, FFmpeg) or a **GStreamer pipeline** ending in `appsink` is *live*
///   (``isLive``): it has no ``frameCount`` and does not end by itself. A URL that names a
///   remote file with a length (`https://host/clip.mp4`) is read like a file instead.
///
/// **Live sources.** The shim opens and reads a live source on a reader thread and waits for it
/// at most ``Options/openTimeout`` (default 10 s) and ``Options/stallTimeout`` (default 5 s)
/// per frame: a source that goes quiet ends ``next()`` with ``FrameOCRError/Code/streamStalled``
/// instead of hanging, or, with ``Options/reconnect``, is opened again with exponential backoff
/// (``ReconnectPolicy``); frame ids keep increasing across reconnects, which are counted
/// (``reconnectCount``). A live stream that ends (a sender that closes the connection, a
/// pipeline that reaches end of stream) ends the source (``next()`` returns nil), or reconnects
/// when a policy is set. ``stopHandle`` ends the source from another thread, at once.
///
/// **Timestamps of a live source** start at zero with the first frame and always increase:
/// - FFmpeg (URLs) and V4L2 (cameras) time each frame (`CAP_PROP_POS_MSEC`: the stream's
///   presentation time, the driver's buffer time); the first frame of each connection is placed
///   at its arrival time on a monotonic clock since the source's first frame, and the frames
///   after it at the backend's differences from it. So the time lost in a reconnect shows as a
///   gap, and a backend time that goes back starts a new anchor at the arrival time.
/// - GStreamer pipelines: OpenCV only offers the pipeline's position, which it calls unreliable
///   (opencv#19025), so frames are timed by their arrival on the monotonic clock
///   (`std::chrono::steady_clock`, read on the reader thread as the frame is taken).
///
/// Frame ids run 0, 1, 2… in delivery order. Each ``Frame/buffer`` is a zero-copy
/// ``PixelBuffer`` (`bgr8`, or `gray8` for one-channel images) over memory the decoder allocated
/// for that frame alone; it is freed when the last copy of the buffer goes, so frames may be
/// queued and processed on other threads while later ones are decoded.
///
/// Single owner (`~Copyable`): the decoder has a position, and two copies reading from one
/// position would each see every other frame. It may move between threads (`Sendable`) but is
/// read from one at a time; only ``stopHandle`` is shared. It is not a `Sequence`:
/// `IteratorProtocol.next()` cannot throw, and a decode error in the middle of a file must not
/// look like the end of it.
///
/// ```swift
/// var source = try VideoSource(path: "clip.mp4")
/// while let frame = try source.next() { processor.submit(frame) }
///
/// var camera = try VideoSource(
///     try .init(parsing: "rtsp://camera.local/stream"),
///     options: .init(stallTimeout: .seconds(3), reconnect: .init(attempts: 5)))
/// ```
///
/// Implemented by the shim's `focr_video_*` (`cv::VideoCapture` with `cv::CAP_FFMPEG`,
/// `cv::CAP_V4L2` or `cv::CAP_GSTREAMER`; the reader thread and its watchdog in the media
/// library's `Sources/CFrameOCRMedia/video/reader.cpp`) and
/// ``PixelBuffer/init(contentsOfFile:limits:)`` (Leptonica) for images.
public struct VideoSource: ~Copyable, @unchecked Sendable {
    /// Image file extensions (lowercase) taken from a directory.
    public static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "tif", "tiff", "bmp", "pgm", "ppm", "webp"]

    /// What is read.
    public let location: Location
    /// How it was opened and what it does when it stalls.
    public let options: Options
    /// Frames per second: the container's or backend's rate (or ``Options/frameRate`` when it
    /// reports none); the given rate for a directory.
    public let frameRate: Double
    /// Frames in the source: the image count for a directory; the container's count for a video
    /// (an estimate for some containers), nil when it gives none; nil for a live source.
    public let frameCount: Int?
    /// Width of a frame in pixels, as the source first reported it (for a directory: of the first
    /// image). A live source's frames after a reconnect may differ; each frame has its own size.
    public let width: Int
    /// Height of a frame in pixels (see ``width``).
    public let height: Int
    /// The location as a string: the file or directory, device, URL or pipeline.
    public var path: String { location.description }
    /// Whether frames come from a directory of images.
    public var isImageSequence: Bool { imageFiles != nil }
    /// Whether the source is live: a camera, a GStreamer pipeline, or a URL without a length.
    /// Live sources have no ``frameCount``, are read under the stall timeout, and may reconnect.
    public let isLive: Bool
    /// The OpenCV backend that opened it (`FFMPEG`, `V4L2`, `GSTREAMER`); nil for a directory.
    public let backendName: String?
    /// Reconnects that succeeded so far.
    public private(set) var reconnectCount = 0
    /// Reconnect tries so far, those that failed included.
    public private(set) var reconnectAttempts = 0
    /// Ends the source from another thread (see ``StopHandle``).
    public var stopHandle: StopHandle { StopHandle(control: control) }

    private var video: Shim.Video?
    private let imageFiles: [String]?
    private var pending: PixelBuffer?
    private var nextIndex = 0
    private var ended = false
    private var lastMilliseconds: Double?
    private var clock = LiveTimestamps()
    private let control = Control()

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
        var isDirectory: ObjCBool = false
        let isDir = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        try self.init(isDir ? .directory(path) : .file(path), options: Options(frameRate: frameRate))
    }

    /// Opens any ``Location``: a file, a directory, a camera, a stream or a pipeline.
    /// - Parameters:
    ///   - location: what to read (``Location/init(parsing:)`` makes one from a string).
    ///   - options: the frame rate for sources without one, the open and stall timeouts of a
    ///     live source, and its reconnect policy.
    /// - Throws: ``FrameOCRError`` (stage `.load`): `.invalidParameter` for bad options or a
    ///   location that fails ``Location/validate()``; `.io` for a missing or unreadable file,
    ///   directory or device, a directory with no image files, or a stream or pipeline the
    ///   backend cannot open (connection refused, a missing GStreamer element); `.decode` for a
    ///   file that is not a video; `.streamStalled` for a live source that did not open within
    ///   ``Options/openTimeout``; `.imageTooLarge` for frames larger than ``Options/limits``. Not
    ///   retried, whatever ``Options/reconnect`` says.
    public init(_ location: Location, options: Options = Options()) throws(FrameOCRError) {
        try options.validate()
        try location.validate()
        let opened: Opened
        switch location {
        case .directory(let path):
            let files = try Self.imageFiles(in: path)
            let first = try PixelBuffer(contentsOfFile: files[0], limits: options.limits)
            opened = Opened(
                video: nil, imageFiles: files, first: first, frameRate: options.frameRate, frameCount: files.count,
                width: first.width, height: first.height, isLive: false)
        case .file, .device, .url, .gstreamer:
            let video = try Self.open(location, options)
            opened = Opened(
                video: video, imageFiles: nil, first: nil,
                frameRate: video.frameRate > 0 ? video.frameRate : options.frameRate,
                frameCount: video.frameCount, width: video.width, height: video.height,
                isLive: Self.isLive(location, frameCount: video.frameCount))
        }
        // A noncopyable value is initialized on one path only.
        self.location = location
        self.options = options
        video = opened.video
        imageFiles = opened.imageFiles
        pending = opened.first
        frameRate = opened.frameRate
        frameCount = opened.isLive ? nil : opened.frameCount
        width = opened.width
        height = opened.height
        isLive = opened.isLive
        backendName = opened.video?.backendName
        control.install(opened.video)
    }

    private struct Opened {
        var video: Shim.Video?
        var imageFiles: [String]?
        var first: PixelBuffer?
        var frameRate: Double
        var frameCount: Int?
        var width: Int
        var height: Int
        var isLive: Bool
    }

    /// Opens the shim's video for `location` (not a directory) with the options' timeouts.
    private static func open(_ location: Location, _ options: Options) throws(FrameOCRError) -> Shim.Video {
        let kind: Shim.Video.Kind
        switch location {
        case .file, .directory: kind = .file
        case .device: kind = .device
        case .url: kind = .url
        case .gstreamer: kind = .gstreamer
        }
        return try Shim.Video(
            location: location.description, kind: kind, openTimeout: options.openTimeout,
            readTimeout: options.stallTimeout, maximumPixels: options.limits.maximumPixels)
    }

    private static func isLive(_ location: Location, frameCount: Int?) -> Bool {
        switch location {
        case .file, .directory: false
        case .device, .gstreamer: true
        case .url: frameCount == nil
        }
    }

    /// The next frame, or nil at the end of the source (and on every call after it, and after
    /// ``StopHandle/stop()``).
    ///
    /// For a live source this blocks until a frame arrives: at most ``Options/stallTimeout``, and
    /// with a reconnect policy also through the reconnect delays and opens.
    /// - Throws: ``FrameOCRError`` (stage `.load`): `.decode` for a frame that cannot be decoded,
    ///   `.io` for an image file that went missing; `.openCV`/`.outOfMemory` from the decoder;
    ///   `.streamStalled` for a live source that delivered nothing within the stall timeout (and
    ///   could not be reconnected, with a policy; `.io` when its stream ended and could not be).
    ///   A file or directory stays usable: the next call reads the frame after the failed one.
    ///   A stalled live source without a policy keeps throwing; one whose reconnects failed
    ///   returns nil after the error.
    public mutating func next() throws(FrameOCRError) -> Frame? {
        if ended || control.isStopped { return nil }
        guard video != nil else { return try nextImage() }
        while true {
            let read: Shim.Video.Read?
            do throws(FrameOCRError) {
                // Bound inside the `do` only: a reconnect must find no reference to the old video left.
                guard let video else { return nil }
                read = try video.read()
            } catch {
                guard error.code == .streamStalled, isLive, let policy = options.reconnect, !control.isStopped else {
                    throw error
                }
                try reconnect(after: error, policy)
                continue
            }
            guard let read else {
                if control.isStopped { return nil }
                guard isLive, let policy = options.reconnect else {
                    ended = true
                    return nil
                }
                try reconnect(after: FrameOCRError(.io, "\(location): the stream ended", stage: .load), policy)
                continue
            }
            let index = nextIndex
            nextIndex += 1
            let buffer = try PixelBuffer(decoded: read.image)
            return Frame(id: UInt64(index), timestamp: timestamp(of: read, index: index), buffer: buffer)
        }
    }

    /// A frame's timestamp: a file's as the shim gives it; a remote file's backend time made
    /// increasing (index / fps where missing); a live source's from ``LiveTimestamps``.
    private mutating func timestamp(of read: Shim.Video.Read, index: Int) -> Duration {
        if isLive {
            return clock.timestamp(milliseconds: read.milliseconds, receivedNanoseconds: read.receivedNanoseconds)
        }
        var ms = read.milliseconds ?? Double(index) * 1000 / frameRate
        if let last = lastMilliseconds, ms <= last { ms = last + 1000 / frameRate }
        lastMilliseconds = ms
        return .nanoseconds(Int64((ms * 1e6).rounded()))
    }

    /// After a stall (or an ended stream), opens the location again under `policy`. Returns when
    /// a try succeeded or the source was stopped (the caller then returns nil).
    /// - Throws: the interruption's code when every try failed, with their count and the last reason.
    private mutating func reconnect(after interruption: FrameOCRError, _ policy: ReconnectPolicy) throws(FrameOCRError)
    {
        // Let the old capture go first: a UDP port, a camera, is free again for the new one.
        control.install(nil)
        video = nil
        var last = interruption
        for attempt in 1...policy.attempts {
            guard control.sleep(policy.delay(beforeAttempt: attempt)) else { return }
            reconnectAttempts += 1
            do {
                let reopened = try Self.open(location, options)
                guard control.install(reopened) else { return }
                video = reopened
                reconnectCount += 1
                clock.reconnected()
                return
            } catch {
                last = error
            }
        }
        if control.isStopped { return }
        ended = true
        throw FrameOCRError(
            interruption.code,
            "\(interruption.message); gave up after \(policy.attempts) reconnect attempt\(policy.attempts == 1 ? "" : "s") "
                + "(the last: \(last.message))",
            stage: .load)
    }

    /// The next image of a directory.
    private mutating func nextImage() throws(FrameOCRError) -> Frame? {
        let index = nextIndex
        guard let files = imageFiles, index < files.count else { return nil }
        nextIndex += 1
        let buffer: PixelBuffer
        if let first = pending.take() {
            buffer = first
        } else {
            buffer = try PixelBuffer(contentsOfFile: files[index], limits: options.limits)
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
