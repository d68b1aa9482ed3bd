extension TextAnalysis {
    /// Measures `image` (gray8, upright; `focr_auto_analyze`): polarity per region, the light on
    /// the paper, and the size and shape of its text-like components — the one measurement that
    /// automatic preprocessing, the text-line reading and live reading all take.
    /// - Returns: `image` with its light-on-dark regions inverted (a new gray8 buffer of the same
    ///   size, from `pool` when given), and the measurements.
    /// - Throws: ``FrameOCRError`` (stage `.threshold`) for a buffer that is not gray8, or an
    ///   OpenCV failure.
    static func measure(_ image: PixelBuffer, pool: PixelBufferPool?) throws(FrameOCRError) -> (
        normalized: PixelBuffer, analysis: TextAnalysis
    ) {
        let normalized = try PixelBuffer.destination(
            nil, pool: pool, width: image.width, height: image.height, format: .gray8, stage: .threshold)
        return (normalized, try Shim.analyze(image, into: normalized, stage: .threshold))
    }
}
