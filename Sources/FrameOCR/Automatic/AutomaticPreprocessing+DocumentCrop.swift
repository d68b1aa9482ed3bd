import Foundation

// The document crop step (``AutomaticPreprocessing/documentCrop``).
extension AutomaticPreprocessing {
    /// The document crop (``documentCrop``): finds a sheet of paper on a darker surround in
    /// `prepared` (gray, not padded or turned) and, when it passes the tests, returns the frame cut
    /// to its bounding box with a margin and flattened, its transform's region the box in upright
    /// pixels (with a pipeline scale, the cut is rounded to whole upright pixels and the scale
    /// adjusted by under a pixel's worth, so that the transform stays exact for the new image);
    /// `d.documentCrop` is set. Nil (and a reason when a region was found) otherwise.
    /// `label`: the sheet may be a label (``minimumLabelArea``: a sheet under ``documentAreaRange``
    /// with no print around it, ``labelComponentsAround``), or a sheet of a document's size under
    /// ``maximumLabelArea`` with no print around it — the caller cuts it only when it holds text
    /// (``minimumLabelComponents``); false: it is cut only as a document (a page of text).
    func cropToDocument(
        _ prepared: PreprocessedFrame, _ d: inout PreprocessingDecisions, timings: inout StageTimings,
        pool: PixelBufferPool?
    ) throws(FrameOCRError) -> (frame: PreprocessedFrame, degrees: Double, label: Bool)? {
        let t = prepared.transform
        guard t.padding == 0, t.skewDegrees == 0, prepared.image.pixelFormat == .gray8 else { return nil }
        let image = prepared.image
        let imageWidth = image.width
        let imageHeight = image.height
        let doc = try timed(&timings.automatic) { () throws(FrameOCRError) in try image.documentRegion() }
        guard !doc.box.isEmpty else { return nil }
        var measured = String(
            format:
                "a bright region of %.0f %% of the image, %.0f %% of its turned rectangle, paper %.0f against %.0f around, on %.0f %% of the edge",
            100 * doc.areaFraction, 100 * doc.rectangularity, doc.paper, doc.surroundings, 100 * doc.edgeContact)
        var failed: String?
        // Smaller than a document, it may still be a label: cut when nothing else in the frame is print.
        let labelSized =
            doc.areaFraction >= Self.minimumLabelArea && doc.areaFraction < documentAreaRange.lowerBound
        if !documentAreaRange.contains(doc.areaFraction) && !labelSized {
            failed = String(
                format: "not %.0f…%.0f %% of the image (nor a label's %.0f %% or more)",
                100 * documentAreaRange.lowerBound, 100 * documentAreaRange.upperBound, 100 * Self.minimumLabelArea)
        } else if doc.rectangularity < minimumDocumentRectangularity {
            failed = String(format: "not rectangular (< %.0f %%)", 100 * minimumDocumentRectangularity)
        } else if doc.surroundings < 0 || doc.paper - doc.surroundings < minimumDocumentContrast {
            failed = String(format: "not %.0f levels brighter than its surroundings", minimumDocumentContrast)
        } else if doc.edgeContact > maximumDocumentEdgeContact {
            failed = String(
                format: "touches more than %.0f %% of the edge: a page filling the frame",
                100 * maximumDocumentEdgeContact)
        }
        // The box with its margin, in output pixels, then whole upright pixels.
        let m = max(
            Self.minimumDocumentMarginPixels, Int((documentMargin * Double(min(imageWidth, imageHeight))).rounded()))
        let ox0 = max(0, doc.box.x - m)
        let oy0 = max(0, doc.box.y - m)
        let ox1 = min(imageWidth, doc.box.maxX + m)
        let oy1 = min(imageHeight, doc.box.maxY + m)
        if failed == nil
            && Double((ox1 - ox0) * (oy1 - oy0)) > Self.maximumDocumentBoxShare * Double(imageWidth * imageHeight)
        {
            failed = String(
                format: "its box leaves less than %.0f %% of the image out", 100 * (1 - Self.maximumDocumentBoxShare))
        }
        var label = false
        if failed == nil {
            let around = try Self.textAround(
                PixelRect(x: ox0, y: oy0, width: ox1 - ox0, height: oy1 - oy0), in: image, timings: &timings,
                pool: pool)
            measured += ", \(around) text-like components of print around it"
            label = around <= Self.labelComponentsAround && doc.areaFraction < Self.maximumLabelArea
            if around >= Self.maximumComponentsAround {
                failed = "at least \(Self.maximumComponentsAround): part of a page"
            } else if labelSized && !label {
                failed = "a label's size, but with print around it (> \(Self.labelComponentsAround))"
            }
        }
        if let failed {
            d.reasons.append("document crop: " + measured + ": " + failed + ": not cropped")
            return nil
        }
        let r = t.region
        let ux0 = max(r.x, Int((Double(r.x) + Double(ox0) / t.scaleX).rounded(.down)))
        let uy0 = max(r.y, Int((Double(r.y) + Double(oy0) / t.scaleY).rounded(.down)))
        let ux1 = min(r.maxX, Int((Double(r.x) + Double(ox1) / t.scaleX).rounded(.up)))
        let uy1 = min(r.maxY, Int((Double(r.y) + Double(oy1) / t.scaleY).rounded(.up)))
        let cx0 = min(imageWidth - 1, max(0, Int((Double(ux0 - r.x) * t.scaleX).rounded())))
        let cy0 = min(imageHeight - 1, max(0, Int((Double(uy0 - r.y) * t.scaleY).rounded())))
        let cx1 = max(cx0 + 1, min(imageWidth, Int((Double(ux1 - r.x) * t.scaleX).rounded())))
        let cy1 = max(cy0 + 1, min(imageHeight, Int((Double(uy1 - r.y) * t.scaleY).rounded())))
        guard ux1 > ux0, uy1 > uy0 else { return nil }
        let view = try image.cropped(to: PixelRect(x: cx0, y: cy0, width: cx1 - cx0, height: cy1 - cy0))
        // The outline, in the cut's pixels.
        var outline = doc.outline.count >= 6 ? doc.outline : []
        for i in stride(from: 0, to: outline.count - 1, by: 2) {
            outline[i] -= Float(cx0)
            outline[i + 1] -= Float(cy0)
        }
        let kernel = max(Self.minimumFlatteningKernel, min(view.width, view.height) / Self.flatteningKernelDivisor)
        let flat = try timed(&timings.automatic) { () throws(FrameOCRError) in
            try view.flattenedDocument(outline: outline, kernel: kernel, pool: pool)
        }
        var out = prepared
        out.image = flat
        let region = PixelRect(x: ux0, y: uy0, width: ux1 - ux0, height: uy1 - uy0)
        out.transform.region = region
        out.transform.scaleX = Double(view.width) / Double(region.width)
        out.transform.scaleY = Double(view.height) / Double(region.height)
        d.documentCrop = region
        d.reasons.append(
            "document crop: " + measured + String(format: ", turned %.1f°", doc.angleDegrees)
                + ": cut to \(region) (upright pixels), light flattened (closing of \(kernel) px)")
        return (out, doc.angleDegrees, label)
    }

