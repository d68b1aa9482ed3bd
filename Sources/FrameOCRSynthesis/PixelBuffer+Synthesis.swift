import FrameOCR

// What generated test scenes are made of (``SyntheticScene``): text in a TrueType font and images
// composed on a canvas. Test support, in no product: FrameOCR reads frames, it does not make them;
// these serve the sequences the live reader is tested, tuned and benchmarked on, and the tests'
// drawn fixtures. The only Swift code that reaches OpenCV's freetype module (CFrameOCRSynthesis).
extension PixelBuffer {
    /// `text` (UTF-8, 1…1024 bytes) rendered in the TrueType font at `fontPath`, `height` pixels
    /// (the font's pixel height, 4…1024), `ink` on `paper` (gray levels), with `margin` pixels of
    /// paper on every side: a new `gray8` buffer just large enough.
    ///
    /// `cv::freetype::FreeType2` (`getTextSize`, `putText` with `LINE_AA`; `focr_render_text`).
    /// - Throws: ``FrameOCRError/Code/io`` when the font cannot be loaded,
    ///   ``FrameOCRError/Code/invalidParameter`` for an empty text or a size out of range.
    package static func rendering(
        _ text: String, fontPath: String, height: Int, margin: Int = 0, ink: UInt8 = 0, paper: UInt8 = 255
    ) throws(FrameOCRError) -> PixelBuffer {
        let size = try Shim.textSize(text, fontPath: fontPath, height: height, margin: margin)
        let buffer = try PixelBuffer(width: size.width, height: size.height, pixelFormat: .gray8)
        try Shim.renderText(
            text, fontPath: fontPath, height: height, margin: margin, ink: ink, paper: paper, into: buffer)
        return buffer
    }

    /// Draws `image` (packed, this buffer's format) onto this buffer through the affine map `m`
    /// (row-major 2×3 in pixel indices: a pixel at (x, y) of `image` lands at
    /// (m[0]x + m[1]y + m[2], m[3]x + m[4]y + m[5]) here). Pixels no pixel of `image` reaches keep
    /// their values, so images compose one after the other.
    ///
    /// `cv::warpAffine`, `INTER_LINEAR`, `BORDER_TRANSPARENT` (`focr_warp_affine`).
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for a singular or non-finite map;
    ///   ``FrameOCRError/Code/unsupportedFormat`` for planar formats or a format mismatch.
    package func draw(_ image: PixelBuffer, affine m: [Double]) throws(FrameOCRError) {
        guard m.count == 6 else {
            throw .invalidParameter("affine", "\(m.count) coefficients, need 6", stage: .rotation)
        }
        try Shim.warpAffine(image, m, into: self)
    }
}
