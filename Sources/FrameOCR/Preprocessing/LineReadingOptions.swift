/// How a line of text is prepared to be read alone, one set for every reader of lines: the
/// automatic step for an image that is one line (its scale, and the widening of condensed text),
/// the dominant-line and text-line readings of a still, and live reading's lines. Set in
/// ``AutomaticPreprocessing/lines``.
///
/// A line is scaled so that its text is ``textHeight`` pixels tall (left at its size within
/// ``scaleTolerance``; by at most ``AutomaticPreprocessing/maximumScale`` either way); a line
/// read alone whose characters are narrower than ``targetAspect`` is widened to it (with
/// ``AutomaticPreprocessing/stretchCondensed``), and any widening, of a line or of a page's
/// condensed text, is at most ``maximumStretch``. Which lines are read alone is the readers'
/// business: ``SecondReadings/minimumTextLineHeight`` for stills, ``LiveReading/minimumTextHeight``
/// live. How the values were chosen: `docs/tuning.md#scale` and `docs/tuning.md#stretch`.
public struct LineReadingOptions: Hashable, Sendable {
    /// Text height, in pixels, that a line is scaled to: the input height of the LSTM line models
    /// of `eng.traineddata`. Default 36.
    public var textHeight = 36.0
    /// A line whose text is within this factor of ``textHeight`` (÷1.1…×1.1) is not resampled.
    public static let scaleTolerance = 1.1
    /// A line read alone whose characters' median width/height is below this is widened to it.
    /// Below the page's ``AutomaticPreprocessing/targetAspect`` because display text is often
    /// letter-spaced and widening spreads its gaps too. Default 0.62.
    public var targetAspect = 0.62
    /// The largest horizontal widening, of a line read alone and of a page's condensed text.
    /// Default 2.5.
    public var maximumStretch = 2.5

    /// The defaults above.
    public init() {}
}
