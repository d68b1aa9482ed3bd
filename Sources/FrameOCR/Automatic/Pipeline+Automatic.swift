// The automatic step joins the pipeline here: `Preprocessing/` runs the fixed steps and knows
// nothing of how the automatic ones are carried out.
extension Pipeline {
    /// Runs the plan on `frame`, then ``automatic`` preprocessing when it is set and there is no
    /// ``threshold`` (its decisions in ``PreprocessedFrame/decisions``).
    /// - Parameters:
    ///   - frame: the frame to prepare (any ``PixelFormat``; its orientation as ``orientation``
    ///     says).
    ///   - pool: where intermediate and output buffers come from (nil: allocate).
    /// - Returns: the `gray8` upright image, the transform back to the frame, and timings.
    /// - Throws: ``FrameOCRError`` with code `invalidROI` (region empty, outside, or partly
    ///   outside in strict mode), `invalidParameter` (threshold, scale), or an OpenCV failure.
    public func run(_ frame: PixelBuffer, pool: PixelBufferPool? = nil) throws(FrameOCRError) -> PreprocessedFrame {
        var prepared = try runSteps(frame, pool: pool)
        if let automatic, threshold == nil {
            let clock = ContinuousClock()
            let start = clock.now
            let (adjusted, decisions) = try automatic.apply(to: prepared, pool: pool)
            prepared = adjusted
            prepared.decisions = decisions
            prepared.timings.total += clock.now - start
        }
        return prepared
    }

}
