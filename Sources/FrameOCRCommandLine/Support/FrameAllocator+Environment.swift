import Foundation
import FrameOCR

extension FrameAllocator {
    /// `video`'s malloc (``FrameAllocator/keepFrameMemory(trimThreshold:mmapThreshold:)``), unless
    /// the environment already sets malloc's tunables (`GLIBC_TUNABLES` naming `glibc.malloc.`),
    /// so that a user's own choice stands. True when set; false when left alone or refused (not
    /// glibc): the run goes on either way.
    @discardableResult
    static func configureForFrames(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        if environment["GLIBC_TUNABLES"]?.contains("glibc.malloc.") == true { return false }
        return (try? keepFrameMemory()) != nil
    }
}
