import CAllocationCounter
import Foundation
import FrameOCR
import FrameOCRCommandLine
import FrameOCREvaluation
import FrameOCRSynthesis

// frameocr-bench — FrameOCR measured side by side with its baselines in the same run:
//   preprocessing (gray from BGRA/RGBA/NV12/I420, crop, rotate .right, adaptive threshold mean
//   and Gaussian block 31, and the whole chain) at several sizes on the CPU and OpenCL backends,
//   each against plain OpenCV (Benchmarks/Baselines/baseline.cpp) and a memcpy of its input bytes;
//   end-to-end recognition of real images against the `tesseract` command and tesserocr (Peers.swift);
//   the CLI's start-up time and peak memory (Startup.swift); automatic preprocessing against
//   --no-auto on the document folders (Documents.swift).
// Results are ratios (both sides measured in the same rounds), so they hold on a noisy machine.
// See the README, "Benchmarks". Build in release mode:
//   swift build -c release --product frameocr-bench && .build/release/frameocr-bench --quick

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
                              scenes-auto, ray-clean and cli-phototest)
      --no-tesserocr          no tesserocr rows even when `make tesserocr` has built the peer
      --cli-runs N            runs of each program in cli-version (default 20; --quick 10);
                              cli-phototest runs a quarter of them (at least 3)
      --recognition-runs N    rounds of each recognition set (default 3)
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
      --live-count N          seeds per scene kind (default 1: 9 scenes per half)
      --live-frames N         frames per scene (default 75: 3 s at 25 frames/s)
      --live-kinds K,...      only these kinds (pan, zoom, turn, blur, hide, appearLeave, still, light,
                              change)
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

focr_bench_line_buffered_stdout()  // rows appear as they are measured, also through a pipe or file

func fail(_ message: String, status: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("frameocr-bench: \(message)\n".utf8))
    exit(status)
}

// MARK: - Arguments

var quick = false
var runs: Int?
var warmup: Int?
var sizes: [(Int, Int)]?
var filters: [String] = []
var recognition = true
var recognitionRuns = 3
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

/// A duration for --soak: `10m`, `90s`, `1h`, `500ms` (the CLI's forms), or plain seconds; at
/// most a day.
func soakDuration(_ text: String) -> Duration {
    let plainSeconds = Double(text) != nil
    guard let d = Arguments.parseDuration(plainSeconds ? text + "s" : text), d <= .seconds(86400) else {
        fail("\(text): a duration such as 10m, 90s or 500ms (at most a day)")
    }
    return d
}

