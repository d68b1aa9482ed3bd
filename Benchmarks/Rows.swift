import Foundation
import FrameOCR

// The benchmark as a list of rows: each row a value with a name, what it needs and how it
// measures; main.swift runs the selected ones in the order of `BenchRow.all`.

/// A row of the benchmark, or rows that share their setup (the command-line rows share their
/// programs, the recognition rows a Recognizer and the tesserocr peer).
struct BenchRow: Sendable {
    /// One case a row measures.
    struct Case: Sendable {
        var id: String
        /// Whether it recognizes end to end (none does under `--quick` or `--no-recognition`).
        var recognizes: Bool
    }

    /// What a row needs from the run before it measures.
    struct Needs: OptionSet, Sendable {
        let rawValue: Int
        /// A scratch folder of its own, made before and removed after.
        static let scratch = Needs(rawValue: 1)
    }

    /// What a failure of the whole row is reported as (`NAME: FAILED: …`).
    var name: String
    var needs: Needs = []
    /// Its cases, as `--list` names them.
    var cases: @Sendable (BenchRun) -> [Case]
    /// Measures the selected cases (their ids, never none), reporting each result and each
    /// failure of a case to the run; `scratch` is its folder when it needs one. What it throws
    /// fails the whole row.
    var measure: @Sendable (_ run: BenchRun, _ selected: [String], _ scratch: String?) throws -> Void

    /// Every row, in the order they run.
    static let all: [BenchRow] = [.preprocessing, .imageLimit, .commandLine, .recognition, .ray, .python, .http]
}

/// One run of the benchmark: its options, its data, the OpenCL context, and the results so far.
final class BenchRun {
    let options: BenchOptions
    /// The package root (see ``packageRoot()``) and the test data (`--data`).
    let root: String
    let data: String
    let devices: [OpenCLDevice]
    private(set) var context: OpenCLContext?
    private(set) var openCLNote: String?
    private(set) var results: [CaseResult] = []
    private(set) var failures = 0

    init(_ options: BenchOptions) {
        self.options = options
        root = packageRoot()
        data =
            options.dataDir ?? URL(fileURLWithPath: root).appendingPathComponent("../shared/data").standardized.path
        devices = OpenCLRuntime.shared.availableDevices
        if !devices.isEmpty && !options.listOnly && options.filters.allSatisfy({ !$0.contains("/cpu/") }) {
            do { context = try OpenCLRuntime.shared.context(named: nil) } catch {
                openCLNote = "OpenCL cases skipped: \(error)"
            }
        } else if devices.isEmpty {
            openCLNote = "OpenCL cases skipped: no OpenCL device"
        }
    }

    /// The cases of `row` that this run measures: selected by the filters, and recognizing only
    /// when recognition runs.
    func selected(_ row: BenchRow) -> [String] {
        row.cases(self).filter { options.selected($0.id) && (!$0.recognizes || options.recognizes) }.map(\.id)
    }

    /// Runs `row` when any of its cases is selected.
    func measure(_ row: BenchRow) {
        let ids = selected(row)
        guard !ids.isEmpty else { return }
        do {
            guard row.needs.contains(.scratch) else { return try row.measure(self, ids, nil) }
            let scratch = FileManager.default.temporaryDirectory
                .appendingPathComponent("frameocr-bench-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            try row.measure(self, ids, scratch)
        } catch {
            failed(row.name, error)
        }
    }

    /// Keeps a result and prints its table row.
    func report(_ result: CaseResult) {
        results.append(result)
        print(Table.row(result))
    }

    /// Counts a failure and says so.
    func failed(_ what: String, _ error: any Error) {
        failures += 1
        print("\(what): FAILED: \(error)")
    }

    /// The lines above the table: what runs, the machine, the OpenCL device, the columns.
    func printHeader(machine: Machine) {
        print(
            "frameocr-bench: \(options.runCount) runs after \(options.warmupCount) warm-up, case / OpenCV / memcpy interleaved round by round"
        )
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
    }

    /// Notes below the table: outputs that differ, text mismatches, per-case remarks.
    func printNotes() {
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
            if ["cli", "documents", "scenes", "plates", "ray", "limit"].contains(r.kind), let n = r.note {
                print("note: \(r.id): \(n)")
            }
        }
    }
}

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
