/// The device a neural engine's network runs on, through OpenVINO (``NeuralRuntime``): the text
/// detector's (``TextDetector/Configuration/device``) and the CTC line recognizer's
/// (``TextLineRecognizer/Configuration/device``); the angle classifier's runs on the CPU. What was
/// made of it, and why, is the engine's ``NeuralDeviceDecision`` (``TextDetector/deviceDecision``,
/// ``TextLineRecognizer/deviceDecision``).
///
/// A device other than the CPU is used only when OpenVINO lists it and a parity probe (the network
/// run once on the CPU and once on the device on a fixed line of text, the outputs compared) finds
/// the CPU's outputs. Otherwise the network runs on the CPU, and that is a *fallback*
/// (``NeuralDeviceDecision/fellBack``): counted in ``NeuralRuntime/deviceFallbacks``, its reason
/// handed to the handler of ``NeuralRuntime/setDeviceFallbackHandler(_:)`` (the command line writes
/// it to standard error; `serve` counts it in `frameocr_neural_device_fallbacks_total`) and noted
/// in ``PreprocessingDecisions/reasons``. Decided once per model file and device in a process
/// (`focr_dnn.h`, `Sources/CFrameOCRMedia/dnn/target.cpp`).
///
/// `make openvino` installs OpenVINO's CPU plug-in alone: without its GPU plug-in (Intel GPUs) or
/// NPU plug-in (Intel NPUs) OpenVINO lists the CPU alone, and every device runs on the CPU
/// (`docs/openvino.md#devices`).
public enum NeuralDevice: String, Hashable, Sendable, Codable, CaseIterable {
    /// OpenVINO's CPU plug-in. Queries nothing. The default.
    case cpu
    /// OpenVINO's GPU (`GPU`, or the first `GPU.n` it lists) when the probe matches; else the CPU,
    /// a fallback.
    case gpu
    /// OpenVINO's NPU when the probe matches; else the CPU, a fallback.
    case npu
    /// The first of the GPU and the NPU that OpenVINO lists and the probe matches; else the CPU (a
    /// fallback only when a device was listed and failed the probe).
    case auto
}

/// Where an engine's network runs and why: what ``NeuralDevice`` asked for, what was chosen, what
/// OpenVINO lists, and the parity probe's figures when it ran. Made once per model file and device
/// in a process, when the first engine of it is made (``TextDetector/deviceDecision``,
/// ``TextLineRecognizer/deviceDecision``; `focr_dnn.h`); the reading plan notes it in
/// ``PreprocessingDecisions/reasons`` when the device asked for is not ``NeuralDevice/cpu``.
public struct NeuralDeviceDecision: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The parity probe: the network run once on the CPU and once on the device on the probe line
    /// ("Probe 0123 AB" drawn by `cv::putText` without anti-aliasing, ink 20 on paper 235: 320×48
    /// for the recognizer, in a 320×96 image for the detector), the outputs (probabilities 0…1)
    /// compared value by value.
    public struct Probe: Hashable, Sendable, Codable {
        /// The largest |CPU − device| over the values both give as finite numbers.
        public var maximumDifference: Float
        /// The largest difference that counts as the same (`FOCR_DNN_PROBE_TOLERANCE`, 0.001).
        public var tolerance: Float
        /// The device output's NaN and infinite values.
        public var nonFinite: Int
        /// The recognizer's time steps whose most probable class differs (a near tie aside); the
        /// detector's map pixels on different sides of its binary threshold 0.3.
        public var mismatches: Int
        /// Steps (recognizer) or map pixels (detector) compared.
        public var compared: Int
        /// Whether the outputs diverged (a value not finite, a difference over the tolerance, a
        /// mismatch, or the device failed to compile or run the network): the CPU was chosen.
        public var diverged: Bool
        /// The CPU's run.
        public var cpuTime: Duration
        /// The device's run, its compile of the network included.
        public var deviceTime: Duration

        public init(
            maximumDifference: Float, tolerance: Float, nonFinite: Int, mismatches: Int, compared: Int,
            diverged: Bool, cpuTime: Duration, deviceTime: Duration
        ) {
            self.maximumDifference = maximumDifference
            self.tolerance = tolerance
            self.nonFinite = nonFinite
            self.mismatches = mismatches
            self.compared = compared
            self.diverged = diverged
            self.cpuTime = cpuTime
            self.deviceTime = deviceTime
        }
    }

    /// What the configuration asked for.
    public var requested: NeuralDevice
    /// The device the network is compiled for: ``NeuralDevice/cpu``, ``NeuralDevice/gpu`` or
    /// ``NeuralDevice/npu``.
    public var chosen: NeuralDevice
    /// Whether a device other than the CPU was asked for (``NeuralDevice/gpu``,
    /// ``NeuralDevice/npu``) or found (``NeuralDevice/auto``) and the network runs on the CPU
    /// instead: not listed, failing to compile or run the network, or diverging on the probe.
    public var fellBack: Bool
    /// OpenVINO's devices as it lists them (`["CPU"]`, `["CPU", "GPU.0", "NPU"]`); nil when they
    /// were not listed (``NeuralDevice/cpu``).
    public var devices: [String]?
    /// The device probed or chosen besides the CPU, as OpenVINO names it (`GPU.0`, `NPU`); nil
    /// when none was.
    public var device: String?
    /// Why ``chosen``, one line: "asked for the CPU", "asked for the GPU, but OpenVINO lists none
    /// (…)", "asked for the GPU, runs on the CPU: GPU.0 diverged from the CPU on the probe: …", …
    public var reason: String
    /// The parity probe; nil when it did not run (nothing but the CPU asked for or listed).
    public var probe: Probe?
    /// What the decision cost: OpenVINO's devices listed, and the probe.
    public var time: Duration

    public init(
        requested: NeuralDevice, chosen: NeuralDevice, fellBack: Bool, devices: [String]?, device: String?,
        reason: String, probe: Probe?, time: Duration
    ) {
        self.requested = requested
        self.chosen = chosen
        self.fellBack = fellBack
        self.devices = devices
        self.device = device
        self.reason = reason
        self.probe = probe
        self.time = time
    }

    /// `gpu: cpu (asked for the GPU, but OpenVINO lists none …)`: what was asked, what runs, why.
    public var description: String { "\(requested.rawValue): \(chosen.rawValue) (\(reason))" }
}
