internal import CFrameOCR

/// One `focr_text_detector` (`include/focr_detect.h`): the model compiled on OpenVINO, one network
/// for every input size. Single owner: used by one thread at a time; ``TextDetector``'s pool guarantees that.
/// Freed in `deinit`.
final class TextDetectorHandle: @unchecked Sendable {
    private let handle: OpaquePointer

    /// Loads the model at `path`, its network to run on `device` (decided here, once per model and
    /// device in a process, with the parity probe: ``decision()``).
    /// - Throws: ``FrameOCRError/Code/io`` when it cannot be read,
    ///   ``FrameOCRError/Code/unsupportedFormat`` when OpenVINO cannot read it.
    init(modelPath path: String, device: NeuralDevice) throws(FrameOCRError) {
        try Shim.configureOpenVINO(NeuralRuntime.configuration)
        var out: OpaquePointer?
        let status = path.withCString { focr_text_detector_create($0, Shim.dnnDevice(device), &out) }
        try check(status, .detection)
        handle = out!
    }

    deinit { focr_text_detector_destroy(handle) }

    /// `focr_text_detector_device`: where the network runs and why.
    func decision() throws(FrameOCRError) -> NeuralDeviceDecision {
        var d = focr_dnn_decision()
        try check(focr_text_detector_device(handle, &d), .detection)
        return Shim.decision(d)
    }

    /// `focr_text_detector_detect` on `image` (gray8 or packed colour): every region found, the
    /// most probable first, in `image`'s pixels.
    func detect(_ image: PixelBuffer, _ c: TextDetector.Configuration) throws(FrameOCRError) -> [DetectedText] {
        var params = focr_detector_params(
            long_side: Int32(clamping: c.longSide), binary_threshold: Float(c.binaryThreshold),
            box_threshold: Float(c.boxThreshold), unclip_ratio: Float(c.unclipRatio),
            max_candidates: Int32(clamping: c.maximumCandidates), min_size: Float(c.minimumSize))
        // Room for every candidate (at most max_candidates regions are found: 24 bytes each), so
        // the network runs once.
        let capacity = params.max_candidates
        var found = [focr_detected_text](repeating: focr_detected_text(), count: Int(capacity))
        var count: Int32 = 0
        let status = found.withUnsafeMutableBufferPointer { out in
            Shim.withImage(image) {
                focr_text_detector_detect(handle, $0, &params, out.baseAddress, capacity, &count)
            }
        }
        try check(status, .detection)
        return found.prefix(Int(min(count, capacity))).map {
            DetectedText(
                center: Point(x: Double($0.center_x), y: Double($0.center_y)), width: Double($0.width),
                height: Double($0.height), angleDegrees: Double($0.angle_degrees), score: $0.score)
        }
    }
}

extension Shim {
    /// `device` as a `focr_dnn_device`.
    static func dnnDevice(_ device: NeuralDevice) -> Int32 {
        let d: focr_dnn_device =
            switch device {
            case .cpu: FOCR_DNN_DEVICE_CPU
            case .gpu: FOCR_DNN_DEVICE_GPU
            case .npu: FOCR_DNN_DEVICE_NPU
            case .auto: FOCR_DNN_DEVICE_AUTO
            }
        return Int32(d.rawValue)
    }

    /// A `focr_dnn_decision` (its strings copied) as the Swift value.
    static func decision(_ d: focr_dnn_decision) -> NeuralDeviceDecision {
        func device(_ v: Int32) -> NeuralDevice {
            switch v {
            case Int32(FOCR_DNN_DEVICE_GPU.rawValue): .gpu
            case Int32(FOCR_DNN_DEVICE_NPU.rawValue): .npu
            case Int32(FOCR_DNN_DEVICE_AUTO.rawValue): .auto
            default: .cpu
            }
        }
        let name = d.device.map { String(cString: $0) } ?? ""
        let listed = d.devices.map { String(cString: $0) } ?? ""
        let probe =
            d.probed == 0
            ? nil
            : NeuralDeviceDecision.Probe(
                maximumDifference: d.max_abs_difference, tolerance: d.tolerance, nonFinite: Int(d.non_finite),
                mismatches: Int(d.mismatches), compared: Int(d.compared), diverged: d.diverged != 0,
                cpuTime: .milliseconds(d.cpu_ms), deviceTime: .milliseconds(d.device_ms))
        return NeuralDeviceDecision(
            requested: device(d.requested), chosen: device(d.chosen), fellBack: d.fell_back != 0,
            devices: d.queried == 0 ? nil : listed == "none" ? [] : listed.components(separatedBy: ", "),
            device: name.isEmpty ? nil : name, reason: d.reason.map { String(cString: $0) } ?? "", probe: probe,
            time: .milliseconds(d.decision_ms))
    }

    /// `focr_replicate_outside`: everything of `image` (gray8) outside `rect` replaced by the
    /// rectangle's nearest edge pixels, in place.
    static func replicateOutside(_ image: PixelBuffer, _ rect: PixelRect) throws(FrameOCRError) {
        let status = withImage(image) {
            focr_replicate_outside($0, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height))
        }
        try check(status, .detection)
    }
}
