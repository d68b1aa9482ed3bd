import Foundation
internal import CFrameOCR

/// Automatic preprocessing: per image (or region), cheap measurements decide what Tesseract needs
/// — inverted regions, a rescale, a white border, the page segmentation mode and, when the
/// orientation is unknown, the rotation — and every decision is reported with its reason in
/// ``PreprocessingDecisions``.
///
/// It runs after the ``Pipeline``'s crop and rotation, on the upright gray region, and only when
/// the pipeline has no explicit ``Pipeline/threshold`` (an explicit threshold means the caller
/// chose the preprocessing). Boxes are mapped back through the scale and the border, so they stay
/// in upright-frame pixels.
///
/// The measurements (`focr_auto_analyze`, `Sources/CFrameOCR/analysis/auto_analyze.cpp`):
/// - **light**, per region of the same grid after polarity: its paper (90th percentile), whether
///   it has marks (5 % of its pixels 40 levels below the paper) and whether Otsu's threshold of
///   the whole image puts its marks and paper on one side (lost); the spread of the regions'
///   paper (``PreprocessingDecisions/backgroundSpread``);
/// - **polarity**, per region of a tile grid: a region whose median is dark and that has a light
///   minority (2–45 % of its pixels ≥ 48 levels brighter) forming strokes (pieces inside the
///   region and a margin around it) holds light text on a dark ground; the dark area around it
///   (4-connected dark regions) is inverted, keeping any light part it straddles; a uniformly
///   dark frame, or a dark area that a lit object merely enters, is left alone;
/// - **text height**: the median height of text-like connected components of Otsu's
///   binarization (cv::connectedComponentsWithStats);
/// - **skew**: Leptonica's `pixFindSkewSweepAndSearch` (differential square sums of row sums of
///   the sheared Otsu binarization) on the scaled image (`focr_find_skew`).
///
/// The decisions:
/// - **document crop** (``documentCrop``, first, before every measurement below, which then
///   measure the paper alone): a sheet of paper photographed lying on a darker or textured
///   surface (`focr_find_document`, `Sources/CFrameOCR/analysis/document.cpp`: the largest bright region
///   after the light's falloff is divided out) is cut out — its bounding box plus a margin; no
///   perspective warp, the skew step turns it — and its light is flattened (`focr_flatten_document`:
///   divided by a closing, the surface around the paper's outline made white); see
///   ``documentCrop`` for the tests. Boxes map back through the transform's region;
/// - **scale**: a single line (image at most 2.5 text heights tall, or under 48 pixels) is
///   scaled so that its text is ``lineTextHeight`` pixels tall; other text, when at least 30
///   components were measured, is scaled so that its median component height is
///   ``targetTextHeight`` when it is below ``minimumTextHeight`` or above
///   ``maximumTextHeight``; factors are limited to ``maximumScale`` and the output to
///   ``maximumOutputPixels``;
/// - **stretch**: condensed display text (at least 20 px tall, median component width/height
///   below ``condensedAspect``) is widened to ``targetAspect``, at most ``maximumStretch``;
/// - **skew** (``skew``): multi-line text (not a single line, at least ``minimumSkewComponents``
///   components) whose lines Leptonica finds turned by at least ``minimumSkewDegrees`` (within
///   ±``maximumSkewDegrees``, with confidence ≥ ``minimumSkewConfidence``, or
///   ≥ ``minimumSlightSkewConfidence`` below ``slightSkewDegrees``; or, on a sheet the document
///   crop cut out, with confidence ≥ 1 when the sheet's edges — its smallest turned rectangle,
///   `cv::minAreaRect` — are turned within 1° of the same angle) is turned back about
///   its center after the scale, with a white margin that keeps its corners; boxes are turned
///   with it (``FrameTransform/skewDegrees``), so words' quads lie on the skewed words of the
///   frame;
/// - **binarization** (``binarization``): where the light is uneven — the paper's brightness
///   spreads and Otsu's single threshold loses the marks of a quarter of the regions that have
///   any — Tesseract lays the page out on Leptonica's Sauvola binarization instead (its LSTM
///   still reads the gray levels);
/// - **smoothing** (``smoothing``): a page of text (not a single line, at least
///   ``minimumPageComponents`` components) is smoothed with a Gaussian of ``smoothingSigma``
///   (0.9 px) after the scale, before the skew correction;
/// - **border**: a single line, or text touching the image's edge (two components or more),
///   gets a white border, half the (scaled) text height wide and at least 8 pixels;
/// - **page segmentation** (when ``pageSegmentation`` is on): a single line is read with PSM 7;
///   a page at least 2000 pixels on both sides with more than 1000 text components (a full scanned
///   page, often in columns) with PSM 3; otherwise the caller's mode stands;
/// - **text lines** (``textLines``, a second reading without a deadline): when the page still
///   reads poorly, each line of large text (`focr_text_lines`: background divided out, rails
///   removed, character-like components on one centre line) is read alone and its words replace
///   the page's there when clearly more confident;
/// - **orientation** (``Recognizer/recognize(_:pipeline:options:deadline:pool:)`` only, when
///   neither the pipeline nor the frame gives an orientation other than `.up` and no region is
///   set): Tesseract's orientation detection (`osd.traineddata`) when it is confident; otherwise,
///   when the upright reading is poor, the best of the four rotations by mean word confidence.
/// - **more readings of a page** (``sparseReading``; same conditions): a page read poorly is
///   read again as sparse text, laid out with Otsu and with Sauvola, and as captured, as a block
///   and as a page; the readings vote, and are merged word by word by confidence and agreement
///   (`Recognizer+SparseText.swift`).
public struct AutomaticPreprocessing: Hashable, Sendable {
    /// Invert light-on-dark regions. Default true.
    public var polarity: Bool
    /// Rescale text far from the size Tesseract reads best. Default true.
    public var scale: Bool
    /// Median component height, in pixels, that text is scaled to. Default 22.
    public var targetTextHeight: Double
    /// Text with a median component height in `minimumTextHeight...maximumTextHeight` pixels is
    /// not rescaled. Defaults 14 and 60.
    public var minimumTextHeight: Double
    public var maximumTextHeight: Double
    /// Text height, in pixels, that a single line is scaled to (the input height of the LSTM
    /// line models of `eng.traineddata`). Default 36. A line within
    /// ``lineScaleTolerance`` of it is left at its size.
    public var lineTextHeight: Double
    /// A single line whose text is within this factor of ``lineTextHeight`` (÷1.1…×1.1) is not
    /// resampled. It was ÷1.25…×1.25: two UW3 lines 30 px tall (×1.17), in small capitals and
    /// a condensed serif, read `Zvi` and `Sury.` at their size and exactly at 36 px.
    public static let lineScaleTolerance = 1.1
    /// Largest factor either way (default 4: between ¼ and 4×).
    public var maximumScale: Double
    /// The output is never scaled beyond this many pixels. Default 12 000 000.
    public var maximumOutputPixels: Int
    /// Stretch condensed display text (≥ 20 px tall) horizontally: when the median width/height of the text's
    /// components is below `condensedAspect` (default 0.37; ordinary print is 0.55–0.8, receipts 0.4), the
    /// image is widened so that it becomes `targetAspect` (default 0.75), by at most
    /// `maximumStretch` (default 2.5). Tesseract misreads tall narrow letters (lightbox signs,
    /// plates: M → W, # → F). Default true.
    public var stretchCondensed: Bool
    public var condensedAspect: Double
    public var targetAspect: Double
    public var maximumStretch: Double
    /// Correct skewed text: multi-line text whose lines are turned by a small angle is turned
    /// back (`cv::warpAffine`, bilinear, white where the image had no pixels) before the border.
    /// Default true.
    public var skew: Bool
    /// Skew smaller than this, in degrees, is left alone (Tesseract copes with it, and turning
    /// blurs the strokes). Default 0.4.
    public var minimumSkewDegrees: Double
    /// The half range of angles searched, in degrees (1…45; default 10): Leptonica sweeps
    /// −maximumSkewDegrees…maximumSkewDegrees in 1° steps, and an answer at the edge of the
    /// sweep counts as no answer. Larger turns are the orientation step's business.
    public var maximumSkewDegrees: Double
    /// Leptonica's confidence (ratio of the best to the worst alignment score) needed to act;
    /// default 3, the value its own `pixDeskew` uses.
    public var minimumSkewConfidence: Double
    /// A slight skew, below `slightSkewDegrees` (default 1), is corrected only with confidence
    /// ≥ `minimumSlightSkewConfidence` (default 10): Tesseract reads such text nearly as well as
    /// straight, and the turn's interpolation costs sharpness. Set on this project's corpus
    /// (`frameocr eval`): a receipt scan turned 0.58° (confidence 7) lost 4 of 157 words when
    /// corrected, a 3312×2550 page turned 0.42° (confidence 16) went from 9.4 % to 5.0 % CER.
    public var slightSkewDegrees: Double
    public var minimumSlightSkewConfidence: Double
    /// Fewest text-like components for skew to be measured (default 30): a few words are read
    /// well enough turned, and their angle is unreliable.
    public var minimumSkewComponents: Int
    /// Smooth a page of text (not a single line, at least ``minimumPageComponents`` text
    /// components) after the scale, before the skew correction: a Gaussian of
    /// `smoothingSigma` pixels (default 0.9; `cv::GaussianBlur`). Scanned and photographed print
    /// carries sensor noise, JPEG blocks, dot-matrix dots and broken thermal strokes finer than a
    /// stroke of 22 px text (2–3 px); evened out, Tesseract finds and reads more of its words
    /// (measured on this project's document folders, page reading alone: 1432 → 1487 of 2073
    /// reference words, σ 0.5…1.0 all gaining; the clean folders' CER unchanged or lower).
    /// Default true.
    public var smoothing: Bool
    public var smoothingSigma: Double
    /// Fewest text-like components for an image to count as a page of text — several lines of
    /// words: a receipt, a form, a letter — which is smoothed and, when read poorly, read again
    /// as sparse text. Default 100 (a licence plate, a sign, or either turned on its side,
    /// measures about 30).
    public var minimumPageComponents: Int
    /// Choose Tesseract's binarization for the page's layout by measurement: where the light is
    /// uneven — the regions' paper brightness spreads by at least `unevenLightSpread` levels
    /// (default 40) and at least `lostRegionFraction` (default 0.25) of the regions with marks
    /// on them have marks and paper on the same side of Otsu's single threshold — Leptonica's
    /// Sauvola (``EngineBinarization/sauvola``, a threshold per pixel from its window's mean and
    /// deviation); elsewhere the options' binarization (Otsu by default) stays. Not both: faint
    /// print on evenly lit paper also crosses the single threshold (receipts: 20–45 % of marked
    /// regions), and there Sauvola read fewer words (−31 of 2073 over this project's document
    /// folders); a shadow or a light falloff also spreads the paper. Default true.
    public var binarization: Bool
    public var unevenLightSpread: Double
    public var lostRegionFraction: Double
    /// Pad single lines and text touching the edge. Default true.
    public var border: Bool
    /// Choose PSM 7 for a single line and PSM 3 for a full page. Default true; turn off to keep
    /// the options' mode always.
    public var pageSegmentation: Bool
    /// Detect the rotation when the orientation is unknown. Default true.
    public var orientation: Bool
    /// Read a machine readable zone (passport, ID card, visa) found in the reading again with
    /// the MRZ alphabet and repair it by its layout and check digits (``MachineReadableZone``;
    /// ``Recognizer/recognize(_:pipeline:options:deadline:pool:)`` and ``FrameProcessor`` without a deadline only).
    /// Default true.
    public var machineReadableZone: Bool
    /// When the reading is poor (mean word confidence below 0.9), read the image's dominant
    /// line of large text (a plate's number, a sign's word; characters at least a quarter of the
    /// image's height) alone, cut out of its surroundings; its words replace the page's words on
    /// that line when they read clearly more confidently (by 0.15)
    /// (``Recognizer/recognize(_:pipeline:options:deadline:pool:)`` and ``FrameProcessor`` without a deadline only).
    /// Default true.
    public var dominantLine: Bool
    /// When the reading is still poor (mean word confidence below 0.9), find the lines of large
    /// text (characters at least ``minimumTextLineHeight`` pixels and a twentieth of the image's
    /// height tall: a sign's, a label's or a display's words; `focr_text_lines`) and read each
    /// alone, cut out of its surroundings, scaled to ``lineTextHeight``, condensed letters
    /// stretched, PSM 7; a line's words replace the page's words there when they read clearly
    /// more confidently (by 0.15, and at least 0.5)
    /// (``Recognizer/recognize(_:pipeline:options:deadline:pool:)`` and ``FrameProcessor``
    /// without a deadline only).
    /// Images whose smallest sought characters exceed 32 px are searched at a reduced size.
    /// Default true.
    public var textLines: Bool
    /// Most lines read alone per image, the lines with the most ink first (1…64; default 4).
    public var maximumTextLines: Int
    /// Smallest character height, in pixels of the upright region, of a line read alone
    /// (≥ 3; default 20): smaller text is read as well in the page as alone.
    public var minimumTextLineHeight: Double
    /// A line read alone whose characters' median width/height is below `lineTargetAspect`
    /// (default 0.62) is widened to it, by at most ``maximumStretch`` (with
    /// ``stretchCondensed``). A line's characters are whole, so their aspect measures the font:
    /// regular fonts' capitals are 0.64–0.9 (DejaVu Sans 0.77, Sans Condensed 0.70, Sans Mono
    /// 0.64). The target is below the page's ``targetAspect`` because display text is often
    /// letter-spaced and widening spreads the gaps too: on the lightbox sign of this project's
    /// video test (condensed capitals 0.30–0.37 wide, gaps of 0.4 heights) the lines read
    /// alone gave all three words in 86 % of frames at 0.75, 89–92 % at 0.55–0.70.
    public var lineTargetAspect: Double
    /// When a page (not a single line, at least ``minimumPageComponents`` text components, read
    /// as a block or page: PSM 3, 4 or 6) reads poorly (mean word confidence below 0.9), read it
    /// four more times — the same preprocessed image as sparse text (PSM 11), once with
    /// Tesseract's Otsu binarization for its layout and once with Leptonica's Sauvola; and the
    /// upright image as captured (no rescale or smoothing) as one block (PSM 6, Otsu) and as a
    /// page (PSM 3, Sauvola) — and merge each reading into the page's word by word: where words
    /// of two readings overlap, the new reading's words replace the page's when their mean score
    /// is higher by 0.1, and new words that overlap nothing are added when their score is at
    /// least 0.9. A word's score is its confidence plus 0.4 × the fraction of the other readings
    /// that read the same word there (a vote). Which reading's words are kept is thus decided per
    /// stretch of text, never for the whole image
    /// (``Recognizer/recognize(_:pipeline:options:deadline:pool:)`` without a deadline only).
    /// Costs two more recognitions of the page at its prepared size and two at the size
    /// captured. Default true.
    public var sparseReading: Bool
    /// Cut a photographed sheet of paper out of its surroundings before everything else (a
    /// receipt on a desk): `focr_find_document` finds the largest bright region after the print
    /// is removed (passes of a 5×5 `cv::medianBlur`) and the light's slow falloff divided out
    /// (`cv::GaussianBlur` on an eighth-size copy, `cv::divide`), binarized with Otsu's threshold
    /// (`cv::threshold`), closed and opened (`cv::morphologyEx`), its largest outer contour
    /// (`cv::findContours`, `cv::minAreaRect`). It is taken as a document when it covers
    /// ``documentAreaRange`` of the image (default 0.15…0.9),
    /// fills at least ``minimumDocumentRectangularity`` (default 0.8) of its smallest turned
    /// rectangle, is at least ``minimumDocumentContrast`` (default 40) gray levels brighter
    /// (medians) than what lies around it, covers at most ``maximumDocumentEdgeContact`` (default
    /// 0.5) of the image's edge (a scanned page fills the frame and touches all of it), and its
    /// bounding box with a margin of ``documentMargin`` (default 0.01 of the image's smaller side,
    /// at least 4 px) leaves at least 15 % of the image out. The box (upright-frame pixels) is
    /// cut out and flattened (`focr_flatten_document`: divided by a closing, `cv::morphologyEx`
    /// with a square of a 16th of the box's smaller side, at least 15 px, so that shadows and
    /// falloff leave the paper white; outside the paper's outline, `cv::fillPoly`, white), and kept
    /// only when it holds a page of text (at least ``minimumPageComponents`` text-like components);
    /// otherwise the whole image is used as before. No perspective warp: the skew step turns the
    /// cut-out paper. Measured on this project's corpus (`frameocr eval`): see the README.
    /// Default true.
    public var documentCrop: Bool
    /// Share of the image (0…1) a sheet must cover to be cut out. Default 0.15…0.9.
    public var documentAreaRange: ClosedRange<Double>
    /// Share (0…1) of its smallest turned rectangle a sheet must fill. Default 0.8.
    public var minimumDocumentRectangularity: Double
    /// Gray levels (0…255) by which the sheet's median must exceed its surroundings'. Default 40.
    public var minimumDocumentContrast: Double
    /// Largest share (0…1) of the image's edge pixels the sheet may cover. Default 0.5.
    public var maximumDocumentEdgeContact: Double
    /// Margin around the sheet's bounding box, as a fraction of the image's smaller side (at
    /// least 4 px). Default 0.01.
    public var documentMargin: Double

