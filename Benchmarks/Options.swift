import Foundation
import FrameOCR
import FrameOCRCommandLine
import FrameOCREvaluation
import FrameOCRSynthesis

// The benchmark's options: parsed once with the command line's parser (`Arguments`), then taken
// in the order given, so that a later one overrides an earlier one and the first mistake is the
// one reported.

let usage = """
    Usage: frameocr-bench [options]
      --quick                 small sizes (640x480, 1280x720), 5 runs, 1 warm-up, no recognition (CI)
      --runs N                timed runs per case (default 30; --quick 5)
      --warmup N              untimed runs first (default 3; --quick 1)
      --sizes WxH,...         frame sizes (default 640x480,1280x720,1920x1080,3840x2160)
      --filter S              run only cases whose id (name/backend/size) contains S; repeatable,
                              or comma-separated (any one matches)
      --backend cpu|opencl    only this backend (same as a filter on /cpu/ or /opencl/)
      --no-recognition        skip end-to-end recognition (the recognition sets, documents-auto,
                              scenes-auto, plates-auto, ray-clean and cli-phototest)
      --no-tesserocr          no tesserocr rows even when `make tesserocr` has built the peer
      --cli-runs N            runs of each program in cli-version (default 20; --quick 10);
                              cli-phototest runs a quarter of them (at least 3)
      --recognition-runs N    rounds of each recognition set (default 3)
      --http-seconds N        how long the http-load row's 8 clients run (default 20)
      --http-requests N       the http-load row stops after N requests (or --http-seconds,
                              default 600 with this option)
      --jobs N                recognition threads (default: active processors)
      --data DIR              test data (default ../shared/data relative to the package root)
      --video-step N          recognize every Nth video frame (default 10)
      --json FILE             write all results as JSON (schema in the README)
      --compare FILE          compare ratios with a JSON file from an earlier run; exit 3 on a regression
      --max-regression P      allowed regression of a ratio, e.g. 10% (default 10%)
      --current FILE          with --compare: compare this JSON file instead of running anything
      --list                  print the case ids and exit
      --allow-debug           run a debug build without --quick (timings are meaningless)
      --live HALF             only live reading on generated scenes (tuning, held-out or both), each
                              scene live and with whole frames side by side; see "Live reading" in
                              docs/benchmarks.md
      --live-count N          seeds per scene kind (default 1: 12 scenes per half)
      --live-frames N         frames per scene (default 75: 3 s at 25 frames/s)
      --live-kinds K,...      only these kinds (pan, zoom, turn, blur, hide, appearLeave, still, light,
                              change, handheld, burst, occluder, jpeg)
      --live-set NAME=V,...   play the live side once per value of a LiveReading setting
      --live-budget D         latency budget, e.g. 80ms, or none (default 80ms)
      --live-workers N        workers (default 2)
      --live-fast             submit frames as fast as they are taken, not in real time
      --live-no-baseline      skip the whole-frame side
      --live-verbose          print each line's text and what it was read as
      --live-dump DIR         write the scenes' frames to DIR as PNG (NAME-NNN.png) and play nothing
      --soak D                only the soak: a FrameProcessor at twice the rate it reads (latestWins,
                              then block) and `frameocr serve --stdio` under a request loop, a third
                              of D each (e.g. 10m, 90s); RSS and open fds every 10 s, the slope in
                              MB/hour, the frame accounting; see docs/hardening.md
      --soak-interval D       sampling interval of the soak (default 10s)
    Exit status: 0 ok, 1 error, 2 bad usage or debug build, 3 a ratio regressed.
    """

/// Prints `message` on standard error and exits with `status` (2: bad usage).
func fail(_ message: String, status: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("frameocr-bench: \(message)\n".utf8))
    exit(status)
}

