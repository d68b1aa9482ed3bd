import Foundation

// The order of the steps (see the type's overview); each step's measurement and rule live in
// their own file where they are more than a few lines.
extension AutomaticPreprocessing {
    /// Applies the decisions to a preprocessed frame (gray, upright, not thresholded).
    /// - Returns: the new frame (its transform includes the crop, the scale, the skew correction
    ///   and the border) and the decisions.
    /// - Throws: ``FrameOCRError`` from the measurements, the rescale, the smoothing, the rotation
    ///   or the border; ``FrameOCRError/Code/invalidParameter`` for ``maximumSkewDegrees`` outside
    ///   1…45 (when skew is measured) or ``smoothingSigma`` outside 0.1…10 (when smoothing).
    func apply(to original: PreprocessedFrame, pool: PixelBufferPool?) throws(FrameOCRError) -> (
        PreprocessedFrame, PreprocessingDecisions
    ) {
        var d = PreprocessingDecisions()
        var timings = original.timings
        var prepared = original
        var measured: (normalized: PixelBuffer, analysis: TextAnalysis)?
        var paperDegrees: Double?
        var labelCrop = false
        // 1. Document crop: kept when the paper holds a page of text, or when it is a label that
        // holds the frame's print (none around it) and some text.
        if documentCrop,
            let (document, degrees, label) = try cropToDocument(original, &d, timings: &timings, pool: pool)
        {
            let analysis = try Self.analyze(document.image, timings: &timings, pool: pool)
            let components = analysis.analysis.components
            if components >= minimumPageComponents || (label && components >= Self.minimumLabelComponents) {
                prepared = document
                measured = analysis
                paperDegrees = degrees
                labelCrop = components < minimumPageComponents
                d.reasons.append(
                    components >= minimumPageComponents
                        ? "document crop: the paper holds \(components) text-like components: read alone"
                        : "document crop: a label holding the frame's print (\(components) text-like components, none around it): read alone"
                )
            } else {
                d.documentCrop = nil
                d.reasons.append(
                    label
                        ? "document crop: the paper holds only \(components) text-like components (< \(Self.minimumLabelComponents)): the whole image is read"
                        : "document crop: the paper holds only \(components) text-like components (< \(minimumPageComponents)), and it is no label (print around it, or \(Int(100 * Self.maximumLabelArea)) % of the image or more): the whole image is read"
                )
            }
        }
        prepared.timings = timings
        var out = prepared
        let source = prepared.image
        // 2. Measurements.
        let normalized: PixelBuffer
        var a: TextAnalysis
        if let measured {
            (normalized, a) = measured
        } else {
            (normalized, a) = try Self.analyze(source, timings: &out.timings, pool: pool)
        }
        d.record(a)
        // 3. Polarity.
        var image = source
        if polarity && a.invertedRegions > 0 {
            image = normalized
            d.invertedRegions = a.invertedRegions
            d.reasons.append(
                "polarity: \(a.invertedRegions) of \(d.regions) regions hold light text on a dark background: inverted")
        } else if a.darkRegions > 0 {
            d.reasons.append("polarity: \(a.darkRegions) dark regions without light text: left alone")
        }
        // 4. Light: divided out where it is uneven and the result is paper (then measured again).
        if flattenLight, let (flat, fa) = try flattenedLight(image, a, &d, timings: &out.timings, pool: pool) {
            image = flat
            a = fa
        }
        // 5. Binarization of the layout.
        if binarization { chooseBinarization(a, &d) }
        // 6. Scale and stretch.
        let singleLine = isSingleLine(a, height: Double(image.height))
        d.singleLine = singleLine
        let factor = scaleFactor(
            a, width: Double(image.width), height: Double(image.height), singleLine: singleLine, &d)
        let stretch = stretchFactor(a, pixels: Double(image.width) * Double(image.height), factor: factor, &d)
        d.textAspect = a.components > 0 ? Double(a.textAspect) : nil
        out.image = image
        if factor != 1 || stretch != 1 {
            d.scale = try out.rescale(by: factor, stretch: stretch, pool: pool)
            d.stretch = (out.transform.scaleX / prepared.transform.scaleX) / d.scale
        }
        // 7. Smoothing of a page.
        if smoothing && !singleLine && a.components >= minimumPageComponents {
            guard (0.1...10).contains(smoothingSigma) else {
                throw .invalidParameter("smoothingSigma", "\(smoothingSigma) px must be in 0.1…10", stage: .scale)
            }
            let input = out.image
            out.image = try timed(&out.timings.automatic) { () throws(FrameOCRError) in
                try input.smoothed(sigma: smoothingSigma, pool: pool)
            }
            d.smoothingSigma = smoothingSigma
            d.reasons.append(
                String(
                    format: "smoothing: a page of text (%d components): Gaussian σ %.1f px", a.components,
                    smoothingSigma))
        }
        // 8. Skew.
        if skew && !singleLine && a.components >= minimumSkewComponents {
            try correctSkew(&out, &d, paperDegrees: paperDegrees, pool: pool)
        } else if skew && !singleLine && labelCrop, let paperDegrees, abs(paperDegrees) >= minimumSkewDegrees {
            // A label's few lines are too few to measure; its edges (a sheet of 80 % or more of its
            // turned rectangle) say how it is turned.
            try turnBack(
                &out, &d, by: paperDegrees,
                reason: String(
                    format: "skew: a label of %d text-like components, its edges turned %.2f° %@: rotated back",
                    a.components, abs(paperDegrees), paperDegrees > 0 ? "clockwise" : "counter-clockwise"),
                pool: pool)
        }
        // 9. Border.
        if border && a.components > 0 && (singleLine || a.edgeComponents >= Self.minimumEdgeComponents) {
            let textHeight = Double(a.textHeight)
            let lineHeight = singleLine ? singleLineTextHeight(a, height: Double(image.height)) : 0
            let b = max(
                Self.minimumBorder, Int((Self.borderTextHeights * max(textHeight, lineHeight) * d.scale).rounded()))
            try out.pad(by: b, pool: pool)
            d.border = b
            d.reasons.append(
                singleLine
                    ? "border: \(b) px of white around a single line"
                    : "border: \(b) px of white: \(a.edgeComponents) text components touch the edge")
        }
        // 10. Page segmentation.
        if pageSegmentation && a.components > 0 {
            if singleLine {
                d.pageSegmentationMode = .singleLine
                d.reasons.append("page segmentation: one line of text: PSM 7")
            } else if source.width >= Self.fullPageSide && source.height >= Self.fullPageSide
                && a.components > Self.fullPageComponents
            {
                d.pageSegmentationMode = .auto
                d.reasons.append(
                    "page segmentation: a full page (\(source.width)×\(source.height), \(a.components) components): PSM 3"
                )
            }
        }
        if a.components == 0 { d.reasons.append("no text-like components found: nothing changed") }
        out.image.orientation = .up
        return (out, d)
    }

