internal import CFrameOCR

extension Shim {
    /// A video file open for reading (`focr_video`, `include/focr_video.h`: `cv::VideoCapture`
    /// with the FFmpeg backend), closed in `deinit`. Single owner: read from one thread at a time
    /// (``VideoSource`` is `~Copyable` around it).
    final class Video: @unchecked Sendable {
        private let handle: OpaquePointer
        /// Frames in the file as the container reports it; nil when unknown.
        let frameCount: Int?
        /// Frames per second as reported; 0 when unknown.
        let frameRate: Double
        /// Pixels of a decoded frame.
        let width: Int
        let height: Int

        /// Opens `path` (`focr_video_open`).
        /// - Throws: ``FrameOCRError/Code/io``, ``FrameOCRError/Code/decode`` (stage `.load`).
        init(path: String) throws(FrameOCRError) {
            var out: OpaquePointer?
            try check(focr_video_open(path, &out), .load)
            handle = out!
            var info = focr_video_info()
            _ = focr_video_get_info(handle, &info)
            frameCount = info.frame_count >= 0 ? Int(info.frame_count) : nil
            frameRate = info.fps
            width = Int(info.width)
            height = Int(info.height)
        }

        deinit { focr_video_destroy(handle) }

        /// The next frame (`focr_video_read`): its decoded pixels, owned by the result, and its
        /// presentation time in milliseconds; nil at the end.
        func read() throws(FrameOCRError) -> (image: DecodedImage, milliseconds: Double)? {
            var decoded: OpaquePointer?
            var milliseconds = 0.0
            try check(focr_video_read(handle, &decoded, &milliseconds), .load)
            return decoded.map { (DecodedImage(adopting: $0), milliseconds) }
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
