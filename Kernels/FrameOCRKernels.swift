import Foundation

/// FrameOCR's OpenCL kernels (`Kernels/*.cl`), embedded into the binary at build time
/// (`resources: [.embedInCode(…)]`), so nothing is looked up on disk at run time.
///
/// While developing, `FRAMEOCR_KERNELS_DIR=/path/to/Kernels` loads the `.cl` files from that
/// folder instead (a failed build then reports the compiler's log).
package enum FrameOCRKernels {
    /// The kernel files in the order they are concatenated into one program.
    package static let files = ["gray.cl", "orient.cl", "adaptive_threshold.cl", "resize.cl"]

    /// The program source: every file, concatenated (from disk when `FRAMEOCR_KERNELS_DIR` is set).
    package static var source: String {
        if let dir = ProcessInfo.processInfo.environment["FRAMEOCR_KERNELS_DIR"], !dir.isEmpty {
            return files.map {
                (try? String(contentsOfFile: dir + "/" + $0, encoding: .utf8)) ?? "#error missing \($0)\n"
            }
            .joined(separator: "\n")
        }
        return embedded
    }

    /// The embedded source.
    package static let embedded: String = [
        PackageResources.gray_cl, PackageResources.orient_cl, PackageResources.adaptive_threshold_cl,
        PackageResources.resize_cl,
    ]
    .map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")

}
