import Foundation

extension VideoSource {
    /// What a ``VideoSource`` reads: a file, a directory of images, a camera, a network stream or
    /// a GStreamer pipeline. Each case holds the string as the user gave it.
    ///
    /// | case | example | read by |
    /// |---|---|---|
    /// | ``file(_:)`` | `clip.mp4` | OpenCV's FFmpeg backend (`cv::CAP_FFMPEG`) |
    /// | ``directory(_:)`` | `frames/` | ``PixelBuffer/init(contentsOfFile:limits:)``, natural order |
    /// | ``device(_:)`` | `/dev/video0` | V4L2 (`cv::CAP_V4L2`) |
    /// | ``url(_:)`` | `rtsp://cam/stream`, `udp://127.0.0.1:5000` | FFmpeg (`cv::CAP_FFMPEG`) |
    /// | ``gstreamer(_:)`` | `videotestsrc ! videoconvert ! appsink` | GStreamer (`cv::CAP_GSTREAMER`) |
    ///
    /// Devices, pipelines and streams without a length are *live* (``VideoSource/isLive``).
    public enum Location: Sendable, Hashable, CustomStringConvertible {
        /// A video file (MP4, MOV, MKV, AVI, WebM…); a still image reads as one frame.
        case file(String)
        /// A directory of image files, read in natural order of their names.
        case directory(String)
        /// A V4L2 camera device: a path such as `/dev/video0`.
        case device(String)
        /// A network stream or remote file whose scheme is one of ``urlSchemes``, passed to FFmpeg
        /// as written (so FFmpeg's URL options, such as `?timeout=` or `?overrun_nonfatal=1`,
        /// apply).
        case url(String)
        /// A GStreamer pipeline description (`gst-launch-1.0` syntax) with an `appsink` element,
        /// where OpenCV takes the frames: `… ! videoconvert ! appsink`.
        case gstreamer(String)

        /// The URL schemes taken as streams (lowercase): FFmpeg's network protocols.
        public static let urlSchemes: Set<String> = [
            "rtsp", "rtsps", "rtmp", "rtmps", "http", "https", "udp", "tcp", "rtp", "srt",
        ]

        /// Recognizes the form of a source string, as `frameocr video` does with its argument:
        ///
        /// 1. `scheme://…`: a ``url(_:)`` when the scheme (any case) is one of ``urlSchemes``;
        ///    `file://` names a local path (then as in 2).
        /// 2. A path that exists: a ``directory(_:)``, a ``device(_:)`` (a character device), or
        ///    else a ``file(_:)``.
        /// 3. A string with `!` (GStreamer's link): a ``gstreamer(_:)`` pipeline; it must have an
        ///    `appsink` element.
        /// 4. A path under `/dev/` (`/dev/video0`, even when missing, so that opening it says the
        ///    device is missing), or a bare camera index `0`…`99`: a ``device(_:)``
        ///    (`/dev/video0`…).
        ///
        /// Only the string and the file system are looked at; nothing is opened.
        /// - Throws: ``FrameOCRError/Code/invalidParameter`` (named `source`) for an empty string,
        ///   an unsupported scheme, or a pipeline without `appsink`; ``FrameOCRError/Code/io`` for
        ///   anything else (no such file, and not one of the other forms). Stage `.load`.
        public init(parsing text: String) throws(FrameOCRError) {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { throw .invalidParameter("source", "empty", stage: .load) }
            if let scheme = Self.scheme(of: trimmed) {
                if scheme == "file" {
                    guard let path = URL(string: trimmed)?.path, !path.isEmpty else {
                        throw .invalidParameter("source", "'\(trimmed)' is not a file URL", stage: .load)
                    }
                    guard let existing = Self.existing(path) else { throw Self.missing(path) }
                    self = existing
                    return
                }
                guard Self.urlSchemes.contains(scheme) else {
                    throw .invalidParameter(
                        "source",
                        "'\(scheme)://' is not a supported stream scheme (\(Self.urlSchemes.sorted().joined(separator: ", ")))",
                        stage: .load)
                }
                self = .url(trimmed)
                return
            }
            if let existing = Self.existing(text) {
                self = existing
                return
            }
            if trimmed.contains("!") {
                let location = Location.gstreamer(trimmed)
                try location.validate()
                self = location
                return
            }
            if trimmed.hasPrefix("/dev/") {
                self = .device(trimmed)
                return
            }
            if trimmed.count <= 2, let index = Int(trimmed), index >= 0 {
                self = .device("/dev/video\(index)")
                return
            }
            throw Self.missing(trimmed)
        }

        /// The string as given: a path, a URL or a pipeline.
        public var description: String {
            switch self {
            case .file(let s), .directory(let s), .device(let s), .url(let s), .gstreamer(let s): s
            }
        }

        /// The case's name: `file`, `directory`, `device`, `url` or `gstreamer`.
        public var kind: String {
            switch self {
            case .file: "file"
            case .directory: "directory"
            case .device: "device"
            case .url: "url"
            case .gstreamer: "gstreamer"
            }
        }

        /// Checks what can be checked without opening: a non-empty string; a URL with a
        /// supported scheme; a pipeline with an `appsink` element.
        /// - Throws: ``FrameOCRError/Code/invalidParameter`` (named `source`, stage `.load`).
        public func validate() throws(FrameOCRError) {
            let text = description.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { throw .invalidParameter("source", "empty", stage: .load) }
            switch self {
            case .url:
                guard let scheme = Self.scheme(of: text), Self.urlSchemes.contains(scheme) else {
                    throw .invalidParameter(
                        "source",
                        "'\(text)' is not a URL with a supported scheme (\(Self.urlSchemes.sorted().joined(separator: ", ")))",
                        stage: .load)
                }
            case .gstreamer:
                // An element is the first word of a segment between `!`s (after any `name.` pad
                // reference); properties follow it.
                let elements = text.split(separator: "!").compactMap {
                    $0.split(whereSeparator: \.isWhitespace).first { !$0.hasSuffix(".") }
                }
                guard elements.contains("appsink") else {
                    throw .invalidParameter(
                        "source",
                        "a GStreamer pipeline must end in appsink, where OpenCV takes its frames "
                            + "(… ! videoconvert ! appsink): '\(text)'",
                        stage: .load)
                }
            case .file, .directory, .device: break
            }
        }

        /// The lowercased scheme of `scheme://…` (a letter, then letters, digits, `+`, `-`, `.`),
        /// or nil.
        static func scheme(of text: String) -> String? {
            guard let range = text.range(of: "://") else { return nil }
            let scheme = text[..<range.lowerBound].unicodeScalars
            guard let first = scheme.first, first.isASCIILetter,
                scheme.allSatisfy({ $0.isASCIILetter || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
            else { return nil }
            return String(scheme).lowercased()
        }

        /// The case for a path that exists, or nil.
        static func existing(_ path: String) -> Location? {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                let type = attributes[.type] as? FileAttributeType
            else { return nil }
            switch type {
            case .typeDirectory: return .directory(path)
            case .typeCharacterSpecial: return .device(path)
            default: return .file(path)
            }
        }

        static func missing(_ path: String) -> FrameOCRError {
            FrameOCRError(
                .io,
                "\(path): No such file or directory (and not a device, a stream URL such as rtsp:// or udp://, "
                    + "or a GStreamer pipeline ending in appsink)",
                stage: .load)
        }
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
