/// One choice for a symbol (``TextSymbol/choices``), asked for with
/// ``RecognitionOptions/alternates``.
///
/// The texts and their order are those of Tesseract's `ChoiceIterator` in its CTC choice mode
/// (`lstm_choice_mode` 2): the first is the best path's (the symbol's own text), each next one
/// the best of another beam search with the earlier choices excluded. The CTC line engine's
/// (``RecognizedCharacter/choices``, ``TextLineRecognizer``) are the classes at the character's most
/// probable time step, most probable first: ``confidence`` is each one's probability there and
/// ``log10RelativeLikelihood`` log₁₀ of its ratio to the first's.
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
    /// How likely this choice is against the first, on a scale that can be compared and printed:
    /// log₁₀ of its likelihood relative to the first choice, exp(r₀ − rᵢ) above — 0 for the first
    /// choice, −3 for a choice a thousand times less likely, −14 for one 10¹⁴ times less likely
    /// (where ``confidence`` is about 10⁻¹⁴ and prints as 0). Compare choices of one symbol by
    /// it, or threshold it (a second choice above −1 is a close call); the choices after the
    /// first are in the engine's order, which is not always by likelihood. nil with the legacy engine
    /// (OEM 0 or 2), which gives no ratings.
    public var log10RelativeLikelihood: Float?

    /// A choice as the engine gives it (tests and stand-ins make their own).
    public init(text: String, confidence: Float?, log10RelativeLikelihood: Float? = nil) {
        self.text = text
        self.confidence = confidence
        self.log10RelativeLikelihood = log10RelativeLikelihood
    }
}
