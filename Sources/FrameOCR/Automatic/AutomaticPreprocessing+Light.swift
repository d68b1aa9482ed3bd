import Foundation

// The light step (``AutomaticPreprocessing/flattenLight``).
extension AutomaticPreprocessing {
    /// The light step: where the regions' paper brightness spreads by ``unevenLightSpread``
    /// levels or more, `image` (gray, dark text on light: after polarity) divided by its
    /// background — a closing with a square of ``lightKernel(width:height:)`` pixels
    /// (`focr_flatten_document` without an outline) — and measured again (`focr_auto_analyze`);
    /// kept when it then holds a page of text (``minimumPageComponents``) or ink at least
    /// ``minimumPaperContrast`` levels from its paper.
    /// `d.light` and a reason record it.
    /// - Returns: the flattened image (polarity normalized, unless ``polarity`` is off) and its
    ///   measurements; nil where the
    ///   light is even, or the flattened image is neither a page nor ink on paper.
    /// - Throws: ``FrameOCRError`` from the flattening or the measurement.
    func flattenedLight(
        _ image: PixelBuffer, _ a: TextAnalysis, _ d: inout PreprocessingDecisions, timings: inout StageTimings,
        pool: PixelBufferPool?
    ) throws(FrameOCRError) -> (PixelBuffer, TextAnalysis)? {
        guard Double(a.backgroundSpread) >= unevenLightSpread else { return nil }
        let kernel = Self.lightKernel(width: image.width, height: image.height)
        let flat = try timed(&timings.automatic) { () throws(FrameOCRError) in
            try image.flattenedDocument(outline: [], kernel: kernel, pool: pool)
        }
        let (normalized, after) = try Self.analyze(flat, timings: &timings, pool: pool)
        let measured = String(
            format:
                "light: uneven (paper brightness spreads %.0f levels ≥ %.0f): divided by its background (a closing of %d px): %.0f levels, %d text-like components",
            a.backgroundSpread, unevenLightSpread, kernel, after.backgroundSpread, after.components)
        // Paper under uneven light, flattened, is a page of text, or ink that stands far from
        // white paper. Elsewhere (a sign on a dark surround, a plate, a scene) the closing takes
        // dark objects for shadows and whitens them, and what is left is gray on gray.
        let paper = after.components >= minimumPageComponents || Double(after.contrast) >= Self.minimumPaperContrast
        guard paper else {
            d.reasons.append(
                measured
                    + String(
                        format:
                            ", ink %.0f levels from its paper (< %.0f): neither a page nor ink on paper: left alone",
                        after.contrast, Self.minimumPaperContrast))
            return nil
        }
        d.light = LightDecision(
            kernel: kernel, spread: Double(a.backgroundSpread), flattenedSpread: Double(after.backgroundSpread))
        d.reasons.append(measured + ": flattened")
        d.record(after)
        return (polarity && after.invertedRegions > 0 ? normalized : flat, after)
    }

    /// The side, in pixels, of the closing that estimates the paper's brightness in a
    /// `width`×`height` image: a ``flatteningKernelDivisor``-th of its smaller side, at least
    /// ``minimumFlatteningKernel`` (wider than a stroke of print; the document crop's rule).
    static func lightKernel(width: Int, height: Int) -> Int {
        max(minimumFlatteningKernel, min(width, height) / flatteningKernelDivisor)
    }
}