var args = CommandLine.arguments.dropFirst()
@MainActor func value(_ flag: String) -> String {
    guard let v = args.popFirst() else { fail("\(flag) needs a value\n\(usage)") }
    return v
}
@MainActor func positive(_ flag: String, allowZero: Bool = false) -> Int {
    let v = value(flag)
    guard let n = Int(v), allowZero ? n >= 0 : n > 0 else {
        fail("\(flag) \(v): expected a \(allowZero ? "non-negative" : "positive") integer")
    }
    return n
}
while let a = args.popFirst() {
    switch a {
    case "--quick": quick = true
    case "--runs": runs = positive(a)
    case "--warmup": warmup = positive(a, allowZero: true)
    case "--sizes":
        sizes = value(a).split(separator: ",").map { s in
            let p = s.split(separator: "x").compactMap { Int($0) }
            guard p.count == 2, p[0] >= 32, p[1] >= 32 else { fail("--sizes \(s): expected WxH, each ≥ 32") }
            return (p[0], p[1])
        }
    case "--filter": filters += value(a).split(separator: ",").map(String.init).filter { !$0.isEmpty }
    case "--backend":
        let b = value(a)
        guard b == "cpu" || b == "opencl" else { fail("--backend \(b): cpu or opencl") }
        filters.append("/\(b)/")
    case "--no-recognition": recognition = false
    case "--recognition-runs": recognitionRuns = positive(a)
    case "--no-tesserocr": tesserocr = false
    case "--cli-runs": cliRuns = positive(a)
    case "--jobs": jobs = positive(a)
    case "--data": dataDir = value(a)
    case "--video-step": videoStep = positive(a)
    case "--json": jsonPath = value(a)
    case "--compare": comparePath = value(a)
    case "--current": currentPath = value(a)
    case "--max-regression":
        let v = value(a)
        guard let p = parsePercent(v) else { fail("--max-regression \(v): expected a percentage such as 10%") }
        maxRegression = p
    case "--list": listOnly = true
    case "--allow-debug": allowDebug = true
    case "--live":
        let v = value(a)
        let halves: [SyntheticScene.Half] =
            switch v {
            case "tuning": [.tuning]
            case "held-out", "heldOut": [.heldOut]
            case "both": [.tuning, .heldOut]
            default: fail("--live \(v): tuning, held-out or both")
            }
        liveBench = LiveBench(halves: halves)
    case "--live-count", "--live-frames", "--live-workers", "--live-kinds", "--live-set", "--live-budget",
        "--live-fast", "--live-no-baseline", "--live-dump", "--live-verbose":
        guard liveBench != nil else { fail("\(a) goes after --live") }
        switch a {
        case "--live-count": liveBench!.count = positive(a)
        case "--live-frames": liveBench!.frames = positive(a)
        case "--live-workers": liveBench!.workers = positive(a)
        case "--live-kinds":
            liveBench!.kinds = value(a).split(separator: ",").map { k in
                guard let kind = SyntheticScene.Kind(rawValue: String(k)) else {
                    fail("--live-kinds: unknown kind \(k)")
                }
                return kind
            }
        case "--live-set":
            let v = value(a)
            let parts = v.split(separator: "=", maxSplits: 1)
            var probe = LiveReading()
            guard parts.count == 2, setLiveReading(&probe, String(parts[0]), 0) else {
                fail("--live-set \(v): expected NAME=V1,V2 with a LiveReading setting")
            }
            let values = parts[1].split(separator: ",").compactMap { Double($0) }
            guard !values.isEmpty else { fail("--live-set \(v): no values") }
            liveBench!.sweep = (String(parts[0]), values)
        case "--live-budget":
            let v = value(a)
            if v == "none" {
                liveBench!.budget = nil
            } else {
                guard v.hasSuffix("ms"), let n = Int(v.dropLast(2)), n > 0 else {
                    fail("--live-budget \(v): e.g. 80ms or none")
                }
                liveBench!.budget = .milliseconds(n)
            }
        case "--live-fast": liveBench!.realTime = false
        case "--live-dump": liveBench!.dump = value(a)
        case "--live-verbose": liveBench!.verbose = true
        default: liveBench!.baseline = false
        }
    case "--soak": soak = SoakSettings(duration: soakDuration(value(a)))
    case "--soak-interval":
        guard soak != nil else { fail("--soak-interval goes after --soak") }
        soak!.interval = soakDuration(value(a))
    case "--help", "-h":
        print(usage)
        exit(0)
    default: fail("unknown argument \(a)\n\(usage)")
    }
}
if currentPath != nil, comparePath == nil { fail("--current needs --compare") }

// MARK: - Compare two files without running

if let comparePath, let currentPath {
    do {
        let c = compare(
            current: try loadRatios(currentPath), baseline: try loadRatios(comparePath), maxRegression: maxRegression)
        printComparison(c, baselinePath: comparePath, maxRegression: maxRegression)
        exit(c.regressions > 0 ? 3 : 0)
    } catch {
        fail("cannot compare: \(error)", status: 1)
    }
}

// MARK: - Live reading (its own run)

if let liveBench {
    #if DEBUG
        if !allowDebug { fail("--live measures latency: build with -c release, or pass --allow-debug") }
    #endif
    let failures = await runLiveBench(liveBench)
    exit(failures > 0 ? 1 : 0)
}

// MARK: - Soak (its own run)

if let soak {
    #if DEBUG
        if !allowDebug { fail("--soak measures a release build: build with -c release, or pass --allow-debug") }
    #endif
    let failures = await runSoak(soak, root: packageRoot())
    exit(failures > 0 ? 1 : 0)
}

// MARK: - Debug builds

