import Foundation
import FrameOCR

// `frameocr-bench --soak DURATION` (issue 15, item 3): overload for a long time, and watch memory,
// file descriptors and the frame accounting. Three phases, one after another, each a third of
// DURATION:
//   1. a FrameProcessor (2 workers, queue 1) fed at twice the rate it can read, `latestWins`:
//      frames are dropped, never queued without bound;
//   2. the same under `block`: the submitter is held back (async submit suspends);
//   3. `frameocr serve --stdio --workers 2` under a request loop with 4 requests in flight.
// Every 10 s (--soak-interval) each phase samples the resident set size and the open file
// descriptors (of this process for 1 and 2, of the worker for 3, from /proc), and reports the
// least-squares slope in MB per hour over the samples after its warm-up (the first fifth), and its
// accounting: for the processor, submitted = processed + dropped, and results delivered + discarded =
// processed, with nothing still held; for the worker, one response per request. The frame is the fixture
// `Tests/FrameOCRTests/Fixtures/testocr.png` (640×480, 12-point text).

struct SoakSettings {
    var duration: Duration
    var interval: Duration = .seconds(10)
}

/// One sample of a process: seconds since the phase started, resident MB (10⁶ bytes), open fds.
struct SoakSample {
    var seconds: Double
    var residentMB: Double
    var descriptors: Int
}

/// Resident bytes and open descriptors of `pid` (nil: this process), from /proc.
func processUsage(_ pid: Int32? = nil) -> (residentBytes: Int, descriptors: Int)? {
    let dir = "/proc/\(pid.map(String.init) ?? "self")"
    guard let statm = try? String(contentsOfFile: dir + "/statm", encoding: .utf8) else { return nil }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    let fds = (try? FileManager.default.contentsOfDirectory(atPath: dir + "/fd").count) ?? -1
    return (pages * Int(sysconf(Int32(_SC_PAGESIZE))), fds)
}

/// The least-squares slope of MB over hours, over the samples after the first fifth of the phase.
func soakSlope(_ samples: [SoakSample], warmUp: Double) -> Double? {
    let s = samples.filter { $0.seconds >= warmUp }
    guard s.count >= 3 else { return nil }
    let n = Double(s.count)
    let mx = s.map(\.seconds).reduce(0, +) / n
    let my = s.map(\.residentMB).reduce(0, +) / n
    let sxy = s.map { ($0.seconds - mx) * ($0.residentMB - my) }.reduce(0, +)
    let sxx = s.map { ($0.seconds - mx) * ($0.seconds - mx) }.reduce(0, +)
    return sxx > 0 ? sxy / sxx * 3600 : nil
}

/// Samples `pid` every `interval` until `stop` says so.
final class Sampler: @unchecked Sendable {  // samples are written by the sampling task only, read after it ends
    private(set) var samples: [SoakSample] = []
    private var task: Task<Void, Never>?

    func start(pid: Int32?, interval: Duration) {
        let clock = ContinuousClock()
        let start = clock.now
        task = Task.detached { [self] in
            while !Task.isCancelled {
                if let u = processUsage(pid) {
                    samples.append(
                        SoakSample(
                            seconds: (clock.now - start).seconds, residentMB: Double(u.residentBytes) / 1e6,
                            descriptors: u.descriptors))
                }
                try? await Task.sleep(for: interval)
            }
        }
    }

    func stop() async {
        task?.cancel()
        await task?.value
    }
}

extension Duration {
    var seconds: Double { milliseconds / 1000 }
}

/// What one phase reports.
struct SoakPhase {
    var name: String
    var samples: [SoakSample]
    var warmUp: Double
    var accounting: String
    var balanced: Bool

    var slope: Double? { soakSlope(samples, warmUp: warmUp) }

    func line() -> String {
        let after = samples.filter { $0.seconds >= warmUp }
        let rss = after.first.map { a in String(format: "%.1f → %.1f MB", a.residentMB, after.last!.residentMB) } ?? "-"
        let fds = after.first.map { "\($0.descriptors) → \(after.last!.descriptors)" } ?? "-"
        let slopeText = slope.map { String(format: "%+.2f MB/h", $0) } ?? "too short"
        return
            "\(name): \(samples.count) samples; after warm-up RSS \(rss), slope \(slopeText), fds \(fds); \(accounting)"
    }
}

/// The soak: the three phases and their report; returns the number of failed checks.
func runSoak(_ settings: SoakSettings, root: String) async -> Int {
    let phaseLength = settings.duration / 3
    print(
        "soak: 3 phases of \(String(format: "%.0f", phaseLength.seconds)) s; samples every \(String(format: "%.0f", settings.interval.seconds)) s; slope after the first fifth"
    )
    var phases: [SoakPhase] = []
    var failures = 0
    do {
        let image = try PixelBuffer(contentsOfFile: root + "/Tests/FrameOCRTests/Fixtures/testocr.png")
        for policy in [FrameProcessor.DropPolicy.latestWins, .block] {
            phases.append(
                try await soakProcessor(image: image, policy: policy, length: phaseLength, settings: settings))
            print(phases.last!.line())
        }
        if let frameocr = CommandLineBench.frameocrBesideBench() {
            phases.append(
                try await soakServe(
                    frameocr: frameocr, image: root + "/Tests/FrameOCRTests/Fixtures/testocr.png", length: phaseLength,
                    settings: settings))
            print(phases.last!.line())
        } else {
            print("serve: skipped: no frameocr beside this executable (swift build -c release --product frameocr)")
            failures += 1
        }
    } catch {
        print("soak: FAILED: \(error)")
        return failures + 1
    }
    for p in phases {
        let ok = p.balanced && (p.slope.map { $0 < 5 } ?? false)
        print("target \(p.name): slope < 5 MB/h and every frame accounted for: \(ok ? "met" : "not met")")
        if !p.balanced { failures += 1 }
    }
    return failures
}

