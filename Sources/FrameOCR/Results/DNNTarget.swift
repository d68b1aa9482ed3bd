/// Where a neural engine's network runs on OpenVINO (``NeuralRuntime``): the text detector's
/// (``TextDetector/Configuration/target``) and the CTC line recognizer's
/// (``TextLineRecognizer/Configuration/target``). What was made of it, and why, is the engine's
/// ``DNNTargetDecision`` (``TextDetector/targetDecision``, ``TextLineRecognizer/targetDecision``).
///
/// OpenVINO runs a network on a GPU through its GPU plug-in (Intel GPUs, on OpenCL), which `make
/// openvino` does not install: without it OpenVINO lists the CPU alone, and every target runs on
/// the CPU (`docs/openvino.md`).
public enum DNNTarget: String, Hashable, Sendable, Codable, CaseIterable {
    /// OpenVINO's CPU plug-in. Queries nothing.
    case cpu
    /// OpenVINO's GPU, as asked and unchecked, where OpenVINO lists one; else the CPU (the
    /// decision's ``DNNTargetDecision/runsOnOpenCL`` says which, and why).
    case openCL = "opencl"
    /// OpenVINO's GPU only when it lists one and a parity probe (the network run once on the CPU
    /// and once on the GPU on a fixed line of text, the outputs compared) finds the same outputs;
    /// else the CPU, with the reason (``DNNTargetDecision``). Decided once, when the engine is made.
    case auto
}