    public init(polarity: Bool = true, scale: Bool = true, targetTextHeight: Double = 22, minimumTextHeight: Double = 14,
                maximumTextHeight: Double = 60, lineTextHeight: Double = 36, maximumScale: Double = 4,
                maximumOutputPixels: Int = 12_000_000, stretchCondensed: Bool = true, condensedAspect: Double = 0.37,
                targetAspect: Double = 0.75, maximumStretch: Double = 2.5, skew: Bool = true, minimumSkewDegrees: Double = 0.4,
                maximumSkewDegrees: Double = 10, minimumSkewConfidence: Double = 3, slightSkewDegrees: Double = 1,
                minimumSlightSkewConfidence: Double = 10, minimumSkewComponents: Int = 30, smoothing: Bool = true,
                smoothingSigma: Double = 0.9, minimumPageComponents: Int = 100, binarization: Bool = true,
                unevenLightSpread: Double = 40, lostRegionFraction: Double = 0.25, border: Bool = true, pageSegmentation: Bool = true,
                orientation: Bool = true, machineReadableZone: Bool = true, dominantLine: Bool = true, sparseReading: Bool = true,
                textLines: Bool = true, maximumTextLines: Int = 4, minimumTextLineHeight: Double = 20, lineTargetAspect: Double = 0.62,
                documentCrop: Bool = true, documentAreaRange: ClosedRange<Double> = 0.15...0.9, minimumDocumentRectangularity: Double = 0.8,
                minimumDocumentContrast: Double = 40, maximumDocumentEdgeContact: Double = 0.5, documentMargin: Double = 0.01) {
        self.polarity = polarity
        self.scale = scale
        self.targetTextHeight = targetTextHeight
        self.minimumTextHeight = minimumTextHeight
        self.maximumTextHeight = maximumTextHeight
        self.lineTextHeight = lineTextHeight
        self.maximumScale = maximumScale
        self.maximumOutputPixels = maximumOutputPixels
        self.stretchCondensed = stretchCondensed
        self.condensedAspect = condensedAspect
        self.targetAspect = targetAspect
        self.maximumStretch = maximumStretch
        self.skew = skew
        self.minimumSkewDegrees = minimumSkewDegrees
        self.maximumSkewDegrees = maximumSkewDegrees
        self.minimumSkewConfidence = minimumSkewConfidence
        self.slightSkewDegrees = slightSkewDegrees
        self.minimumSlightSkewConfidence = minimumSlightSkewConfidence
        self.minimumSkewComponents = minimumSkewComponents
        self.smoothing = smoothing
        self.smoothingSigma = smoothingSigma
        self.minimumPageComponents = minimumPageComponents
        self.binarization = binarization
        self.unevenLightSpread = unevenLightSpread
        self.lostRegionFraction = lostRegionFraction
        self.border = border
        self.pageSegmentation = pageSegmentation
        self.orientation = orientation
        self.machineReadableZone = machineReadableZone
        self.dominantLine = dominantLine
        self.textLines = textLines
        self.maximumTextLines = maximumTextLines
        self.minimumTextLineHeight = minimumTextLineHeight
        self.lineTargetAspect = lineTargetAspect
        self.sparseReading = sparseReading
        self.documentCrop = documentCrop
        self.documentAreaRange = documentAreaRange
        self.minimumDocumentRectangularity = minimumDocumentRectangularity
        self.minimumDocumentContrast = minimumDocumentContrast
        self.maximumDocumentEdgeContact = maximumDocumentEdgeContact
        self.documentMargin = documentMargin
    }

