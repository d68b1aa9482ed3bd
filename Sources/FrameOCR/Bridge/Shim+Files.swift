internal import CFrameOCR
#if canImport(Glibc)
    import Glibc
#endif

// Image files (`focr_files.h`: Leptonica, `cv::imdecode` for what Leptonica does not read,
// `cv::imwrite`) and the decoded images the shim hands out for files and video frames.
extension Shim {
    /// Pixels the shim decoded (`focr_decoded_image`), owned by this object and freed once, in
    /// `deinit`: a `gray8` or `bgr8` plane. A ``PixelBuffer`` made from it keeps it alive.
    final class DecodedImage: @unchecked Sendable {  // immutable; the pixels are only read
        private let handle: OpaquePointer
        /// The first byte of the first row.
        let baseAddress: UnsafeMutableRawPointer
        let width: Int
        let height: Int
        let bytesPerRow: Int
        /// `gray8` for one-channel images, else `bgr8`.
        let pixelFormat: PixelFormat

        /// Adopts `handle` (a `focr_decoded_image *` from a decode or a video read).
        init(adopting handle: OpaquePointer) {
            self.handle = handle
            let view = focr_decoded_image_view(handle)
            baseAddress = view.planes.0.data
            width = Int(view.width)
            height = Int(view.height)
            bytesPerRow = view.planes.0.bytes_per_row
            pixelFormat = view.format == Int32(FOCR_FORMAT_GRAY8.rawValue) ? .gray8 : .bgr8
        }

        deinit { focr_decoded_image_destroy(handle) }
    }

    /// `focr_image_decode_file`, refusing more than `maximumPixels` from the file's header.
    /// - Throws: ``FrameOCRError/Code/io``, ``FrameOCRError/Code/decode``,
    ///   ``FrameOCRError/Code/imageTooLarge`` (stage `.load`).
    static func decodeFile(_ path: String, maximumPixels: Int) throws(FrameOCRError) -> DecodedImage {
        var decoded: OpaquePointer?
        try check(focr_image_decode_file(path, UInt64(maximumPixels), &decoded), .load)
        return DecodedImage(adopting: decoded!)
    }

    /// `focr_image_decode_memory` (the same limit).
    /// - Throws: ``FrameOCRError/Code/decode``, ``FrameOCRError/Code/imageTooLarge`` (stage `.load`).
    static func decode(_ bytes: [UInt8], maximumPixels: Int) throws(FrameOCRError) -> DecodedImage {
        var decoded: OpaquePointer?
        try check(
            bytes.withUnsafeBufferPointer {
                focr_image_decode_memory($0.baseAddress, $0.count, UInt64(maximumPixels), &decoded)
            }, .load)
        return DecodedImage(adopting: decoded!)
    }

    /// `focr_image_write_file`: `image` encoded by the file's extension, a lossy codec at
    /// `quality` (1…100; 0: the codec's default).
    /// - Throws: ``FrameOCRError/Code/io``, ``FrameOCRError/Code/unsupportedFormat``,
    ///   ``FrameOCRError/Code/invalidParameter`` (stage `.write`).
    static func writeFile(_ image: PixelBuffer, _ path: String, quality: Int32 = 0) throws(FrameOCRError) {
        try check(withImage(image) { focr_image_write_file($0, path, quality) }, .write)
    }

    /// `focr_image_encode`: `image` encoded in memory in the format of `extension`, a lossy
    /// codec at `quality` (1…100; 0: the codec's default).
    /// - Throws: ``FrameOCRError/Code/unsupportedFormat``, ``FrameOCRError/Code/invalidParameter``,
    ///   ``FrameOCRError/Code/outOfMemory`` (stage `.write`).
    static func encode(_ image: PixelBuffer, _ extension: String, quality: Int32 = 0) throws(FrameOCRError) -> [UInt8] {
        var bytes: UnsafeMutablePointer<UInt8>?
        var count = 0
        try check(withImage(image) { focr_image_encode($0, `extension`, quality, &bytes, &count) }, .write)
        defer { free(bytes) }
        guard let bytes else { return [] }
        return [UInt8](UnsafeBufferPointer(start: bytes, count: count))
    }
}
