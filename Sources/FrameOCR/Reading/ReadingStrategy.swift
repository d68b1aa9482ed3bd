/// One reading strategy: a value that reads parts of a frame again and may change the reading so
/// far. Strategies do not call one another; the ``ReadingPlan`` runs them in order over one
/// ``ReadingContext``.
protocol ReadingStrategy: Sendable {
    /// Whether `readings` (``RecognitionOptions/secondReadings``) asks for this strategy.
    func isOn(in readings: SecondReadings) -> Bool

    /// Reads again where the reading so far calls for it, changing `context.result` when the new
    /// reading is better.
    /// - Returns: true when the reading is final: no later strategy runs (a machine readable
    ///   zone read and repaired).
    /// - Throws: ``FrameOCRError`` from preprocessing or recognition.
    func read(_ context: inout ReadingContext) throws(FrameOCRError) -> Bool
}
