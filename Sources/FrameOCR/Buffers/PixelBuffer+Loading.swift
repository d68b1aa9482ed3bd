internal import CFrameOCR
import Foundation

extension PixelBuffer {
    /// Loads an image file through OpenCV's imgcodecs (`cv::imdecode`).
    ///
    /// Reads PNG, JPEG, TIFF, BMP, PGM/PPM/PNM and WebP (and whatever else the installed OpenCV
    /// reads). The result is `gray8` for one-channel files and `bgr8` otherwise, 8 bits per
    /// sample: 16-bit samples are scaled by 1/257, alpha is flattened onto white, and JPEG EXIF
    /// orientation is applied (the pixels come back upright, `orientation == .up`).
    /// - Throws: ``FrameOCRError/Code/io`` for a missing or unreadable file,
    ///   ``FrameOCRError/Code/decode`` for a file that is not a decodable image (e.g. truncated).
    public init(contentsOfFile path: String) throws(FrameOCRError) {
        var decoded: OpaquePointer?
        try check(focr_image_decode_file(path, &decoded), .load)
        try self.init(decoded: decoded!)
    }

    /// Decodes an encoded image held in memory (same rules as ``init(contentsOfFile:)``).
    public init(encoded bytes: [UInt8]) throws(FrameOCRError) {
        var decoded: OpaquePointer?
        try check(bytes.withUnsafeBufferPointer { focr_image_decode_memory($0.baseAddress, $0.count, &decoded) }, .load)
        try self.init(decoded: decoded!)
    }

    /// Adopts a decoded image without copying; the decoder's memory is freed with the buffer.
    /// (Also used by ``VideoSource`` for each video frame: a `focr_decoded_image` it now owns.)
    init(decoded: OpaquePointer) throws(FrameOCRError) {
        let view = focr_decoded_image_view(decoded)
        let plane = view.planes.0
        let format: PixelFormat = view.format == Int32(FOCR_FORMAT_GRAY8.rawValue) ? .gray8 : .bgr8
        let handle = DecodedHandle(decoded)
        do {
            try self.init(
                wrapping: plane.data!, width: Int(view.width), height: Int(view.height),
                bytesPerRow: plane.bytes_per_row, pixelFormat: format, deallocator: { _ in handle.destroy() })
        } catch {
            handle.destroy()  // not adopted: free it here
            throw error
        }
    }

    /// Writes the buffer to an image file with `cv::imwrite`; the extension picks the codec
    /// (`.png`, `.tif`, `.jpg`, `.bmp`, `.pgm`, `.webp`, …). Writes `gray8`, `bgr8` and `bgra8`.
    /// The stored pixels are written as they are (orientation is not applied).
    /// - Throws: ``FrameOCRError/Code/io`` when the file cannot be written,
    ///   ``FrameOCRError/Code/unsupportedFormat`` for other pixel formats.
    public func write(toFile path: String) throws(FrameOCRError) {
        var d = descriptor
        try withExtendedLifetime(storage) { () throws(FrameOCRError) in try check(focr_image_write_file(&d, path), .write) }
    }
}

/// Frees a decoded image exactly once.
private final class DecodedHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ p: OpaquePointer) { pointer = p }
    func destroy() { focr_decoded_image_destroy(pointer) }
}
