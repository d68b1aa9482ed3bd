/// Which second readings a recognition may take: parts of the frame read again, when the first
/// reading of the page calls for it, by the reading strategies of `Reading/`.
///
/// Second readings run only with automatic preprocessing (``Pipeline/automatic``, whose
/// measurements say what the image holds), no ``Pipeline/threshold`` and no deadline: in
/// ``Recognizer/recognize(_:pipeline:options:deadline:timeLimit:pool:)`` without a deadline and in a
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
/// Set per call in ``RecognitionOptions/secondReadings``. Every reading taken, and why, is in
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
    /// confidence below ``poorBelow``), read it four more times — the same preprocessed image as
    /// sparse text (PSM 11), once with Tesseract's Otsu binarization for its layout and once with
    /// Leptonica's Sauvola; and the upright image as captured (no rescale or smoothing) as one
    /// block (PSM 6, Otsu) and as a page (PSM 3, Sauvola) — and merge each reading into the
    /// page's word by word: where words of two readings overlap, the new reading's words replace
    /// the page's when their mean score is higher by ``sparseReplaceMargin``, and new words that
    /// overlap nothing are added when their score is at least ``sparseAddedScore``. A word's
    /// score is its confidence plus ``sparseAgreementWeight`` × the fraction of the other
    /// readings that read the same word there (a vote). Which reading's words are kept is thus
    /// decided per stretch of text, never for the whole image. Costs two more recognitions of the
    /// page at its prepared size and two at the size captured. Default true.
    public var sparseReading = true
    /// When the reading is poor (mean word confidence below ``poorBelow``), read the image's
    /// dominant line of large text (a plate's number, a sign's word; characters at least a
    /// quarter of the image's height) alone, cut out of its surroundings; its words replace the
    /// page's words on that line when they read clearly more confidently (by ``clearlyBetter``).
    /// Default true.
    public var dominantLine = true
    /// When the reading is still poor (mean word confidence below ``poorBelow``), find the lines
    /// of large text (characters at least ``minimumTextLineHeight`` pixels and a
    /// ``textLineHeightDivisor``-th of the image's height tall: a sign's, a label's or a
    /// display's words; `focr_text_lines`) and read each alone, cut out of its surroundings,
    /// scaled to ``LineReadingOptions/textHeight``, condensed letters stretched, PSM 7; a line's
    /// words replace the page's words there when they read clearly more confidently (by
    /// ``clearlyBetter``, and at least ``minimumTextLineConfidence``). Large images are searched
    /// for lines at a reduced size. Default true.
    public var textLines = true
    /// When the reading so far (the page's, and the lines read alone) says the frame is a scene —
    /// mean word confidence below ``poorBelow``; fewer words of two letters or digits read at
    /// ``sceneConfidentWord`` or more than ``sceneMaximumConfidentWords`` or than a
    /// ``sceneConfidentWordShare``-th of the words read; at least ``sceneMinimumComponents``
    /// text-like components; not a single line; at least ``sceneMinimumSide`` pixels on the
    /// upright region's smaller side — find its regions of text with the recognizer's
    /// ``TextDetector`` (``RecognizerConfiguration/textDetector``; PP-OCRv4's DB detector
    /// on OpenVINO) and read the most probable ``maximumSceneRegions`` alone,
    /// each turned upright (by at most ``sceneMaximumTurnDegrees``, or any turn with the CTC
    /// engine's text-angle classifier) as one line (PSM 7; the CTC recognizer). A
    /// region's words replace the words there when their mean confidence is at least
    /// ``minimumSceneWordConfidence`` and clearly (``clearlyBetter``) above the words there; the
    /// page's words under ``sceneConfidentWord`` elsewhere are dropped. Costs the detector
    /// (0.2–0.35 s for a 1280×720 frame at the default ``TextDetector/Configuration/longSide``
    /// on 2 cores) and one short recognition per region. Without a detector (no model installed,
    /// or `libFrameOCRMedia.so` missing) or when it fails, it notes why and the reading so far
    /// stands. Default true.
    public var sceneText = true
    /// A frame is not a scene when its reading has at least this many words (of two letters or
    /// digits) at confidence ``sceneConfidentWord`` or more, and at least a
    /// ``sceneConfidentWordShare``-th of its words are such (≥ 1; default 3).
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

    // MARK: Fixed thresholds

    // The numbers the second readings decide by that are not options: what a poor reading is,
    // what reads clearly better, and the scene test. How each was chosen: docs/tuning.md.

    /// Mean word confidence (0…1) below which a reading is poor and read again: the page by
    /// ``sparseReading``, its lines of large text by ``dominantLine`` and ``textLines``; a frame
    /// that still reads below it may be a scene (``sceneText``). How it was chosen:
    /// `docs/tuning.md#poor-readings`.
    public static let poorBelow: Float = 0.9
    /// How much more confident (mean word confidence, 0…1) a line read alone (``dominantLine``,
    /// ``textLines``) or a scene's region (``sceneText``) must read than the words already there
    /// (0 when there are none) to replace them. How it was chosen: `docs/tuning.md#poor-readings`.
    public static let clearlyBetter: Float = 0.15
    /// How much higher (0…1) the mean score of a further reading's words must be than the page's
    /// words they overlap to replace them (``sparseReading``). How it was chosen:
    /// `docs/tuning.md#more-readings-of-a-page`.
    public static let sparseReplaceMargin: Float = 0.1
    /// The score every word of a further reading's stretch of text that overlaps no word of the
    /// page needs for the stretch to be added (``sparseReading``). How it was chosen:
    /// `docs/tuning.md#more-readings-of-a-page`.
    public static let sparseAddedScore: Float = 0.9
    /// Weight of the other readings' agreement in a word's score (``sparseReading``): a word
    /// every other reading agrees on gains this much over its confidence. How it was chosen:
    /// `docs/tuning.md#more-readings-of-a-page`.
    public static let sparseAgreementWeight: Float = 0.4
    /// Mean word confidence (0…1) a line read alone by ``textLines`` needs at least, whatever
    /// the page read there. How it was chosen: `docs/tuning.md#text-lines`.
    public static let minimumTextLineConfidence: Float = 0.5
    /// The characters ``textLines`` looks for are at least the image's height divided by this
    /// (and ``minimumTextLineHeight``). How it was chosen: `docs/tuning.md#text-lines`.
    public static let textLineHeightDivisor = 20.0
    /// A word of two letters or digits or more read at this confidence (0…1) or more counts as
    /// read by the scene test (``sceneText``), and is kept outside the scene's regions. How it
    /// was chosen: `docs/tuning.md#scene-text`.
    public static let sceneConfidentWord: Float = 0.8
    /// A scene has fewer confident words than ``sceneMaximumConfidentWords`` or than one in this
    /// many of the words read (a scene's clutter, read as a page, gives hundreds of words, a few
    /// of them two confident letters). How it was chosen: `docs/tuning.md#scene-text`.
    public static let sceneConfidentWordShare = 10
    /// Fewest text-like components (``PreprocessingDecisions/textComponents``) of a scene. How it
    /// was chosen: `docs/tuning.md#scene-text`.
    public static let sceneMinimumComponents = 10
    /// A scene's upright region is at least this many pixels on its smaller side, so that a crop
    /// of one object (a plate, a word) is left to the line readings. How it was chosen:
    /// `docs/tuning.md#scene-text`.
    public static let sceneMinimumSide = 200
    /// The early scene test of ``EngineSelection/auto`` (``PreprocessingDecisions/sceneText``'s
    /// `textCover`): a photograph whose detected text regions cover less than this share of it
    /// (0…1) is a scene, read as its regions before, and instead of, its page. A page's lines
    /// cover much of it; a sign's or a plate's words little. How it was chosen:
    /// `docs/tuning.md#engines`.
    public static let sceneMaximumTextCover = 0.30
    /// The early scene test of ``EngineSelection/auto`` also needs marks in at least this share
    /// (0…1) of the frame's polarity regions (``PreprocessingDecisions/markedRegions`` of
    /// ``PreprocessingDecisions/regions``): a scene's clutter marks most of it, a few words on
    /// blank paper under uneven light few. How it was chosen: `docs/tuning.md#engines`.
    public static let sceneMinimumMarkedShare = 0.35
    /// The early scene test of ``EngineSelection/auto`` takes a frame whose light the light step
    /// flattened for a page when the flattened paper spreads by less than this many levels
    /// (``LightDecision/flattenedSpread``, 0…255): paper under uneven light evens out when divided
    /// by its background, a scene's surfaces do not. How it was chosen: `docs/tuning.md#engines`.
    public static let sceneMinimumFlattenedSpread = 8.0
    /// The early scene test of ``EngineSelection/auto`` also takes a frame of at least this many
    /// text-like components (``PreprocessingDecisions/textComponents``) that has at most
    /// ``structurelessMaximumLines`` lines of text in it and is not ink on paper (its contrast
    /// under 210 levels, `AutomaticPreprocessing.minimumPaperContrast`), whatever its light: marks without lines
    /// (a texture, foliage, a face, a cat, the sky's stars), or a scene's few words. Its detected
    /// regions then decide: none, and there is nothing to read (no page reading enlarges the
    /// texture and reads it again and again). How it was chosen: `docs/tuning.md#engines`.
    public static let structurelessMinimumComponents = 50
    /// See ``structurelessMinimumComponents``: lines of at least four characters found by the
    /// text-line finder (`focr_text_lines`, characters of similar height on one centre line);
    /// every page, receipt and form of the corpus has 5 or more, no texture more than 1.
    public static let structurelessMaximumLines = 1
    /// A scene's regions turned by more than this many degrees (steep or vertical text) are not
    /// read by Tesseract, nor by the CTC engine without its text-angle classifier
    /// (``RecognizerConfiguration/textAngleClassifier``): which way up such a region is, its turn
    /// alone does not say. How it was chosen: `docs/tuning.md#scene-text`.
    public static let sceneMaximumTurnDegrees = 45.0

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