    /// Applies the decisions to a preprocessed frame (gray, upright, not thresholded).
    /// - Returns: the new frame (its transform includes the scale, the skew correction and the
    ///   border) and the decisions.
    /// - Throws: ``FrameOCRError`` from the measurements, the rescale, the smoothing, the rotation
    ///   or the border; ``FrameOCRError/Code/invalidParameter`` for ``maximumSkewDegrees`` outside
    ///   1…45 (when skew is measured) or ``smoothingSigma`` outside 0.1…10 (when smoothing).
    func apply(to original: PreprocessedFrame, pool: PixelBufferPool?) throws(FrameOCRError) -> (PreprocessedFrame, PreprocessingDecisions) {
        var d = PreprocessingDecisions()
        var timings = original.timings
        var prepared = original
        var measured: (PixelBuffer, focr_text_analysis)?
        var paperDegrees: Double?
        if documentCrop, let (document, degrees) = try cropToDocument(original, &d, timings: &timings, pool: pool) {
            let analysis = try Self.analyze(document.image, timings: &timings, pool: pool)
            if Int(analysis.1.components) >= minimumPageComponents {
                prepared = document
                measured = analysis
                paperDegrees = degrees
                d.reasons.append("document crop: the paper holds \(analysis.1.components) text-like components: read alone")
            } else {
                d.documentCrop = nil
                d.reasons.append("document crop: the paper holds only \(analysis.1.components) text-like components (< \(minimumPageComponents)): the whole image is read")
            }
        }
        prepared.timings = timings
        var out = prepared
        let source = prepared.image
        let normalized: PixelBuffer, a: focr_text_analysis
        if let measured { (normalized, a) = measured } else { (normalized, a) = try Self.analyze(source, timings: &out.timings, pool: pool) }
        d.regions = Int(a.tiles_x * a.tiles_y)
        d.contrast = Double(a.contrast)
        d.textComponents = Int(a.components)
        d.textHeight = a.components > 0 ? Double(a.text_height) : nil
        d.backgroundSpread = Double(a.background_spread)
        d.markedRegions = Int(a.marked_tiles)
        d.lostRegions = Int(a.lost_tiles)
        var image = source
        if polarity && a.inverted_tiles > 0 {
            image = normalized
            d.invertedRegions = Int(a.inverted_tiles)
            d.reasons.append("polarity: \(a.inverted_tiles) of \(d.regions) regions hold light text on a dark background: inverted")
        } else if a.dark_tiles > 0 {
            d.reasons.append("polarity: \(a.dark_tiles) dark regions without light text: left alone")
        }

        if binarization && Double(a.background_spread) >= unevenLightSpread && a.marked_tiles > 0 {
            let lost = Double(a.lost_tiles) / Double(a.marked_tiles)
            let measured = String(format: "paper brightness spreads %.0f levels, %d of %d regions with marks have marks and paper on one side of Otsu's threshold %.0f",
                                  a.background_spread, a.lost_tiles, a.marked_tiles, a.threshold)
            if lost >= lostRegionFraction {
                d.binarization = .sauvola
                d.reasons.append("binarization: uneven light (" + measured + "): Sauvola for Tesseract's layout")
            } else {
                d.reasons.append("binarization: " + measured + String(format: " (< %.0f %%): one threshold", 100 * lostRegionFraction))
            }
        }
        let w = Double(image.width), h = Double(image.height)
        let textHeight = Double(a.text_height), p75 = Double(a.text_height_p75)
        let singleLine = a.components > 0 && (h <= 2.5 * max(p75, textHeight) || h < 48)
        d.singleLine = singleLine
        var factor = 1.0
        if scale && a.components > 0 {
            if singleLine {
                // The components of a short crop are often broken; the line's height bounds the text.
                let estimate = max(p75, 0.7 * h)
                factor = min(max(lineTextHeight / estimate, 1 / maximumScale), maximumScale)
                if factor < Self.lineScaleTolerance && factor > 1 / Self.lineScaleTolerance { factor = 1 }
                if factor != 1 {
                    d.reasons.append(String(format: "scale: a single line with text about %.0f px tall: ×%.2f to %.0f px", estimate, factor,
                                            lineTextHeight))
                }
            } else if a.components < 30 {
                d.reasons.append("scale: only \(a.components) text-like components, too few to measure the text: not rescaled")
            } else if textHeight < minimumTextHeight || textHeight > maximumTextHeight {
                factor = min(max(targetTextHeight / textHeight, 1 / maximumScale), maximumScale)
                d.reasons.append(String(format: "scale: median text height %.0f px is outside %.0f…%.0f: ×%.2f to %.0f px", textHeight,
                                        minimumTextHeight, maximumTextHeight, factor, targetTextHeight))
            }
            let limit = (Double(maximumOutputPixels) / (w * h)).squareRoot()
            if factor > limit {
                factor = max(1, limit)
                d.reasons.append(String(format: "scale: limited to ×%.2f by %d output pixels", factor, maximumOutputPixels))
            }
        }
        var stretch = 1.0
        // Only display-size text (≥ 20 px): small print breaks into narrow pieces that look condensed.
        if stretchCondensed && a.components >= 10 && textHeight >= 20 && Double(a.text_aspect) < condensedAspect && a.text_aspect > 0 {
            stretch = min(maximumStretch, targetAspect / Double(a.text_aspect))
            if w * h * factor * factor * stretch > Double(maximumOutputPixels) { stretch = 1 }
            if stretch != 1 {
                d.reasons.append(String(format: "stretch: condensed text (median width/height %.2f < %.2f): ×%.2f horizontally",
                                        a.text_aspect, condensedAspect, stretch))
            }
        }
        d.textAspect = a.components > 0 ? Double(a.text_aspect) : nil
        out.image = image
        if factor != 1 || stretch != 1 {
            d.scale = try Self.rescale(&out, factor: factor, stretch: stretch, pool: pool)
            d.stretch = (out.transform.scaleX / prepared.transform.scaleX) / d.scale
        }

        if smoothing && !singleLine && Int(a.components) >= minimumPageComponents {
            guard (0.1...10).contains(smoothingSigma) else {
                throw .invalidParameter("smoothingSigma", "\(smoothingSigma) px must be in 0.1…10", stage: .scale)
            }
            let input = out.image
            out.image = try timed(&out.timings.automatic) { () throws(FrameOCRError) in
                try input.smoothed(sigma: smoothingSigma, pool: pool)
            }
            d.smoothingSigma = smoothingSigma
            d.reasons.append(String(format: "smoothing: a page of text (%d components): Gaussian σ %.1f px", a.components, smoothingSigma))
        }
        if skew && !singleLine && Int(a.components) >= minimumSkewComponents {
            try correctSkew(&out, &d, paperDegrees: paperDegrees, pool: pool)
        }

        if border && a.components > 0 && (singleLine || a.edge_components >= 2) {
            let b = max(8, Int((0.5 * max(textHeight, singleLine ? 0.7 * h : 0) * d.scale).rounded()))
            try Self.pad(&out, border: b, pool: pool)
            d.border = b
            d.reasons.append(singleLine ? "border: \(b) px of white around a single line"
                                        : "border: \(b) px of white: \(a.edge_components) text components touch the edge")
        }

        if pageSegmentation && a.components > 0 {
            if singleLine {
                d.pageSegmentationMode = .singleLine
                d.reasons.append("page segmentation: one line of text: PSM 7")
            } else if source.width >= 2000 && source.height >= 2000 && a.components > 1000 {
                d.pageSegmentationMode = .auto
                d.reasons.append("page segmentation: a full page (\(source.width)×\(source.height), \(a.components) components): PSM 3")
            }
        }
        if a.components == 0 { d.reasons.append("no text-like components found: nothing changed") }
        out.image.orientation = .up
        return (out, d)
    }

