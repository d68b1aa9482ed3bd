internal import CFrameOCR

// Frame-to-frame measurements for live reading (`include/focr_frames.h`, `analysis/frames.cpp`).
extension Shim {
    /// `focr_frame_signature`: `gray` reduced into `thumbnail` (`cv::resize` INTER_AREA) and the
    /// variance of the Laplacian of a copy at most `sharpSide` pixels on its longer side.
    static func frameSignature(_ gray: PixelBuffer, sharpSide: Int, into thumbnail: PixelBuffer) throws(FrameOCRError)
        -> Float
    {
        var sharpness: Float = 0
        try run(gray, into: thumbnail, .threshold) { s, d in focr_frame_signature(s, Int32(sharpSide), d, &sharpness) }
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

    /// `focr_global_motion`: the translation (thumbnail pixels) that carries `previous` onto
    /// `current`, and the phase correlation's peak response (0…1).
    static func globalMotion(_ previous: PixelBuffer, _ current: PixelBuffer) throws(FrameOCRError)
        -> (dx: Double, dy: Double, response: Double)
    {
        var dx: Float = 0
        var dy: Float = 0
        var response: Float = 0
        let status = withImage(previous) { p in
            withImage(current) { c in focr_global_motion(p, c, &dx, &dy, &response) }
        }
        try check(status, .threshold)
        return (Double(dx), Double(dy), Double(response))
    }
}
