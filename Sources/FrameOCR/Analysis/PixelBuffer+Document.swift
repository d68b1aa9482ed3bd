// The document crop's two shim calls, on gray buffers (``AutomaticPreprocessing/documentCrop``).
extension PixelBuffer {
    /// `focr_find_document` on this `gray8` image.
    /// - Throws: ``FrameOCRError/Code/unsupportedFormat`` for other formats; the shim's errors.
    func documentRegion() throws(FrameOCRError) -> DocumentMeasurement {
        guard pixelFormat == .gray8 else {
            throw FrameOCRError(.unsupportedFormat, "document detection needs gray8, got \(pixelFormat)", stage: .crop)
        }
        return try Shim.findDocument(self)
    }

    /// `focr_flatten_document`: this `gray8` image divided by its paper's brightness (a closing
    /// with a square of `kernel` pixels), white outside `outline` (x, y pairs in this image's
    /// pixels; empty: none) shrunk a little.
    func flattenedDocument(outline: [Float], kernel: Int, pool: PixelBufferPool?) throws(FrameOCRError) -> PixelBuffer {
        let flat = try PixelBuffer.destination(
            nil, pool: pool, width: width, height: height, format: .gray8, stage: .crop)
        try Shim.flattenDocument(self, outline: outline, kernel: kernel, into: flat)
        return flat
    }
}