    /// `focr_auto_analyze` of `image`: the image with its light-on-dark regions inverted, and the measurements.
    private static func analyze(_ image: PixelBuffer, timings: inout StageTimings,
                                pool: PixelBufferPool?) throws(FrameOCRError) -> (PixelBuffer, focr_text_analysis) {
        let normalized = try PixelBuffer.destination(nil, pool: pool, width: image.width, height: image.height, format: .gray8,
                                                     stage: .threshold)
        var a = focr_text_analysis()
        try timed(&timings.automatic) { () throws(FrameOCRError) in
            try image.run(into: normalized, .threshold) { s, dst in focr_auto_analyze(s, 0, dst, &a) }
        }
        return (normalized, a)
    }

    /// The document crop (``documentCrop``): finds a sheet of paper on a darker surround in
    /// `prepared` (gray, not padded or turned) and, when it passes the tests, returns the frame cut
    /// to its bounding box with a margin and flattened, its transform's region the box in upright
    /// pixels (with a pipeline scale, the cut is rounded to whole upright pixels and the scale
    /// adjusted by under a pixel's worth, so that the transform stays exact for the new image);
    /// `d.documentCrop` is set. Nil (and a reason when a region was found) otherwise.
    private func cropToDocument(_ prepared: PreprocessedFrame, _ d: inout PreprocessingDecisions, timings: inout StageTimings,
                                pool: PixelBufferPool?) throws(FrameOCRError) -> (PreprocessedFrame, Double)? {
        let t = prepared.transform
        guard t.padding == 0, t.skewDegrees == 0, prepared.image.pixelFormat == .gray8 else { return nil }
        let image = prepared.image
        let W = image.width, H = image.height
        let doc = try timed(&timings.automatic) { () throws(FrameOCRError) in try image.documentRegion() }
        guard !doc.box.isEmpty else { return nil }
        let measured = String(format: "a bright region of %.0f %% of the image, %.0f %% of its turned rectangle, paper %.0f against %.0f around, on %.0f %% of the edge",
                              100 * doc.areaFraction, 100 * doc.rectangularity, doc.paper, doc.surroundings, 100 * doc.edgeContact)
        var failed: String?
        if !documentAreaRange.contains(doc.areaFraction) {
            failed = String(format: "not %.0f…%.0f %% of the image", 100 * documentAreaRange.lowerBound, 100 * documentAreaRange.upperBound)
        } else if doc.rectangularity < minimumDocumentRectangularity {
            failed = String(format: "not rectangular (< %.0f %%)", 100 * minimumDocumentRectangularity)
        } else if doc.surroundings < 0 || doc.paper - doc.surroundings < minimumDocumentContrast {
            failed = String(format: "not %.0f levels brighter than its surroundings", minimumDocumentContrast)
        } else if doc.edgeContact > maximumDocumentEdgeContact {
            failed = String(format: "touches more than %.0f %% of the edge: a page filling the frame", 100 * maximumDocumentEdgeContact)
        }
        // The box with its margin, in output pixels, then whole upright pixels.
        let m = max(4, Int((documentMargin * Double(min(W, H))).rounded()))
        let ox0 = max(0, doc.box.x - m), oy0 = max(0, doc.box.y - m)
        let ox1 = min(W, doc.box.maxX + m), oy1 = min(H, doc.box.maxY + m)
        if failed == nil && Double((ox1 - ox0) * (oy1 - oy0)) > 0.85 * Double(W * H) {
            failed = "its box leaves less than 15 % of the image out"
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
        let cx0 = min(W - 1, max(0, Int((Double(ux0 - r.x) * t.scaleX).rounded())))
        let cy0 = min(H - 1, max(0, Int((Double(uy0 - r.y) * t.scaleY).rounded())))
        let cx1 = max(cx0 + 1, min(W, Int((Double(ux1 - r.x) * t.scaleX).rounded())))
        let cy1 = max(cy0 + 1, min(H, Int((Double(uy1 - r.y) * t.scaleY).rounded())))
        guard ux1 > ux0, uy1 > uy0 else { return nil }
        let view = try image.cropped(to: PixelRect(x: cx0, y: cy0, width: cx1 - cx0, height: cy1 - cy0))
        // The outline, in the cut's pixels.
        var outline = doc.outline.count >= 6 ? doc.outline : []
        for i in stride(from: 0, to: outline.count - 1, by: 2) {
            outline[i] -= Float(cx0)
            outline[i + 1] -= Float(cy0)
        }
        let kernel = max(15, min(view.width, view.height) / 16)
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
        d.reasons.append("document crop: " + measured + String(format: ", turned %.1f°", doc.angleDegrees)
                         + ": cut to \(region) (upright pixels), light flattened (closing of \(kernel) px)")
        return (out, doc.angleDegrees)
    }

    /// Rescales `frame`'s image by `factor` vertically and `factor × stretch` horizontally
    /// (``PixelBuffer/resized(width:height:pool:)``: area when shrinking, cubic when enlarging)
    /// and folds the factors into its transform.
    /// - Returns: the vertical factor applied (after rounding to whole pixels).
    static func rescale(_ frame: inout PreprocessedFrame, factor: Double, stretch: Double = 1,
                        pool: PixelBufferPool?) throws(FrameOCRError) -> Double {
        let input = frame.image
        let w = Double(input.width), h = Double(input.height)
        let (_, sh) = try PixelBuffer.scaledSize(width: input.width, height: input.height, factor: factor)
        let (sw, _) = try PixelBuffer.scaledSize(width: input.width, height: input.height, factor: factor * stretch)
        frame.image = try timed(&frame.timings.scale) { () throws(FrameOCRError) in try input.resized(width: sw, height: sh, pool: pool) }
        frame.transform.scaleX *= Double(sw) / w
        frame.transform.scaleY *= Double(sh) / h
        return Double(sh) / h
    }

    /// Surrounds `frame`'s image (gray8) with `border` pixels of white (`focr_pad`) and adds the
    /// border to its transform's padding.
    static func pad(_ frame: inout PreprocessedFrame, border: Int, pool: PixelBufferPool?) throws(FrameOCRError) {
        let input = frame.image
        let padded = try PixelBuffer.destination(nil, pool: pool, width: input.width + 2 * border, height: input.height + 2 * border,
                                                 format: .gray8, stage: .crop)
        try timed(&frame.timings.automatic) { () throws(FrameOCRError) in
            try input.run(into: padded, .crop) { s, dst in focr_pad(s, Int32(border), 255, dst) }
        }
        frame.image = padded
        frame.transform.padding += border
    }

    /// Measures the skew of `image` (scaled, dark text on light) and, when it is confident and
    /// large enough, turns the image back about its center into a buffer with a margin of m
    /// white pixels on every side that keeps the turned corners; the transform gets the angle
    /// and m as padding (the rotation is about the scaled region's center, the padding after it).
    private func correctSkew(_ out: inout PreprocessedFrame, _ d: inout PreprocessingDecisions, paperDegrees: Double?,
                             pool: PixelBufferPool?) throws(FrameOCRError) {
        let input = out.image
        let (angle, confidence) = try timed(&out.timings.automatic) { () throws(FrameOCRError) in
            try input.textSkew(maximumDegrees: maximumSkewDegrees)
        }
        // A cut-out sheet's edges corroborate a less confident measurement of its lines.
        let corroborated = paperDegrees.map { confidence >= 1 && abs($0 - angle) <= 1 } ?? false
        if corroborated {
            d.reasons.append(String(format: "skew: %.2f° at confidence %.1f agrees with the paper's edges (%.2f°)", angle, confidence, paperDegrees ?? 0))
        }
        guard (confidence >= minimumSkewConfidence && confidence > 0) || corroborated else {
            d.reasons.append(String(format: "skew: not clear (%.2f°, confidence %.1f < %.1f): left", angle, confidence, minimumSkewConfidence))
            return
        }
        guard abs(angle) >= minimumSkewDegrees else {
            d.reasons.append(String(format: "skew: %.2f°, below %.1f°: left", angle, minimumSkewDegrees))
            return
        }
        guard abs(angle) >= slightSkewDegrees || confidence >= minimumSlightSkewConfidence || corroborated else {
            d.reasons.append(String(format: "skew: %.2f° at confidence %.1f, below %.1f for a turn under %.1f°: left", angle, confidence,
                                    minimumSlightSkewConfidence, slightSkewDegrees))
            return
        }
        let t = abs(angle) * .pi / 180
        let w = Double(input.width), h = Double(input.height)
        let c = cos(t), s = sin(t)
        // Half the growth of the turned rectangle's bounding box, on the larger axis.
        let m = max(0, Int(max(w * (c - 1) + h * s, h * (c - 1) + w * s) / 2 + 0.999_999))
        out.image = try timed(&out.timings.automatic) { () throws(FrameOCRError) in
            try input.rotated(byDegrees: -angle, fill: 255, width: input.width + 2 * m, height: input.height + 2 * m, pool: pool)
        }
        out.transform.skewDegrees = angle
        out.transform.padding += m
        d.skewDegrees = angle
        d.reasons.append(String(format: "skew: text is turned %.2f° ", abs(angle)) + (angle > 0 ? "clockwise" : "counter-clockwise")
                         + String(format: " (confidence %.1f): rotated back, %d px of white margin for the corners", confidence, m))
    }
}

/// What automatic preprocessing measured and did to one image, with the reasons in words.
public struct PreprocessingDecisions: Hashable, Sendable, Codable {
    /// Polarity regions (tiles) and how many were inverted (light text on dark).
    public var regions: Int = 0
    public var invertedRegions: Int = 0
    /// Text-like components and their median height in pixels of the image before scaling (nil
    /// when none was found).
    public var textComponents: Int = 0
    public var textHeight: Double?
    /// Ink-to-paper distance of Otsu's two classes, 0…255.
    public var contrast: Double = 0
    /// How unevenly lit the paper is: the 90th minus the 10th percentile of the regions' paper
    /// brightness (their medians, after polarity), 0…255; nil in results decoded from before it
    /// was measured.
    public var backgroundSpread: Double?
    /// Regions with marks on them, and those whose marks Otsu's single threshold loses (marks
    /// and paper on one side of it); nil in results decoded from before they were measured.
    public var markedRegions: Int?
    public var lostRegions: Int?
    /// The binarization chosen for Tesseract's layout (``AutomaticPreprocessing/binarization``);
    /// nil: the options' binarization was kept.
    public var binarization: EngineBinarization?
    /// The image holds one line of text.
    public var singleLine: Bool = false
    /// The factor the image was rescaled by (vertically; 1: not rescaled) and the extra
    /// horizontal factor for condensed text (1: none).
    public var scale: Double = 1
    public var stretch: Double = 1
    /// Median width/height of the text's components (nil when none was found).
    public var textAspect: Double?
    /// The skew corrected, in degrees clockwise as displayed (positive: lines descended to the
    /// right; the image was turned back by it); nil when the image was not turned (not measured,
    /// not confident, or below the minimum: the reasons say which).
    public var skewDegrees: Double?
    /// The standard deviation, in pixels of the scaled image, of the Gaussian that smoothed it
    /// (``AutomaticPreprocessing/smoothing``); nil when it was not smoothed.
    public var smoothingSigma: Double?
    /// Pixels of white added on every side by the border step (0: none).
    public var border: Int = 0
    /// The page segmentation mode chosen for this image; nil: the options' mode was kept.
    public var pageSegmentationMode: PageSegmentationMode?
    /// The rotation found when the orientation was unknown; nil when not detected.
    public var orientation: OrientationDecision?
    /// The sheet of paper the image was cut to before everything else, in upright-frame pixels
    /// (its bounding box with a margin; ``AutomaticPreprocessing/documentCrop``); nil when the
    /// image was not cut (no document on a surround found, or the paper held too little text).
    public var documentCrop: PixelRect?
    /// The line of large text (upright-frame pixels) whose reading alone replaced the page's,
    /// because it read with a higher mean word confidence; nil when none did (see
    /// ``AutomaticPreprocessing/dominantLine``).
    public var dominantLine: PixelRect?
    /// The lines of large text (upright-frame pixels) whose readings alone replaced the page's
    /// words there, in the order read; nil when none did (see ``AutomaticPreprocessing/textLines``).
    public var textLines: [PixelRect]?
    /// The page's readings as sparse text and what they changed
    /// (``AutomaticPreprocessing/sparseReading``); nil when the page was not read again.
    public var sparseReading: SparseReadingDecision?
    /// The machine readable zone found and repaired (its lines replace the MRZ lines of the
    /// reading); nil when none was found.
    public var machineReadableZone: MachineReadableZone?
    /// Each decision with its reason, in the order taken.
    public var reasons: [String] = []