#if DEBUG
    if !quick && !allowDebug && !listOnly {
        fail(
            "this is a debug build: timings would be meaningless. Build with `swift build -c release --product frameocr-bench`, or pass --quick (smoke run) or --allow-debug."
        )
    }
    FileHandle.standardError.write(
        Data(
            "warning: frameocr-bench built in DEBUG mode: timings and ratios are NOT representative (use -c release)\n"
                .utf8))
#endif

if quick {
    runs = runs ?? 5
    warmup = warmup ?? 1
    sizes = sizes ?? [(640, 480), (1280, 720)]
    recognition = false
}
let runCount = runs ?? 30
let warmupCount = warmup ?? 3
let sizeList = sizes ?? [(640, 480), (1280, 720), (1920, 1080), (3840, 2160)]

/// The package root: the nearest folder above the executable (or the current one) with Package.swift.
func packageRoot() -> String {
    for start in [
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent(),
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
    ] {
        var dir = start
        while dir.path != "/" {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
                return dir.path
            }
            dir.deleteLastPathComponent()
        }
    }
    return FileManager.default.currentDirectoryPath
}
let data = dataDir ?? URL(fileURLWithPath: packageRoot()).appendingPathComponent("../shared/data").standardized.path

@MainActor func selected(_ id: String) -> Bool { filters.isEmpty || filters.contains { id.contains($0) } }

// MARK: - Run

let devices = OpenCLRuntime.shared.availableDevices
var context: OpenCLContext?
var openCLNote: String?
if !devices.isEmpty && !listOnly && filters.allSatisfy({ !$0.contains("/cpu/") }) {
    do { context = try OpenCLRuntime.shared.context(named: nil) } catch {
        openCLNote = "OpenCL cases skipped: \(error)"
    }
} else if devices.isEmpty {
    openCLNote = "OpenCL cases skipped: no OpenCL device"
}

var specs: [CaseSpec] = []
for (w, h) in sizeList {
    specs += preprocessingSpecs(width: w, height: h, openCL: !devices.isEmpty).filter { selected($0.id) }
}
let recognitionNames = ["recognize-tesseract-test", "recognize-uw3-lines", "recognize-video"]
/// The recognition rows' ids (each set against the command, then against tesserocr) and the rest.
let recognitionIds = recognitionNames.flatMap { ["\($0)/cpu/batch", "\($0)-tesserocr/cpu/batch"] }
let cliIds = ["cli-version/cpu/process", "cli-phototest/cpu/process"]
let documentsId = "documents-auto/cpu/batch"
let scenesId = "scenes-auto/cpu/batch"
if listOnly {
    for s in specs { print(s.id) }
    for id in [cliIds[0], limitId] + (recognition ? [cliIds[1]] + recognitionIds + [documentsId, scenesId, rayId] : [])
    where selected(id) {
        print(id)
    }
    exit(0)
}

let machine = Machine.current(openCL: devices)
print(
    "frameocr-bench: \(runCount) runs after \(warmupCount) warm-up, case / OpenCV / memcpy interleaved round by round")
print(
    "machine: \(machine.cpu), \(machine.cores) cores, \(machine.os), build \(machine.build); allocations: \(machine.allocationCounting)"
)
if let context { print("opencl: \(context.device.name) (\(context.device.platform))") }
if let openCLNote { print(openCLNote) }
print("chain: frame stored .right → gray → crop centred 80 % → rotate upright → adaptive mean 31 (C 10)")
print(
    "×OpenCV = OpenCV time / case time (> 1: faster); ×memcpy = case time / memcpy of its input bytes; allocs/f = heap allocations per frame"
)
print("")
print(Table.header())

