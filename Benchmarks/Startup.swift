import Foundation
import FrameOCREvaluation

#if canImport(Glibc)
    import Glibc
#endif

// The command-line rows (`kind` "cli"): whole processes, as a user runs them.
//   cli-version    `frameocr --version` against `tesseract --version`: start-up alone (the
//                  dynamic linker loading the libraries, the Swift runtime, Tesseract's version).
//   cli-phototest  `frameocr recognize phototest.tif` (its defaults: automatic preprocessing)
//                  against `tesseract phototest.tif stdout` (its defaults: PSM 3) and, when the
//                  peer is built, tesserocr's peer on the same file (Python, tesserocr imported,
//                  one engine, PSM 6, 300 ppi, no warm-up): start-up, model loading and one page.
// Wall time: each program spawned directly (posix_spawn, then wait4), its output to /dev/null,
// the programs interleaved round by round (Measure.swift). Peak resident set size: separate runs
// through GNU time (`/usr/bin/time -f %M`), the median of them. Not wait4's own ru_maxrss: a
// child's high-water mark starts at its parent's resident size (the kernel carries it through
// fork and exec), so a child of this bench — which holds Tesseract's models by then — would
// report the bench's size; GNU time is a small process, so its child's figure is the child's own.

/// One program as a command-line row runs it.
struct CommandRun {
    /// What the row calls it, e.g. "tesseract --version".
    var label: String
    /// The program's path, then its arguments.
    var argv: [String]
    var environment = ProcessInfo.processInfo.environment
}

/// Spawns `argv` (its first element a path) with standard input, output and error on /dev/null
/// and waits for it; returns its wall time in milliseconds.
/// - Throws: ``BenchError`` when it cannot start or exits other than with status 0.
func spawnAndWait(_ argv: [String], environment: [String: String]) throws -> Double {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let args: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    let env: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for p in args + env { free(p) } }
    let clock = ContinuousClock()
    let start = clock.now
    var pid = pid_t()
    let rc = posix_spawn(&pid, argv[0], &actions, nil, args, env)
    guard rc == 0 else { throw BenchError("\(argv[0]): cannot start (\(String(cString: strerror(rc))))") }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
        guard errno == EINTR else { throw BenchError("\(argv[0]): wait4 failed (\(String(cString: strerror(errno))))") }
    }
    let elapsed = (clock.now - start).milliseconds
    // Exited normally (low 7 bits 0) with status 0 (the next 8 bits).
    guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
        throw BenchError("\(argv.joined(separator: " ")): exited with wait status \(status)")
    }
    return elapsed
}

/// GNU time, for the peak resident set size of one child; nil when it is not installed (Debian
/// package `time`, in the Makefile's PACKAGES).
let gnuTime: String? = FileManager.default.isExecutableFile(atPath: "/usr/bin/time") ? "/usr/bin/time" : nil

/// The peak resident set size of one run of `command`, bytes (GNU time's `%M`, KiB × 1024).
/// - Throws: ``BenchError`` when it fails or GNU time's output cannot be read.
func peakResidentBytes(_ command: CommandRun, time: String, scratch: String) throws -> Int {
    let out = scratch + "/time-\(UUID().uuidString).txt"
    defer { try? FileManager.default.removeItem(atPath: out) }
    _ = try spawnAndWait([time, "-f", "%M", "-o", out] + command.argv, environment: command.environment)
    let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
    guard let kib = text.split(separator: "\n").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) else {
        throw BenchError("\(time): no peak size for \(command.label) (\(text))")
    }
    return kib * 1024
}

/// Wall times (`runs` rounds after `warmup`, the commands interleaved) and the median peak
/// resident size of `rssRuns` runs of each (nil without GNU time), in the order of `commands`.
func measureCommands(
    _ commands: [CommandRun], warmup: Int, runs: Int, rssRuns: Int, scratch: String
) throws -> [(ms: Timing, peakResidentBytes: Int?)] {
    var sides = commands.map { c in
        Side(body: { _ = try spawnAndWait(c.argv, environment: c.environment) })
    }
    try measureInterleaved(&sides, warmup: warmup, runs: runs)
    return try zip(commands, sides).map { c, side in
        var peak: Int?
        if let gnuTime, rssRuns > 0 {
            let sizes = try (0..<rssRuns).map { _ in try peakResidentBytes(c, time: gnuTime, scratch: scratch) }
            peak = sizes.sorted()[sizes.count / 2]
        }
        return (Timing(side.samples), peak)
    }
}

/// "86.2 MB" (10⁶ bytes), or "-" for nil.
func megabytes(_ bytes: Int?) -> String { bytes.map { String(format: "%.1f MB", Double($0) / 1e6) } ?? "-" }

/// What the command-line rows need: the programs and where to write.
struct CommandLineBench {
    /// `frameocr` beside this executable (built with `swift build -c release --product frameocr`).
    var frameocr: String
    var tesseract: String?
    var peer: TesserocrPeer?
    /// phototest.tif: in the data folder's tesseract-test, else the test fixtures.
    var phototest: String?
    var scratch: String
    /// Timed runs of each program in `cli-version`; `cli-phototest` runs a quarter of them (at least 3).
    var runs: Int
    var rssRuns = 3
    var phototestRuns: Int { max(3, runs / 4) }

