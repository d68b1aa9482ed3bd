/// Automatic preprocessing: per image (or region), cheap measurements decide what Tesseract needs
/// — a document cut out of its surroundings, inverted regions, a rescale, a stretch, a deskew,
/// smoothing, a white border, the binarization of the layout and the page segmentation mode —
/// and every decision is reported with its reason in ``PreprocessingDecisions``.
///
/// It runs after the ``Pipeline``'s crop, rotation and scale, on the upright gray region, and
/// only when the pipeline has no explicit ``Pipeline/threshold`` (an explicit threshold means the
/// caller chose the preprocessing). Boxes are mapped back through every step, so they stay in
/// upright-frame pixels. The steps, in the order they run (`AutomaticPreprocessing+Apply.swift`
/// and one file per step):
///
/// 1. **document crop** (``documentCrop``, `+DocumentCrop.swift`): a sheet of paper lying on a
///    darker or textured surface (`focr_find_document`) is cut to its bounding box plus a margin
///    and its light flattened (`focr_flatten_document`); the measurements below then see the
///    paper alone;
/// 2. **measurements** (`focr_auto_analyze`, mirrored as `TextAnalysis`): polarity per region of a tile
///    grid, the light on the paper per region, and the height and shape of text-like connected
///    components of Otsu's binarization;
/// 3. **polarity** (``polarity``): regions of light text on a dark ground are inverted;
/// 4. **light** (``flattenLight``, `+Light.swift`): uneven light is divided out, and the image
///    measured again;
/// 5. **binarization** (``binarization``): light still uneven lays the page out on Leptonica's
///    Sauvola;
/// 6. **scale and stretch** (``scale``, ``stretchCondensed``, `+Scale.swift`): a single line is
///    scaled to ``LineReadingOptions/textHeight`` (``lines``; one rule, `singleLineFactor(textHeight:)`, also used by the
///    lines the reading strategies read alone), other text outside
///    ``minimumTextHeight``…``maximumTextHeight`` to ``targetTextHeight``; condensed display text
///    is widened;
/// 7. **smoothing** (``smoothing``): a page of text gets a Gaussian of ``smoothingSigma``;
/// 8. **skew** (``skew``, `+Skew.swift`): multi-line text turned by a small angle is turned back;
/// 9. **border** (``border``): a single line, or text touching the edge, gets a white border;
/// 10. **page segmentation** (``pageSegmentation``): PSM 7 for a single line, PSM 3 for a full page.
///
/// Reading the frame again in parts — a machine readable zone, a poorly read page, lines of large
/// text — and detecting an unknown orientation are not preprocessing: they are the reading
/// strategies of `Reading/`, switched by ``SecondReadings`` (``RecognitionOptions/secondReadings``)
/// and by ``Pipeline/OrientationSource/unknown``; they use this type's decisions.
///
/// The defaults were chosen on this project's evaluation corpus (`frameocr eval`, see
/// `docs/accuracy.md`). How each was chosen, with the figures and whether it was checked on the
/// corpus's held-out half: `docs/tuning.md#automatic-preprocessing`.
public struct AutomaticPreprocessing: Hashable, Sendable {
    // MARK: Polarity

    /// Invert light-on-dark regions. Default true.
    public var polarity = true

    // MARK: Scale

    /// Rescale text far from the size Tesseract reads best. Default true.
    public var scale = true
    /// Median component height, in pixels, that text is scaled to. Default 22. How it was chosen:
    /// `docs/tuning.md#scale`.
    public var targetTextHeight = 22.0
    /// Text with a median component height in `minimumTextHeight...maximumTextHeight` pixels is
    /// not rescaled. Default 14.
    public var minimumTextHeight = 14.0
    /// See ``minimumTextHeight``. Default 60.
    public var maximumTextHeight = 60.0
    /// How a line is prepared to be read alone — its text height, the widening of condensed
    /// letters — by this step for an image of one line and by every reader of lines.
    public var lines = LineReadingOptions()
    /// Largest factor either way (default 4: between ¼ and 4×).
    public var maximumScale = 4.0
    /// The output is never scaled beyond this many pixels. Default 12 000 000.
    public var maximumOutputPixels = 12_000_000
    /// Stretch condensed display text (at least `minimumStretchedTextHeight` pixels tall, from
    /// `minimumStretchComponents` components on) horizontally: when the median width/height of
    /// the text's components is below ``condensedAspect``, the image is widened so that it
    /// becomes ``targetAspect``, by at most ``LineReadingOptions/maximumStretch`` (``lines``).
    /// Tesseract misreads tall narrow letters (lightbox signs, plates: M → W, # → F). Default true.
    public var stretchCondensed = true
    /// See ``stretchCondensed``. Default 0.37 (ordinary print measures 0.55–0.8, receipts 0.4).
    public var condensedAspect = 0.37
    /// See ``stretchCondensed``. Default 0.75.
    public var targetAspect = 0.75

