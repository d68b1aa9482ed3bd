import Foundation
import Testing

/// The command-line target's rooms (docs/layout.md): arrows run one way, Commands → Serve →
/// Output → Support. A file names no type declared in a room above its own (comments aside).
@Suite("FrameOCRCommandLine: the rooms' arrows run one way")
struct CommandLineLayoutTests {
    static let rooms = ["Commands", "Serve", "Output", "Support"]
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/FrameOCRCommandLine")

    /// Each room's Swift files, their text without comments.
    static func files(_ room: String) throws -> [(name: String, text: String)] {
        let dir = root.appendingPathComponent(room)
        return try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".swift") }.sorted()
            .map { name in
                let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
                let code = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                    line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line)
                }
                return (name, code.joined(separator: "\n"))
            }
    }

    /// The types a file declares at its top level.
    static func declared(in text: String) throws -> [String] {
        let pattern = try NSRegularExpression(
            pattern:
                #"^(?:(?:package|public|internal|final|private|fileprivate) )*(?:enum|struct|class|protocol|actor) (\w+)"#,
            options: .anchorsMatchLines)
        let range = NSRange(text.startIndex..., in: text)
        return pattern.matches(in: text, range: range).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    @Test("Every room holds Swift files, and none names a type of a room above it")
    func arrows() throws {
        var above: [String: String] = [:]  // type → its room
        for room in Self.rooms {
            let files = try Self.files(room)
            #expect(!files.isEmpty, "\(room)/ is empty")
            for file in files {
                for (type, home) in above {
                    let named = try NSRegularExpression(pattern: #"\b"# + type + #"\b"#)
                    let hit = named.firstMatch(in: file.text, range: NSRange(file.text.startIndex..., in: file.text))
                    #expect(hit == nil, "\(room)/\(file.name) names \(type) of \(home)/")
                }
            }
            for file in files { for type in try Self.declared(in: file.text) { above[type] = room } }
        }
        #expect(above["Server"] == "Serve" && above["RecognitionOutput"] == "Output" && above["Arguments"] == "Support")
    }
}
