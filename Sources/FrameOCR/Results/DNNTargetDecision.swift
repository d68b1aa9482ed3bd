/// Where an engine's network runs and why: what ``DNNTarget`` asked for, what was chosen, whether
/// OpenVINO lists a GPU, and the parity probe's figures when it ran. Made once,
/// when the engine is made (``TextDetector/targetDecision``, ``TextLineRecognizer/targetDecision``;
/// `focr_dnn.h`); the reading plan notes it in ``PreprocessingDecisions/reasons`` when the target
/// asked for is not ``DNNTarget/cpu``.
public struct DNNTargetDecision: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The kind of device OpenVINO runs the network on besides the CPU (``DeviceType/gpu`` when it
    /// lists a GPU).
    public enum DeviceType: String, Hashable, Sendable, Codable {
        case cpu, gpu, accelerator, other
    }

    /// The parity probe: the network run once on the CPU and once on the GPU on the probe line
    /// ("Probe 0123 AB" drawn by `cv::putText` without anti-aliasing, ink 20 on paper 235: 320×48
    /// for the recognizer, in a 320×96 image for the detector), the outputs (probabilities 0…1)
    /// compared value by value.
    public struct Probe: Hashable, Sendable, Codable {
        /// The largest |CPU − GPU| over the values both give as finite numbers.
        public var maximumDifference: Float
        /// The largest difference that counts as the same (`FOCR_DNN_PROBE_TOLERANCE`, 0.001).
        public var tolerance: Float
        /// The GPU output's NaN and infinite values.
        public var nonFinite: Int
        /// The recognizer's time steps whose most probable class differs (a near tie aside); the
        /// detector's map pixels on different sides of its binary threshold 0.3.
        public var mismatches: Int
        /// Steps (recognizer) or map pixels (detector) compared.
        public var compared: Int
        /// Whether the outputs diverged (a value not finite, a difference over the tolerance, a
        /// mismatch, or the GPU run failed): the CPU was chosen.
        public var diverged: Bool
        /// The CPU's run.
        public var cpuTime: Duration
        /// The GPU run (named `openCLTime`: OpenVINO's GPU plug-in runs on OpenCL), its first
        /// compile of kernels included.
        public var openCLTime: Duration

        public init(
            maximumDifference: Float, tolerance: Float, nonFinite: Int, mismatches: Int, compared: Int,
            diverged: Bool, cpuTime: Duration, openCLTime: Duration
        ) {
            self.maximumDifference = maximumDifference
            self.tolerance = tolerance
            self.nonFinite = nonFinite
            self.mismatches = mismatches
            self.compared = compared
            self.diverged = diverged
            self.cpuTime = cpuTime
            self.openCLTime = openCLTime
        }
    }

    /// What the configuration asked for.
    public var requested: DNNTarget
    /// The target the networks are set to: ``DNNTarget/cpu`` or ``DNNTarget/openCL``.
    public var chosen: DNNTarget
    /// Whether the network runs on OpenVINO's GPU (its plug-in runs on OpenCL); false: on the CPU.
    public var runsOnOpenCL: Bool
    /// The device's name as OpenVINO lists it (`GPU`); nil when it lists none or was not asked
    /// (``DNNTarget/cpu``).
    public var device: String?
    /// Its kind; nil with ``device``.
    public var deviceType: DeviceType?
    /// Why ``chosen``, one line: "asked for the CPU", "OpenVINO lists no GPU (…)", "OpenVINO's GPU
    /// diverged from the CPU on the probe: …", …
    public var reason: String
    /// The parity probe; nil when it did not run (not ``DNNTarget/auto``, or OpenVINO lists no
    /// GPU).
    public var probe: Probe?
    /// What the decision cost: OpenVINO's devices listed, and the probe.
    public var time: Duration

    public init(
        requested: DNNTarget, chosen: DNNTarget, runsOnOpenCL: Bool, device: String?, deviceType: DeviceType?,
        reason: String, probe: Probe?, time: Duration
    ) {
        self.requested = requested
        self.chosen = chosen
        self.runsOnOpenCL = runsOnOpenCL
        self.device = device
        self.deviceType = deviceType
        self.reason = reason
        self.probe = probe
        self.time = time
    }

    /// `auto: cpu (OpenVINO lists no GPU …)`: what was asked, what runs, why.
    public var description: String {
        "\(requested.rawValue): \(runsOnOpenCL ? "opencl" : "cpu") (\(reason))"
    }
}
