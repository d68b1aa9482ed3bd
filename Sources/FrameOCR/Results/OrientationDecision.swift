/// How an unknown orientation was resolved.
public struct OrientationDecision: Hashable, Sendable, Codable {
    /// How the image was found to be stored (``Orientation/up`` when it was upright already);
    /// nil when it could not be told (then the image was read as stored, and that is not a
    /// claim that it is upright).
    public var orientation: Orientation?
    /// `osd`: Tesseract's orientation detection; `confidence`: the best of four rotations by mean
    /// word confidence; `none`: neither was conclusive, the image was read as it is.
    public var method: String
    /// OSD's confidence (its own scale: above about 2 is reliable), or the winning mean word
    /// confidence 0…1.
    public var confidence: Double
}
