import Foundation
import FrameOCR
import FrameOCREvaluation
import Synchronization

/// `recognize --format jsonl`: every image's row written as soon as it is recognized, `jobs` at
/// a time, with a progress line on a terminal and resumption from an earlier run's output
/// (`--skip-done`). A row is the image's JSON with its `"file"` first, or
/// `{"file":…,"error":{"code":…,"stage":…,"message":…}}` when it failed; one image that fails
/// never stops the batch.
struct BatchRun {
    let recognizer: FirstUse<Recognizer>
    let pipeline: Pipeline
    /// The largest image read (`--max-pixels`).
    let limits: ImageLimits
    /// No second reading starts after this (`--time-limit`; nil: none).
    let timeLimit: Duration?
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
        let (total, skipped) = (todo.count, files.count - todo.count)
        let progress = ProgressLine(interval: .milliseconds(500))
        let failures = Atomic<Int>(0)
        let (recognizer, pipeline, pool, limits) = (self.recognizer, self.pipeline, self.pool, self.limits)
        let timeLimit = self.timeLimit
        JobLoop.run(todo.count, jobs: jobs) { i, _ in
            let file = todo[i]
            let row: String
            do throws(FrameOCRError) {
                let image = try PixelBuffer(contentsOfFile: file, limits: limits)
                let result = try recognizer.value().recognize(
                    image, pipeline: pipeline, timeLimit: timeLimit, pool: pool)
                row = RecognitionOutput.row(result, file: file)
            } catch {
                failures.add(1, ordering: .relaxed)
                printError("frameocr: \(file): \(error.description)")
                row = RecognitionOutput.errorRow(file: file, error)
            }
            sink.write(row)
            progress.update(total: total) { done, elapsed in
                ProgressLine.describe(done: done, total: total, skipped: skipped, elapsed: elapsed)
            }
        }
        progress.finish(keeping: true)
        try sink.close()
        // A recognizer that cannot be made (a language not installed) fails the run.
        if let error = recognizer.failure { throw error }
        return failures.load(ordering: .relaxed) == 0 ? 0 : 1
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
