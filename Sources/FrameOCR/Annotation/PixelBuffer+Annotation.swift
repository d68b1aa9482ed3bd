extension PixelBuffer {
    /// The upright image of this buffer as `bgr8` with `annotations` drawn on it, for a person to
    /// look at (write it with ``write(toFile:quality:)``, or a video with ``VideoWriter``).
    ///
    /// The buffer may be in any ``PixelFormat`` and ``orientation``: it is converted and turned
    /// upright first (``convertedToBGR(upright:into:pool:)``), because the annotations' corners
    /// are upright-frame pixels, as every result's boxes are. The result is ``uprightWidth`` ×
    /// ``uprightHeight`` pixels, `orientation == .up`; this buffer is not changed. Annotations
    /// are drawn in order (later over earlier), outlines first and every label after them
    /// (CPU: `focr_annotate`: `cv::line` 8-connected, so an outline's pixels have exactly its
    /// colour; labels by `cv::rectangle` filled and `cv::putText`, `FONT_HERSHEY_SIMPLEX`,
    /// anti-aliased; see ``Annotation`` for widths, dashes and label placement).
    ///
    /// - Parameters:
    ///   - annotations: outlines with labels in upright-frame pixels; any finite corners (what
    ///     falls outside the image is clipped away); none gives the plain upright image.
    ///   - destination: a `bgr8` buffer of the upright size to draw into; else one from `pool`,
    ///     else a new one.
    ///   - pool: where the result comes from when no `destination` is given; nil: a new buffer.
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for a corner that is not finite (stage
    ///   `.annotation`, before any pixel is converted); ``FrameOCRError/Code/invalidBuffer`` for
    ///   an `into` of another format or size (stage `.colorConversion`).
    public func annotated(
        with annotations: [Annotation], into destination: PixelBuffer? = nil, pool: PixelBufferPool? = nil
    ) throws(FrameOCRError) -> PixelBuffer {
        try Annotation.validate(annotations)
        let canvas = try convertedToBGR(upright: true, into: destination, pool: pool)
        try canvas.drawAnnotations(annotations)
        return canvas
    }

    /// Draws `annotations` onto this `bgr8` buffer in place (`focr_annotate`). Only for buffers
    /// FrameOCR made for the purpose (``annotated(with:into:pool:)``, ``AnnotatedVideoRecorder``):
    /// a buffer's pixels are otherwise never written.
    func drawAnnotations(_ annotations: [Annotation]) throws(FrameOCRError) {
        guard !annotations.isEmpty else { return }
        try Shim.annotate(self, annotations)
    }
}

extension Annotation {
    /// Throws ``FrameOCRError/Code/invalidParameter`` (stage `.annotation`) for the first
    /// annotation with a corner that is not finite.
    static func validate(_ annotations: [Annotation]) throws(FrameOCRError) {
        for (i, a) in annotations.enumerated() {
            guard a.quad.points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
                throw .invalidParameter("annotations[\(i)].quad", "corners must be finite", stage: .annotation)
            }
        }
    }
}
