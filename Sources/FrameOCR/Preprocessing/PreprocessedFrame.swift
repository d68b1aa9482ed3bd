/// The output of ``Pipeline/run(_:pool:)``.
public struct PreprocessedFrame: Sendable {
    /// The `gray8`, upright image (binary 0/255 when thresholded), `transform.outputWidth`×
    /// `transform.outputHeight` pixels. May be a view of the frame's memory.
    public var image: PixelBuffer
    /// Maps output pixels back to the upright frame and the raw buffer.
    public var transform: FrameTransform
    /// Whether the region was clamped to the frame (policy `.clamp`).
    public var regionClamped: Bool
    /// Time per stage (recognition is zero here).
    public var timings: StageTimings
    /// The backend that actually ran (never `.automatic`; `.openCL(device:)` names the device).
    public var backend: Backend
    /// Why `.automatic` ran on the CPU (e.g. "no OpenCL GPU device", or the OpenCL failure after
    /// which the CPU serves the rest of the process); nil otherwise.
    public var fallbackReason: String?
    /// What automatic preprocessing decided; nil when ``Pipeline/automatic`` did not run.
    public var decisions: PreprocessingDecisions?
}

extension PreprocessedFrame {
    /// Rescales the image by `factor` vertically and `factor × stretch` horizontally
    /// (``PixelBuffer/resized(width:height:into:pool:)``: area when shrinking, cubic when enlarging)
    /// and folds the factors into the transform; the time goes to ``StageTimings/scale``.
    /// - Returns: the vertical factor applied (after rounding to whole pixels).
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for a factor outside (0, 64] or a size
    ///   outside 1…65536.
    @discardableResult
    mutating func rescale(by factor: Double, stretch: Double = 1, pool: PixelBufferPool?) throws(FrameOCRError)
        -> Double
    {
        let input = image
        let w = Double(input.width)
        let h = Double(input.height)
        let (_, sh) = try PixelBuffer.scaledSize(width: input.width, height: input.height, factor: factor)
        let (sw, _) = try PixelBuffer.scaledSize(width: input.width, height: input.height, factor: factor * stretch)
        image = try timed(&timings.scale) { () throws(FrameOCRError) in
            try input.resized(width: sw, height: sh, pool: pool)
        }
        transform.scaleX *= Double(sw) / w
        transform.scaleY *= Double(sh) / h
        return Double(sh) / h
    }

    /// Surrounds the image (gray8) with `border` pixels of white (`focr_pad`,
    /// `cv::copyMakeBorder`) and adds the border to the transform's padding; the time goes to
    /// ``StageTimings/automatic``.
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for a border outside 0…4096.
    mutating func pad(by border: Int, pool: PixelBufferPool?) throws(FrameOCRError) {
        let input = image
        let padded = try PixelBuffer.destination(
            nil, pool: pool, width: input.width + 2 * border, height: input.height + 2 * border,
            format: .gray8, stage: .crop)
        try timed(&timings.automatic) { () throws(FrameOCRError) in
            try Shim.pad(input, border: border, value: 255, into: padded, stage: .crop)
        }
        image = padded
        transform.padding += border
    }
}
