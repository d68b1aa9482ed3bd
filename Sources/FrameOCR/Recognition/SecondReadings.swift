/// Which second readings a recognition may take: parts of the frame read again, when the first
/// reading of the page calls for it, by the reading strategies of `Reading/`.
///
/// Second readings run only with automatic preprocessing (``Pipeline/automatic``, whose
/// measurements say what the image holds), no ``Pipeline/threshold`` and no deadline: in
/// ``Recognizer/recognize(_:pipeline:options:deadline:pool:)`` without a deadline and in a
/// ``FrameProcessor`` without a latency budget. With a deadline every image is read once. They
/// run in this order, each only when the reading so far calls for it:
///
/// 1. ``machineReadableZone``: a passport's or ID card's MRZ, read again with its alphabet and
///    repaired by its check digits; when one is read, nothing else is read again;
/// 2. ``sparseReading``: a poorly read page, read four more times, voted on and merged word by word;
/// 3. ``dominantLine``: the dominant line of large text (a plate's number), read alone;
/// 4. ``textLines``: up to ``maximumTextLines`` other lines of large text, each read alone;
/// 5. ``sceneText``: a frame still read poorly with few confident words over many components (a
///    scene): its regions of text found by the text detector and each read alone.
///
/// Set per call in ``Recognizer/Options/secondReadings``. Every reading taken, and why, is in
/// ``PreprocessingDecisions`` (its `reasons`, ``PreprocessingDecisions/machineReadableZone``,
/// ``PreprocessingDecisions/sparseReading``, ``PreprocessingDecisions/dominantLine``,
/// ``PreprocessingDecisions/textLines``) and the time in ``StageTimings/automatic``.
public struct SecondReadings: Hashable, Sendable {
    /// Read a machine readable zone (passport, ID card, visa) found in the reading again with
    /// the MRZ alphabet and repair it by its layout and check digits (``MachineReadableZone``).
    /// Default true.
    public var machineReadableZone = true
    /// When a page (not a single line, at least ``AutomaticPreprocessing/minimumPageComponents``
    /// text components, read as a block or page: PSM 3, 4 or 6) reads poorly (mean word
    /// confidence below 0.9), read it four more times — the same preprocessed image as sparse
    /// text (PSM 11), once with Tesseract's Otsu binarization for its layout and once with
    /// Leptonica's Sauvola; and the upright image as captured (no rescale or smoothing) as one
    /// block (PSM 6, Otsu) and as a page (PSM 3, Sauvola) — and merge each reading into the
    /// page's word by word: where words of two readings overlap, the new reading's words replace
    /// the page's when their mean score is higher by 0.1, and new words that overlap nothing are
    /// added when their score is at least 0.9. A word's score is its confidence plus 0.4 × the
    /// fraction of the other readings that read the same word there (a vote). Which reading's
    /// words are kept is thus decided per stretch of text, never for the whole image. Costs two
    /// more recognitions of the page at its prepared size and two at the size captured.
    /// Default true.
    public var sparseReading = true
    /// When the reading is poor (mean word confidence below 0.9), read the image's dominant
    /// line of large text (a plate's number, a sign's word; characters at least a quarter of the
    /// image's height) alone, cut out of its surroundings; its words replace the page's words on
    /// that line when they read clearly more confidently (by 0.15). Default true.
    public var dominantLine = true
    /// When the reading is still poor (mean word confidence below 0.9), find the lines of large
    /// text (characters at least ``minimumTextLineHeight`` pixels and a twentieth of the image's
    /// height tall: a sign's, a label's or a display's words; `focr_text_lines`) and read each
    /// alone, cut out of its surroundings, scaled to ``LineReadingOptions/textHeight``,
    /// condensed letters stretched, PSM 7; a line's words replace the page's words there when
    /// they read clearly more confidently (by 0.15, and at least 0.5). Images whose smallest
    /// sought characters exceed 32 px are searched at a reduced size. Default true.
    public var textLines = true
    /// When the reading so far (the page's, and the lines read alone) says the frame is a scene —
    /// mean word confidence below 0.9; fewer words of two letters or digits read at 0.8 or more
    /// than ``sceneMaximumConfidentWords`` or than a tenth of the words read; at least 10
    /// text-like components; not a single line; at least 200 pixels on the upright region's
    /// smaller side — find its regions of text with the recognizer's ``TextDetector``
    /// (``Recognizer/Configuration/textDetector``; PP-OCRv4's DB detector through OpenCV's dnn
    /// module) and read the most probable ``maximumSceneRegions`` alone, each turned upright (by
    /// at most 45°) as one line (PSM 7). A region's words replace the words there when their mean
    /// confidence is at least ``minimumSceneWordConfidence`` and clearly (0.15) above the words
    /// there; the page's words under 0.8 elsewhere are dropped. Costs the detector (0.2–0.35 s for
    /// a 1280×720 frame at the default 736 px on 2 cores) and one short recognition per region.
    /// Without a detector (no model installed, or `libFrameOCRMedia.so` missing) or when it fails,
    /// it notes why and the reading so far stands. Default true.
    public var sceneText = true
    /// A frame is not a scene when its reading has at least this many words (of two letters or
    /// digits) at confidence 0.8 or more, and at least a tenth of its words are such (≥ 1;
    /// default 3).
    public var sceneMaximumConfidentWords = 3
    /// Most regions read alone per scene, the most probable first (1…256; default 24).
    public var maximumSceneRegions = 24
    /// A region's reading is kept when its mean word confidence is at least this (0…1; default
    /// 0.5).
    public var minimumSceneWordConfidence: Float = 0.5
    /// Most lines read alone per image, the lines with the most ink first (1…64; default 4).
    public var maximumTextLines = 4
    /// Smallest character height, in pixels of the upright region, of a line read alone
    /// (≥ 3; default 20): smaller text is read as well in the page as alone.
    public var minimumTextLineHeight = 20.0

