internal import CFrameOCR

// Frame-to-frame measurements for live reading (`include/focr_frames.h`, `analysis/frames.cpp`).
extension Shim {
    /// `focr_frame_signature`: `gray` reduced into `thumbnail` and `motion` (`cv::resize`
    /// INTER_AREA) and the variance of the Laplacian over that of the gradient of a copy at most
    /// `sharpSide` pixels on its longer side.
    static func frameSignature(
        _ gray: PixelBuffer, sharpSide: Int, into thumbnail: PixelBuffer, motion: PixelBuffer
    ) throws(FrameOCRError) -> Float {
        var sharpness: Float = 0
        try run(gray, into: thumbnail, .threshold) { s, d in
            motion.withUnsafeImageDescriptor { m in focr_frame_signature(s, Int32(sharpSide), d, m, &sharpness) }
        }
        return sharpness
    }

    /// `focr_frame_difference`: the largest mean absolute difference of two thumbnails over
    /// blocks of `block`×`block` pixels, 0…255.
    static func frameDifference(_ a: PixelBuffer, _ b: PixelBuffer, block: Int) throws(FrameOCRError) -> Float {
        var difference: Float = 0
        let status = withImage(a) { pa in
            withImage(b) { pb in focr_frame_difference(pa, pb, Int32(clamping: block), &difference) }
        }
        try check(status, .threshold)
        return difference
    }

    /// `focr_global_motion`: the similarity (thumbnail pixels) that carries `previous` onto
    /// `current`, the whole thumbnails' phase correlation response (0…1), and the tiles measured
    /// and agreeing (0 agreeing: a translation alone).
    static func globalMotion(_ previous: PixelBuffer, _ current: PixelBuffer) throws(FrameOCRError)
        -> (motion: FrameMotion, response: Double, tiles: Int, inliers: Int)
    {
        var m = focr_motion()
        let status = withImage(previous) { p in
            withImage(current) { c in focr_global_motion(p, c, &m) }
        }
        try check(status, .threshold)
        return (
            FrameMotion(a: Double(m.a), b: Double(m.b), tx: Double(m.tx), ty: Double(m.ty)), Double(m.response),
            Int(m.tiles), Int(m.inliers)
        )
    }
}

extension Shim {
    /// `focr_malloc_thresholds`: glibc's trim and mmap thresholds, bytes, for the whole process.
    static func mallocThresholds(trim: Int, mmap: Int) throws(FrameOCRError) {
        try check(focr_malloc_thresholds(Int32(clamping: trim), Int32(clamping: mmap)), .recognition)
    }
}
