/// One choice for a symbol (``TextSymbol/alternates``), asked for with
/// ``Recognizer/Options/alternates``.
///
/// The texts and their order are those of Tesseract's `ChoiceIterator` in its CTC choice mode
/// (`lstm_choice_mode` 2): the first is the best path's (the symbol's own text), each next one
/// the best of another beam search with the earlier choices excluded.
public struct Alternate: Hashable, Sendable, Codable {
    public var text: String
    /// 0…1. With the LSTM engine (OEM 1, or 3 with LSTM-only models such as Debian's): for the
    /// first choice, the symbol's own ``TextSymbol/confidence``; for each next one, that
    /// confidence times the choice's likelihood relative to the first, exp(r₀ − rᵢ), where r is
    /// the rating Tesseract keeps for a choice (minus the sum of the log-probabilities of the
    /// symbol's time steps on the choice's path, blanks included). A second choice at 1e-10 is
    /// ten billion times less likely than the first. Tesseract's own `ChoiceIterator::Confidence`
    /// is 100 − 5 · r clipped to 0…100, which is 0 for nearly every choice after the first.
    /// With the legacy engine loaded (OEM 0 or 2): Tesseract's own value, divided by 100.
    /// nil when the engine gives none.
    public var confidence: Float?
}
