import Dispatch
import Foundation
import FrameOCR
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `recognize --format jsonl`: every image's row written as soon as it is recognized, `jobs` at
/// a time, with a progress line on a terminal and resumption from an earlier run's output
/// (`--skip-done`). A row is the image's JSON with its `"file"` first, or
/// `{"file":…,"error":{"code":…,"stage":…,"message":…}}` when it failed; one image that fails
/// never stops the batch.
struct BatchRun {
    let recognizer: Recognizer
    let pipeline: Pipeline
    /// The largest image read (`--max-pixels`).
    let limits: ImageLimits
    let pool: PixelBufferPool
    let jobs: Int
    /// Where the rows go (nil: standard output).
    let output: String?
    /// An earlier run's rows: the images they hold without an error are skipped.
    let skipDone: String?

    /// Recognizes `files`; returns the exit status: 0, or 1 when an image failed.
    func run(_ files: [String]) throws -> Int32 {
        let done = try skipDone.map { try Self.completed(in: $0) } ?? []
        let todo = files.filter { !done.contains($0) }
        let appending = skipDone.map { s in output.map { Self.samePath($0, s) } ?? false } ?? false
        let sink = try LineSink(path: output, append: appending)
        let progress = ProgressLine(
            total: todo.count, skipped: files.count - todo.count, enabled: isatty(STDERR_FILENO) != 0)
        let failures = Atomic<Int>(0)
        let (recognizer, pipeline, pool, limits) = (self.recognizer, self.pipeline, self.pool, self.limits)
        RecognizeCommand.concurrently(todo.count, jobs: jobs) { i in
            let file = todo[i]
            let row: String
            do throws(FrameOCRError) {
                let image = try PixelBuffer(contentsOfFile: file, limits: limits)
                let result = try recognizer.recognize(image, pipeline: pipeline, pool: pool)
                row = RecognizeCommand.jsonWithFile(result, file: file, pretty: false)
            } catch {
                failures.add(1, ordering: .relaxed)
                printError("frameocr: \(file): \(error.description)")
                row = Self.errorRow(file: file, error)
            }
            sink.write(row)
            progress.advance()
        }
        progress.finish()
        try sink.close()
        return failures.load(ordering: .relaxed) == 0 ? 0 : 1
    }

    /// `{"file":…,"error":{"code":…,"stage":…,"message":…}}`.
    static func errorRow(file: String, _ error: FrameOCRError) -> String {
        func string(_ s: String) -> String { Server.jsonString(s) }
        return "{\"file\":\(string(file)),\"error\":{\"code\":\(string(error.code.rawValue)),\"stage\":"
            + "\(string(error.stage.rawValue)),\"message\":\(string(error.message))}}"
    }

    /// The files that `path`'s rows (JSON Lines) hold without an error; none when it does not
    /// exist yet. Lines that do not parse — the last one of an interrupted run may be cut
    /// short — are passed over.
    static func completed(in path: String) throws -> Set<String> {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("--skip-done: cannot read \(path)")
        }
        var done = Set<String>()
        for line in data.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                let file = object["file"] as? String, object["error"] == nil
            else { continue }
            done.insert(file)
        }
        return done
    }

    static func samePath(_ a: String, _ b: String) -> Bool {
        URL(fileURLWithPath: a).standardizedFileURL.path == URL(fileURLWithPath: b).standardizedFileURL.path
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
        let h = try RecognizeCommand.openForWriting(path, append: append)
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

/// `1234/10000 images · 4.2 images/s · 35m 40s left` on standard error, rewritten in place at
/// most twice a second, when standard error is a terminal.
final class ProgressLine: Sendable {
    private struct State {
        var done = 0
        var lastDrawn: ContinuousClock.Instant?
    }
    private let total: Int
    private let skipped: Int
    private let enabled: Bool
    private let start = ContinuousClock.now
    private let state = Mutex(State())

    init(total: Int, skipped: Int, enabled: Bool) {
        self.total = total
        self.skipped = skipped
        self.enabled = enabled
    }

    func advance() {
        guard enabled else { return }
        let now = ContinuousClock.now
        let line: String? = state.withLock { s in
            s.done += 1
            if let last = s.lastDrawn, now - last < .milliseconds(500), s.done < total { return nil }
            s.lastDrawn = now
            return Self.describe(done: s.done, total: total, skipped: skipped, elapsed: now - start)
        }
        if let line { FileHandle.standardError.write(Data(("\r" + line + "\u{1B}[K").utf8)) }
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }

    /// The progress text: images done of `total` (and those skipped), the rate, the time left.
    static func describe(done: Int, total: Int, skipped: Int, elapsed: Duration) -> String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Double(done) / seconds : 0
        var text = "\(done)/\(total) images"
        if skipped > 0 { text += " (\(skipped) done before)" }
        text += String(format: " · %.1f images/s", rate)
        if rate > 0, done < total {
            let left = Int((Double(total - done) / rate).rounded())
            text +=
                " · " + (left >= 3600 ? "\(left / 3600)h \(left % 3600 / 60)m" : "\(left / 60)m \(left % 60)s")
                + " left"
        }
        return text
    }
}
