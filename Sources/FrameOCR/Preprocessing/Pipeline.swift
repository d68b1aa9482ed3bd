/// A preprocessing plan: crop to a region of interest, make it upright, convert to gray,
/// rescale and threshold. A value (cheap to copy, `Sendable`), planned once and run per frame.
///
/// Order of work, chosen so that no pixel outside the region is touched:
/// 1. the region (upright coordinates) is mapped to the raw buffer and cropped as a *view*;
/// 2. the view is converted to `gray8` (NV12/I420: the Y plane view, no copy);
/// 3. only that region is rotated/mirrored to upright, as ``orientation`` says (by default the
///    frame's own orientation);
/// 4. scaled by `scale` (area when shrinking, cubic when enlarging);
/// 5. adaptive-thresholded when `threshold` is set.
///
/// With no region, `.up` orientation, no scale and no threshold, a `gray8`/NV12/I420 frame comes
/// out as a view of the caller's memory (zero-copy).
///
/// On the CPU, steps 2, 3 and 5 run as one fused call (`focr_fast_preprocess_method`, reported
/// as ``StageTimings/fused``) whenever there is no scale, on processors with SIMD kernels
/// (x86-64: SSE2, AVX2); a scale runs the steps one by one. Both give the same bytes as the
/// OpenCV calls they stand for.
public struct Pipeline: Hashable, Sendable {
    /// The region to process, in upright-frame coordinates; nil: the whole frame.
    public var region: RegionOfInterest?
    /// Clamp (default) or reject regions partly outside the frame.
    public var regionPolicy: RegionOfInterest.Policy
    /// Where the orientation comes from: the frame's own (``OrientationSource/fromFrame``, the
    /// default), a known one that overrides it (``OrientationSource/known(_:)``), or none known
    /// (``OrientationSource/unknown``: the recognizer detects it; ``run(_:pool:)`` alone reads the
    /// pixels as stored).
    public var orientation: OrientationSource
    /// Resampling factor (> 0, ≤ 64; 1 = none). Default 1.
    public var scale: Double
    /// Adaptive threshold after scaling; nil (default): none.
    public var threshold: AdaptiveThreshold?
    /// Where the work runs. Default `.cpu`.
    public var backend: Backend
    /// Automatic preprocessing after crop, rotation and scale (on the CPU); nil (default): off.
    /// It runs only when ``threshold`` is nil. See ``AutomaticPreprocessing``.
    public var automatic: AutomaticPreprocessing?

    /// A plan without automatic preprocessing.
    /// - Parameters: the properties of the same names; each default is the property's.
    public init(
        region: RegionOfInterest? = nil, regionPolicy: RegionOfInterest.Policy = .clamp,
        orientation: OrientationSource = .fromFrame, scale: Double = 1, threshold: AdaptiveThreshold? = nil,
        backend: Backend = .cpu
    ) {
        self.region = region
        self.regionPolicy = regionPolicy
        self.orientation = orientation
        self.scale = scale
        self.threshold = threshold
        self.backend = backend
        self.automatic = nil
    }

    /// A plan with automatic preprocessing (`automatic`, nil: off). `orientation` has no
    /// default here: with ``OrientationSource/unknown`` the recognizer finds the rotation that
    /// makes a turned page upright, with ``OrientationSource/fromFrame`` the frame's own
    /// orientation is taken as known and nothing is detected (a page turned 90° then reads badly).
    /// - Parameters: the properties of the same names; each default is the property's.
    public init(
        region: RegionOfInterest? = nil, regionPolicy: RegionOfInterest.Policy = .clamp,
        orientation: OrientationSource, scale: Double = 1, threshold: AdaptiveThreshold? = nil,
        backend: Backend = .cpu, automatic: AutomaticPreprocessing?
    ) {
        self.init(
            region: region, regionPolicy: regionPolicy, orientation: orientation, scale: scale, threshold: threshold,
            backend: backend)
        self.automatic = automatic
    }

    /// A plan with automatic preprocessing that takes the frame's own orientation
    /// (``OrientationSource/fromFrame``): it no longer detects the rotation of a turned page, as
    /// it did before ``orientation`` was an ``OrientationSource``.
    @available(
        *, deprecated,
        message:
            "Pipeline(automatic:) takes the frame's orientation as known and detects no rotation: pass orientation: .unknown to detect it, or .fromFrame to keep this"
    )
    public init(
        region: RegionOfInterest? = nil, regionPolicy: RegionOfInterest.Policy = .clamp, scale: Double = 1,
        threshold: AdaptiveThreshold? = nil, backend: Backend = .cpu, automatic: AutomaticPreprocessing?
    ) {
        self.init(
            region: region, regionPolicy: regionPolicy, orientation: .fromFrame, scale: scale, threshold: threshold,
            backend: backend, automatic: automatic)
    }

