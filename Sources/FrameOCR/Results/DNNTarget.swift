/// Where a network of OpenCV's dnn module runs: the text detector's
/// (``TextDetector/Configuration/target``) and the CTC line recognizer's
/// (``TextLineRecognizer/Configuration/target``). What was made of it, and why, is the engine's
/// ``DNNTargetDecision`` (``TextDetector/targetDecision``, ``TextLineRecognizer/targetDecision``).
///
/// OpenCV 4.6 runs a network on OpenCL only when it has an OpenCL device (without
/// `OPENCV_OPENCL_DEVICE` it takes a GPU only) and that device is a GPU (any device with
/// `OPENCV_DNN_OPENCL_ALLOW_ALL_DEVICES=1`); otherwise it runs it on the CPU. `docs/opencl.md#dnn-target`.
public enum DNNTarget: String, Hashable, Sendable, Codable, CaseIterable {
    /// OpenCV's CPU implementation (`cv::dnn::DNN_TARGET_CPU`). Queries nothing: no OpenCL runtime
    /// is loaded.
    case cpu
    /// OpenCV's OpenCL implementation (`cv::dnn::DNN_TARGET_OPENCL`), as asked and unchecked:
    /// OpenCV runs it on the CPU where it cannot run it on OpenCL (the decision's
    /// ``DNNTargetDecision/runsOnOpenCL`` says which, and why).
    case openCL = "opencl"
    /// OpenCL only when OpenCV would run the network on its OpenCL device and a parity probe (the
    /// network run once on the CPU and once on OpenCL on a fixed line of text, the outputs
    /// compared) finds the same outputs; else the CPU, with the reason
    /// (``DNNTargetDecision``). Decided once, when the engine is made.
    case auto
}
