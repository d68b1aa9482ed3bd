import Foundation
import FrameOCR
import Synchronization

/// `frameocr video SOURCE`: every frame of a video, a directory of numbered images, a camera, a
/// stream or a GStreamer pipeline through a ``FrameProcessor``, one line per result, then a
/// latency report. The source's forms, options and Ctrl-C are in `VideoCommand+Source.swift`.
package enum VideoCommand {
    static let help = """
        Usage: frameocr video SOURCE [options]

        Feeds every frame of a video file (MP4, MOV, MKV, AVI, WebM… through OpenCV's FFmpeg
        backend), of a directory of numbered images (png, jpg, jpeg, tif, tiff, bmp, pgm, ppm,
        webp, in natural order: 1, 2, 10), of a camera, a stream or a GStreamer pipeline to a
        FrameProcessor, prints one line per result as it arrives, then a latency report: per
        stage p50/p90/p99/max, frames submitted, processed, dropped (by reason), over budget and
        failed, achieved frames per second, and the queue's high-water mark.

        Source:
        \(sourceHelp)

        Stream:
          --workers N               worker threads, each with its own engine (default: cores)
          --queue N                 frames that may wait for a worker (default 1)
          --drop P                  when the queue is full: latest (drop the oldest queued frame,
                                    default) | newest (drop the new frame) | block (wait; no drops)
          --fps N                   accept at most N frames per second (by frame timestamps)
          --budget D                latency budget per frame, submission to result: 40ms, 0.5s,
                                    or 250 (milliseconds); a frame over it has status
                                    budgetExceeded and its partial text
          --realtime                deliver frames at their timestamps, like a camera (default:
                                    as fast as they decode)
          --frame-rate N            frames per second of an image directory (default 30)

        Live reading (default): the lines of text are followed from frame to frame, each with a
        stable id and the consensus of its readings; a frame unchanged since the last one read is
        reused, a blurred one skipped, and lines are read one by one until the budget is spent.
          --whole-frames            read every frame whole instead (no tracking, no gate)
          --min-text-height N       smallest line read: its text's height, capitals and ascenders
                                    to descenders, in pixels (default 10)
          --detect-every N          with the CTC engine installed (not --engine tesseract): the
                                    text detector runs on a frame read every N frames read, off
                                    the frames' path, and scene text it finds is read by the CTC
                                    recognizer (default 15; 0: never)

        Output:
          --format F                text (default): a line per track event — "+ SECONDS #ID TEXT"
                                    when a track gets text, "~ …" when its text changes, "= …"
                                    when it is confirmed, "- …" when it is removed
                                    (with --whole-frames: "#ID SECONDS
                                    [STATUS] TEXT" per result), report on standard output;
                                    jsonl: one JSON object per result (frame, timestampMs, status,
                                    gate, text, tracks, linesRead, backend, timingsMs,
                                    recognition), report on standard error
          --events                  with --format jsonl, also a line per track event as it
                                    comes: {"event": "added"|"updated"|"confirmed"|"removed",
                                    "frame": N, "track": {…}} (N: the track's last frame seen)
          --stats-json FILE         also write the statistics as JSON to FILE
          --http ADDR:PORT          serve a live page while reading (docs/http.md): GET / (the
                                    stream with each track drawn, the tracks, the figures),
                                    /stream.mjpg, /events (Server-Sent Events), /v1/tracks,
                                    /metrics (Prometheus), /healthz; viewers never slow the reader
          --annotate FILE           also write the video with what was read drawn on each frame:
                                    every track's box, #id, text and confidence (solid when
                                    confirmed, dashed when new, thin grey when lost), or with
                                    --whole-frames each recognized line; every source frame, at
                                    the source's frame rate (a dropped frame shows the tracks last
                                    known). .mp4, .m4v, .mov, .mkv (MPEG-4) or .avi (MJPEG)

        Preprocessing:
        \(CommonOptions.help)

        Recognition:
        \(CommonOptions.recognitionHelp)
        \(CommonOptions.precisionHelp)

        A progress line is written to standard error when it is a terminal. Ctrl-C (or SIGTERM)
        stops reading, finishes the frames already read and prints the report; a second one quits
        at once (status 130). Exit status: 0 (also after the first Ctrl-C), or 1 when the source
        could not be opened or read to the end (a stall included) or a frame failed, 2 for bad
        usage.
        """

    /// The options `video` takes: with a value, and flags.
    package static let valued = CommonOptions.valued.union([
        "workers", "queue", "drop", "fps", "budget", "frame-rate", "format", "stats-json", "min-text-height",
        "detect-every", "annotate", "http", "precision",
    ]).union(sourceValued)
    package static let flags = CommonOptions.flags.union(["help", "realtime", "whole-frames", "events"])

    /// What the options ask for, checked, before anything is opened.
    package struct Plan {
        var path: String
        package var location: VideoSource.Location
        var format: String
        /// `--events`: track events as JSON lines among the results.
        var events = false
        var pipeline: Pipeline
        package var configuration: FrameProcessor.Configuration
        var sourceOptions: VideoSource.Options
        var realtime: Bool
        var frameLimit: Int?
    }

    /// Checks the options and SOURCE's form (`VideoSource.Location(parsing:)`) without opening
    /// anything.
    /// - Throws: `UsageError` for a bad option; `FrameOCRError` for a bad configuration or SOURCE.
    package static func plan(_ a: Arguments) throws -> Plan {
        guard a.positionals.count == 1, let path = a.positionals.first else {
            throw UsageError("video needs exactly one SOURCE (a file, directory, camera, URL or pipeline)")
        }
        let format = a.value("format") ?? "text"
        guard ["text", "jsonl"].contains(format) else { throw UsageError("--format: '\(format)' is not text or jsonl") }
        if a.flag("events") {
            guard format == "jsonl", !a.flag("whole-frames") else {
                throw UsageError(
                    "--events: track events as JSON Lines, with --format jsonl and live reading (not --whole-frames)")
            }
        }

        var pipeline = try CommonOptions.pipeline(a)
        // A live stream's frames carry their orientation (a decoded video's: upright as stored);
        // a FrameProcessor never detects one.
        if pipeline.orientation == .unknown { pipeline.orientation = .fromFrame }
        var configuration = FrameProcessor.Configuration(
            pipeline: pipeline, recognizer: try CommonOptions.recognizer(a))
        if let n = try a.int("workers") { configuration.workerCount = n }
        try CommonOptions.configureNeuralRuntime(a, workers: configuration.workerCount)
        if let n = try a.int("queue") { configuration.queueCapacity = n }
        if let d = a.value("drop") {
            switch d {
            case "latest", "latestWins": configuration.dropPolicy = .latestWins
            case "newest", "dropNewest": configuration.dropPolicy = .dropNewest
            case "block": configuration.dropPolicy = .block
            default: throw UsageError("--drop: '\(d)' is not latest, newest or block")
            }
        }
        if !a.flag("whole-frames") {
            var live = LiveReading()
            if let h = try a.double("min-text-height") { live.minimumTextHeight = h }
            if let n = try a.int("detect-every") { live.detectEvery = n }
            configuration.liveReading = live
        } else {
            for name in ["min-text-height", "detect-every"] where a.value(name) != nil {
                throw UsageError("--\(name) is a live-reading option: not with --whole-frames")
            }
        }
        configuration.targetFrameRate = try a.double("fps")
        configuration.latencyBudget = try a.duration("budget")
        let frameRate = try a.double("frame-rate") ?? 30
        let frameLimit = try frameLimit(a)
        try configuration.validate()
        let options = try sourceOptions(a, frameRate: frameRate)
        return Plan(
            path: path, location: try VideoSource.Location(parsing: path), format: format, events: a.flag("events"),
            pipeline: pipeline, configuration: configuration, sourceOptions: options, realtime: a.flag("realtime"),
            frameLimit: frameLimit)
    }

    /// Runs on the main actor: frames are decoded and submitted here (under `--drop block` the
    /// submission suspends until there is room), while results are printed from a detached task.
    @MainActor
    static func run(_ raw: [String]) async throws -> Int32 {
        let a = try Arguments(raw, valued: valued, flagNames: flags)
        if a.flag("help") {
            print(help)
            return 0
        }
        let plan = try plan(a)
        FrameAllocator.configureForFrames()
        let (path, format, pipeline, configuration) = (plan.path, plan.format, plan.pipeline, plan.configuration)
        let (realtime, frameLimit, eventLines) = (plan.realtime, plan.frameLimit, plan.events)
        var source = try VideoSource(plan.location, options: plan.sourceOptions)
        let interruption = Interruption(stopping: source.stopHandle)
        defer { withExtendedLifetime(interruption) {} }  // a second Ctrl-C during finish() still counts
        let sourceFrameRate = source.frameRate
        let sourceFrameCount = source.frameCount
        let processor = try FrameProcessor(configuration: configuration)
        // --http: the live page, the annotated stream, the events and the figures, served while
        // the video is read (docs/http.md, "The live page").
        let liveView = a.value("http").map { _ in
            LiveView(inFlight: configuration.workerCount + configuration.queueCapacity) { processor.statistics() }
        }
        let httpServer = try a.value("http").map { text -> HTTPServer in
            let (address, port) = try ServeCommand.listenAddress(text)
            let service = LiveService(view: liveView!)
            let server = try HTTPServer(address: address, port: port, limits: HTTPLimits(), handler: service.handle)
            service.requests.attach(server)
            printError("frameocr video: live page on http://\(address):\(server.port)/")
            return server
        }
        defer { httpServer?.stop() }
        // Runs before the server stops (defers run last first): the viewers' streams end and the
        // encoder thread returns, on every way out of here.
        defer { liveView?.finish() }
        let annotation = try a.value("annotate").map { file in
            try Annotating(
                file: file, source: source, pipeline: pipeline,
                inFlight: configuration.workerCount + configuration.queueCapacity)
        }

        // The consumers: print each result (jsonl, or text without live reading) and each track
        // event (text with live reading) as they arrive, while this task feeds frames.
        let live = configuration.liveReading != nil
        // With --events, results and events go to standard output from two tasks: a line at a time.
        let output = NSLock()
        let printer = Task.detached { () -> Int in
            var delivered = 0
            for await result in processor.results {
                delivered += 1
                annotation?.deliver(result)
                liveView?.deliver(result)
                if format == "jsonl" {
                    output.withLock { writeOut(VideoOutput.jsonLine(result) + "\n") }
                } else if !live {
                    writeOut(VideoOutput.textLine(result) + "\n")
                }
            }
            return delivered
        }
        let events = Task.detached {
            for await event in processor.trackEvents {
                liveView?.event(event)
                if format == "text" { writeOut(VideoOutput.eventLine(event) + "\n") }
                if eventLines { output.withLock { writeOut(VideoOutput.eventJSON(event, frame: true) + "\n") } }
            }
        }

        let progress = ProgressLine(interval: .milliseconds(100))
        let of = sourceFrameCount.map { "/\($0)" } ?? ""
        let pacer = realtime ? FramePacer() : nil
        var readError: FrameOCRError?
        var reachedLimit = false
        do {
            while let frame = try source.next() {
                if let pacer { try await pacer.wait(for: frame.timestamp) }
                annotation?.add(frame)
                liveView?.add(frame)
                let outcome = await processor.submit(frame)
                annotation?.record(outcome, for: frame.id)
                progress.update(done: Int(frame.id) + 1) { read, _ in
                    let s = processor.statistics()
                    return
                        "frame \(read)\(of): processed \(s.processed), dropped \(s.droppedTotal), over budget \(s.overBudget), "
                        + String(format: "%.1f fps", s.achievedFramesPerSecond)
                }
                if let frameLimit, Int(frame.id) + 1 >= frameLimit {
                    reachedLimit = true
                    break
                }
            }
        } catch let error as FrameOCRError {
            readError = error
        }
        let stoppedBy =
            interruption.signalName ?? (readError != nil ? "error" : reachedLimit ? "frames" : "end")
        await processor.finish()
        let delivered = await printer.value
        await events.value
        liveView?.finish()
        progress.finish(keeping: false)
        let annotated = annotation?.finish()

        let statistics = processor.statistics()
        let report = VideoReport.table(statistics, sourceFrameRate: sourceFrameRate, delivered: delivered)
        if format == "jsonl" { printError(String(report.dropLast())) } else { writeOut(report) }
        if let line = sourceLine(source, stoppedBy: stoppedBy) {
            if format == "jsonl" { printError(line) } else { writeOut(line + "\n") }
        }

        if let file = a.value("stats-json") {
            let report = VideoReport.StatisticsFile(
                statistics, delivered: delivered, source: sourceReport(source, stoppedBy: stoppedBy),
                configuration: VideoReport.Configuration(
                    workers: configuration.workerCount, queue: configuration.queueCapacity,
                    drop: configuration.dropPolicy.rawValue, realtime: realtime,
                    fps: .init(configuration.targetFrameRate),
                    budgetMs: .init(configuration.latencyBudget?.milliseconds)),
                readError: readError?.description, annotation: annotated?.report)
            do {
                try VideoReport.json(report).write(to: URL(fileURLWithPath: file))
            } catch {
                throw FrameOCRError(.io, "\(file): \(error.localizedDescription)", stage: .write)
            }
        }
        if let annotated { printError(annotated.line) }
        if let readError {
            printError("frameocr: \(path): stopped after frame \(statistics.submitted): \(readError.description)")
            return 1
        }
        if annotated?.error != nil { return 1 }
        return statistics.failed > 0 ? 1 : 0
    }
}