    /// Checks parameters without a frame (threshold, scale).
    /// - Throws: ``FrameOCRError/Code/invalidParameter``.
    public func validate() throws(FrameOCRError) {
        try threshold?.validate()
        _ = try PixelBuffer.scaledSize(width: 1, height: 1, factor: scale)
    }

    /// The fixed steps of the plan on `frame`, on ``backend`` (what ``run(_:pool:)`` does before
    /// the automatic step, which joins it from `Automatic/`).
    /// - Throws: as ``run(_:pool:)``.
    func runSteps(_ frame: PixelBuffer, pool: PixelBufferPool?) throws(FrameOCRError) -> PreprocessedFrame {
        switch backend {
        case .cpu:
            return try runOnCPU(frame, pool: pool)
        case .openCL(let device):
            return try runOnOpenCL(frame, pool: pool, context: OpenCLRuntime.shared.context(named: device))
        case .automatic:
            let runtime = OpenCLRuntime.shared
            let reason: String
            switch runtime.automaticContext() {
            case .success(let context):
                do throws(FrameOCRError) {
                    return try runOnOpenCL(frame, pool: pool, context: context)
                } catch  where OpenCLRuntime.isDeviceFailure(error) {
                    // Mid-stream: this frame and the rest go to the CPU (the reason is kept).
                    reason = runtime.automaticFailed(error)
                }
            case .failure(let failure): reason = failure.message
            }
            var prepared = try runOnCPU(frame, pool: pool)
            prepared.fallbackReason = reason
            return prepared
        }
    }

    /// What every backend does first: validate, resolve the region in the upright frame (clamped
    /// or strict) and map it to the raw buffer.
    private func plan(_ frame: PixelBuffer, timings t: inout StageTimings) throws(FrameOCRError)
        -> (orientation: Orientation, region: PixelRect, clamped: Bool, transform: FrameTransform, rawRect: PixelRect)
    {
        try validate()
        let o = orientation.resolved(for: frame)
        let uprightW = o.swapsDimensions ? frame.height : frame.width
        let uprightH = o.swapsDimensions ? frame.width : frame.height
        let (rect, clamped) = try timed(&t.crop) { () throws(FrameOCRError) in
            try region?.resolve(width: uprightW, height: uprightH, policy: regionPolicy)
                ?? (PixelRect(x: 0, y: 0, width: uprightW, height: uprightH), false)
        }
        let transform = FrameTransform(orientation: o, rawWidth: frame.width, rawHeight: frame.height, region: rect)
        return (o, rect, clamped, transform, transform.rawRect(fromUpright: rect))
    }

    /// Whether ``runOnCPU(_:pool:)`` does this plan's work on a `format` frame stored with
    /// orientation `o` in one fused pass: SIMD kernels available (SSE2 or AVX2; the portable C++
    /// ones are exact but slower than OpenCV's own code), a mean threshold or none, no resampling
    /// of the `width`×`height` upright region, and something to compute (a `gray8`/NV12/I420 frame
    /// that is upright and not thresholded comes out as a view instead).
    func usesFusedCPUChain(format: PixelFormat, orientation o: Orientation, width: Int, height: Int)
        throws(FrameOCRError) -> Bool
    {
        guard Shim.simdLevel >= 1 else { return false }
        if scale != 1 {
            let (w, h) = try PixelBuffer.scaledSize(width: width, height: height, factor: scale)
            if w != width || h != height { return false }
        }
        let grayAlready = format == .gray8 || format.isYCbCr
        return !(grayAlready && o == .up && threshold == nil)
    }

