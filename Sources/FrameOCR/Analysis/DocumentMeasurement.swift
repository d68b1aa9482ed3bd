import Foundation

/// What `focr_find_document` measured in an image: the largest bright region after the light's
/// falloff is divided out — a sheet of paper on a darker surface, if the caller's tests agree
/// (``AutomaticPreprocessing/documentCrop``).
///
/// A Swift mirror of the shim's `focr_document` (`include/focr_document.h`), made in
/// `Bridge/Shim+Analysis.swift`.
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
        String(
            format: "box %@, %.2f of the image, fill %.2f, paper %.0f around %.0f, edge %.2f, %.1f°", box.description,
            areaFraction,
            rectangularity, paper, surroundings, edgeContact, angleDegrees)
    }
}
