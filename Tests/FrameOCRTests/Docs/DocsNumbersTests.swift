import Foundation
import Testing

@testable import FrameOCR

/// The numbers `docs/tuning.md` states against the code's: every table row whose first cell is a
/// name in backticks and whose second is a value (a number, or a range `a…b`, then a unit or
/// nothing) must name a value below and state it exactly; every value below must have a row. So
/// a number changed in the page alone, or in the code alone, fails here.
@Suite("Numbers in docs/tuning.md against the code")
struct DocsNumbersTests {
    /// The repository's root: the first folder above this file that holds `docs/tuning.md` and
    /// `Package.swift` (so that the test still finds it if the file moves to a subfolder).
    static let root: URL? = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            let docs = url.appendingPathComponent("docs/tuning.md").path
            let package = url.appendingPathComponent("Package.swift").path
            if FileManager.default.fileExists(atPath: docs) && FileManager.default.fileExists(atPath: package) {
                return url
            }
            url = url.deletingLastPathComponent()
        }
        return nil
    }()

    /// Every value `docs/tuning.md` documents, by the name it gives, read from the code: the
    /// options' defaults from fresh values, the fixed numbers from their `static let`s.
    static let actual: [String: [Double]] = {
        typealias A = AutomaticPreprocessing
        typealias S = SecondReadings
        let a = AutomaticPreprocessing()
        let s = SecondReadings()
        let lines = LineReadingOptions()
        let detector = TextDetector.Configuration()
        let live = LiveReading()
        func d(_ f: Float) -> [Double] { [Double(f)] }
        return [
            // Scale
            "AutomaticPreprocessing.targetTextHeight": [a.targetTextHeight],
            "AutomaticPreprocessing.minimumTextHeight": [a.minimumTextHeight],
            "AutomaticPreprocessing.maximumTextHeight": [a.maximumTextHeight],
            "AutomaticPreprocessing.minimumScaleComponents": [Double(A.minimumScaleComponents)],
            "LineReadingOptions.textHeight": [lines.textHeight],
            "LineReadingOptions.scaleTolerance": [LineReadingOptions.scaleTolerance],
            // Single lines
            "AutomaticPreprocessing.singleLineHeights": [A.singleLineHeights],
            "AutomaticPreprocessing.singleLineMaximumHeight": [A.singleLineMaximumHeight],
            "AutomaticPreprocessing.lineHeightFraction": [A.lineHeightFraction],
            "AutomaticPreprocessing.looseLineCrop": [A.looseLineCrop],
            "AutomaticPreprocessing.looseLineTextHeight": [A.looseLineTextHeight],
            // Stretch
            "AutomaticPreprocessing.condensedAspect": [a.condensedAspect],
            "AutomaticPreprocessing.targetAspect": [a.targetAspect],
            "LineReadingOptions.targetAspect": [lines.targetAspect],
            "LineReadingOptions.maximumStretch": [lines.maximumStretch],
            "AutomaticPreprocessing.minimumStretchComponents": [Double(A.minimumStretchComponents)],
            "AutomaticPreprocessing.minimumStretchedTextHeight": d(A.minimumStretchedTextHeight),
            // Skew
            "AutomaticPreprocessing.minimumSkewDegrees": [a.minimumSkewDegrees],
            "AutomaticPreprocessing.maximumSkewDegrees": [a.maximumSkewDegrees],
            "AutomaticPreprocessing.minimumSkewConfidence": [a.minimumSkewConfidence],
            "AutomaticPreprocessing.slightSkewDegrees": [a.slightSkewDegrees],
            "AutomaticPreprocessing.minimumSlightSkewConfidence": [a.minimumSlightSkewConfidence],
            "AutomaticPreprocessing.minimumSkewComponents": [Double(a.minimumSkewComponents)],
            "AutomaticPreprocessing.corroboratingEdgeDegrees": [A.corroboratingEdgeDegrees],
            "AutomaticPreprocessing.corroboratedSkewConfidence": [A.corroboratedSkewConfidence],
            // Smoothing
            "AutomaticPreprocessing.smoothingSigma": [a.smoothingSigma],
            "AutomaticPreprocessing.minimumPageComponents": [Double(a.minimumPageComponents)],
            // Light
            "AutomaticPreprocessing.unevenLightSpread": [a.unevenLightSpread],
            "AutomaticPreprocessing.minimumPaperContrast": [A.minimumPaperContrast],
            "AutomaticPreprocessing.flatteningKernelDivisor": [Double(A.flatteningKernelDivisor)],
            "AutomaticPreprocessing.minimumFlatteningKernel": [Double(A.minimumFlatteningKernel)],
            // Binarization
            "AutomaticPreprocessing.lostRegionFraction": [a.lostRegionFraction],
            // Border and page segmentation
            "AutomaticPreprocessing.minimumBorder": [Double(A.minimumBorder)],
            "AutomaticPreprocessing.borderTextHeights": [A.borderTextHeights],
            "AutomaticPreprocessing.minimumEdgeComponents": [Double(A.minimumEdgeComponents)],
            "AutomaticPreprocessing.fullPageSide": [Double(A.fullPageSide)],
            "AutomaticPreprocessing.fullPageComponents": [Double(A.fullPageComponents)],
            // Document crop
            "AutomaticPreprocessing.documentAreaRange": [
                a.documentAreaRange.lowerBound, a.documentAreaRange.upperBound,
            ],
            "AutomaticPreprocessing.minimumDocumentRectangularity": [a.minimumDocumentRectangularity],
            "AutomaticPreprocessing.minimumDocumentContrast": [a.minimumDocumentContrast],
            "AutomaticPreprocessing.maximumDocumentEdgeContact": [a.maximumDocumentEdgeContact],
            "AutomaticPreprocessing.documentMargin": [a.documentMargin],
            "AutomaticPreprocessing.maximumDocumentBoxShare": [A.maximumDocumentBoxShare],
            "AutomaticPreprocessing.minimumDocumentMarginPixels": [Double(A.minimumDocumentMarginPixels)],
            "AutomaticPreprocessing.maximumComponentsAround": [Double(A.maximumComponentsAround)],
            "AutomaticPreprocessing.minimumContrastAround": [A.minimumContrastAround],
            "AutomaticPreprocessing.minimumStripSide": [Double(A.minimumStripSide)],
            "AutomaticPreprocessing.minimumLabelArea": [A.minimumLabelArea],
            "AutomaticPreprocessing.maximumLabelArea": [A.maximumLabelArea],
            "AutomaticPreprocessing.labelComponentsAround": [Double(A.labelComponentsAround)],
            "AutomaticPreprocessing.minimumLabelComponents": [Double(A.minimumLabelComponents)],
            // Orientation
            "PageReading.readsUprightAt": d(PageReading.readsUprightAt),
            "PageReading.readsUprightWords": [Double(PageReading.readsUprightWords)],
            "PageReading.confidentOrientation": d(PageReading.confidentOrientation),
            "PageReading.confidentReading": d(PageReading.confidentReading),
            "PageReading.rotationTrialLimit": [PageReading.rotationTrialLimit.milliseconds],
            "PageReading.rotationMargin": d(PageReading.rotationMargin),
            "PageReading.unknownBelow": [PageReading.unknownBelow],
            "PageReading.stripAspect": [Double(PageReading.stripAspect)],
            // Second readings
            "SecondReadings.poorBelow": d(S.poorBelow),
            "SecondReadings.clearlyBetter": d(S.clearlyBetter),
            "SecondReadings.sparseReplaceMargin": d(S.sparseReplaceMargin),
            "SecondReadings.sparseAddedScore": d(S.sparseAddedScore),
            "SecondReadings.sparseAgreementWeight": d(S.sparseAgreementWeight),
            "DominantLineReading.minimumClutter": d(DominantLineReading.minimumClutter),
            "DominantLineReading.minimumCharacters": [Double(DominantLineReading.minimumCharacters)],
            "SecondReadings.minimumTextLineConfidence": d(S.minimumTextLineConfidence),
            "SecondReadings.textLineHeightDivisor": [S.textLineHeightDivisor],
            "SecondReadings.minimumTextLineHeight": [s.minimumTextLineHeight],
            "SecondReadings.maximumTextLines": [Double(s.maximumTextLines)],
            "LineFinder.searchedCharacterHeight": [LineFinder.searchedCharacterHeight],
            "SecondReadings.sceneConfidentWord": d(S.sceneConfidentWord),
            "SecondReadings.sceneConfidentWordShare": [Double(S.sceneConfidentWordShare)],
            "SecondReadings.sceneMinimumComponents": [Double(S.sceneMinimumComponents)],
            "SecondReadings.sceneMinimumSide": [Double(S.sceneMinimumSide)],
            "SecondReadings.sceneMaximumTurnDegrees": [S.sceneMaximumTurnDegrees],
            "SecondReadings.sceneMaximumConfidentWords": [Double(s.sceneMaximumConfidentWords)],
            "SecondReadings.maximumSceneRegions": [Double(s.maximumSceneRegions)],
            "SecondReadings.minimumSceneWordConfidence": d(s.minimumSceneWordConfidence),
            "SceneTextReading.regionHeight": [SceneTextReading.regionHeight],
            "SceneTextReading.minimumTurn": [SceneTextReading.minimumTurn],
            // Engines
            "SecondReadings.sceneMaximumTextCover": [S.sceneMaximumTextCover],
            "SecondReadings.sceneMinimumMarkedShare": [S.sceneMinimumMarkedShare],
            "SecondReadings.sceneMinimumFlattenedSpread": [S.sceneMinimumFlattenedSpread],
            "SecondReadings.structurelessMinimumComponents": [Double(S.structurelessMinimumComponents)],
            "SecondReadings.structurelessMaximumLines": [Double(S.structurelessMaximumLines)],
            "SceneTextReading.sceneDetectorShortSide": [Double(SceneTextReading.sceneDetectorShortSide)],
            "TextLineRecognizer.Configuration.minimumWidth": [Double(TextLineRecognizer.Configuration().minimumWidth)],
            "TextLineRecognizer.Configuration.widthStep": [Double(TextLineRecognizer.Configuration().widthStep)],
            "TextAngleClassifier.Configuration.threshold": [TextAngleClassifier.Configuration().threshold],
            // Text detector
            "TextDetector.Configuration.longSide": [Double(detector.longSide)],
            "TextDetector.Configuration.binaryThreshold": [detector.binaryThreshold],
            "TextDetector.Configuration.boxThreshold": [detector.boxThreshold],
            "TextDetector.Configuration.unclipRatio": [detector.unclipRatio],
            // Live reading
            "LiveReading.unchangedBelow": [live.unchangedBelow],
            "LiveReading.blurredBelow": [live.blurredBelow],
            "LiveReading.minimumTextHeight": [live.minimumTextHeight],
            "LiveReading.changedAbove": [live.changedAbove],
            "LiveReading.matchOverlap": [live.matchOverlap],
            "FrameGate.differenceBlock": [Double(FrameGate.differenceBlock)],
            "LiveReader.lowerCase": [LiveReader.lowerCase],
            "LiveReader.analysisShare": [LiveReader.analysisShare],
            "LiveReader.initialAnalysisCost": [LiveReader.initialAnalysisCost * 1e9],
            "LiveReading.detectEvery": [Double(live.detectEvery)],
            "LiveReading.detectorLongSide": [Double(live.detectorLongSide)],
            "LiveReader.detectorAnalysisShare": [LiveReader.detectorAnalysisShare],
            "LiveReader.detectorSearchHeight": [LiveReader.detectorSearchHeight],
            "LiveReader.sceneCostMargin": [LiveReader.sceneCostMargin],
            "LiveReader.costOutlier": [LiveReader.costOutlier],
            "LineProfile.columns": [Double(LineProfile.columns)],
            "LineProfile.rows": [Double(LineProfile.rows)],
        ]
    }()

    /// A row of a table that states a value: its name (without the backticks), the numbers its
    /// value cell starts with (one, or two for a range `a…b`; nil when it starts with none), and
    /// its line number.
    struct Row {
        var name: String
        var values: [Double]?
        var line: Int
    }

    /// The rows of `markdown`'s tables whose first cell is one name in backticks (`Type.member`).
    static func rows(_ markdown: String) -> [Row] {
        var rows: [Row] = []
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard line.hasPrefix("| `") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            // "| a | b |" splits into "", "a", "b", "".
            guard cells.count >= 4 else { continue }
            let first = cells[1]
            guard first.count > 2, first.hasPrefix("`"), first.hasSuffix("`") else { continue }
            let name = String(first.dropFirst().dropLast())
            guard !name.contains("`"), name.contains(".") else { continue }
            rows.append(Row(name: name, values: numbers(cells[2]), line: index + 1))
        }
        return rows
    }

    /// The numbers a value cell starts with: `0.9`, `22 px`, `0.15…0.9`, `500 ms`; nil for none.
    static func numbers(_ cell: String) -> [Double]? {
        guard let head = cell.split(separator: " ").first else { return nil }
        let parts = head.split(separator: "…", omittingEmptySubsequences: false)
        let values = parts.compactMap { Double($0) }
        return !values.isEmpty && values.count == parts.count ? values : nil
    }

    /// Whether `stated` (read from decimal text) is `actual` (a Float or Double of the code):
    /// equal to a millionth, which a `Float` constant's conversion to `Double` keeps and any
    /// change of a written digit breaks.
    static func same(_ stated: [Double], _ actual: [Double]) -> Bool {
        stated.count == actual.count
            && zip(stated, actual).allSatisfy { abs($0 - $1) <= 1e-6 * max(1, abs($1)) }
    }

    /// What is wrong with `markdown` against `actual`: names it does not know, values that differ
    /// or are missing, names stated twice, and values of `actual` it does not state.
    static func problems(_ markdown: String, actual: [String: [Double]] = actual) -> [String] {
        var problems: [String] = []
        var seen: Set<String> = []
        for row in rows(markdown) {
            if !seen.insert(row.name).inserted { problems.append("line \(row.line): \(row.name) stated twice") }
            guard let values = row.values else {
                problems.append("line \(row.line): \(row.name) has no number in its value cell")
                continue
            }
            guard let code = actual[row.name] else {
                problems.append("line \(row.line): \(row.name) is not a value the test knows (add it to `actual`)")
                continue
            }
            if !same(values, code) {
                problems.append("line \(row.line): \(row.name) is \(values) in the page, \(code) in the code")
            }
        }
        for name in actual.keys.sorted() where !seen.contains(name) {
            problems.append("\(name) (\(actual[name]!)) has no row in docs/tuning.md")
        }
        return problems
    }

    static func tuningPage() throws -> String {
        let root = try #require(root, "no docs/tuning.md above \(#filePath)")
        return try String(contentsOf: root.appendingPathComponent("docs/tuning.md"), encoding: .utf8)
    }

    @Test("Every value docs/tuning.md states is the code's, and every value the code has is stated")
    func tuningPageMatchesTheCode() throws {
        let page = try Self.tuningPage()
        let rows = Self.rows(page)
        #expect(rows.count == Self.actual.count, "\(rows.count) rows for \(Self.actual.count) values")
        let problems = Self.problems(page)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("A number changed in the page alone, a row removed or an unknown name is caught")
    func changesAreCaught() throws {
        let page = try Self.tuningPage()
        let smoothing = "| `AutomaticPreprocessing.smoothingSigma` | 0.9 px |"
        #expect(page.contains(smoothing))
        let changed = page.replacingOccurrences(
            of: smoothing, with: "| `AutomaticPreprocessing.smoothingSigma` | 0.8 px |")
        #expect(Self.problems(changed).contains { $0.contains("smoothingSigma is [0.8] in the page") })
        let poor = "| `SecondReadings.poorBelow` | 0.9 |"
        #expect(page.contains(poor))
        let floatChanged = page.replacingOccurrences(of: poor, with: "| `SecondReadings.poorBelow` | 0.91 |")
        #expect(Self.problems(floatChanged).contains { $0.contains("poorBelow is [0.91] in the page") })
        let range = "| `AutomaticPreprocessing.documentAreaRange` | 0.15…0.9 |"
        #expect(page.contains(range))
        let rangeChanged = page.replacingOccurrences(
            of: range, with: "| `AutomaticPreprocessing.documentAreaRange` | 0.15…0.95 |")
        #expect(Self.problems(rangeChanged).contains { $0.contains("documentAreaRange is [0.15, 0.95]") })
        let removed = page.replacingOccurrences(of: poor, with: "")
        #expect(Self.problems(removed).contains { $0.hasPrefix("SecondReadings.poorBelow") })
        let unknown = page + "\n| `SecondReadings.somethingNew` | 1 |\n"
        #expect(Self.problems(unknown).contains { $0.contains("somethingNew is not a value the test knows") })
        // And a value changed in the code alone (here: the test's copy of it).
        var code = Self.actual
        code["SecondReadings.poorBelow"] = [0.85]
        #expect(Self.problems(page, actual: code).contains { $0.contains("poorBelow is [0.9] in the page, [0.85]") })
    }

    /// GitHub's anchor for a Markdown heading's text: lower case, spaces to hyphens, other
    /// punctuation dropped.
    static func anchor(_ heading: String) -> String {
        String(
            heading.lowercased().compactMap { c -> Character? in
                if c == " " { return "-" }
                return c.isLetter || c.isNumber || c == "-" || c == "_" ? c : nil
            })
    }

    @Test("Every `docs/tuning.md#…` pointer in the library's doc comments names a heading of the page")
    func pointersResolve() throws {
        let page = try Self.tuningPage()
        let anchors = Set(
            page.split(separator: "\n").filter { $0.hasPrefix("#") }.map {
                Self.anchor($0.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces))
            })
        let sources = try #require(Self.root).appendingPathComponent("Sources/FrameOCR")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var pointers: [(file: String, anchor: String)] = []
        for case let url as URL in files where url.pathExtension == "swift" || url.pathExtension == "md" {
            let text = try String(contentsOf: url, encoding: .utf8)
            var rest = text[...]
            while let range = rest.range(of: "docs/tuning.md#") {
                let name = rest[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
                pointers.append((url.lastPathComponent, String(name)))
                rest = rest[range.upperBound...]
            }
        }
        #expect(pointers.count >= 20, "\(pointers.count) pointers found")
        let broken = pointers.filter { !anchors.contains($0.anchor) }.map { "\($0.file): #\($0.anchor)" }
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    }
}
