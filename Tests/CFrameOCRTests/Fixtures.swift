import Foundation
import Testing

@testable import FrameOCR

// What the shim's tests share: the fixtures (FrameOCRTests' folder, read in place), the tags, one
// recognizer. The tags are FrameOCRTestSupport's. The frames, reference math and the OpenCV oracle are FrameOCRTestSupport's.

/// Fixture files shipped in Tests/FrameOCRTests/Fixtures (see NOTICE), read where they are.
enum Fixture {
    static func path(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FrameOCRTests/Fixtures").appendingPathComponent(name).path
    }
}

/// One recognizer for the tests that need a reading first: engines are expensive to create.
let shimTestRecognizer: Recognizer = try! Recognizer()