var results: [CaseResult] = []
var failures = 0
for spec in specs {
    do {
        let c = try makePreprocessingCase(spec, context: context)
        let memcpySize = c.memcpyBytes
        let from = UnsafeMutableRawPointer.allocate(byteCount: memcpySize, alignment: 64)
        let to = UnsafeMutableRawPointer.allocate(byteCount: memcpySize, alignment: 64)
        defer {
            from.deallocate()
            to.deallocate()
        }
        memset(from, 7, memcpySize)
        var sides = [Side(body: c.body)]
        if let b = c.baseline { sides.append(Side(body: b)) }
        sides.append(Side(body: { memcpy(to, from, memcpySize) }))
        try measureInterleaved(&sides, warmup: warmupCount, runs: runCount)
        let t = Timing(sides[0].samples)
        var r = CaseResult(spec: spec, runs: runCount, ms: t)
        r.megapixelsPerSecond = Double(c.pixels) / 1e6 / (t.p50 / 1e3)
        r.bytesMoved = c.bytesMoved
        r.gigabytesPerSecond = Double(c.bytesMoved) / 1e9 / (t.p50 / 1e3)
        r.allocationsPerFrame = Allocations.active ? Double(sides[0].allocations) / Double(runCount) : nil
        if c.baseline != nil, let name = c.baselineName {
            let b = Timing(sides[1].samples)
            r.baseline = BaselineResult(
                name: name, ms: b,
                allocationsPerFrame: Allocations.active ? Double(sides[1].allocations) / Double(runCount) : nil)
            r.ratios.vsBaseline = b.p50 / t.p50
        }
        let m = Timing(sides[sides.count - 1].samples)
        r.memcpy = MemcpyResult(
            bytes: memcpySize, ms: m, gigabytesPerSecond: 2 * Double(memcpySize) / 1e9 / (m.p50 / 1e3))
        r.ratios.vsMemcpy = t.p50 / m.p50
        r.sameOutput = c.sameOutput
        r.note = c.note
        results.append(r)
        print(Table.row(r))
    } catch {
        failures += 1
        print("\(spec.id): FAILED: \(error)")
    }
}

// The size-limit row: cheap (a 69-byte header refused), so --quick keeps it.
if selected(limitId) {
    do {
        let r = try measureImageLimit(root: packageRoot(), warmup: warmupCount, runs: runCount)
        results.append(r)
        print(Table.row(r))
    } catch {
        failures += 1
        print("\(limitId): FAILED: \(error)")
    }
}

// The command-line rows: cheap enough for --quick (cli-version); cli-phototest recognizes.
if selected(cliIds[0]) || (recognition && selected(cliIds[1])) {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("frameocr-bench-\(UUID().uuidString)")
        .path
    if let frameocr = CommandLineBench.frameocrBesideBench() {
        do {
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            let cli = CommandLineBench(
                frameocr: frameocr, tesseract: Evaluation.TesseractCommand.path(),
                peer: tesserocr ? TesserocrPeer.find(root: packageRoot()) : nil,
                phototest: CommandLineBench.findPhototest(data: data, root: packageRoot()), scratch: scratch,
                runs: cliRuns ?? (quick ? 10 : 20))
            var rows: [CaseResult] = []
            if selected(cliIds[0]) { rows.append(try cli.version()) }
            if recognition && selected(cliIds[1]), let r = try cli.phototestRow() { rows.append(r) }
            for r in rows {
                results.append(r)
                print(Table.row(r))
            }
        } catch {
            failures += 1
            print("cli: FAILED: \(error)")
        }
    } else {
        print("cli rows skipped: no frameocr beside this executable (swift build -c release --product frameocr)")
    }
}

let wantDocuments = recognition && selected(documentsId)
let wantScenes = recognition && selected(scenesId)
if recognition && (recognitionIds.contains(where: selected) || wantDocuments || wantScenes) {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("frameocr-bench-\(UUID().uuidString)")
        .path
    do {
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let sets = try recognitionSets(data: data, videoStep: videoStep, scratch: scratch)
            .filter {
                selected("recognize-\($0.name)/cpu/batch") || selected("recognize-\($0.name)-tesserocr/cpu/batch")
            }
        if sets.isEmpty && !wantDocuments && !wantScenes {
            print("recognition: no images under \(data) (--data DIR)")
        }
        let recognizer = try Recognizer()
        let peer = tesserocr ? TesserocrPeer.find(root: packageRoot()) : nil
        let peerNote =
            !tesserocr
            ? "no tesserocr row (--no-tesserocr)" : peer == nil ? TesserocrPeer.missing(root: packageRoot()) : nil
        for set in sets {
            do {
                for r in try measureRecognition(
                    set, recognizer: recognizer, jobs: jobs, runs: recognitionRuns, peer: peer, peerNote: peerNote,
                    scratch: scratch)
                {
                    results.append(r)
                    print(Table.row(r))
                }
            } catch {
                failures += 1
                print("recognize-\(set.name)/cpu/batch: FAILED: \(error)")
            }
        }
        /// One corpus row: measured and printed, or why not (no folder; a failure, counted).
        func corpusRow(_ id: String, missing: String, _ measure: () throws -> CaseResult?) {
            do {
                if let r = try measure() {
                    results.append(r)
                    print(Table.row(r))
                } else {
                    print("\(id): no \(missing) under \(data)")
                }
            } catch {
                failures += 1
                print("\(id): FAILED: \(error)")
            }
        }
        if wantDocuments {
            corpusRow(documentsId, missing: "document folder (sroie, funsd, wildreceipt)") {
                try measureDocuments(data: data, recognizer: recognizer, jobs: jobs, runs: recognitionRuns)
            }
        }
        if wantScenes {
            corpusRow(scenesId, missing: "scene folder (icdar2015)") {
                try measureScenes(
                    data: data, recognizer: recognizer, jobs: jobs, runs: recognitionRuns, root: packageRoot(),
                    scratch: scratch)
            }
        }
    } catch {
        failures += 1
        print("recognition: FAILED: \(error)")
    }
}

