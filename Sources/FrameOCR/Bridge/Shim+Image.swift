internal import CFrameOCR

// The shim's per-op image calls (`include/focr.h`, `include/focr_fast.h`, `include/focr_auto.h`):
// FrameOCR's SIMD kernels where they exist, OpenCV otherwise. Each writes into a destination the
// caller chose; the policy (which destination, which stage) is in Preprocessing/ and Automatic/.
extension Shim {
    /// `focr_convert_to_gray`: a packed color image into `dst` (gray8, same size).
    static func convertToGray(_ src: PixelBuffer, into dst: PixelBuffer) throws(FrameOCRError) {
        try run(src, into: dst, .colorConversion) { s, d in focr_convert_to_gray(s, d) }
    }

    /// `focr_convert_to_bgr`: `src` (any format) as BGR8, turned upright for `orientation`, into
    /// `dst`; `fullRange` picks BT.601's full-range YCbCr for NV12 (`nv12FullRange`).
    static func convertToBGR(_ src: PixelBuffer, orientation: Orientation, fullRange: Bool, into dst: PixelBuffer)
        throws(FrameOCRError)
    {
        try run(src, into: dst, .colorConversion) { s, d in
            focr_convert_to_bgr(s, Int32(orientation.rawValue), fullRange ? 1 : 0, d)
        }
    }

    /// `focr_orient`: `src` as displayed for `orientation`, into `dst`.
    static func orient(_ src: PixelBuffer, _ orientation: Orientation, into dst: PixelBuffer) throws(FrameOCRError) {
        try run(src, into: dst, .rotation) { s, d in focr_orient(s, d, Int32(orientation.rawValue)) }
    }

    /// `focr_adaptive_threshold` with `threshold`'s method, block, C and polarity.
    static func adaptiveThreshold(_ src: PixelBuffer, _ threshold: AdaptiveThreshold, into dst: PixelBuffer)
        throws(FrameOCRError)
    {
        let method = Int32(threshold.method == .mean ? FOCR_THRESHOLD_MEAN.rawValue : FOCR_THRESHOLD_GAUSSIAN.rawValue)
        try run(src, into: dst, .threshold) { s, d in
            focr_adaptive_threshold(s, d, method, threshold.inverted ? 1 : 0, Int32(threshold.blockSize), threshold.c)
        }
    }

    /// `focr_resize`: `src` resampled to `dst`'s size.
    static func resize(_ src: PixelBuffer, into dst: PixelBuffer) throws(FrameOCRError) {
        try run(src, into: dst, .scale) { s, d in focr_resize(s, d) }
    }

    /// `focr_copy`: the pixels, row by row.
    static func copy(_ src: PixelBuffer, into dst: PixelBuffer) throws(FrameOCRError) {
        try run(src, into: dst, .buffer) { s, d in focr_copy(s, d) }
    }

    /// `focr_fast_preprocess_method`: the fused CPU chain (gray → upright → mean or Gaussian
    /// threshold, or none).
    static func fusedPreprocess(
        _ src: PixelBuffer, orientation: Orientation, threshold: AdaptiveThreshold?,
        into dst: PixelBuffer
    ) throws(FrameOCRError) {
        let method = Int32(
            threshold?.method == .gaussian ? FOCR_THRESHOLD_GAUSSIAN.rawValue : FOCR_THRESHOLD_MEAN.rawValue)
        try run(src, into: dst, .threshold) { s, d in
            focr_fast_preprocess_method(
                s, Int32(orientation.rawValue), method, Int32(threshold?.blockSize ?? 0), threshold?.c ?? 0,
                threshold?.inverted == true ? 1 : 0, d)
        }
    }

    /// The SIMD level of the fast path on this thread: 0 portable C++, 1 SSE2, 2 AVX2
    /// (`focr_fast_simd_level`).
    static var simdLevel: Int { Int(focr_fast_simd_level()) }

    /// `focr_pad`: `src` surrounded by `border` pixels of `value`.
    static func pad(_ src: PixelBuffer, border: Int, value: UInt8, into dst: PixelBuffer, stage: FrameOCRError.Stage)
        throws(FrameOCRError)
    {
        try run(src, into: dst, stage) { s, d in focr_pad(s, Int32(border), value, d) }
    }

    /// `focr_rotate_small`: `src` turned `degrees` clockwise about its center into `dst`.
    static func rotateSmall(_ src: PixelBuffer, degrees: Double, fill: UInt8, into dst: PixelBuffer)
        throws(FrameOCRError)
    {
        try run(src, into: dst, .rotation) { s, d in focr_rotate_small(s, Float(degrees), fill, d) }
    }

    /// `focr_crop_turned`: the turned rectangle centred on `center`, running `degrees`, cut out
    /// upright into `dst` (its size).
    static func cropTurned(_ src: PixelBuffer, center: Point, degrees: Double, into dst: PixelBuffer)
        throws(FrameOCRError)
    {
        try run(src, into: dst, .crop) { s, d in
            focr_crop_turned(s, Float(center.x), Float(center.y), Float(degrees), d)
        }
    }

    /// `focr_smooth`: a Gaussian of `sigma` pixels.
    static func smooth(_ src: PixelBuffer, sigma: Double, into dst: PixelBuffer) throws(FrameOCRError) {
        try run(src, into: dst, .scale) { s, d in focr_smooth(s, Float(sigma), d) }
    }
}
