import Foundation

// The regression gate: compares the ratios of this run with those of a baseline JSON file.
// Ratios, never absolute times, so that a baseline recorded on one machine still means something
// on another (both sides of every ratio ran on the same machine, in the same rounds).
//
// A ratio "regresses by r" when the case got r slower relative to its reference:
//   vsBaseline (higher is better): r = old / new − 1
//   vsMemcpy   (lower is better):  r = new / old − 1
// Any r > max-regression fails the gate (exit 3). Cases present on one side only are listed
// and never fail it; a ratio missing on either side is skipped.

/// Only what the gate needs, so older or newer files with extra fields still load.
struct RatioFile: Decodable {
    struct Case: Decodable {
        var id: String
        var ratios: Ratios
    }
    var cases: [Case]
}

struct Comparison {
    var lines: [String] = []
    var regressions = 0
    var compared = 0
    var onlyInBaseline: [String] = []
    var onlyInCurrent: [String] = []
}

/// Parses "10%", "10" (percent) or "2.5%" into a fraction (0.10, 0.10, 0.025).
func parsePercent(_ text: String) -> Double? {
    let t = text.hasSuffix("%") ? String(text.dropLast()) : text
    guard let v = Double(t), v >= 0, v.isFinite else { return nil }
    return v / 100
}

func loadRatios(_ path: String) throws -> RatioFile {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return try JSONDecoder().decode(RatioFile.self, from: data)
}

func compare(current: RatioFile, baseline: RatioFile, maxRegression: Double) -> Comparison {
    var c = Comparison()
    let old = Dictionary(baseline.cases.map { ($0.id, $0.ratios) }, uniquingKeysWith: { a, _ in a })
    let new = Dictionary(current.cases.map { ($0.id, $0.ratios) }, uniquingKeysWith: { a, _ in a })
    c.onlyInBaseline = baseline.cases.map(\.id).filter { new[$0] == nil }
    c.onlyInCurrent = current.cases.map(\.id).filter { old[$0] == nil }
    for item in current.cases {
        guard let before = old[item.id] else { continue }
        let after = item.ratios
        func judge(_ label: String, _ o: Double?, _ n: Double?, higherIsBetter: Bool) {
            guard let o, let n, o > 0, n > 0 else { return }
            c.compared += 1
            let r = higherIsBetter ? o / n - 1 : n / o - 1
            let verdict = r > maxRegression ? "REGRESSED" : "ok"
            if r > maxRegression { c.regressions += 1 }
            c.lines.append(
                Table.pad(verdict, 9, left: true) + " " + Table.pad(item.id, 40, left: true) + " "
                    + Table.pad(label, 8, left: true)
                    + String(format: " %8.2f → %8.2f  (%+.1f %% slower)", o, n, r * 100))
        }
        judge("×OpenCV", before.vsBaseline, after.vsBaseline, higherIsBetter: true)
        judge("×memcpy", before.vsMemcpy, after.vsMemcpy, higherIsBetter: false)
    }
    return c
}

func printComparison(_ c: Comparison, baselinePath: String, maxRegression: Double) {
    print(
        "\ncompare with \(baselinePath) (max regression \(String(format: "%g", maxRegression * 100)) %, ratios only):")
    for l in c.lines { print("  " + l) }
    if !c.onlyInBaseline.isEmpty {
        print("  only in the baseline file (not compared): " + c.onlyInBaseline.joined(separator: ", "))
    }
    if !c.onlyInCurrent.isEmpty {
        print("  only in this run (not compared): " + c.onlyInCurrent.joined(separator: ", "))
    }
    print("  \(c.compared) ratios compared, \(c.regressions) regressed")
}
