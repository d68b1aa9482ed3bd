import Foundation
// Example: a label scanner's frame callback. A scan region in percent of the upright frame in;
// for every frame read, its lines out with their text, confidence, each character's choices
// (the engine's top 3, with how likely each is against the first, log₁₀) and the quads — the way a camera plugin around a commercial label reader
// hands them to an app (Apple Vision's bottom-left normalized origin included).
//
//   swift run label-scanner-example VIDEO|DIR [LEFT,TOP,WIDTH,HEIGHT]
//
// The frames come from a video file or a directory of images, played at their own timestamps
// like a camera; the scan region defaults to the middle band of the frame (0,25,100,50).
import FrameOCR

/// What the app receives for one frame.
struct ScannedLine {
    var text: String
    var confidence: Float?
    /// Per character: the character and its choices, best first, each with log₁₀ of its
    /// likelihood relative to the first (0 for the first, −3 for one a thousand times less likely).
    var characters: [(text: String, alternates: [(String, Float?)])]
    /// Upright-frame pixels, top-left origin.
    var quad: Quad
    /// Normalized 0…1 with a bottom-left origin, as Apple Vision's observations.
    var visionQuad: Quad
}

/// Wraps a FrameProcessor: frames in from the camera thread, lines out to a callback.
final class LabelScanner: Sendable {
    let processor: FrameProcessor

    /// - Parameter region: the scan region, percent of the upright frame (left, top, width, height).
    init(region: (Double, Double, Double, Double)) throws {
        let pipeline = Pipeline(
            region: .scanRegion(left: region.0, top: region.1, width: region.2, height: region.3),
            orientation: .fromFrame,  // a camera's frames say how they are turned: nothing to detect
            automatic: AutomaticPreprocessing())
        processor = try FrameProcessor(
            configuration: .init(
                pipeline: pipeline,
                recognizer: .init(defaultOptions: .init(includeSymbols: true, alternates: 3)),
                workerCount: 1,
                dropPolicy: .latestWins,  // never block the camera: keep the newest frame
                latencyBudget: .milliseconds(250)))  // submission to result; partial text when it runs out
    }

    /// The camera callback: hands the frame over and returns at once.
    func frameArrived(_ frame: Frame) { processor.submit(frame) }

    /// Delivers each frame's lines until the stream ends.
    func results(_ handle: @Sendable (UInt64, FrameResult.Status, [ScannedLine]) -> Void) async {
        for await result in processor.results {
            let lines = (result.recognition?.lines ?? []).map { line in
                ScannedLine(
                    text: line.text, confidence: line.confidence,
                    characters: line.words.flatMap(\.symbols).map { s in
                        (s.text, s.choices.prefix(3).map { ($0.text, $0.log10RelativeLikelihood) })
                    },
                    quad: line.box.quad, visionQuad: line.box.normalizedQuad(origin: .bottomLeft))
            }
            handle(result.frameID, result.status, lines)
        }
    }
}

let arguments = CommandLine.arguments.dropFirst()
guard let path = arguments.first else {
    FileHandle.standardError.write(Data("usage: label-scanner-example VIDEO|DIR [LEFT,TOP,WIDTH,HEIGHT]\n".utf8))
    exit(2)
}
let numbers = (arguments.dropFirst().first ?? "0,25,100,50").split(separator: ",").compactMap { Double($0) }
guard numbers.count == 4 else {
    FileHandle.standardError.write(Data("the scan region is four numbers: LEFT,TOP,WIDTH,HEIGHT (percent)\n".utf8))
    exit(2)
}

do {
    let scanner = try LabelScanner(region: (numbers[0], numbers[1], numbers[2], numbers[3]))
    let printing = Task {
        await scanner.results { id, status, lines in
            print("frame \(id) \(status.rawValue)")
            for line in lines {
                let chars = line.characters.map { c in
                    c.text + "["
                        + c.alternates.map { "\($0.0) \(String(format: "%.1f", $0.1 ?? 0))" }.joined(separator: ", ")
                        + "]"
                }
                print(String(format: "  \"%@\" %.2f", line.text, line.confidence ?? 0))
                print("  characters: " + chars.joined(separator: " "))
                print(
                    "  quad: "
                        + line.quad.points.map { String(format: "(%.0f, %.0f)", $0.x, $0.y) }.joined(separator: " "))
                print(
                    "  vision: "
                        + line.visionQuad.points.map { String(format: "(%.3f, %.3f)", $0.x, $0.y) }.joined(
                            separator: " "))
            }
        }
    }
    // The "camera": frames at their timestamps.
    var source = try VideoSource(path: path)
    let pacer = FramePacer()
    while let frame = try source.next() {
        try await pacer.wait(for: frame.timestamp)
        scanner.frameArrived(frame)
    }
    await scanner.processor.finish()
    await printing.value
    let stats = scanner.processor.statistics()
    print(
        "submitted \(stats.submitted), processed \(stats.processed), dropped \(stats.droppedTotal), over budget \(stats.overBudget)"
    )
} catch {
    FileHandle.standardError.write(Data("label-scanner-example: \(error)\n".utf8))
    exit(1)
}
