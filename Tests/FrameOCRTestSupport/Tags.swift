import Testing

// The test tags, declared once for every test target (`swift test --filter`, `.tags(…)`).
extension Tag {
    /// Reads text with Tesseract (its models loaded): the slow tests.
    @Tag package static var tesseract: Self
    /// Runs FrameOCR's OpenCL kernels (on PoCL's CPU device in CI).
    @Tag package static var opencl: Self
}
