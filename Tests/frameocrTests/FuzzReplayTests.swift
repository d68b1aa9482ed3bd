import Foundation
import Testing

/// The inputs a `frameocr-fuzz` harness (Tests/Fuzz/Swift, `make fuzz`) once failed on, kept in
/// Fixtures/fuzz as `serve-*.bin` and `arguments-*.bin`, replayed through the same harness (its
/// plain build replays instead of fuzzing): every check must now hold.
@Suite("frameocr-fuzz replays")
struct FuzzReplayTests {
    static let harness = CLI.product("frameocr-fuzz")

    static func inputs(_ prefix: String) throws -> [String] {
        let dir = CLI.fixture("fuzz")
        return try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(prefix + "-") }.sorted()
            .map { dir + "/" + $0 }
    }

    @Test(
        "Each kept input passes its harness's checks",
        arguments: [
            // serve: a last request line without a newline trapped the line reader (then LineReader, now
            // StandardInputLines) in next() (2026-12-02).
            ("serve", 1),
            // arguments: "3e-23" parsed as a duration of 0 ns, a zero --budget (2026-12-02).
            ("arguments", 1),
        ])
    func replays(harness name: String, atLeast count: Int) throws {
        let files = try Self.inputs(name)
        #expect(files.count >= count, "\(files)")
        let r = try CLI.run([name] + files, executable: Self.harness)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("frameocr-fuzz \(name): \(files.count) inputs, no check failed"), "\(r.stdout)")
    }

    @Test("The replayer refuses an unknown harness, a missing file and no file (status 2): it cannot pass on nothing")
    func refusesNothing() throws {
        #expect(try CLI.run(["nope", CLI.fixture("fuzz")], executable: Self.harness).status == 2)
        #expect(try CLI.run(["serve", "/nonexistent/input"], executable: Self.harness).status == 2)
        #expect(try CLI.run(["serve"], executable: Self.harness).status == 2)
    }
}