    /// The text-like components of print in the parts of `image` around `box`: the strips above,
    /// below, left and right of it, each at least ``minimumStripSide`` pixels across (thinner
    /// ones hold no line), each measured alone with its own polarity (``TextAnalysis``); a
    /// strip's components count when its ink stands ``minimumContrastAround`` levels or more
    /// from its paper (print), not when it is a texture's (a desk, a carpet: 10–51 levels).
    static func textAround(
        _ box: PixelRect, in image: PixelBuffer, timings: inout StageTimings, pool: PixelBufferPool?
    ) throws(FrameOCRError) -> Int {
        let w = image.width
        let h = image.height
        let strips = [
            PixelRect(x: 0, y: 0, width: w, height: box.y),
            PixelRect(x: 0, y: box.maxY, width: w, height: h - box.maxY),
            PixelRect(x: 0, y: box.y, width: box.x, height: box.height),
            PixelRect(x: box.maxX, y: box.y, width: w - box.maxX, height: box.height),
        ].filter { $0.width >= minimumStripSide && $0.height >= minimumStripSide }
        var found = 0
        for strip in strips {
            let part = try image.cropped(to: strip)
            let a = try analyze(part, timings: &timings, pool: pool).analysis
            if Double(a.contrast) >= minimumContrastAround { found += a.components }
        }
        return found
    }
}