    public init() {}
}

/// What reading a poorly read page again did (``AutomaticPreprocessing/sparseReading``): two
/// sparse readings of the preprocessed image and two readings of the image as captured, voted
/// on and merged into the page's reading word by word.
public struct SparseReadingDecision: Hashable, Sendable, Codable {
    /// One more reading of the page and what its merge changed.
    public struct Reading: Hashable, Sendable, Codable {
        /// The page segmentation mode of this reading: PSM 11 (sparse text) for the readings of
        /// the preprocessed image, PSM 6 or 3 for those of the image as captured.
        public var pageSegmentationMode: PageSegmentationMode
        /// The binarization Tesseract used for this reading's layout.
        public var binarization: EngineBinarization
        /// True: read from the upright region as captured — the pipeline without automatic
        /// preprocessing (gray; none of its inversion, rescale, smoothing, skew correction or
        /// border); false: from the image automatic preprocessing prepared for the page.
        public var asCaptured: Bool
        /// Its mean word confidence, 0…1.
        public var confidence: Double
        /// Words of the page replaced, and this reading's words put in their place.
        public var replacedWords: Int
        public var replacingWords: Int
        /// This reading's words added where the page's reading had none.
        public var addedWords: Int
    }
    /// Mean word confidence (0…1) of the page's first reading.
    public var pageConfidence: Double
    /// The further readings, in the order they were merged.
    public var readings: [Reading]
    /// Mean word confidence of the merged reading.
    public var mergedConfidence: Double
}

/// How an unknown orientation was resolved.
public struct OrientationDecision: Hashable, Sendable, Codable {
    /// How the image was found to be stored (``Orientation/up`` when it was upright already);
    /// nil when it could not be told (then the image was read as stored, and that is not a
    /// claim that it is upright).
    public var orientation: Orientation?
    /// `osd`: Tesseract's orientation detection; `confidence`: the best of four rotations by mean
    /// word confidence; `none`: neither was conclusive, the image was read as it is.
    public var method: String
    /// OSD's confidence (its own scale: above about 2 is reliable), or the winning mean word
    /// confidence 0…1.
    public var confidence: Double
}
