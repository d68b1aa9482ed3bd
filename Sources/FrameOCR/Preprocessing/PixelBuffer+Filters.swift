// The small rotation and the smoothing that automatic preprocessing applies (on the CPU, through
// OpenCV: `Sources/CFrameOCR/image/rotate_small.cpp` and `image/smooth.cpp`).
extension PixelBuffer {
    /// This (packed) image turned `degrees` clockwise as displayed (−45…45) about its center,
    /// into a `width`×`height` buffer (default: this image's size) whose center the image's
    /// center lands on; areas no source pixel reaches are `fill` (255: white), corners that leave
    /// the buffer are cut. A buffer 2m pixels wider and taller holds m more pixels on every
    /// side. In continuous pixel coordinates a point s lands at R·(s − c) + c′ (c, c′ the two
    /// centers, R the clockwise rotation), the map ``FrameTransform/skewDegrees`` inverts.
    ///
    /// CPU: `cv::warpAffine`, `INTER_LINEAR`, `BORDER_CONSTANT` (`focr_rotate_small`).
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for an angle outside −45…45 or a bad
    ///   size; ``FrameOCRError/Code/unsupportedFormat`` for planar formats.
    package func rotated(
        byDegrees degrees: Double, fill: UInt8 = 255, width newWidth: Int? = nil, height newHeight: Int? = nil,
        pool: PixelBufferPool? = nil
    ) throws(FrameOCRError) -> PixelBuffer {
        try requirePacked(.rotation)
        let w = newWidth ?? width
        let h = newHeight ?? height
        guard w > 0, h > 0, w <= 1 << 16, h <= 1 << 16 else {
            throw .invalidParameter("size", "\(w)x\(h) must be in 1…65536", stage: .rotation)
        }
        var dst = try Self.destination(nil, pool: pool, width: w, height: h, format: pixelFormat, stage: .rotation)
        dst.orientation = orientation
        try Shim.rotateSmall(self, degrees: degrees, fill: fill, into: dst)
        return dst
    }

    /// The turned rectangle centred on `center` (continuous pixel coordinates of this image),
    /// `width` along its direction and `height` across it, running `degrees` clockwise as
    /// displayed (any angle), cut out upright: a `width`×`height` buffer of this (packed) format
    /// whose point (u, v) from its center is this image's `center + u·(cos θ, sin θ) +
    /// v·(−sin θ, cos θ)`; parts outside this image repeat its edge. How a detected text region
    /// (``DetectedText``) is cut out for a line recognizer.
    ///
    /// CPU: `cv::warpAffine` (`WARP_INVERSE_MAP`, `INTER_LINEAR`, `BORDER_REPLICATE`;
    /// `focr_crop_turned`).
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for a size outside 1…65536 or a center
    ///   not finite; ``FrameOCRError/Code/unsupportedFormat`` for planar formats.
    func croppedTurned(
        center: Point, width w: Int, height h: Int, degrees: Double, pool: PixelBufferPool? = nil
    ) throws(FrameOCRError) -> PixelBuffer {
        try requirePacked(.crop)
        guard w > 0, h > 0, w <= 1 << 16, h <= 1 << 16 else {
            throw .invalidParameter("size", "\(w)x\(h) must be in 1…65536", stage: .crop)
        }
        var dst = try Self.destination(nil, pool: pool, width: w, height: h, format: pixelFormat, stage: .crop)
        dst.orientation = .up
        try Shim.cropTurned(self, center: center, degrees: degrees, into: dst)
        return dst
    }

    /// This `gray8` image smoothed with a Gaussian of standard deviation `sigma` pixels
    /// (0.1…10), same size.
    ///
    /// CPU: `cv::GaussianBlur` (kernel about 6·sigma + 1 wide, `BORDER_REPLICATE`; `focr_smooth`).
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for sigma outside 0.1…10;
    ///   ``FrameOCRError/Code/unsupportedFormat`` for formats other than `gray8`.
    package func smoothed(sigma: Double, pool: PixelBufferPool? = nil) throws(FrameOCRError) -> PixelBuffer {
        guard pixelFormat == .gray8 else {
            throw FrameOCRError(.unsupportedFormat, "smoothing needs gray8, got \(pixelFormat)", stage: .scale)
        }
        guard sigma >= 0.1, sigma <= 10 else {
            throw .invalidParameter("sigma", "\(sigma) px must be in 0.1…10", stage: .scale)
        }
        var dst = try Self.destination(nil, pool: pool, width: width, height: height, format: .gray8, stage: .scale)
        dst.orientation = orientation
        try Shim.smooth(self, sigma: sigma, into: dst)
        return dst
    }
}
