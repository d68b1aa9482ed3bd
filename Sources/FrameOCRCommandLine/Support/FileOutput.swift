import Foundation
import FrameOCR
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Where the command line writes what it made: a file named by `--output` (or `--stats-json`),
/// or standard output.
enum FileOutput {
    /// Writes `text` to `path`, or to standard output when `path` is nil.
    /// - Throws: ``FrameOCRError/Code/io`` when the file cannot be opened or written.
    static func write(_ text: String, to path: String?) throws {
        guard let path else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        let handle = try open(path, append: false)
        do {
            try handle.write(contentsOf: Data(text.utf8))
            try handle.close()
        } catch {
            throw FrameOCRError(.io, "\(path): \(error.localizedDescription)", stage: .write)
        }
    }

    /// `path` opened for writing as a shell's `>` (or, with `append`, `>>`) opens it: created
    /// when missing (mode 0644 less the umask), else truncated or appended to in place — never
    /// replaced by a new file, so `--output /dev/null`, a named pipe or a symbolic link stay
    /// what they are (`open(2)` with `O_CREAT` and `O_TRUNC` or `O_APPEND`).
    /// - Throws: ``FrameOCRError/Code/io`` when it cannot be opened.
    static func open(_ path: String, append: Bool) throws(FrameOCRError) -> FileHandle {
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0o644)
        guard fd >= 0 else {
            throw FrameOCRError(.io, "\(path): \(String(cString: strerror(errno)))", stage: .write)
        }
        return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }
}

/// Lines written whole, one at a time, to a file (truncated, or appended to) or to standard
/// output, each as soon as it is given, so that an interrupted run keeps every finished row.
final class LineSink: Sendable {
    private let handle: Mutex<FileHandle>
    private let failure = Mutex<String?>(nil)
    private let path: String

    init(path: String?, append: Bool) throws {
        self.path = path ?? "standard output"
        guard let path else {
            handle = Mutex(FileHandle.standardOutput)
            return
        }
        let h = try FileOutput.open(path, append: append)
        if append {
            // A row cut short by the interruption is ended, so the next row starts a line.
            let end = try h.seekToEnd()
            if end > 0, let reader = FileHandle(forReadingAtPath: path) {
                try reader.seek(toOffset: end - 1)
                let last = try reader.read(upToCount: 1)
                try reader.close()
                if last != Data("\n".utf8) { try h.write(contentsOf: Data("\n".utf8)) }
            }
        }
        handle = Mutex(h)
    }

    func write(_ line: String) {
        handle.withLock { h in
            do { try h.write(contentsOf: Data((line + "\n").utf8)) } catch {
                failure.withLock { $0 = $0 ?? "\(error)" }
            }
        }
    }

    /// Closes a file; throws when a write failed.
    func close() throws {
        if let f = failure.withLock({ $0 }) { throw FrameOCRError(.io, "\(path): \(f)", stage: .write) }
        if path != "standard output" { try handle.withLock { try $0.close() } }
    }
}
