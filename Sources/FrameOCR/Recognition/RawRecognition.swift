// The engine's reading as the shim returns it, copied into Swift values (`Bridge/Shim+Tesseract.swift`
// makes them; ``ResultBuilder`` turns them into the block › line › word › symbol tree).

/// Converts the engine's 0…100 (−1 = none, NaN) into 0…1 or nil.
func confidence(_ c: Float) -> Float? {
    guard c.isFinite, c >= 0 else { return nil }
    return min(c, 100) / 100
}

struct RawElement {
    var level: Int
    var left, top, right, bottom: Int32
    var confidence: Float?
    var text: String
    var alternates: [Alternate]
}

struct RawRecognition {
    var elements: [RawElement]
    var timedOut: Bool
}
