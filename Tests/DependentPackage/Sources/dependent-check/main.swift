// dependent-check IMAGE VIDEO: what a package that depends on the FrameOCR product gets. Reads
// IMAGE (phototest.tif) with automatic preprocessing and VIDEO (frame_ocr_42.mp4) frame by frame,
// and checks the text and the frame count; exit status 0 when both are as expected, 1 otherwise.
import Foundation
import FrameOCR

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("dependent-check: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let imagePath = arguments.first, let videoPath = arguments.last else {
    FileHandle.standardError.write(Data("usage: dependent-check IMAGE VIDEO\n".utf8))
    exit(2)
}

do {
    let image = try PixelBuffer(contentsOfFile: imagePath)
    let recognizer = try Recognizer()
    let text = try recognizer.recognize(image).text
    let first = text.split(separator: "\n").first.map(String.init) ?? ""
    guard first.hasPrefix("This is a lot of 12 point text to test the") else { fail("image: first line '\(first)'") }
    print("image: \(image.width)x\(image.height), first line '\(first)'")

    var video = try VideoSource(path: videoPath)
    var frames = 0
    while let frame = try video.next() {
        guard frame.buffer.width == 320 && frame.buffer.height == 120 else {
            fail("video: frame \(frames) is \(frame.buffer.width)x\(frame.buffer.height)")
        }
        frames += 1
    }
    guard frames == 50 else { fail("video: \(frames) frames, expected 50") }
    print("video: \(frames) frames of 320x120")
} catch {
    fail("\(error)")
}