    /// `frameocr` beside the running bench, or nil.
    static func frameocrBesideBench() -> String? {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let path = dir.appendingPathComponent("frameocr").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// The first phototest.tif of `data`/tesseract-test and the package's fixtures.
    static func findPhototest(data: String, root: String) -> String? {
        [data + "/tesseract-test/phototest.tif", root + "/Tests/FrameOCRTests/Fixtures/phototest.tif"].first {
            FileManager.default.fileExists(atPath: $0)
        }
    }

    /// `cli-version`: `frameocr --version` against `tesseract --version` (targets from issue 13:
    /// under 50 ms and under 40 MB).
    func version() throws -> CaseResult {
        var commands = [CommandRun(label: "frameocr --version", argv: [frameocr, "--version"])]
        if let tesseract { commands.append(CommandRun(label: "tesseract --version", argv: [tesseract, "--version"])) }
        let m = try measureCommands(commands, warmup: 2, runs: runs, rssRuns: rssRuns, scratch: scratch)
        var r = row("cli-version", m, commands, runs: runs)
        let p50 = m[0].ms.p50
        r.note =
            ([
                "\(runs) runs each, wall time of the whole process; peak RSS: median of \(rssRuns) runs through GNU time",
                String(format: "target < 50 ms: %.1f ms", p50) + (p50 < 50 ? " (met)" : " (not met)"),
                "target < 40 MB: " + target(m[0].peakResidentBytes, below: 40e6),
            ] + sizes(m, commands)).joined(separator: "; ")
        return r
    }

    /// `cli-phototest`: `frameocr recognize phototest.tif` against `tesseract phototest.tif
    /// stdout` and tesserocr's peer (target from issue 13: at most 80 MB).
    func phototestRow() throws -> CaseResult? {
        guard let phototest else { return nil }
        var commands = [
            CommandRun(label: "frameocr recognize phototest.tif", argv: [frameocr, "recognize", phototest])
        ]
        var single = ProcessInfo.processInfo.environment
        single["OMP_THREAD_LIMIT"] = "1"
        if let tesseract {
            commands.append(
                CommandRun(
                    label: "tesseract phototest.tif stdout", argv: [tesseract, phototest, "stdout"], environment: single
                ))
        }
        if let peer {
            commands.append(
                CommandRun(
                    label: "tesserocr peer on phototest.tif",
                    argv: [peer.python, peer.script, "--threads", "1", "--no-warmup", phototest],
                    environment: TesserocrPeer.environment))
        }
        let m = try measureCommands(commands, warmup: 1, runs: phototestRuns, rssRuns: rssRuns, scratch: scratch)
        var r = row("cli-phototest", m, commands, runs: phototestRuns)
        // The command is the baseline; the peer, when both ran, rides along.
        if tesseract != nil, peer != nil, let last = m.last {
            r.otherBaselines = [
                BaselineResult(
                    name: commands[commands.count - 1].label, ms: last.ms, peakResidentBytes: last.peakResidentBytes)
            ]
        }
        r.note =
            ([
                "\(phototestRuns) runs each, wall time of the whole process (each with its defaults; tesserocr: PSM 6, "
                    + "300 ppi, 1 engine, Python's start and tesserocr's import included); peak RSS: median of "
                    + "\(rssRuns) runs through GNU time",
                "target ≤ 80 MB: " + target(m[0].peakResidentBytes, below: 80e6 + 1),
            ] + sizes(m, commands)).joined(separator: "; ")
        return r
    }

    /// A `cli` row: the first command is FrameOCR's, the second (if any) its baseline.
    private func row(
        _ name: String, _ m: [(ms: Timing, peakResidentBytes: Int?)], _ commands: [CommandRun], runs: Int
    ) -> CaseResult {
        var r = CaseResult(
            spec: CaseSpec(name: name, backend: "cpu", width: 0, height: 0, kind: "cli", sizeLabel: "process"),
            runs: runs, ms: m[0].ms)
        r.peakResidentBytes = m[0].peakResidentBytes
        if m.count > 1 {
            r.baseline = BaselineResult(name: commands[1].label, ms: m[1].ms, peakResidentBytes: m[1].peakResidentBytes)
            r.ratios.vsBaseline = m[1].ms.p50 / m[0].ms.p50
        }
        return r
    }

    private func target(_ bytes: Int?, below limit: Double) -> String {
        guard let bytes else { return "no GNU time (/usr/bin/time): not measured" }
        return megabytes(bytes) + (Double(bytes) < limit ? " (met)" : " (not met)")
    }

    private func sizes(_ m: [(ms: Timing, peakResidentBytes: Int?)], _ commands: [CommandRun]) -> [String] {
        zip(commands, m).map { c, x in
            "\(c.label): " + String(format: "%.1f ms", x.ms.p50) + ", " + megabytes(x.peakResidentBytes)
        }
    }
}

let cliVersionId = "cli-version/cpu/process"
let cliPhototestId = "cli-phototest/cpu/process"

extension BenchRow {
    /// The command-line rows: cheap enough for --quick (cli-version); cli-phototest recognizes.
    static let commandLine = BenchRow(
        name: "cli", needs: .scratch,
        cases: { _ in [Case(id: cliVersionId, recognizes: false), Case(id: cliPhototestId, recognizes: true)] },
        measure: { run, selected, scratch in
            guard let frameocr = CommandLineBench.frameocrBesideBench(), let scratch else {
                print(
                    "cli rows skipped: no frameocr beside this executable (swift build -c release --product frameocr)")
                return
            }
            let cli = CommandLineBench(
                frameocr: frameocr, tesseract: Evaluation.TesseractCommand.path(),
                peer: run.options.tesserocr ? TesserocrPeer.find(root: run.root) : nil,
                phototest: CommandLineBench.findPhototest(data: run.data, root: run.root), scratch: scratch,
                runs: run.options.cliRunCount)
            var rows: [CaseResult] = []
            if selected.contains(cliVersionId) { rows.append(try cli.version()) }
            if selected.contains(cliPhototestId), let r = try cli.phototestRow() { rows.append(r) }
            for r in rows { run.report(r) }
        })
}