    /// Every second reading on, with the defaults above.
    public init() {}

    /// No second reading: every image is read once (the page reading, and the orientation
    /// detection a ``Pipeline/OrientationSource/unknown`` orientation asks for).
    public static let off: SecondReadings = {
        var r = SecondReadings()
        r.machineReadableZone = false
        r.sparseReading = false
        r.dominantLine = false
        r.textLines = false
        r.sceneText = false
        return r
    }()

    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for ``maximumTextLines`` outside 1…64 or
    ///   ``minimumTextLineHeight`` below 3 (when ``textLines`` is on), or
    ///   ``sceneMaximumConfidentWords`` below 1, ``maximumSceneRegions`` outside 1…256 or
    ///   ``minimumSceneWordConfidence`` outside 0…1 (when ``sceneText`` is on).
    public func validate() throws(FrameOCRError) {
        if sceneText {
            guard sceneMaximumConfidentWords >= 1 else {
                throw .invalidParameter(
                    "sceneMaximumConfidentWords", "\(sceneMaximumConfidentWords) is below 1", stage: .recognition)
            }
            guard (1...256).contains(maximumSceneRegions) else {
                throw .invalidParameter(
                    "maximumSceneRegions", "\(maximumSceneRegions) not in 1…256", stage: .recognition)
            }
            guard (0...1).contains(minimumSceneWordConfidence) else {
                throw .invalidParameter(
                    "minimumSceneWordConfidence", "\(minimumSceneWordConfidence) not in 0…1", stage: .recognition)
            }
        }
        guard textLines else { return }
        guard (1...64).contains(maximumTextLines) else {
            throw .invalidParameter("maximumTextLines", "\(maximumTextLines) not in 1…64", stage: .recognition)
        }
        guard minimumTextLineHeight >= 3 else {
            throw .invalidParameter(
                "minimumTextLineHeight", "\(minimumTextLineHeight) px is below 3", stage: .recognition)
        }
    }
}

// Moved into ``LineReadingOptions``: kept so that code written before fails to compile with a
// message that says where the setting went.
extension SecondReadings {
    /// The aspect a line read alone is widened to: now one setting for every reader of lines.
    @available(
        *, unavailable,
        message: "set AutomaticPreprocessing.lines.targetAspect (LineReadingOptions): one setting for stills and live"
    )
    public var lineTargetAspect: Double {
        get { LineReadingOptions().targetAspect }
        set {}
    }
}
