import Foundation
import Testing

// The FrameOCR tests' own helper: its fixtures, which this target copies into its resource bundle.
// The helpers it shares with CFrameOCRTests (padded frames, reference math, the OpenCV oracle, the
// SIMD levels) are in FrameOCRTestSupport (Tests/FrameOCRTestSupport).

/// A fixture file's path (the test target copies `Fixtures/` into its resource bundle).
func fixturePath(_ name: String, _ ext: String) throws -> String {
    let url = try #require(
        Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Fixtures"),
        "missing fixture Fixtures/\(name).\(ext)")
    return url.path
}
