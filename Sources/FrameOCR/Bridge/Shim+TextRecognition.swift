internal import CFrameOCR

/// One `focr_text_recognizer` (`include/focr_recognize.h`): the keys and the model compiled on
/// OpenVINO, one network for every input width. Single owner: used by one thread at a time; ``TextLineRecognizer``'s pool
/// guarantees that. Freed in `deinit`.
final class TextRecognizerHandle: @unchecked Sendable {
    private let handle: OpaquePointer
    /// Room for the characters of the widest input, kept between calls.
    private var scratch: [focr_recognized_char] = []

    /// Loads the model at `modelPath` and its keys at `keysPath`, its network to run on `device`
    /// (decided here, once per model and device in a process, with the parity probe:
    /// ``decision()``), and runs the network once to check that it has a class for every key.
    /// - Throws: ``FrameOCRError/Code/io`` when a file cannot be read,
    ///   ``FrameOCRError/Code/unsupportedFormat`` when OpenVINO cannot read the model or the keys
    ///   do not match its classes, ``FrameOCRError/Code/unsupported`` without the media library.
    init(modelPath: String, keysPath: String, device: NeuralDevice) throws(FrameOCRError) {
        try Shim.configureOpenVINO(NeuralRuntime.configuration)
        var out: OpaquePointer?
        let t = Shim.dnnDevice(device)
        let status = modelPath.withCString { m in
            keysPath.withCString { k in focr_text_recognizer_create(m, k, t, &out) }
        }
        try check(status, .recognition)
        handle = out!
    }

    deinit { focr_text_recognizer_destroy(handle) }

    /// `focr_text_recognizer_device`: where the network runs and why.
    func decision() throws(FrameOCRError) -> NeuralDeviceDecision {
        var d = focr_dnn_decision()
        try check(focr_text_recognizer_device(handle, &d), .recognition)
        return Shim.decision(d)
    }

    /// The text of every class, by index: `""` for the blank (0), the keys, `" "` last.
    func keys() throws(FrameOCRError) -> [String] {
        var count: Int32 = 0
        try check(focr_text_recognizer_key_count(handle, &count), .recognition)
        var keys: [String] = []
        keys.reserveCapacity(Int(count))
        for i in 0..<count {
            var key: UnsafePointer<CChar>?
            try check(focr_text_recognizer_key(handle, i, &key), .recognition)
            keys.append(String(cString: key!))
        }
        return keys
    }

    /// `focr_text_recognizer_recognize` on `image` with `c`'s sizes and alternates and the
    /// `allowed` mask (one byte per class; nil: all).
    func recognize(_ image: PixelBuffer, _ c: TextLineRecognizer.Configuration, allowed: [UInt8]?)
        throws(FrameOCRError) -> CTCReading
    {
        try recognize([image], c, allowed: allowed)[0]
    }

    /// `focr_text_recognizer_recognize_batch` on `images` (the lines of one input width run
    /// together), one reading per image in their order.
    func recognize(_ images: [PixelBuffer], _ c: TextLineRecognizer.Configuration, allowed: [UInt8]?)
        throws(FrameOCRError) -> [CTCReading]
    {
        guard !images.isEmpty else { return [] }
        // At most one character per time step: W / 8, W ≤ max(maximumWidth, minimumWidth) rounded up
        // to widthStep.
        let capacity = (max(c.maximumWidth, c.minimumWidth) + c.widthStep - 1) / c.widthStep * c.widthStep / 8
        if scratch.count < capacity * images.count {
            scratch = [focr_recognized_char](repeating: focr_recognized_char(), count: capacity * images.count)
        }
        var lines = [focr_recognized_line](repeating: focr_recognized_line(), count: images.count)
        let status = scratch.withUnsafeMutableBufferPointer { out in
            lines.withUnsafeMutableBufferPointer { summaries in
                Self.withAllowed(allowed) { mask in
                    var params = focr_recognizer_params(
                        height: Int32(clamping: c.height), min_width: Int32(clamping: c.minimumWidth),
                        width_step: Int32(clamping: c.widthStep), max_width: Int32(clamping: c.maximumWidth),
                        allowed: mask, top_k: Int32(clamping: c.alternates))
                    return Shim.withImages(images[...]) { descriptors in
                        focr_text_recognizer_recognize_batch(
                            handle, descriptors, Int32(images.count), &params, out.baseAddress, Int32(capacity),
                            summaries.baseAddress)
                    }
                }
            }
        }
        try check(status, .recognition)
        return lines.enumerated().map { i, line in
            let first = i * capacity
            let characters = scratch[first..<first + Int(min(line.count, Int32(capacity)))].map { ch in
                var alternates: [(classIndex: Int, probability: Float)] = []
                withUnsafeBytes(of: ch.alternate_class) { classes in
                    withUnsafeBytes(of: ch.alternate_probability) { probabilities in
                        let cs = classes.bindMemory(to: Int32.self)
                        let ps = probabilities.bindMemory(to: Float.self)
                        for k in 0..<Int(ch.alternate_count) { alternates.append((Int(cs[k]), ps[k])) }
                    }
                }
                return CTCCharacter(
                    classIndex: Int(ch.class_index), probability: ch.probability,
                    steps: Int(ch.first_step)...Int(ch.last_step), x0: Double(ch.x0), x1: Double(ch.x1),
                    alternates: alternates)
            }
            return CTCReading(
                characters: characters, meanProbability: line.mean_probability, resizedWidth: Int(line.resized_width),
                inputWidth: Int(line.input_width), timeSteps: Int(line.time_steps))
        }
    }

    private static func withAllowed<R>(_ allowed: [UInt8]?, _ body: (UnsafePointer<UInt8>?) -> R) -> R {
        guard let allowed else { return body(nil) }
        return allowed.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}

/// One `focr_text_angle_classifier` (`include/focr_recognize.h`): one network. Single owner: used
/// by one thread at a time; ``TextAngleClassifier``'s pool guarantees that. Freed in `deinit`.
final class TextAngleClassifierHandle: @unchecked Sendable {
    private let handle: OpaquePointer

    /// Loads the model at `modelPath` and runs it once to check its output.
    /// - Throws: ``FrameOCRError/Code/io`` when the file cannot be read,
    ///   ``FrameOCRError/Code/unsupportedFormat`` when OpenVINO cannot read or run it,
    ///   ``FrameOCRError/Code/unsupported`` without the media library.
    init(modelPath: String) throws(FrameOCRError) {
        try Shim.configureOpenVINO(NeuralRuntime.configuration)
        var out: OpaquePointer?
        let status = modelPath.withCString { focr_text_angle_classifier_create($0, &out) }
        try check(status, .recognition)
        handle = out!
    }

    deinit { focr_text_angle_classifier_destroy(handle) }

    /// `focr_text_angle_classifier_classify_batch`: the probability that each image's line is
    /// turned 180°, in their order (the images read together).
    func upsideDown(_ images: [PixelBuffer]) throws(FrameOCRError) -> [Float] {
        guard !images.isEmpty else { return [] }
        var p = [Float](repeating: 0, count: images.count)
        let status = p.withUnsafeMutableBufferPointer { out in
            Shim.withImages(images[...]) { descriptors in
                focr_text_angle_classifier_classify_batch(handle, descriptors, Int32(images.count), out.baseAddress)
            }
        }
        try check(status, .recognition)
        return p
    }
}