/// What the command line asks for.
struct BenchOptions {
    var quick = false
    var runs: Int?
    var warmup: Int?
    var sizes: [(Int, Int)]?
    var filters: [String] = []
    var recognition = true
    var recognitionRuns = 3
    /// `--http-seconds` (nil: not given).
    var httpSecondsGiven: Double?
    /// How long the `http-load` row's clients run, seconds: as given, else 600 with
    /// `--http-requests` and 20 without.
    var httpSeconds: Double { httpSecondsGiven ?? (httpRequests != nil ? 600 : 20) }
    /// The `http-load` row's requests at most (nil: as many as `httpSeconds` allows).
    var httpRequests: Int?
    var tesserocr = true
    var cliRuns: Int?
    var jobs = ProcessInfo.processInfo.activeProcessorCount
    var dataDir: String?
    var videoStep = 10
    var jsonPath: String?
    var comparePath: String?
    var currentPath: String?
    var maxRegression = 0.10
    var listOnly = false
    var allowDebug = false
    var liveBench: LiveBench?
    var soak: SoakSettings?

    static let valued: Set<String> = [
        "runs", "warmup", "sizes", "filter", "backend", "recognition-runs", "http-seconds", "http-requests", "cli-runs",
        "jobs", "data",
        "video-step",
        "json", "compare", "current", "max-regression", "live", "live-count", "live-frames", "live-workers",
        "live-kinds", "live-set", "live-budget", "live-dump", "soak", "soak-interval",
    ]
    static let flags: Set<String> = [
        "quick", "no-recognition", "no-tesserocr", "list", "allow-debug", "live-fast", "live-no-baseline",
        "live-verbose", "help",
    ]

    /// Parses `arguments` (the process's, after its name); prints the usage and exits 0 for
    /// `--help`, exits 2 with a message for a mistake.
    init(_ arguments: [String]) {
        let a: Arguments
        do { a = try Arguments(arguments, valued: Self.valued, flagNames: Self.flags) } catch {
            fail("\(error.unknownArgument.map { "unknown argument \($0)" } ?? error.description)\n\(usage)")
        }
        for p in a.positionals {
            guard p == "-h" else { fail("unknown argument \(p)\n\(usage)") }
            print(usage)
            exit(0)
        }
        for (name, value) in a.options { apply(name, value ?? "") }
        if currentPath != nil, comparePath == nil { fail("--current needs --compare") }
    }

    /// Takes one option (`value` is empty for a flag).
    private mutating func apply(_ name: String, _ value: String) {
        let flag = "--" + name
        func positive(allowZero: Bool = false) -> Int {
            guard let n = Int(value), allowZero ? n >= 0 : n > 0 else {
                fail("\(flag) \(value): expected a \(allowZero ? "non-negative" : "positive") integer")
            }
            return n
        }
        switch name {
        case "quick": quick = true
        case "runs": runs = positive()
        case "warmup": warmup = positive(allowZero: true)
        case "sizes":
            sizes = value.split(separator: ",").map { s in
                let p = s.split(separator: "x").compactMap { Int($0) }
                guard p.count == 2, p[0] >= 32, p[1] >= 32 else { fail("--sizes \(s): expected WxH, each ≥ 32") }
                return (p[0], p[1])
            }
        case "filter": filters += value.split(separator: ",").map(String.init).filter { !$0.isEmpty }
        case "backend":
            guard value == "cpu" || value == "opencl" else { fail("--backend \(value): cpu or opencl") }
            filters.append("/\(value)/")
        case "no-recognition": recognition = false
        case "recognition-runs": recognitionRuns = positive()
        case "http-seconds": httpSecondsGiven = Double(positive())
        case "http-requests": httpRequests = positive()
        case "no-tesserocr": tesserocr = false
        case "cli-runs": cliRuns = positive()
        case "jobs": jobs = positive()
        case "data": dataDir = value
        case "video-step": videoStep = positive()
        case "json": jsonPath = value
        case "compare": comparePath = value
        case "current": currentPath = value
        case "max-regression":
            guard let p = parsePercent(value) else {
                fail("--max-regression \(value): expected a percentage such as 10%")
            }
            maxRegression = p
        case "list": listOnly = true
        case "allow-debug": allowDebug = true
        case "live":
            let halves: [SyntheticScene.Half] =
                switch value {
                case "tuning": [.tuning]
                case "held-out", "heldOut": [.heldOut]
                case "both": [.tuning, .heldOut]
                default: fail("--live \(value): tuning, held-out or both")
                }
            liveBench = LiveBench(halves: halves)
        case _ where name.hasPrefix("live-"):
            guard liveBench != nil else { fail("\(flag) goes after --live") }
            applyLive(name, value)
        case "soak": soak = SoakSettings(duration: Self.soakDuration(value))
        case "soak-interval":
            guard soak != nil else { fail("--soak-interval goes after --soak") }
            soak!.interval = Self.soakDuration(value)
        case "help":
            print(usage)
            exit(0)
        default: fail("unknown argument --\(name)\n\(usage)")
        }
    }