/// Phase 1 or 2: a processor fed at twice its measured rate for `length`.
func soakProcessor(image: PixelBuffer, policy: FrameProcessor.DropPolicy, length: Duration, settings: SoakSettings)
    async throws -> SoakPhase
{
    var pipeline = Pipeline()
    pipeline.orientation = .fromFrame
    let processor = try FrameProcessor(
        configuration: .init(pipeline: pipeline, workerCount: 2, queueCapacity: 1, dropPolicy: policy))
    let clock = ContinuousClock()
    let consumer = Task { () -> (delivered: Int, failed: Int) in
        var delivered = 0
        var failed = 0
        for await r in processor.results {
            delivered += 1
            if case .failed = r.status { failed += 1 }
        }
        return (delivered, failed)
    }
    var id: UInt64 = 0
    func frame() -> Frame {
        id += 1
        return Frame(id: id, timestamp: .milliseconds(Int64(id) * 10), buffer: image)
    }
    // The time one worker takes per frame: the median of 3 readings by a recognizer of its own
    // (after one to load), as the processor's workers read it.
    let recognizer = try Recognizer()
    var times: [Duration] = []
    for i in 0..<4 {
        let t0 = clock.now
        _ = try recognizer.recognize(image, pipeline: pipeline)
        if i > 0 { times.append(clock.now - t0) }
    }
    let perFrame = times.sorted()[1]
    let interval = perFrame / 4  // 2 workers read a frame each per `perFrame`: twice that rate
    let sampler = Sampler()
    sampler.start(pid: nil, interval: settings.interval)
    let end = clock.now + length
    var next = clock.now
    while clock.now < end {
        if policy == .block {
            _ = await processor.submit(frame())
        } else {
            _ = submitWithoutWaiting(processor, frame())
        }
        next += interval
        if next > clock.now { try? await Task.sleep(until: next, clock: clock) } else { next = clock.now }
    }
    await processor.finish()
    await sampler.stop()
    let (delivered, failedResults) = await consumer.value
    let s = processor.statistics()
    let dropped = s.droppedTotal
    let balanced =
        s.submitted == s.processed + dropped && s.framesHeld == 0 && delivered + s.resultsDiscarded == s.processed
    let accounting =
        "submitted \(s.submitted) = processed \(s.processed) (\(s.failed) failed) + dropped \(dropped), held \(s.framesHeld)"
        + " (\(balanced ? "balanced" : "NOT balanced")); results delivered \(delivered) (\(failedResults) failed), discarded \(s.resultsDiscarded); "
        + String(format: "%.1f frames/s read, offered %.1f", Double(s.processed) / length.seconds, 1 / interval.seconds)
    return SoakPhase(
        name: "processor \(policy.rawValue)", samples: sampler.samples, warmUp: length.seconds / 5,
        accounting: accounting, balanced: balanced)
}

/// The synchronous `submit` (the async overload is what `await` picks inside an async function).
func submitWithoutWaiting(_ processor: FrameProcessor, _ frame: Frame) -> FrameProcessor.SubmitOutcome {
    processor.submit(frame)
}

/// Phase 3: `frameocr serve --stdio --workers 2` with 4 requests in flight for `length`.
func soakServe(frameocr: String, image: String, length: Duration, settings: SoakSettings) async throws -> SoakPhase {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: frameocr)
    process.arguments = ["serve", "--stdio", "--workers", "2", "--no-auto", "--psm", "6"]
    var environment = ProcessInfo.processInfo.environment
    environment["OMP_THREAD_LIMIT"] = "1"
    process.environment = environment
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let sampler = Sampler()
    sampler.start(pid: process.processIdentifier, interval: settings.interval)
    let request = Data(("{\"id\":0,\"path\":\"" + image + "\",\"format\":\"text\"}\n").utf8)
    let reader = output.fileHandleForReading
    var pending = Data()
    var sent = 0
    var answered = 0
    var errors = 0
    func readResponses(atLeast: Int) {
        while answered < atLeast {
            let chunk = reader.availableData
            if chunk.isEmpty { return }  // the worker ended
            pending.append(chunk)
            while let nl = pending.firstIndex(of: 0x0A) {
                let line = pending[pending.startIndex..<nl]
                if !line.contains(Data("\"status\":\"ok\"".utf8)) { errors += 1 }
                answered += 1
                pending.removeSubrange(pending.startIndex...nl)
            }
        }
    }
    let clock = ContinuousClock()
    let end = clock.now + length
    while clock.now < end {
        while sent - answered < 4 {
            input.fileHandleForWriting.write(request)
            sent += 1
        }
        readResponses(atLeast: answered + 1)
    }
    try input.fileHandleForWriting.close()
    readResponses(atLeast: sent)
    process.waitUntilExit()
    await sampler.stop()
    let balanced = answered == sent && errors == 0 && process.terminationStatus == 0
    let accounting =
        "requests \(sent), responses \(answered), errors \(errors), exit \(process.terminationStatus) (\(balanced ? "balanced" : "NOT balanced")); "
        + String(format: "%.1f requests/s", Double(answered) / length.seconds)
    return SoakPhase(
        name: "serve --workers 2", samples: sampler.samples, warmUp: length.seconds / 5, accounting: accounting,
        balanced: balanced)
}
