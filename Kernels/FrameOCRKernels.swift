import Foundation

/// FrameOCR's OpenCL kernels (`Kernels/*.cl`), embedded into the binary at build time
/// (`resources: [.embedInCode(…)]`), so nothing is looked up on disk at run time.
///
/// While developing, `FRAMEOCR_KERNELS_DIR=/path/to/Kernels` loads the `.cl` files from that
/// folder instead (a failed build then reports the compiler's log).
public enum FrameOCRKernels {
    /// The kernel files in the order they are concatenated into one program.
    public static let files = ["gray.cl", "orient.cl", "adaptive_threshold.cl", "resize.cl"]

    /// The program source: every file, concatenated (from disk when `FRAMEOCR_KERNELS_DIR` is set).
    public static var source: String {
        if let dir = ProcessInfo.processInfo.environment["FRAMEOCR_KERNELS_DIR"], !dir.isEmpty {
            return files.map { (try? String(contentsOfFile: dir + "/" + $0, encoding: .utf8)) ?? "#error missing \($0)\n" }
                .joined(separator: "\n")
        }
        return embedded
    }

    /// The embedded source.
    public static let embedded: String = [PackageResources.gray_cl, PackageResources.orient_cl, PackageResources.adaptive_threshold_cl,
                                            PackageResources.resize_cl]
        .map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")

    /// A short hash of the source (FNV-1a, hex), for caches keyed by kernel source.
    public static func hash(_ text: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return String(h, radix: 16)
    }
}
