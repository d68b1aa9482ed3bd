// The fixed numbers of the automatic steps (`AutomaticPreprocessing+Apply.swift` and one file
// per step), each with its reason. The options a caller may set are the type's stored properties
// (`Preprocessing/AutomaticPreprocessing.swift`). How each was chosen, with the figures:
// docs/tuning.md#automatic-preprocessing (its tables are checked against these by DocsNumbersTests).

extension AutomaticPreprocessing {
    /// A region is a single line of text when it is at most this many text heights tall (the
    /// larger of the median and the 75th percentile of the components' heights), or under
    /// ``singleLineMaximumHeight`` pixels. How it was chosen: `docs/tuning.md#single-lines`.
    static let singleLineHeights = 2.5
    /// See ``singleLineHeights``.
    static let singleLineMaximumHeight = 48.0
    /// The characters of a short crop are often broken into pieces: a single line's text is at
    /// least this fraction of its image's (or its line box's) height tall. Capitals and
    /// ascenders over lower case fill about 0.7 of a tight line box.
    static let lineHeightFraction = 0.7
    /// A single line's crop is loose — its text height is its ink band's, not a fraction of its
    /// height — when it is more than this many ink bands tall: above every tight crop and plate
    /// crop of the corpus, so that none changes, and below the generated tiny lines in loose
    /// crops. How it was chosen: `docs/tuning.md#single-lines`.
    static let looseLineCrop = 2.5
    /// Small text in a loose crop is enlarged until its ink band is this many pixels tall (by at
    /// most ``maximumScale``; never shrunk). Not ``LineReadingOptions/textHeight``: Tesseract's LSTM scales each
    /// line to its 36 px input itself, what the enlargement serves is its layout, which loses
    /// characters a few pixels tall, while a ×4 cubic enlargement blurs them. How it was chosen
    /// (generated tiny lines, both halves): `docs/tuning.md#single-lines`.
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
    /// A sheet smaller than a document (under ``documentAreaRange``) is a label — a printed label,
    /// a card, a tag in a camera's frame — when it covers at least this share of the image,
    /// passes the sheet's other tests and holds all of the frame's print (``labelComponentsAround``);
    /// the labels of `tools/label-frames.sh`'s tuning half cover 4–20 % of their frames. How it was
    /// chosen: `docs/tuning.md#document-crop`.
    static let minimumLabelArea = 0.02
    /// A sheet covering this share of the image or more is no label, whatever it holds: a lit
    /// sign's panel, a screen, a page of a few large words, read as a scene or a page as before.
    /// The labels of `tools/label-frames.sh`'s tuning half cover up to 20 % of their frames; this
    /// is half as much again. How it was chosen: `docs/tuning.md#document-crop`.
    static let maximumLabelArea = 0.3
    /// A label (or a sheet of a document's size, under ``maximumLabelArea``, holding fewer than
    /// ``minimumPageComponents`` text-like components) is cut out and read alone only when no text-like component of
    /// print lies around it (``textAround(_:in:timings:pool:)``): the frame's print is all on it.
    static let labelComponentsAround = 0
    /// and when it holds at least this many text-like components (a short code's worth).
    static let minimumLabelComponents = 4
    /// A bright region is not a sheet to cut out when this many text-like components of print
    /// (a line's worth) lie around it (``textAround(_:in:timings:pool:)``): it is part of a
    /// page — a page whose light text on a dark band is the rest of it. A sheet's surroundings
    /// (a desk, a hand, a wall) hold no print. How it was chosen: `docs/tuning.md#document-crop`.
    static let maximumComponentsAround = 30
    /// Around a document's box, a part's components are print when its ink and paper (Otsu's
    /// classes' means) lie at least this many levels apart: textures around the corpus's and
    /// the generated receipts measure 10–51, light text on dark bands 187–196.
    static let minimumContrastAround = 100.0
    /// The parts around a document's box thinner than this (pixels) are not measured.
    static let minimumStripSide = 16
    /// A flattened image that is not a page of text is taken as paper when Otsu's ink and paper
    /// then lie at least this many levels apart (the light step, ``flattenLight``): flattened
    /// pages measure above it, scene photos, plate crops and signs on a dark surround (whose
    /// surroundings the closing would whiten) below. How it was chosen:
    /// `docs/tuning.md#light`.
    static let minimumPaperContrast = 210.0
    /// The flattening closing's square is a this-th of the cut's smaller side,
    static let flatteningKernelDivisor = 16
    /// and at least this many pixels (wider than a stroke of the print).
    static let minimumFlatteningKernel = 15
    /// The sheet's edges (`cv::minAreaRect`) corroborate a less confident skew measurement of
    /// its lines when they are turned within this many degrees of it,
    static let corroboratingEdgeDegrees = 1.0
    /// at confidence at least this (a sheet photographed at a slant can measure an angle its
    /// edges do not share: a perspective, not a turn, and it is left). How it was chosen:
    /// `docs/tuning.md#skew`.
    static let corroboratedSkewConfidence = 1.0
}