    // MARK: Skew

    /// Correct skewed text: multi-line text whose lines are turned by a small angle is turned
    /// back (`cv::warpAffine`, bilinear, white where the image had no pixels) before the border.
    /// Default true.
    public var skew = true
    /// Skew smaller than this, in degrees, is left alone (Tesseract copes with it, and turning
    /// blurs the strokes). Default 0.4.
    public var minimumSkewDegrees = 0.4
    /// The half range of angles searched, in degrees (1…45; default 10): Leptonica sweeps
    /// −maximumSkewDegrees…maximumSkewDegrees in 1° steps, and an answer at the edge of the
    /// sweep counts as no answer. Larger turns are the orientation step's business.
    public var maximumSkewDegrees = 10.0
    /// Leptonica's confidence (ratio of the best to the worst alignment score) needed to act;
    /// default 3, the value its own `pixDeskew` uses.
    public var minimumSkewConfidence = 3.0
    /// A slight skew, below `slightSkewDegrees` (default 1), is corrected only with confidence
    /// ≥ ``minimumSlightSkewConfidence``: Tesseract reads such text nearly as well as straight,
    /// and the turn's interpolation costs sharpness. How it was chosen: `docs/tuning.md#skew`.
    public var slightSkewDegrees = 1.0
    /// See ``slightSkewDegrees``. Default 10.
    public var minimumSlightSkewConfidence = 10.0
    /// Fewest text-like components for skew to be measured (default 30): a few words are read
    /// well enough turned, and their angle is unreliable.
    public var minimumSkewComponents = 30

    // MARK: Smoothing

    /// Smooth a page of text (not a single line, at least ``minimumPageComponents`` text
    /// components) after the scale, before the skew correction: a Gaussian of
    /// ``smoothingSigma`` pixels (`cv::GaussianBlur`). Scanned and photographed print carries
    /// sensor noise, JPEG blocks, dot-matrix dots and broken thermal strokes finer than a stroke
    /// of text ``targetTextHeight`` tall (2–3 px); evened out, Tesseract finds and reads more of
    /// its words. How it was chosen: `docs/tuning.md#smoothing`. Default true.
    public var smoothing = true
    /// See ``smoothing``. Default 0.9 (0.1…10).
    public var smoothingSigma = 0.9
    /// Fewest text-like components for an image to count as a page of text — several lines of
    /// words: a receipt, a form, a letter — which is smoothed, kept when cut out of its
    /// surroundings and, when read poorly, read again (``SecondReadings/sparseReading``).
    /// Default 100 (a licence plate, a sign, or either turned on its side, measures about 30).
    public var minimumPageComponents = 100

    // MARK: Light

    /// Flatten uneven light before recognition: where the regions' paper brightness spreads by
    /// ``unevenLightSpread`` levels or more (a shadow, a lamp beside the page, a lens's
    /// vignette), the image is divided by its background — a closing with a square of a
    /// `flatteningKernelDivisor`-th of its smaller side, at least `minimumFlatteningKernel`
    /// pixels (`cv::morphologyEx` `MORPH_CLOSE`, `cv::divide`: the document crop's flattening) —
    /// and measured again; the measurements after it (text height, single line, binarization,
    /// smoothing) are the flattened image's. It is kept when the flattened image is a page of
    /// text or ink on paper; a sign on a dark surround, a plate or a scene is left as it was. The
    /// lines the reading strategies cut out are not flattened (they find their own ink).
    /// Decision: ``PreprocessingDecisions/light``. The LSTM misreads a page whose paper spreads
    /// widely even where one threshold keeps every mark, so uneven light is divided out, not only
    /// laid out on Sauvola (``binarization``). How it was chosen, with the error rates measured:
    /// `docs/tuning.md#light`. Default true.
    public var flattenLight = true

    // MARK: Binarization

