internal import CFrameOCR

extension Shim {
    /// `focr_openvino_runtime`: loads OpenVINO once per process and says where from; the folders
    /// searched whether or not it loaded.
    static func openVINORuntime() -> (runtime: Result<NeuralRuntime.Info, FrameOCRError>, folders: [String]) {
        var info = focr_openvino_info()
        let status = focr_openvino_runtime(&info)
        let folders = info.folders.map { String(cString: $0).split(separator: ":").map(String.init) } ?? []
        if let error = FrameOCRError.from(status, stage: .recognition) { return (.failure(error), folders) }
        return (
            .success(
                NeuralRuntime.Info(
                    library: String(cString: info.library), version: String(cString: info.version),
                    searchedFolders: folders)), folders
        )
    }
}
