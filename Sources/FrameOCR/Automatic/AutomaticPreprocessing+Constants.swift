// The fixed numbers of the automatic steps (`AutomaticPreprocessing+Apply.swift` and one file
// per step), each with its reason. The options a caller may set are the type's stored properties
// (`Preprocessing/AutomaticPreprocessing.swift`).

extension AutomaticPreprocessing {
    /// A region is a single line of text when it is at most this many text heights tall (the
    /// larger of the median and the 75th percentile of the components' heights), or under
    /// ``singleLineMaximumHeight`` pixels. Chosen on the corpus's single lines (`uw3-lines`,
    /// `tesseract-test`'s word images) when the automatic mode was built (issue 6); not yet
    /// checked on a held-out half.
    static let singleLineHeights = 2.5
    /// See ``singleLineHeights``.
    static let singleLineMaximumHeight = 48.0
    /// The characters of a short crop are often broken into pieces: a single line's text is at
    /// least this fraction of its image's (or its line box's) height tall. Capitals and
    /// ascenders over lower case fill about 0.7 of a tight line box.
    static let lineHeightFraction = 0.7
    /// A single line's crop is loose — its text height is its ink band's, not a fraction of its
    /// height — when it is more than this many ink bands tall. Tight crops measure 1.1–1.75
    /// (`uw3-lines`, `tesseract-test`'s word images, both halves), plate crops with their frame
    /// 1.7–2.4; above them all, so that no line of the corpus changes, and the generated tiny
    /// fonts (5–11 px in 24–40 px crops: 2.7 and more) are measured (issue 16).
    static let looseLineCrop = 2.5
    /// Small text in a loose crop is enlarged until its ink band is this many pixels tall (by at
    /// most ``maximumScale``; never shrunk). Not ``LineReadingOptions/textHeight``: Tesseract's LSTM scales each
    /// line to its 36 px input itself, what the enlargement serves is its layout, which loses
    /// characters a few pixels tall, while a ×4 cubic enlargement blurs them. Chosen on the
    /// tuning half of generated tiny lines (issue 16; `TinyTextTests`: DejaVu Sans and Sans Mono
    /// at 7–11 px and this project's 5×7 dot-matrix `AB12CD` at 5–9 px, hard-edged and
    /// antialiased, in 24–40 px crops): total CER 3.99 at 14 px, against 4.73 / 4.77 / 4.84 at
    /// 12 / 16 / 20 px, 5.31 towards 36 px and 4.82 with the crop's 0.7 as before; on the held-out
    /// half (Liberation Sans and Serif, two other dot-matrix texts) 6.67, against 8.22 towards
    /// 36 px and 12.02 before.
    static let looseLineTextHeight = 14.0
    /// Fewest text-like components whose median height is trusted to rescale multi-line text.
    static let minimumScaleComponents = 30
    /// Condensed text is only widened from this many components on,
    static let minimumStretchComponents = 10
    /// and when it is at least this tall, in pixels: small print breaks into narrow pieces that
    /// look condensed.
    static let minimumStretchedTextHeight: Float = 20
    /// A border is at least this many pixels wide.
    static let minimumBorder = 8
    /// Half a text height of white around a single line, or a page touching the edge.
    static let borderTextHeights = 0.5
    /// Text touching the edge is bordered from this many touching components on.
    static let minimumEdgeComponents = 2
    /// A full page (PSM 3): at least this many pixels on both sides,
    static let fullPageSide = 2000
    /// and more than this many text components (the multi-column UNLV pages of
    /// `tesseract-test` measure several thousand; a receipt a few hundred).
    static let fullPageComponents = 1000
    /// A cut sheet's box with its margin may cover at most this share of the image (it must
    /// leave 15 % out: a page filling the frame is not cut).
    static let maximumDocumentBoxShare = 0.85
    /// The document's margin is at least this many pixels.
    static let minimumDocumentMarginPixels = 4
    /// A flattened image that is not a page of text is taken as paper when Otsu's ink and paper
    /// then lie at least this many levels apart (the light step, ``flattenLight``). On the tuning
    /// half of the clean folders relit (issue 16) flattened images measure 194–255, all but four
    /// (three of them pages) 222 or more; the corpus's scene photos and plate crops, relit or
    /// not, 46–188; the test fixtures' lightbox sign 200, the plate 193, the real video's frames
    /// 174–194, whose dark surroundings the closing would whiten.
    static let minimumPaperContrast = 210.0
    /// The flattening closing's square is a this-th of the cut's smaller side,
    static let flatteningKernelDivisor = 16
    /// and at least this many pixels (wider than a stroke of the print).
    static let minimumFlatteningKernel = 15
    /// The sheet's edges (`cv::minAreaRect`) corroborate a less confident skew measurement of
    /// its lines when they are turned within this many degrees of it,
    static let corroboratingEdgeDegrees = 1.0
    /// at confidence at least this (`wildreceipt/1.jpeg`: 5.4° at 1.3 against edges at 3.5° is
    /// a perspective, not a turn, and is left).
    static let corroboratedSkewConfidence = 1.0
}
