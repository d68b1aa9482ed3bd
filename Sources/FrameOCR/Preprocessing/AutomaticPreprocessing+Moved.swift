// Settings that moved into ``LineReadingOptions`` (``AutomaticPreprocessing/lines``), kept so
// that code written before compiles, with a warning that says where they went.
extension AutomaticPreprocessing {
    /// The text height a single line is scaled to.
    @available(*, deprecated, renamed: "lines.textHeight")
    public var lineTextHeight: Double {
        get { lines.textHeight }
        set { lines.textHeight = newValue }
    }

    /// The largest widening of condensed text.
    @available(*, deprecated, renamed: "lines.maximumStretch")
    public var maximumStretch: Double {
        get { lines.maximumStretch }
        set { lines.maximumStretch = newValue }
    }

    /// A line within this factor of the line text height is not resampled.
    @available(*, deprecated, renamed: "LineReadingOptions.scaleTolerance")
    public static var lineScaleTolerance: Double { LineReadingOptions.scaleTolerance }
}