    /// Takes one `--live-…` option (after `--live`).
    private mutating func applyLive(_ name: String, _ value: String) {
        func positive() -> Int {
            guard let n = Int(value), n > 0 else { fail("--\(name) \(value): expected a positive integer") }
            return n
        }
        switch name {
        case "live-count": liveBench!.count = positive()
        case "live-frames": liveBench!.frames = positive()
        case "live-workers": liveBench!.workers = positive()
        case "live-kinds":
            liveBench!.kinds = value.split(separator: ",").map { k in
                guard let kind = SyntheticScene.Kind(rawValue: String(k)) else {
                    fail("--live-kinds: unknown kind \(k)")
                }
                return kind
            }
        case "live-set":
            let parts = value.split(separator: "=", maxSplits: 1)
            var probe = LiveReading()
            guard parts.count == 2, setLiveReading(&probe, String(parts[0]), 0) else {
                fail("--live-set \(value): expected NAME=V1,V2 with a LiveReading setting")
            }
            let values = parts[1].split(separator: ",").compactMap { Double($0) }
            guard !values.isEmpty else { fail("--live-set \(value): no values") }
            liveBench!.sweep = (String(parts[0]), values)
        case "live-budget":
            if value == "none" {
                liveBench!.budget = nil
            } else {
                guard value.hasSuffix("ms"), let n = Int(value.dropLast(2)), n > 0 else {
                    fail("--live-budget \(value): e.g. 80ms or none")
                }
                liveBench!.budget = .milliseconds(n)
            }
        case "live-fast": liveBench!.realTime = false
        case "live-dump": liveBench!.dump = value
        case "live-verbose": liveBench!.verbose = true
        default: liveBench!.baseline = false  // live-no-baseline
        }
    }

    /// A duration for --soak: `10m`, `90s`, `1h`, `500ms` (the CLI's forms), or plain seconds; at
    /// most a day.
    static func soakDuration(_ text: String) -> Duration {
        let plainSeconds = Double(text) != nil
        guard let d = Arguments.parseDuration(plainSeconds ? text + "s" : text), d <= .seconds(86400) else {
            fail("\(text): a duration such as 10m, 90s or 500ms (at most a day)")
        }
        return d
    }

    // What the options come to once --quick is applied.

    /// Timed runs per case.
    var runCount: Int { runs ?? (quick ? 5 : 30) }
    /// Untimed runs first.
    var warmupCount: Int { warmup ?? (quick ? 1 : 3) }
    /// Frame sizes.
    var sizeList: [(Int, Int)] {
        sizes ?? (quick ? [(640, 480), (1280, 720)] : [(640, 480), (1280, 720), (1920, 1080), (3840, 2160)])
    }
    /// End-to-end recognition (never under --quick).
    var recognizes: Bool { recognition && !quick }
    /// Runs of each program in cli-version.
    var cliRunCount: Int { cliRuns ?? (quick ? 10 : 20) }

    /// Whether case `id` is selected by the filters (all are without one).
    func selected(_ id: String) -> Bool { filters.isEmpty || filters.contains { id.contains($0) } }
}
