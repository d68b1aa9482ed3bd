internal import CFrameOCR

/// One `focr_text_angle_classifier` (`include/focr_recognize.h`): one network. Single owner: used
/// by one thread at a time; ``TextAngleClassifier``'s pool guarantees that. Freed in `deinit`.
final class TextAngleClassifierHandle: @unchecked Sendable {
    private let handle: OpaquePointer

    /// Loads the model at `modelPath` and runs it once to check its output.
    /// - Throws: ``FrameOCRError/Code/io`` when the file cannot be read,
    ///   ``FrameOCRError/Code/unsupportedFormat`` when OpenCV cannot import or run it,
    ///   ``FrameOCRError/Code/unsupported`` without the media library.
    init(modelPath: String) throws(FrameOCRError) {
        var out: OpaquePointer?
        let status = modelPath.withCString { focr_text_angle_classifier_create($0, &out) }
        try check(status, .recognition)
        handle = out!
    }

    deinit { focr_text_angle_classifier_destroy(handle) }

    /// `focr_text_angle_classifier_classify`: the probability that `image`'s line is turned 180°.
    func upsideDown(_ image: PixelBuffer) throws(FrameOCRError) -> Float {
        var p: Float = 0
        try check(Shim.withImage(image) { focr_text_angle_classifier_classify(handle, $0, &p) }, .recognition)
        return p
    }
}
