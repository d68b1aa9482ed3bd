import Foundation

extension PixelBuffer {
    /// Loads an image file: Leptonica decodes it (`pixReadMem`, in the shim's `files/decode.cpp`),
    /// OpenCV's imgcodecs (`cv::imdecode`) what Leptonica does not read of the formats below
    /// (a 16-bit PNG; a coding Leptonica's build lacks).
    ///
    /// Reads PNG, JPEG, TIFF, BMP, PNM (PBM/PGM/PPM/PAM), WebP, GIF and JPEG 2000, told by the
    /// file's first bytes, not its name; any other format is refused before a decoder sees it.
    /// The result is `gray8` for gray files (gray palettes included) and `bgr8` otherwise, 8 bits per
    /// sample: 16-bit samples are scaled by 1/257 and rounded, alpha is flattened onto white, and
    /// a JPEG's EXIF orientation is applied (the pixels come back upright, `orientation == .up`).
    ///
    /// The size is read from the file's header first (Leptonica's `pixReadHeaderMem`), and an
    /// image over `limits` is refused before its pixels are allocated (see ``ImageLimits``).
    /// - Parameters:
    ///   - path: the image file.
    ///   - limits: the largest image accepted; default ``ImageLimits/default``
    ///     (268,435,456 pixels, 65536 on a side).
    /// - Throws: ``FrameOCRError/Code/io`` for a missing or unreadable file,
    ///   ``FrameOCRError/Code/decode`` for a file of another format (PDF, DICOM, HDR, text, …) or
    ///   one that is not a decodable image (e.g. truncated),
    ///   ``FrameOCRError/Code/imageTooLarge`` (naming the size and the limit) for one over `limits`,
    ///   ``FrameOCRError/Code/invalidParameter`` for limits out of range. Stage `.load`.
    public init(contentsOfFile path: String, limits: ImageLimits = .default) throws(FrameOCRError) {
        try limits.validate()
        try self.init(decoded: Shim.decodeFile(path, maximumPixels: limits.maximumPixels))
    }

    /// Decodes an encoded image held in memory (same rules and errors as
    /// ``init(contentsOfFile:limits:)``).
    public init(encoded bytes: [UInt8], limits: ImageLimits = .default) throws(FrameOCRError) {
        try limits.validate()
        try self.init(decoded: Shim.decode(bytes, maximumPixels: limits.maximumPixels))
    }

    /// Adopts a decoded image without copying; the decoder's memory is freed with the last
    /// buffer that shares it. (Also used by ``VideoSource`` for each video frame.)
    init(decoded: Shim.DecodedImage) throws(FrameOCRError) {
        try self.init(
            wrapping: decoded.baseAddress, width: decoded.width, height: decoded.height,
            bytesPerRow: decoded.bytesPerRow,
            pixelFormat: decoded.pixelFormat, deallocator: { _ in withExtendedLifetime(decoded) {} })
    }

    /// Writes the buffer to an image file with `cv::imwrite`; the extension picks the codec
    /// (`.png`, `.tif`, `.jpg`, `.bmp`, `.pgm`, `.webp`, …). Writes `gray8`, `bgr8` and `bgra8`.
    /// The stored pixels are written as they are (orientation is not applied).
    ///
    /// - Parameters:
    ///   - path: the file to write; its extension picks the codec.
    ///   - quality: a lossy codec's quality, 1…100 (JPEG: `IMWRITE_JPEG_QUALITY`; WebP:
    ///     `IMWRITE_WEBP_QUALITY`, lossy); nil (the default) keeps each codec's own (JPEG 95,
    ///     WebP lossless). Lossless formats ignore it.
    /// - Throws: ``FrameOCRError/Code/io`` when the file cannot be written,
    ///   ``FrameOCRError/Code/unsupportedFormat`` for other pixel formats,
    ///   ``FrameOCRError/Code/invalidParameter`` for a quality outside 1…100.
    public func write(toFile path: String, quality: Int? = nil) throws(FrameOCRError) {
        if let quality, !(1...100).contains(quality) {
            throw .invalidParameter("quality", "\(quality) must be in 1…100", stage: .write)
        }
        try Shim.writeFile(self, path, quality: Int32(quality ?? 0))
    }

    /// The buffer encoded in memory with `cv::imencode` (a frame for an MJPEG stream, an image
    /// to send): `gray8`, `bgr8` and `bgra8`, the stored pixels as they are.
    ///
    /// - Parameters:
    ///   - fileExtension: the format, as a file's extension: `"jpg"`, `"png"`, `"webp"`, … (a
    ///     leading dot is allowed).
    ///   - quality: a lossy codec's quality, 1…100, as for ``write(toFile:quality:)``; nil keeps
    ///     each codec's own.
    /// - Returns: the encoded bytes.
    /// - Throws: ``FrameOCRError/Code/unsupportedFormat`` for other pixel formats or a format
    ///   OpenCV does not encode, ``FrameOCRError/Code/invalidParameter`` for a quality outside
    ///   1…100, ``FrameOCRError/Code/unsupported`` without the media library.
    public func encoded(as fileExtension: String, quality: Int? = nil) throws(FrameOCRError) -> [UInt8] {
        if let quality, !(1...100).contains(quality) {
            throw .invalidParameter("quality", "\(quality) must be in 1…100", stage: .write)
        }
        return try Shim.encode(self, fileExtension, quality: Int32(quality ?? 0))
    }
}
