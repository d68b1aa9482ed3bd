internal import CFrameOCR

/// What `focr_find_document` measured in an image: the largest bright region after the light's
/// falloff is divided out — a sheet of paper on a darker surface, if the caller's tests agree
/// (``AutomaticPreprocessing/documentCrop``).
struct DocumentMeasurement: Hashable, Sendable, CustomStringConvertible {
    /// Its bounding box in the image's pixels (empty: no region).
    var box: PixelRect
    /// Its area over the image's, 0…1.
    var areaFraction: Double
    /// Its area over that of its smallest turned rectangle, 0…1.
    var rectangularity: Double
    /// Median gray level inside and outside it (outside −1: it fills the image).
    var paper: Double
    var surroundings: Double
    /// Share of the image's edge pixels it covers, 0…1.
    var edgeContact: Double
    /// Its smallest turned rectangle's angle, −45…45 degrees, clockwise as displayed.
    var angleDegrees: Double
    /// Its convex outline, x, y pairs in the image's pixels (at most 16 vertices).
    var outline: [Float]

    var description: String {
        String(format: "box %@, %.2f of the image, fill %.2f, paper %.0f around %.0f, edge %.2f, %.1f°", box.description, areaFraction,
               rectangularity, paper, surroundings, edgeContact, angleDegrees)
    }
}

extension PixelBuffer {
    /// `focr_find_document` on this `gray8` image.
    /// - Throws: ``FrameOCRError/Code/unsupportedFormat`` for other formats; the shim's errors.
    func documentRegion() throws(FrameOCRError) -> DocumentMeasurement {
        guard pixelFormat == .gray8 else {
            throw FrameOCRError(.unsupportedFormat, "document detection needs gray8, got \(pixelFormat)", stage: .crop)
        }
        var s = descriptor
        var doc = focr_document()
        let status = withExtendedLifetime(storage) { focr_find_document(&s, &doc) }
        try check(status, .crop)
        let points = withUnsafeBytes(of: doc.points) { Array($0.bindMemory(to: Float.self)) }
        return DocumentMeasurement(box: PixelRect(x: Int(doc.x), y: Int(doc.y), width: Int(doc.width), height: Int(doc.height)),
                                   areaFraction: Double(doc.area_fraction), rectangularity: Double(doc.rectangularity),
                                   paper: Double(doc.paper), surroundings: Double(doc.surroundings), edgeContact: Double(doc.edge_contact),
                                   angleDegrees: Double(doc.angle_degrees), outline: Array(points.prefix(2 * Int(doc.corners))))
    }

    /// `focr_flatten_document`: this `gray8` image divided by its paper's brightness (a closing
    /// with a square of `kernel` pixels), white outside `outline` (x, y pairs in this image's
    /// pixels; empty: none) shrunk a little.
    func flattenedDocument(outline: [Float], kernel: Int, pool: PixelBufferPool?) throws(FrameOCRError) -> PixelBuffer {
        let flat = try PixelBuffer.destination(nil, pool: pool, width: width, height: height, format: .gray8, stage: .crop)
        try run(into: flat, .crop) { s, dst in focr_flatten_document(s, outline, Int32(outline.count / 2), Int32(kernel), dst) }
        return flat
    }
}