    /// The binarization step (``binarization``): Sauvola for the layout where the light is
    /// uneven, else the options' binarization, with the measurement in the reasons.
    private func chooseBinarization(_ a: TextAnalysis, _ d: inout PreprocessingDecisions) {
        guard Double(a.backgroundSpread) >= unevenLightSpread && a.markedRegions > 0 else { return }
        let lost = Double(a.lostRegions) / Double(a.markedRegions)
        let measured = String(
            format:
                "paper brightness spreads %.0f levels, %d of %d regions with marks have marks and paper on one side of Otsu's threshold %.0f",
            a.backgroundSpread, a.lostRegions, a.markedRegions, a.threshold)
        if lost >= lostRegionFraction {
            d.binarization = .sauvola
            d.reasons.append("binarization: uneven light (" + measured + "): Sauvola for Tesseract's layout")
        } else {
            d.reasons.append(
                "binarization: " + measured + String(format: " (< %.0f %%): one threshold", 100 * lostRegionFraction))
        }
    }

    /// ``TextAnalysis/measure(_:pool:)`` of `image`, its time going to
    /// ``StageTimings/automatic``.
    static func analyze(
        _ image: PixelBuffer, timings: inout StageTimings,
        pool: PixelBufferPool?
    ) throws(FrameOCRError) -> (normalized: PixelBuffer, analysis: TextAnalysis) {
        try timed(&timings.automatic) { () throws(FrameOCRError) in try TextAnalysis.measure(image, pool: pool) }
    }
}

extension PreprocessingDecisions {
    /// Copies the measurements every image reports into the decisions.
    mutating func record(_ a: TextAnalysis) {
        regions = a.regions
        contrast = Double(a.contrast)
        textComponents = a.components
        textHeight = a.components > 0 ? Double(a.textHeight) : nil
        backgroundSpread = Double(a.backgroundSpread)
        markedRegions = a.markedRegions
        lostRegions = a.lostRegions
    }
}
