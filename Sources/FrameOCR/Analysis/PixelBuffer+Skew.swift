// The skew step's measurement (``AutomaticPreprocessing/skew``; `Sources/CFrameOCR/analysis/skew.cpp`).
extension PixelBuffer {
    /// How far the text lines of this `gray8` image (dark text on a light background) are
    /// turned, in degrees clockwise as displayed (positive: a line descends to the right), and
    /// Leptonica's confidence in it (the ratio of the best to the worst score, ≥ 0; 0 when it
    /// cannot tell: no ink, too little signal, or the best angle at the edge of the range; its
    /// own deskew trusts ≥ 3).
    ///
    /// Leptonica's `pixFindSkewSweepAndSearch` on an Otsu binarization: a sweep over
    /// −`maximumDegrees`…`maximumDegrees` in 1° steps, then a binary search to 0.01°
    /// (`focr_find_skew`).
    /// - Parameter maximumDegrees: the half range searched, 1…45 degrees.
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for a range outside 1…45 or an image
    ///   that is not `gray8`.
    func textSkew(maximumDegrees: Double) throws(FrameOCRError) -> (degrees: Double, confidence: Double) {
        guard pixelFormat == .gray8 else {
            throw FrameOCRError(.unsupportedFormat, "skew detection needs gray8, got \(pixelFormat)", stage: .threshold)
        }
        return try Shim.findSkew(self, maximumDegrees: maximumDegrees)
    }
}
