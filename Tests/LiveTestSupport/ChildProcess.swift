import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process for the live-source tests: a loopback stream sender (`ffmpeg`,
/// `gst-launch-1.0`) or the `frameocr` command under test. Its output goes to files (nothing
/// blocks on a full pipe); every wait is bounded; it is killed when stopped, and when the value
/// goes away, so that no test leaves a process behind.
public final class ChildProcess: @unchecked Sendable {  // the Process is only signalled and polled
    public let process: Process
    /// Standard output and standard error, as files (in a temporary directory of their own).
    public let stdoutURL: URL
    public let stderrURL: URL
    private let directory: URL

    /// Starts `executable` (a path, or a name looked up in `PATH` through `/usr/bin/env`).
    public init(_ executable: String, _ arguments: [String]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("frameocr-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        stdoutURL = directory.appendingPathComponent("stdout")
        stderrURL = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process = Process()
        if executable.hasPrefix("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            // env execs the tool in place: the pid is the tool's, so signals reach it.
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        try process.run()
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: directory)
    }

    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }

    /// Sends `signal` (SIGINT, SIGTERM, SIGKILL…) if it still runs.
    public func send(_ signal: Int32) {
        if process.isRunning { _ = Glibc.kill(process.processIdentifier, signal) }
    }

    /// Waits at most `timeout` for the process to exit; its status, or nil when it still runs.
    @discardableResult
    public func wait(timeout: Duration) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else { return nil }
            usleep(10_000)
        }
        return process.terminationStatus
    }

    /// SIGKILL, then waits (at most 5 s) for it to be gone.
    public func kill() {
        send(SIGKILL)
        wait(timeout: .seconds(5))
    }

    /// What it wrote so far.
    public var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// Waits at most `timeout` until `condition` holds for the output so far (checked every 20 ms);
    /// whether it did.
    public func waitForOutput(timeout: Duration, _ condition: (_ stdout: String, _ stderr: String) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(stdout, stderr) { return true }
            if !process.isRunning { return condition(stdout, stderr) }
            usleep(20_000)
        }
        return false
    }
}
