import Foundation

// The scale and stretch step (``AutomaticPreprocessing/scale``,
// ``AutomaticPreprocessing/stretchCondensed``), and the one single-line rule.
extension AutomaticPreprocessing {
    /// Whether an image `height` pixels tall holds one line of text: some text-like components,
    /// and at most ``singleLineHeights`` text heights tall or under ``singleLineMaximumHeight``.
    func isSingleLine(_ a: TextAnalysis, height: Double) -> Bool {
        let textHeight = Double(a.textHeight)
        let p75 = Double(a.textHeightP75)
        return a.components > 0
            && (height <= Self.singleLineHeights * max(p75, textHeight) || height < Self.singleLineMaximumHeight)
    }

    /// Whether a single line's crop, `height` pixels tall, is loose: more than
    /// ``looseLineCrop`` times the band its ink spans (`TextAnalysis/inkBand`).
    func isLooseLine(_ a: TextAnalysis, height: Double) -> Bool {
        a.inkBand > 0 && height > Self.looseLineCrop * Double(a.inkBand)
    }

    /// A single line's text height, in pixels of an analysed image `height` pixels tall: the
    /// larger of the components' 75th percentile height (broken characters lower it) and the
    /// line's height — in a tight crop (the corpus's lines, words and plates) ``lineHeightFraction``
    /// of the image's, in a loose one (``isLooseLine(_:height:)``) the ink band's, measured (a
    /// fraction of a loose crop takes small text for tall: `docs/tuning.md#single-lines`).
    func singleLineTextHeight(_ a: TextAnalysis, height: Double) -> Double {
        let line = isLooseLine(a, height: height) ? Double(a.inkBand) : Self.lineHeightFraction * height
        return max(Double(a.textHeightP75), line)
    }

    /// The factor that brings a single line's text, `textHeight` pixels tall, to
    /// ``LineReadingOptions/textHeight``: between 1 / ``maximumScale`` and ``maximumScale``, and
    /// exactly 1 when the line is within ``LineReadingOptions/scaleTolerance`` of it already. The one single-line rule: the
    /// page step and the lines the reading strategies read alone both use it.
    func singleLineFactor(textHeight: Double) -> Double {
        let factor = min(max(lines.textHeight / textHeight, 1 / maximumScale), maximumScale)
        let tolerance = LineReadingOptions.scaleTolerance
        return factor < tolerance && factor > 1 / tolerance ? 1 : factor
    }

    /// The vertical factor of the scale step for an image of `width`×`height` pixels, with its
    /// reasons.
    func scaleFactor(
        _ a: TextAnalysis, width w: Double, height h: Double, singleLine: Bool,
        _ d: inout PreprocessingDecisions
    ) -> Double {
        guard scale && a.components > 0 else { return 1 }
        let textHeight = Double(a.textHeight)
        var factor = 1.0
        if singleLine && isLooseLine(a, height: h) {
            // Small text in a loose crop, measured by its ink band: enlarged until Tesseract's
            // layout keeps it, never shrunk (its LSTM scales each line itself).
            d.looseLine = true
            let band = singleLineTextHeight(a, height: h)
            factor = min(max(Self.looseLineTextHeight / band, 1), maximumScale)
            if factor != 1 {
                d.reasons.append(
                    String(
                        format: "scale: a single line in a loose crop, its ink %.0f px tall in %.0f: ×%.2f to %.0f px",
                        band, h, factor, Self.looseLineTextHeight))
            }
        } else if singleLine {
            // The components of a short crop are often broken; the line's height bounds the text.
            let estimate = singleLineTextHeight(a, height: h)
            factor = singleLineFactor(textHeight: estimate)
            if factor != 1 {
                d.reasons.append(
                    String(
                        format: "scale: a single line with text about %.0f px tall: ×%.2f to %.0f px", estimate, factor,
                        lines.textHeight))
            }
        } else if a.components < Self.minimumScaleComponents {
            d.reasons.append(
                "scale: only \(a.components) text-like components, too few to measure the text: not rescaled")
        } else if textHeight < minimumTextHeight || textHeight > maximumTextHeight {
            factor = min(max(targetTextHeight / textHeight, 1 / maximumScale), maximumScale)
            d.reasons.append(
                String(
                    format: "scale: median text height %.0f px is outside %.0f…%.0f: ×%.2f to %.0f px", textHeight,
                    minimumTextHeight, maximumTextHeight, factor, targetTextHeight))
        }
        let limit = (Double(maximumOutputPixels) / (w * h)).squareRoot()
        if factor > limit {
            factor = max(1, limit)
            d.reasons.append(String(format: "scale: limited to ×%.2f by %d output pixels", factor, maximumOutputPixels))
        }
        return factor
    }

    /// The extra horizontal factor of the stretch step for condensed display text, with its
    /// reason; 1 when the text is not condensed or the output would exceed
    /// ``maximumOutputPixels`` at `factor`.
    func stretchFactor(_ a: TextAnalysis, pixels: Double, factor: Double, _ d: inout PreprocessingDecisions) -> Double {
        // Only display-size text: small print breaks into narrow pieces that look condensed.
        guard
            stretchCondensed && a.components >= Self.minimumStretchComponents
                && a.textHeight >= Self.minimumStretchedTextHeight
                && Double(a.textAspect) < condensedAspect && a.textAspect > 0
        else { return 1 }
        var stretch = min(lines.maximumStretch, targetAspect / Double(a.textAspect))
        if pixels * factor * factor * stretch > Double(maximumOutputPixels) { stretch = 1 }
        if stretch != 1 {
            d.reasons.append(
                String(
                    format: "stretch: condensed text (median width/height %.2f < %.2f): ×%.2f horizontally",
                    a.textAspect, condensedAspect, stretch))
        }
        return stretch
    }
}
