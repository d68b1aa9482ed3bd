import Foundation
// Example: a still image with its orientation in; its lines out, as text plus four corner points.
//
//   swift run still-image-example IMAGE [ORIENTATION]
//
// ORIENTATION says how the stored pixels relate to the upright image, with the EXIF meaning
// (`up`, `right`, `down`, `left`, their `…Mirrored` forms, or 1…8); `unknown` (the default) lets
// the recognizer find it. Each line is printed as its text, then its quad — the four corners
// topLeft, topRight, bottomRight, bottomLeft — in upright-image pixels (top-left origin) and in
// the stored image's pixels (where the corners turn with the image).
import FrameOCR

let arguments = CommandLine.arguments.dropFirst()
guard let path = arguments.first else {
    FileHandle.standardError.write(Data("usage: still-image-example IMAGE [up|right|down|left|…|1…8|unknown]\n".utf8))
    exit(2)
}
let orientation: Pipeline.OrientationSource
switch arguments.dropFirst().first {
case nil, "unknown": orientation = .unknown
case let name?:
    guard let o = Orientation(parsing: name) else {
        FileHandle.standardError.write(Data("unknown orientation '\(name)'\n".utf8))
        exit(2)
    }
    orientation = .known(o)
}

do {
    let image = try PixelBuffer(contentsOfFile: path)
    // Automatic preprocessing measures the text and decides the rest (see docs/automatic-preprocessing.md).
    let pipeline = Pipeline(orientation: orientation, automatic: AutomaticPreprocessing())
    let recognizer = try Recognizer()
    let result = try recognizer.recognize(image, pipeline: pipeline)
    if let found = result.preprocessing?.orientation?.orientation, orientation == .unknown {
        print("orientation: \(found) (\(result.preprocessing?.orientation?.method.rawValue ?? ""))")
    }
    func corners(_ q: Quad) -> String {
        q.points.map { String(format: "(%.1f, %.1f)", $0.x, $0.y) }.joined(separator: " ")
    }
    for line in result.lines {
        print(line.text)
        print("  upright: " + corners(line.box.quad))
        print("  stored:  " + corners(line.box.quad.map(result.transform.rawPoint(fromUpright:))))
    }
} catch {
    FileHandle.standardError.write(Data("still-image-example: \(error)\n".utf8))
    exit(1)
}
