import Foundation

// The skew step (``AutomaticPreprocessing/skew``).
extension AutomaticPreprocessing {
    /// Measures the skew of `image` (scaled, dark text on light) and, when it is confident and
    /// large enough, turns the image back about its center into a buffer with a margin of m
    /// white pixels on every side that keeps the turned corners; the transform gets the angle
    /// and m as padding (the rotation is about the scaled region's center, the padding after it).
    func correctSkew(
        _ out: inout PreprocessedFrame, _ d: inout PreprocessingDecisions, paperDegrees: Double?,
        pool: PixelBufferPool?
    ) throws(FrameOCRError) {
        let input = out.image
        let (angle, confidence) = try timed(&out.timings.automatic) { () throws(FrameOCRError) in
            try input.textSkew(maximumDegrees: maximumSkewDegrees)
        }
        // A cut-out sheet's edges corroborate a less confident measurement of its lines.
        let corroborated =
            paperDegrees.map {
                confidence >= Self.corroboratedSkewConfidence && abs($0 - angle) <= Self.corroboratingEdgeDegrees
            } ?? false
        if corroborated {
            d.reasons.append(
                String(
                    format: "skew: %.2f° at confidence %.1f agrees with the paper's edges (%.2f°)", angle, confidence,
                    paperDegrees ?? 0))
        }
        guard (confidence >= minimumSkewConfidence && confidence > 0) || corroborated else {
            d.reasons.append(
                String(
                    format: "skew: not clear (%.2f°, confidence %.1f < %.1f): left", angle, confidence,
                    minimumSkewConfidence))
            return
        }
        guard abs(angle) >= minimumSkewDegrees else {
            d.reasons.append(String(format: "skew: %.2f°, below %.1f°: left", angle, minimumSkewDegrees))
            return
        }
        guard abs(angle) >= slightSkewDegrees || confidence >= minimumSlightSkewConfidence || corroborated else {
            d.reasons.append(
                String(
                    format: "skew: %.2f° at confidence %.1f, below %.1f for a turn under %.1f°: left", angle,
                    confidence,
                    minimumSlightSkewConfidence, slightSkewDegrees))
            return
        }
        try turnBack(
            &out, &d, by: angle,
            reason: String(format: "skew: text is turned %.2f° ", abs(angle))
                + (angle > 0 ? "clockwise" : "counter-clockwise")
                + String(format: " (confidence %.1f): rotated back", confidence), pool: pool)
    }

    /// Turns `out`'s image back by `angle` degrees (its skew, clockwise positive) about its
    /// center into a buffer with a margin of m white pixels on every side that keeps the turned
    /// corners; the transform gets the angle and m as padding, the decisions the angle and
    /// `reason` with the margin.
    func turnBack(
        _ out: inout PreprocessedFrame, _ d: inout PreprocessingDecisions, by angle: Double, reason: String,
        pool: PixelBufferPool?
    ) throws(FrameOCRError) {
        let input = out.image
        let t = abs(angle) * .pi / 180
        let w = Double(input.width)
        let h = Double(input.height)
        let c = cos(t)
        let s = sin(t)
        // Half the growth of the turned rectangle's bounding box, on the larger axis.
        let m = max(0, Int(max(w * (c - 1) + h * s, h * (c - 1) + w * s) / 2 + 0.999_999))
        out.image = try timed(&out.timings.automatic) { () throws(FrameOCRError) in
            try input.rotated(
                byDegrees: -angle, fill: 255, width: input.width + 2 * m, height: input.height + 2 * m, pool: pool)
        }
        out.transform.skewDegrees = angle
        out.transform.padding += m
        d.skewDegrees = angle
        d.reasons.append(reason + ", \(m) px of white margin for the corners")
    }
}
