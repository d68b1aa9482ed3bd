/// Preprocessing operations on the CPU, through the C shim: FrameOCR's SIMD kernels
/// (`fastpath.cpp`; SSE2, or AVX2 when the processor has it) where they exist, OpenCV otherwise,
/// always with OpenCV's exact results. Each writes into a destination: the one you pass (`into:`,
/// which must have the result's format and size), else a buffer from `pool`, else a new
/// allocation. No operation copies its input.
extension PixelBuffer {
    /// The `gray8` image of this buffer.
    ///
    /// - `bgra8`, `rgba8`, `bgr8`, `rgb8`: the bytes of `cv::cvtColor(…2GRAY)`, BT.601 in OpenCV's
    ///   15-bit fixed point (pure red, green, blue, white → 76, 150, 29, 255). CPU: FrameOCR's SIMD
    ///   rows on x86-64 (SSE2, AVX2; both cores from 64K pixels on, no allocation), `cv::cvtColor`
    ///   elsewhere.
    /// - `nv12`, `nv12FullRange`, `i420`: the Y plane as it is, as a view (no copy, `into` unused).
    /// - `gray8`: `self` (no copy, `into` unused).
    /// - Throws: ``FrameOCRError/Code/invalidBuffer`` when `into` has the wrong format or size.
    public func convertedToGray(into destination: PixelBuffer? = nil, pool: PixelBufferPool? = nil)
        throws(FrameOCRError) -> PixelBuffer
    {
        if pixelFormat == .gray8 || pixelFormat.isYCbCr { return try lumaPlane() }
        var dst = try Self.destination(
            destination, pool: pool, width: width, height: height, format: .gray8, stage: .colorConversion)
        dst.orientation = orientation
        try Shim.convertToGray(self, into: dst)
        return dst
    }

    /// The `bgr8` image of this buffer, for people to look at (annotation, image and video files).
    ///
    /// - `gray8`: B = G = R; `bgra8`, `rgba8`: alpha dropped; `rgb8`: channels swapped; `bgr8`: a
    ///   copy (`cv::cvtColor`, `cv::Mat::copyTo`).
    /// - `nv12`, `i420`: BT.601 video range (Y 16 → 0, 235 → 255); `nv12FullRange`: BT.601 full
    ///   range (JFIF); each chroma sample serves its 2×2 block, odd sizes included; FrameOCR's own
    ///   per-pixel conversion (16-bit fixed point, rounded, clamped to 0…255; the coefficients are
    ///   in `focr.h`).
    ///
    /// With `upright` the pixels are also turned as ``orientation`` says (`cv::rotate` /
    /// `cv::flip` / `cv::transpose`): the result is the upright image (``uprightWidth`` ×
    /// ``uprightHeight``, `orientation == .up`), the one every box of a result is in. Without it
    /// the result keeps this buffer's size and orientation.
    /// - Throws: ``FrameOCRError/Code/invalidBuffer`` when `into` is not `bgr8` of the result's
    ///   size (stage `.colorConversion`).
    public func convertedToBGR(
        upright: Bool = false, into destination: PixelBuffer? = nil, pool: PixelBufferPool? = nil
    ) throws(FrameOCRError) -> PixelBuffer {
        let turn = upright ? orientation : .up
        let (w, h) = turn.swapsDimensions ? (height, width) : (width, height)
        var dst = try Self.destination(
            destination, pool: pool, width: w, height: h, format: .bgr8, stage: .colorConversion)
        dst.orientation = upright ? .up : orientation
        try Shim.convertToBGR(self, orientation: turn, fullRange: pixelFormat == .nv12FullRange, into: dst)
        return dst
    }

