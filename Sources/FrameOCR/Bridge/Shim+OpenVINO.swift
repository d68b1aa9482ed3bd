internal import CFrameOCR

extension Shim {
    /// `focr_openvino_runtime`: loads OpenVINO once per process and says where from; the folders
    /// searched whether or not it loaded.
    static func openVINORuntime() -> (runtime: Result<NeuralRuntime.Info, FrameOCRError>, folders: [String]) {
        func words(_ s: UnsafePointer<CChar>?) -> [String] {
            s.map { String(cString: $0).split(separator: " ").map(String.init) } ?? []
        }
        var info = focr_openvino_info()
        let status = focr_openvino_runtime(&info)
        let folders = info.folders.map { String(cString: $0).split(separator: ":").map(String.init) } ?? []
        if let error = FrameOCRError.from(status, stage: .recognition) { return (.failure(error), folders) }
        return (
            .success(
                NeuralRuntime.Info(
                    library: String(cString: info.library), version: String(cString: info.version),
                    searchedFolders: folders,
                    capabilities: words(info.capabilities), devices: words(info.devices))), folders
        )
    }

    /// `focr_openvino_configure`: how the networks made from now on are compiled; called before
    /// each neural engine is made (``NeuralRuntime/configure(_:)`` keeps the value on the Swift
    /// side, so that setting it loads no library).
    static func configureOpenVINO(_ c: NeuralRuntime.Configuration) throws(FrameOCRError) {
        var config = focr_openvino_config(
            workers: Int32(clamping: c.workers), threads: Int32(clamping: c.threads),
            precision: c.precision.code)
        try check(focr_openvino_configure(&config), .recognition)
    }

}
