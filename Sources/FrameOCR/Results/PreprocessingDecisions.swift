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
    /// The light step's flattening where the paper's light was uneven
    /// (``AutomaticPreprocessing/flattenLight``); nil where the light was even (or the step is
    /// off).
    public var light: LightDecision?
    /// The binarization chosen for Tesseract's layout (``AutomaticPreprocessing/binarization``);
    /// nil: the options' binarization was kept.
    public var binarization: EngineBinarization?
    /// The image holds one line of text.
    public var singleLine: Bool = false
    /// The single line sits in a loose crop: the crop is more than 2.5 times as tall as the band
    /// its ink spans (the scale step measured its text by that band). The CTC line recognizer,
    /// which reads a crop whole, leaves such a line to Tesseract (``EngineSelection/auto``).
    public var looseLine: Bool = false
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
    /// ``SecondReadings/dominantLine``).
    public var dominantLine: PixelRect?
    /// The lines of large text (upright-frame pixels) whose readings alone replaced the page's
    /// words there, in the order read; nil when none did (see ``SecondReadings/textLines``).
    public var textLines: [PixelRect]?
    /// The page's readings as sparse text and what they changed
    /// (``SecondReadings/sparseReading``); nil when the page was not read again.
    public var sparseReading: SparseReadingDecision?
    /// The regions of scene text the detector found and their readings alone
    /// (``SecondReadings/sceneText``); nil when the frame was not read as a scene.
    public var sceneText: SceneTextDecision?
    /// The machine readable zone found and repaired (its lines replace the MRZ lines of the
    /// reading); nil when none was found.
    public var machineReadableZone: MachineReadableZone?
    /// Each decision with its reason, in the order taken.
    public var reasons: [String] = []

    public init() {}
}