// The Ray row: whole runs of Ray Data, the CLI and the command (Ray.swift).
if recognition && selected(rayId) {
    let frameocr = CommandLineBench.frameocrBesideBench()
    if let why = rayMissing(root: packageRoot(), frameocr: frameocr) {
        print("\(rayId): skipped: \(why)")
    } else {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "frameocr-bench-\(UUID().uuidString)"
        )
        .path
        do {
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            if let r = try measureRay(
                data: data, root: packageRoot(), frameocr: frameocr!, runs: recognitionRuns, scratch: scratch)
            {
                results.append(r)
                print(Table.row(r))
            } else {
                print("\(rayId): no clean folder (tesseract-test, uw3-lines, pytesseract, tesseract-js) under \(data)")
            }
        } catch {
            failures += 1
            print("\(rayId): FAILED: \(error)")
        }
    }
}

// Notes: outputs that differ, text mismatches, per-case remarks.
print("")
for r in results {
    if r.sameOutput == false { print("note: \(r.id): output differs from the baseline's") }
    if let t = r.text, t.matches < t.images {
        print(
            "note: \(r.id): same text as the \(r.baseline?.name ?? "baseline") on \(t.matches)/\(t.images) images (\(String(format: "%.0f", t.ratio * 100)) %); differ: \(t.mismatched.prefix(8).joined(separator: ", "))\(t.mismatched.count > 8 ? ", …" : "")"
        )
    }
    if r.kind == "recognition", let n = r.note {
        print("note: \(r.id): \(n); \(String(format: "%.2f", r.imagesPerSecond ?? 0)) images/s")
    }
    if ["cli", "documents", "scenes", "ray", "limit"].contains(r.kind), let n = r.note { print("note: \(r.id): \(n)") }
}

let formatter = ISO8601DateFormatter()
let report = BenchReport(
    date: formatter.string(from: Date()), machine: machine,
    settings: Settings(
        runs: runCount, warmup: warmupCount, recognitionRuns: recognitionRuns, quick: quick, filters: filters,
        sizes: sizeList.map { "\($0.0)x\($0.1)" }),
    cases: results)
if let jsonPath {
    do {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(report).write(to: URL(fileURLWithPath: jsonPath))
        print("wrote \(jsonPath)")
    } catch {
        fail("cannot write \(jsonPath): \(error)", status: 1)
    }
}

if results.isEmpty && failures == 0 { print("no case matched the filter \(filters)") }

if let comparePath {
    do {
        let current = RatioFile(cases: results.map { RatioFile.Case(id: $0.id, ratios: $0.ratios) })
        let c = compare(current: current, baseline: try loadRatios(comparePath), maxRegression: maxRegression)
        printComparison(c, baselinePath: comparePath, maxRegression: maxRegression)
        if failures > 0 { exit(1) }
        exit(c.regressions > 0 ? 3 : 0)
    } catch {
        fail("cannot compare with \(comparePath): \(error)", status: 1)
    }
}
exit(failures > 0 ? 1 : 0)
