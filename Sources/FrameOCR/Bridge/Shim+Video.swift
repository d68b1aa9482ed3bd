internal import CFrameOCR

extension Shim {
    /// A video open for reading (`focr_video`, `include/focr_video.h`: `cv::VideoCapture` with
    /// the FFmpeg backend for files and streams, V4L2 for cameras, GStreamer for pipelines),
    /// closed in `deinit`. Single owner: read from one thread at a time (``VideoSource`` is
    /// `~Copyable` around it); only ``interrupt()`` may be called from another thread.
    final class Video: @unchecked Sendable {
        /// What the location names (`focr_video_kind`).
        enum Kind: Int32 {
            case file = 0
            case device = 1
            case url = 2
            case gstreamer = 3
        }

        /// A decoded frame and when it was taken.
        struct Read {
            /// Its pixels, owned by the value.
            var image: DecodedImage
            /// Files: the presentation time (always increasing). Live sources: the backend's
            /// time of the frame in milliseconds, nil where the backend gives none (GStreamer).
            var milliseconds: Double?
            /// The monotonic clock (`std::chrono::steady_clock`) when the frame was read, in
            /// nanoseconds; one clock for every video of the process.
            var receivedNanoseconds: Int64
        }

        private let handle: OpaquePointer
        /// Frames in the file as the container reports it; nil when unknown (always for devices,
        /// pipelines and live streams).
        let frameCount: Int?
        /// Frames per second as reported; 0 when unknown.
        let frameRate: Double
        /// Pixels of a decoded frame.
        let width: Int
        let height: Int
        /// The backend OpenCV opened it with: `FFMPEG`, `V4L2`, `GSTREAMER`.
        let backendName: String

        /// Opens `location` as `kind` (`focr_video_open`). The timeouts apply to live kinds: nil
        /// waits as long as the backend does; they are rounded up to whole milliseconds. Frames of
        /// more than `maximumPixels` (claimed at the open, or read) are refused.
        /// - Throws: ``FrameOCRError/Code/io``, ``FrameOCRError/Code/decode``,
        ///   ``FrameOCRError/Code/streamStalled``, ``FrameOCRError/Code/imageTooLarge`` (stage `.load`).
        init(
            location: String, kind: Kind, openTimeout: Duration? = nil, readTimeout: Duration? = nil,
            maximumPixels: Int = ImageLimits.defaultMaximumPixels
        ) throws(FrameOCRError) {
            var options = focr_video_options(
                kind: kind.rawValue, open_timeout_ms: Self.milliseconds(openTimeout),
                read_timeout_ms: Self.milliseconds(readTimeout), max_pixels: UInt64(maximumPixels))
            var out: OpaquePointer?
            try check(focr_video_open(location, &options, &out), .load)
            handle = out!
            var info = focr_video_info()
            _ = focr_video_get_info(handle, &info)
            frameCount = info.frame_count >= 0 ? Int(info.frame_count) : nil
            frameRate = info.fps
            width = Int(info.width)
            height = Int(info.height)
            backendName = String(cString: focr_video_backend_name(handle))
        }

        deinit { focr_video_destroy(handle) }

        /// The next frame (`focr_video_read`); nil at the end and after ``interrupt()``.
        /// - Throws: ``FrameOCRError/Code/streamStalled`` when a live source delivers nothing in
        ///   time (and on every later call), `.decode`, `.openCV`, `.outOfMemory` (stage `.load`).
        func read() throws(FrameOCRError) -> Read? {
            var decoded: OpaquePointer?
            var info = focr_video_frame_info()
            try check(focr_video_read(handle, &decoded, &info), .load)
            return decoded.map {
                Read(
                    image: DecodedImage(adopting: $0), milliseconds: info.timestamp_ms >= 0 ? info.timestamp_ms : nil,
                    receivedNanoseconds: info.received_ns)
            }
        }

        /// Ends the video from any thread (`focr_video_interrupt`): a read waiting for a live
        /// frame returns nil at once, and so does every read after it.
        func interrupt() { _ = focr_video_interrupt(handle) }

        /// Whole milliseconds for the shim, rounded up (0: no limit); at most `Int32.max`.
        static func milliseconds(_ duration: Duration?) -> Int32 {
            guard let duration, duration > .zero else { return 0 }
            let (seconds, attoseconds) = duration.components
            let ms = Double(seconds) * 1000 + (Double(attoseconds) / 1e15).rounded(.up)
            return Int32(min(max(ms, 1), Double(Int32.max)))
        }
    }
}

extension Shim {
    /// A video file open for writing (`focr_video_writer`, `include/focr_video.h`:
    /// `cv::VideoWriter` with the FFmpeg backend), closed in `deinit` if ``close()`` was not
    /// called. Single owner: written from one thread at a time (``VideoWriter`` is `~Copyable`
    /// around it).
    final class VideoWriter: @unchecked Sendable {
        private let handle: OpaquePointer
        /// Pixels of the frames in the file (odd sides one larger than the frames written).
        let fileWidth: Int
        let fileHeight: Int

        /// Opens `path` (`focr_video_writer_open`); `fourCC` nil picks the codec by extension.
        /// - Throws: ``FrameOCRError/Code/invalidParameter``, ``FrameOCRError/Code/io``,
        ///   ``FrameOCRError/Code/unsupportedFormat`` (stage `.write`).
        init(path: String, frameRate: Double, width: Int, height: Int, fourCC: String?) throws(FrameOCRError) {
            var out: OpaquePointer?
            let w = Int32(clamping: width)
            let h = Int32(clamping: height)
            let status =
                if let fourCC {
                    focr_video_writer_open(path, frameRate, w, h, fourCC, &out)
                } else {
                    focr_video_writer_open(path, frameRate, w, h, nil, &out)
                }
            try check(status, .write)
            handle = out!
            var fw: Int32 = 0
            var fh: Int32 = 0
            _ = focr_video_writer_size(handle, &fw, &fh)
            fileWidth = Int(fw)
            fileHeight = Int(fh)
        }

        deinit { focr_video_writer_destroy(handle) }

        /// `focr_video_writer_write`: one bgr8 frame of the size given at open.
        func write(_ frame: PixelBuffer) throws(FrameOCRError) {
            try check(withImage(frame) { focr_video_writer_write(handle, $0) }, .write)
        }

        /// `focr_video_writer_close`: finishes the file.
        func close() throws(FrameOCRError) {
            try check(focr_video_writer_close(handle), .write)
        }
    }
}