    /// The upright image: the stored pixels rotated and mirrored as `orientation` says
    /// (`.right`: 90° clockwise, …). Orientations 5…8 give a `height`×`width` buffer; the result's
    /// `orientation` is `.up`. Packed formats only (convert NV12/I420 to gray first).
    ///
    /// A 3×2 gray image [[1,2,3],[4,5,6]] with `.right` gives [[4,1],[5,2],[6,3]].
    /// CPU: `gray8` by FrameOCR's SIMD kernels (16×16 byte transposes for 5…8, shuffled row
    /// copies for 1…4; x86-64), byte-identical to `cv::rotate` / `cv::flip` / `cv::transpose`,
    /// which do the other formats (and all of them where there are no SIMD kernels).
    /// - Throws: ``FrameOCRError/Code/unsupportedFormat`` for planar formats,
    ///   ``FrameOCRError/Code/invalidBuffer`` for a wrong `into`.
    public func applyingOrientation(
        _ orientation: Orientation, into destination: PixelBuffer? = nil,
        pool: PixelBufferPool? = nil
    ) throws(FrameOCRError) -> PixelBuffer {
        try requirePacked(.rotation)
        let (w, h) = orientation.swapsDimensions ? (height, width) : (width, height)
        var dst = try Self.destination(
            destination, pool: pool, width: w, height: h, format: pixelFormat, stage: .rotation)
        dst.orientation = .up
        try Shim.orient(self, orientation, into: dst)
        return dst
    }

