import Foundation
import FrameOCR

// Results: the JSON schema (documented in the README, "Benchmarks") and the table for people.

struct BaselineResult: Codable {
    /// What ran: "cv::cvtColor", "OpenCV chain", "tesseract command", …
    var name: String
    var ms: Timing
    var allocationsPerFrame: Double?
    /// Peak resident set size of the baseline's process, bytes (command-line rows).
    var peakResidentBytes: Int?
    /// Recognition quality against ground truth (the documents row).
    var quality: Quality?
    /// Images per second at p50 (recognition rows).
    var imagesPerSecond: Double?
}

struct MemcpyResult: Codable {
    /// Bytes copied per run: the least the case must read.
    var bytes: Int
    var ms: Timing
    /// 2 × bytes (read + written) / p50.
    var gigabytesPerSecond: Double
}

struct Ratios: Codable {
    /// baseline p50 / case p50: > 1 means the case is faster than its baseline.
    var vsBaseline: Double?
    /// case p50 / memcpy p50: how many memcpys of the input the case costs (≥ 1 in practice).
    var vsMemcpy: Double?
}

struct CaseResult: Codable {
    var id: String
    var name: String
    var backend: String
    var size: String
    var kind: String
    var width: Int
    var height: Int
    var runs: Int
    var ms: Timing
    var megapixelsPerSecond: Double?
    var bytesMoved: Int?
    var gigabytesPerSecond: Double?
    var allocationsPerFrame: Double?
    var baseline: BaselineResult?
    var memcpy: MemcpyResult?
    var ratios = Ratios()
    var sameOutput: Bool?
    var text: TextCheck?
    var images: Int?
    var imagesPerSecond: Double?
    var jobs: Int?
    /// Peak resident set size of FrameOCR's process, bytes (command-line rows: `kind` "cli").
    var peakResidentBytes: Int?
    /// Recognition quality against ground truth (the documents row: `kind` "documents"; the photo
    /// rows: "scenes", "plates").
    var quality: Quality?
    /// FrameOCR's words by the engine that read them (`TextWord.engine` by its raw value, nil
    /// counted as "tesseract"), in one untimed reading after the timed rounds (the photo rows).
    var wordsByEngine: [String: Int]?
    /// References measured in the same rounds that no ratio is taken against (tesserocr text only,
    /// tesserocr on phototest).
    var otherBaselines: [BaselineResult]?
    var note: String?

    init(spec: CaseSpec, runs: Int, ms: Timing) {
        id = spec.id
        name = spec.name
        backend = spec.backend
        size = spec.size
        kind = spec.kind
        width = spec.width
        height = spec.height
        self.runs = runs
        self.ms = ms
    }
}

struct Machine: Codable {
    var cpu: String
    var cores: Int
    var memoryBytes: UInt64
    var os: String
    var kernel: String
    var tesseract: String
    var openCLDevices: [String]
    var build: String
    var allocationCounting: String

    static func current(openCL: [OpenCLDevice]) -> Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model =
            cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces) }
            ?? "unknown"
        let osRelease = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
        let os =
            osRelease.split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }
            .map { $0.dropFirst(12).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) } ?? "unknown"
        var u = utsname()
        uname(&u)
        let kernel = withUnsafeBytes(of: &u.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        #if DEBUG
            let build = "debug"
        #else
            let build = "release"
        #endif
        return Machine(
            cpu: model, cores: ProcessInfo.processInfo.activeProcessorCount,
            memoryBytes: ProcessInfo.processInfo.physicalMemory, os: os, kernel: kernel,
            tesseract: Recognizer.tesseractVersion,
            openCLDevices: openCL.map { "\($0.name) (\($0.platform))" }, build: build,
            allocationCounting: Allocations.active
                ? "interposed malloc (count of calls)"
                : Allocations.underSanitizer ? "unavailable (built under a sanitizer)" : "unavailable")
    }
}

struct Settings: Codable {
    var runs: Int
    var warmup: Int
    var recognitionRuns: Int
    var quick: Bool
    var filters: [String]
    var sizes: [String]
}

struct BenchReport: Codable {
    var schema = "frameocr-bench/1"
    var date: String
    var machine: Machine
    var settings: Settings
    var cases: [CaseResult]
}

// MARK: - Table

enum Table {
    static let columns: [(String, Int)] = [
        ("case", 34), ("backend", 7), ("size", 9), ("p50 ms", 9), ("p90", 9), ("max", 9), ("MP/s", 8), ("GB/s", 6),
        ("×OpenCV", 8), ("×memcpy", 8), ("allocs/f", 8), ("same", 4),
    ]

    static func header() -> String {
        let line = columns.map { pad($0.0, $0.1, left: $0.0 == "case" || $0.0 == "backend" || $0.0 == "size") }.joined(
            separator: " ")
        return line + "\n" + String(repeating: "-", count: line.count)
    }

    static func row(_ r: CaseResult) -> String {
        func f(_ v: Double?, _ digits: Int) -> String { v.map { String(format: "%.\(digits)f", $0) } ?? "-" }
        func ms(_ v: Double) -> String { String(format: v < 0.01 ? "%.5f" : v < 10 ? "%.3f" : "%.1f", v) }
        let same: String
        if let t = r.text {
            same = "\(t.matches)/\(t.images)"
        } else {
            same = r.sameOutput.map { $0 ? "yes" : "NO" } ?? "-"
        }
        let values = [
            r.name, r.backend, r.size, ms(r.ms.p50), ms(r.ms.p90), ms(r.ms.max), f(r.megapixelsPerSecond, 0),
            f(r.gigabytesPerSecond, 2),
            r.ratios.vsBaseline.map { String(format: "%.2f×", $0) } ?? "-",
            r.ratios.vsMemcpy.map { String(format: "%.2f×", $0) } ?? "-", f(r.allocationsPerFrame, 1), same,
        ]
        return zip(values, columns).map { pad($0, $1.1, left: $1.0 == "case" || $1.0 == "backend" || $1.0 == "size") }
            .joined(separator: " ")
    }

    static func pad(_ s: String, _ n: Int, left: Bool) -> String {
        let fill = String(repeating: " ", count: max(0, n - s.count))
        return left ? s + fill : fill + s
    }
}
