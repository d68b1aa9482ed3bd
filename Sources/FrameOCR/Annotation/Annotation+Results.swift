import Foundation

// Annotations made from what FrameOCR reads: tracks, recognized lines and words.
extension Annotation {
    /// A track's box with `#ID TEXT NN%` (its id, consensus text, confidence in percent), in the
    /// palette colour of its id, drawn by its state: ``TextTrack/State/confirmed`` solid,
    /// ``TextTrack/State/new`` dashed, ``TextTrack/State/lost`` thin and grey
    /// (``Color/lost``).
    public init(track: TextTrack) {
        let stroke: Stroke
        let color: Color
        switch track.state {
        case .new: (stroke, color) = (.dashed, .palette(track.id))
        case .confirmed: (stroke, color) = (.solid, .palette(track.id))
        case .lost: (stroke, color) = (.thin, .lost)
        }
        self.init(
            quad: track.box.quad, label: Self.label(id: track.id, track.text, track.confidence), color: color,
            stroke: stroke)
    }

    /// A recognized line's box with `TEXT NN%` (`TEXT` alone without a confidence), solid, in
    /// the palette colour of `index` (its place among the frame's lines, so neighbours differ).
    public init(line: TextLine, index: Int) {
        self.init(
            quad: line.box.quad, label: Self.label(id: nil, line.text, line.confidence),
            color: .palette(UInt64(max(0, index))), stroke: .solid)
    }

    /// A recognized word's box, labelled like ``init(line:index:)``.
    public init(word: TextWord, index: Int) {
        self.init(
            quad: word.box.quad, label: Self.label(id: nil, word.text, word.confidence),
            color: .palette(UInt64(max(0, index))), stroke: .solid)
    }

    /// What a frame's result shows: with live reading (``FrameResult/tracks`` not nil) one
    /// annotation per track (``init(track:)``), lost ones first so that tracks in view are drawn
    /// over them; otherwise the annotations of its recognition (``annotations(for:)-(RecognitionResult)``);
    /// none when it has neither.
    public static func annotations(for result: FrameResult) -> [Annotation] {
        if let tracks = result.tracks {
            return (tracks.filter { $0.state == .lost } + tracks.filter { $0.state != .lost }).map(
                Annotation.init(track:))
        }
        return result.recognition.map(annotations(for:)) ?? []
    }

    /// A recognition's lines (``init(line:index:)``), or its words (``init(word:index:)``) when
    /// it has no lines with text; empty lines and words are left out.
    public static func annotations(for recognition: RecognitionResult) -> [Annotation] {
        let lines = recognition.lines.filter { !$0.text.isEmpty }
        if !lines.isEmpty { return lines.enumerated().map { Annotation(line: $1, index: $0) } }
        return recognition.words.filter { !$0.text.isEmpty }.enumerated().map { Annotation(word: $1, index: $0) }
    }

    /// `#ID TEXT NN%`: the text's lines joined by spaces, the confidence rounded to a percent.
    static func label(id: UInt64?, _ text: String, _ confidence: Float?) -> String {
        var parts: [String] = []
        if let id { parts.append("#\(id)") }
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        if !flat.isEmpty { parts.append(flat) }
        if let confidence, confidence.isFinite { parts.append("\(Int((confidence * 100).rounded()))%") }
        return parts.joined(separator: " ")
    }
}
