/// How an unknown orientation was resolved.
public struct OrientationDecision: Hashable, Sendable, Codable {
    /// What decided an unknown orientation (``OrientationDecision/method``). The raw value is
    /// the JSON's `method` string (`osd`, `confidence` or `none`), so results written before
    /// this was an enum decode unchanged.
    public enum Method: String, Hashable, Sendable, Codable {
        /// Tesseract's orientation detection (OSD, `osd.traineddata`) was confident, and its
        /// rotation read at least as confidently as the image as stored.
        case osd
        /// Mean word confidence decided: the image read well as stored (it was not detected), or
        /// the rotation that read best of those tried was taken.
        case confidence
        /// Neither was conclusive: the orientation is unknown and the image was read as stored
        /// (JSON `none`; not named `none`, which an optional would take for `nil`).
        case inconclusive = "none"
    }

    /// How the image was found to be stored (``Orientation/up`` when it was upright already);
    /// nil when it could not be told (then the image was read as stored, and that is not a
    /// claim that it is upright).
    public var orientation: Orientation?
    /// What decided it: Tesseract's orientation detection, mean word confidence, or nothing
    /// conclusive.
    public var method: Method
    /// OSD's confidence (its own scale: above about 2 is reliable), or the winning mean word
    /// confidence 0…1.
    public var confidence: Double
}