    func runOnCPU(_ frame: PixelBuffer, pool: PixelBufferPool? = nil) throws(FrameOCRError) -> PreprocessedFrame {
        let clock = ContinuousClock()
        let start = clock.now
        var t = StageTimings()
        // 1. Region → raw rectangle (the view is made below).
        let (o, rect, clamped, planned, rawRect) = try plan(frame, timings: &t)
        var transform = planned

        if try usesFusedCPUChain(format: frame.pixelFormat, orientation: o, width: rect.width, height: rect.height) {
            // 2 + 3 + 5 in one pass over the region (the Y plane for NV12/I420): focr_fast_preprocess.
            let view = try timed(&t.crop) { () throws(FrameOCRError) in
                try (frame.pixelFormat.isYCbCr ? frame.lumaPlane() : frame).cropped(to: rawRect)
            }
            var image = try PixelBuffer.destination(
                nil, pool: pool, width: rect.width, height: rect.height, format: .gray8,
                stage: .colorConversion)
            try timed(&t.fused) { () throws(FrameOCRError) in
                try view.fusedPreprocess(orientation: o, threshold: threshold, into: image)
            }
            image.orientation = .up
            t.total = clock.now - start
            return PreprocessedFrame(
                image: image, transform: transform, regionClamped: clamped, timings: t, backend: .cpu)
        }

        // 2. Gray of the region only. 4:2:0 crops the Y view (any origin is fine for gray).
        var image: PixelBuffer
        if frame.pixelFormat.isYCbCr {
            let luma = try timed(&t.colorConversion) { () throws(FrameOCRError) in try frame.lumaPlane() }
            image = try timed(&t.crop) { () throws(FrameOCRError) in try luma.cropped(to: rawRect) }
        } else {
            let view = try timed(&t.crop) { () throws(FrameOCRError) in try frame.cropped(to: rawRect) }
            image = try timed(&t.colorConversion) { () throws(FrameOCRError) in try view.convertedToGray(pool: pool) }
        }

        // 3. Upright.
        if o != .up {
            image = try timed(&t.rotation) { () throws(FrameOCRError) in try image.applyingOrientation(o, pool: pool) }
        }
        image.orientation = .up

        // 4. Scale.
        if scale != 1 {
            let (w, h) = try PixelBuffer.scaledSize(width: image.width, height: image.height, factor: scale)
            if w != image.width || h != image.height {
                let source = image
                image = try timed(&t.scale) { () throws(FrameOCRError) in
                    try source.resized(width: w, height: h, pool: pool)
                }
                transform.scaleX = Double(w) / Double(rect.width)
                transform.scaleY = Double(h) / Double(rect.height)
            }
        }

        // 5. Threshold.
        if let threshold {
            let source = image
            image = try timed(&t.threshold) { () throws(FrameOCRError) in
                try source.adaptiveThreshold(threshold, pool: pool)
            }
        }
        t.total = clock.now - start
        return PreprocessedFrame(image: image, transform: transform, regionClamped: clamped, timings: t, backend: .cpu)
    }

    /// The same plan on OpenCL: the raw region is read in place, and gray, orientation and
    /// threshold run as one chain on the device (`focr_cl_preprocess`), one map back at the end.
    /// A scale splits the chain: gray + orientation, then the rescale (`resize.cl` for an exact
    /// integer shrink, else `cv::resize` on the CPU), then the threshold on the device.
    func runOnOpenCL(_ frame: PixelBuffer, pool: PixelBufferPool?, context: OpenCLContext) throws(FrameOCRError)
        -> PreprocessedFrame
    {
        let clock = ContinuousClock()
        let start = clock.now
        var t = StageTimings()
        let (o, rect, clamped, planned, rawRect) = try plan(frame, timings: &t)
        var transform = planned
        let view = try timed(&t.crop) { () throws(FrameOCRError) in
            try (frame.pixelFormat.isYCbCr ? frame.lumaPlane() : frame).cropped(to: rawRect)
        }
        let (w, h) = o.swapsDimensions ? (view.height, view.width) : (view.width, view.height)
        var image: PixelBuffer
        if scale == 1 {
            image = try PixelBuffer.destination(
                nil, pool: pool, width: w, height: h, format: .gray8, stage: .colorConversion)
            try timed(&t.fused) { () throws(FrameOCRError) in
                try context.preprocess(view, orientation: o, threshold: threshold, into: image)
            }
        } else {
            let upright = try PixelBuffer.destination(
                nil, pool: pool, width: w, height: h, format: .gray8, stage: .colorConversion)
            try timed(&t.fused) { () throws(FrameOCRError) in
                try context.preprocess(view, orientation: o, threshold: nil, into: upright)
            }
            let (sw, sh) = try PixelBuffer.scaledSize(width: w, height: h, factor: scale)
            if sw * (w / sw) == w, sh * (h / sh) == h, w / sw == h / sh, w / sw >= 2 {
                // An exact integer shrink: resize.cl on the device (cv::resize's fast area case).
                image = try PixelBuffer.destination(
                    nil, pool: pool, width: sw, height: sh, format: .gray8, stage: .scale)
                try timed(&t.scale) { () throws(FrameOCRError) in try context.areaDownscale(upright, into: image) }
            } else {
                image = try timed(&t.scale) { () throws(FrameOCRError) in
                    try upright.resized(width: sw, height: sh, pool: pool)
                }
            }
            transform.scaleX = Double(sw) / Double(rect.width)
            transform.scaleY = Double(sh) / Double(rect.height)
            if let threshold {
                let source = image
                image = try PixelBuffer.destination(
                    nil, pool: pool, width: sw, height: sh, format: .gray8, stage: .threshold)
                try timed(&t.threshold) { () throws(FrameOCRError) in
                    try context.adaptiveThreshold(source, threshold, into: image)
                }
            }
        }
        image.orientation = .up
        t.total = clock.now - start
        return PreprocessedFrame(
            image: image, transform: transform, regionClamped: clamped, timings: t,
            backend: .openCL(device: context.device.name))
    }
}