    /// Adaptive threshold of a `gray8` buffer (see ``AdaptiveThreshold``); same size, `gray8`,
    /// values 0 and 255 only. CPU, blockSize ≤ 255 and |C| ≤ 10⁶, on x86-64: FrameOCR's SIMD
    /// kernels (SSE2, AVX2), byte-identical to `cv::adaptiveThreshold` — for the mean method
    /// running box sums with OpenCV's rounding of the mean; for the Gaussian method OpenCV's float
    /// Gaussian blur repeated operation for operation (fused multiply-adds where OpenCV's AVX2
    /// code fuses them), in one pass without allocating. `cv::adaptiveThreshold` does the other
    /// cases.
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` (checked before OpenCV is called) for a
    ///   bad `blockSize` or `C`; ``FrameOCRError/Code/unsupportedFormat`` when not `gray8`.
    public func adaptiveThreshold(
        _ threshold: AdaptiveThreshold, into destination: PixelBuffer? = nil,
        pool: PixelBufferPool? = nil
    ) throws(FrameOCRError) -> PixelBuffer {
        try threshold.validate()
        guard pixelFormat == .gray8 else {
            throw FrameOCRError(
                .unsupportedFormat, "adaptive threshold needs gray8, got \(pixelFormat); convert first",
                stage: .threshold)
        }
        var dst = try Self.destination(
            destination, pool: pool, width: width, height: height, format: .gray8, stage: .threshold)
        dst.orientation = orientation
        try Shim.adaptiveThreshold(self, threshold, into: dst)
        return dst
    }

    /// Resamples to `width`×`height` pixels: `cv::resize` with `INTER_AREA` when shrinking,
    /// `INTER_CUBIC` when either axis grows. Packed formats only.
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for a non-positive size.
    public func resized(
        width newWidth: Int, height newHeight: Int, into destination: PixelBuffer? = nil,
        pool: PixelBufferPool? = nil
    ) throws(FrameOCRError) -> PixelBuffer {
        try requirePacked(.scale)
        guard newWidth > 0, newHeight > 0, newWidth <= 1 << 16, newHeight <= 1 << 16 else {
            throw .invalidParameter("size", "\(newWidth)x\(newHeight) must be in 1…65536", stage: .scale)
        }
        var dst = try Self.destination(
            destination, pool: pool, width: newWidth, height: newHeight, format: pixelFormat, stage: .scale)
        dst.orientation = orientation
        try Shim.resize(self, into: dst)
        return dst
    }

    /// Resamples by `factor` (> 0; 2 doubles, 0.5 halves): the new size is each side × factor,
    /// rounded, at least 1 pixel. See ``resized(width:height:into:pool:)``.
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for a factor that is not finite and > 0.
    public func scaled(by factor: Double, into destination: PixelBuffer? = nil, pool: PixelBufferPool? = nil)
        throws(FrameOCRError) -> PixelBuffer
    {
        let (w, h) = try Self.scaledSize(width: width, height: height, factor: factor)
        return try resized(width: w, height: h, into: destination, pool: pool)
    }

    /// A copy of the pixels in a new (or pooled, or given) buffer with rows aligned to
    /// ``PixelBuffer/rowAlignment`` bytes.
    public func copy(into destination: PixelBuffer? = nil, pool: PixelBufferPool? = nil) throws(FrameOCRError)
        -> PixelBuffer
    {
        try requirePacked(.buffer)
        var dst = try Self.destination(
            destination, pool: pool, width: width, height: height, format: pixelFormat, stage: .buffer)
        dst.orientation = orientation
        try Shim.copy(self, into: dst)
        return dst
    }

    // MARK: Helpers

    static func scaledSize(width: Int, height: Int, factor: Double) throws(FrameOCRError) -> (Int, Int) {
        guard factor.isFinite, factor > 0, factor <= 64 else {
            throw .invalidParameter("scale", "\(factor) must be in (0, 64]", stage: .scale)
        }
        return (max(1, Int((Double(width) * factor).rounded())), max(1, Int((Double(height) * factor).rounded())))
    }

    func requirePacked(_ stage: FrameOCRError.Stage) throws(FrameOCRError) {
        guard !pixelFormat.isYCbCr else {
            throw FrameOCRError(
                .unsupportedFormat, "\(pixelFormat) is planar; use convertedToGray() first", stage: stage)
        }
    }

    static func destination(
        _ given: PixelBuffer?, pool: PixelBufferPool?, width: Int, height: Int,
        format: PixelFormat, stage: FrameOCRError.Stage
    ) throws(FrameOCRError) -> PixelBuffer {
        if let given {
            guard given.pixelFormat == format, given.width == width, given.height == height else {
                throw FrameOCRError(
                    .invalidBuffer,
                    "destination is \(given.pixelFormat) \(given.width)x\(given.height), expected \(format) \(width)x\(height)",
                    stage: stage)
            }
            return given
        }
        if let pool { return try pool.buffer(width: width, height: height, pixelFormat: format) }
        return try PixelBuffer(width: width, height: height, pixelFormat: format)
    }

}

extension PixelBuffer {
    /// The fused CPU chain (`focr_fast_preprocess_method`): this raw region (packed color or
    /// `gray8`; NV12/I420 use their Y plane) → gray → upright for `orientation` → adaptive mean
    /// or Gaussian threshold (or none), written into `destination` (`gray8`, the upright size:
    /// `height`×`width` for orientations 5…8). What ``Pipeline`` runs on the CPU when it applies.
    ///
    /// Byte-identical to `convertedToGray()` → `applyingOrientation(_:)` → `adaptiveThreshold(_:)`
    /// done with OpenCV (`cv::cvtColor` → `cv::rotate`/`cv::flip`/`cv::transpose` →
    /// `cv::adaptiveThreshold`). For the mean with blockSize ≤ 127 the threshold runs in the
    /// stored orientation in one pass, rows converted to gray as they enter the box, and binary
    /// rows are rotated on the way out (the rounded box mean then does not depend on the
    /// column, so the order does not change a byte); larger blocks and the Gaussian (whose float
    /// sums run along rows first) make the gray region upright first, then threshold it.
    /// Scratch memory is thread-local: nothing is allocated per frame in the steady state.
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for an invalid threshold or a
    ///   `destination` that overlaps this buffer's pixels; ``FrameOCRError/Code/invalidBuffer``
    ///   for a `destination` of the wrong format or size.
    package func fusedPreprocess(orientation: Orientation, threshold: AdaptiveThreshold?, into destination: PixelBuffer)
        throws(FrameOCRError)
    {
        try threshold?.validate()
        let source = try pixelFormat.isYCbCr ? lumaPlane() : self
        let (w, h) = orientation.swapsDimensions ? (height, width) : (width, height)
        _ = try Self.destination(destination, pool: nil, width: w, height: h, format: .gray8, stage: .threshold)
        try Shim.fusedPreprocess(source, orientation: orientation, threshold: threshold, into: destination)
    }
}