    /// Choose Tesseract's binarization for the page's layout by measurement: where the light is
    /// uneven — the regions' paper brightness spreads by at least ``unevenLightSpread`` levels
    /// and at least ``lostRegionFraction`` of the regions with marks on them have marks and paper
    /// on the same side of Otsu's single threshold — Leptonica's Sauvola
    /// (``EngineBinarization/sauvola``, a threshold per pixel from its window's mean and
    /// deviation); elsewhere the options' binarization (Otsu by default) stays. Both tests, not
    /// either: faint print on evenly lit paper also crosses the single threshold, and there
    /// Sauvola reads fewer words; a shadow or a light falloff also spreads the paper. It runs
    /// after the light step (``flattenLight``), on the flattened image when that was kept. How it
    /// was chosen: `docs/tuning.md#binarization`. Default true.
    public var binarization = true
    /// Gray levels (0…255) by which the regions' paper brightness (90th minus 10th percentile of
    /// their medians) must spread for the light to count as uneven, by the light step
    /// (``flattenLight``) and the binarization step (``binarization``). Default 40.
    public var unevenLightSpread = 40.0
    /// See ``binarization``. Share (0…1) of the marked regions. Default 0.25.
    public var lostRegionFraction = 0.25

    // MARK: Border and page segmentation

    /// Pad single lines and text touching the edge (`minimumEdgeComponents` components or more)
    /// with white, `borderTextHeights` of the scaled text height wide and at least
    /// `minimumBorder` pixels (fixed numbers: `docs/tuning.md#border-and-page-segmentation`).
    /// Default true.
    public var border = true
    /// Choose PSM 7 for a single line and PSM 3 for a full page (at least `fullPageSide` pixels
    /// on both sides with more than `fullPageComponents` text components: a scanned page, often
    /// in columns; fixed numbers: `docs/tuning.md#border-and-page-segmentation`). Default true;
    /// turn off to keep the options' mode always.
    public var pageSegmentation = true

    // MARK: Document crop

    /// Cut a photographed sheet of paper out of its surroundings before everything else (a
    /// receipt on a desk): `focr_find_document` finds the largest bright region after the print
    /// is removed (passes of a 5×5 `cv::medianBlur`) and the light's slow falloff divided out
    /// (`cv::GaussianBlur` on an eighth-size copy, `cv::divide`), binarized with Otsu's threshold
    /// (`cv::threshold`), closed and opened (`cv::morphologyEx`), its largest outer contour
    /// (`cv::findContours`, `cv::minAreaRect`). It is taken as a document when it covers
    /// ``documentAreaRange`` of the image, fills at least ``minimumDocumentRectangularity`` of its
    /// smallest turned rectangle, is at least ``minimumDocumentContrast`` gray levels brighter
    /// (medians) than what lies around it, covers at most ``maximumDocumentEdgeContact`` of the
    /// image's edge (a scanned page fills the frame and touches all of it), and its bounding box
    /// with a margin of ``documentMargin`` covers at most `maximumDocumentBoxShare` of the image,
    /// and fewer than `maximumComponentsAround` text-like components of print lie around that box
    /// (each strip measured with its own polarity: a page whose other half is a band of light
    /// text is not a sheet on a surround).
    /// The box (upright-frame pixels) is cut out and flattened (`focr_flatten_document`: divided
    /// by a closing, `cv::morphologyEx` with a square of a `flatteningKernelDivisor`-th of the
    /// box's smaller side, at least `minimumFlatteningKernel` pixels, so that shadows and falloff
    /// leave the paper white; outside the paper's outline, `cv::fillPoly`, white), and kept only
    /// when it holds a page of text (at least ``minimumPageComponents`` text-like components),
    /// or when it is a label: a sheet of 2 % of the image or more (under ``documentAreaRange``,
    /// or of a document's size under 30 % holding fewer components) with no print around it at
    /// all and at least 4 text-like components on it, whose edges also turn it back when its
    /// lines are too few to measure their skew; otherwise the whole image is used as before. No perspective
    /// warp: the skew step turns the cut-out paper. How the thresholds
    /// were chosen (one photographed receipt and a generated one; the labels on generated camera
    /// frames, `tools/label-frames.sh`; of the rest of the corpus only a plate photo is cut, as a
    /// label, and reads the same): `docs/tuning.md#document-crop`. Default true.
    public var documentCrop = true
    /// Share of the image (0…1) a sheet must cover to be cut out. Default 0.15…0.9.
    public var documentAreaRange: ClosedRange<Double> = 0.15...0.9
    /// Share (0…1) of its smallest turned rectangle a sheet must fill. Default 0.8.
    public var minimumDocumentRectangularity = 0.8
    /// Gray levels (0…255) by which the sheet's median must exceed its surroundings'. Default 40.
    public var minimumDocumentContrast = 40.0
    /// Largest share (0…1) of the image's edge pixels the sheet may cover. Default 0.5.
    public var maximumDocumentEdgeContact = 0.5
    /// Margin around the sheet's bounding box, as a fraction of the image's smaller side (at
    /// least `minimumDocumentMarginPixels` pixels). Default 0.01.
    public var documentMargin = 0.01

    /// Every step on, with the defaults above.
    public init() {}
}
