import CAllocationCounter
import Foundation
import FrameOCR

// frameocr-bench — FrameOCR measured side by side with its baselines in the same run:
//   preprocessing (gray from BGRA/RGBA/NV12/I420, crop, rotate .right, adaptive threshold mean
//   and Gaussian block 31, and the whole chain) at several sizes on the CPU and OpenCL backends,
//   each against plain OpenCV (Benchmarks/Baselines/baseline.cpp) and a memcpy of its input bytes;
//   end-to-end recognition of real images against the `tesseract` command and tesserocr (Peers.swift);
//   the CLI's start-up time and peak memory (Startup.swift); automatic preprocessing against
//   --no-auto on the document folders (Documents.swift).
// Results are ratios (both sides measured in the same rounds), so they hold on a noisy machine.
// The options are in Options.swift, the rows in the files of their concern, listed in Rows.swift
// (`BenchRow.all`). See docs/benchmarks.md. Build in release mode:
//   swift build -c release --product frameocr-bench && .build/release/frameocr-bench --quick

focr_bench_line_buffered_stdout()  // rows appear as they are measured, also through a pipe or file

let options = BenchOptions(Array(CommandLine.arguments.dropFirst()))

// Compare two files without running.
if let comparePath = options.comparePath, let currentPath = options.currentPath {
    do {
        let c = compare(
            current: try loadRatios(currentPath), baseline: try loadRatios(comparePath),
            maxRegression: options.maxRegression)
        printComparison(c, baselinePath: comparePath, maxRegression: options.maxRegression)
        exit(c.regressions > 0 ? 3 : 0)
    } catch {
        fail("cannot compare: \(error)", status: 1)
    }
}

// Live reading and the soak: runs of their own.
if let liveBench = options.liveBench {
    #if DEBUG
        if !options.allowDebug { fail("--live measures latency: build with -c release, or pass --allow-debug") }
    #endif
    exit(await runLiveBench(liveBench) > 0 ? 1 : 0)
}
if let soak = options.soak {
    #if DEBUG
        if !options.allowDebug {
            fail("--soak measures a release build: build with -c release, or pass --allow-debug")
        }
    #endif
    exit(await runSoak(soak, root: packageRoot()) > 0 ? 1 : 0)
}

#if DEBUG
    if !options.quick && !options.allowDebug && !options.listOnly {
        fail(
            "this is a debug build: timings would be meaningless. Build with `swift build -c release --product frameocr-bench`, or pass --quick (smoke run) or --allow-debug."
        )
    }
    FileHandle.standardError.write(
        Data(
            "warning: frameocr-bench built in DEBUG mode: timings and ratios are NOT representative (use -c release)\n"
                .utf8))
#endif

let run = BenchRun(options)
if options.listOnly {
    for row in BenchRow.all { for id in run.selected(row) { print(id) } }
    exit(0)
}
let machine = Machine.current(openCL: run.devices)
run.printHeader(machine: machine)
for row in BenchRow.all { run.measure(row) }
run.printNotes()

let report = BenchReport(
    date: ISO8601DateFormatter().string(from: Date()), machine: machine,
    settings: Settings(
        runs: options.runCount, warmup: options.warmupCount, recognitionRuns: options.recognitionRuns,
        quick: options.quick, filters: options.filters, sizes: options.sizeList.map { "\($0.0)x\($0.1)" }),
    cases: run.results)
if let jsonPath = options.jsonPath {
    do {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(report).write(to: URL(fileURLWithPath: jsonPath))
        print("wrote \(jsonPath)")
    } catch {
        fail("cannot write \(jsonPath): \(error)", status: 1)
    }
}
if run.results.isEmpty && run.failures == 0 { print("no case matched the filter \(options.filters)") }

if let comparePath = options.comparePath {
    do {
        let current = RatioFile(cases: run.results.map { RatioFile.Case(id: $0.id, ratios: $0.ratios) })
        let c = compare(current: current, baseline: try loadRatios(comparePath), maxRegression: options.maxRegression)
        printComparison(c, baselinePath: comparePath, maxRegression: options.maxRegression)
        if run.failures > 0 { exit(1) }
        exit(c.regressions > 0 ? 3 : 0)
    } catch {
        fail("cannot compare with \(comparePath): \(error)", status: 1)
    }
}
exit(run.failures > 0 ? 1 : 0)
