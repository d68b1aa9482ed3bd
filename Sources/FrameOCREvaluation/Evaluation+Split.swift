import Foundation
import FrameOCR

extension Evaluation {
    /// One of the two fixed halves of an evaluation corpus.
    ///
    /// Thresholds and rules are chosen on the ``tuning`` half only and checked on the ``heldOut``
    /// half; a rule that helps only the half it was tuned on is not kept.
    public enum Half: String, Hashable, Sendable, Codable, CaseIterable {
        case tuning
        case heldOut = "held-out"
    }

    /// Every image of an evaluation corpus assigned to a ``Half``, fixed in a list.
    ///
    /// The list is a text file of lines `HALF<TAB>PATH` (`HALF`: `tuning` or `held-out`; `PATH`:
    /// the image's path relative to the corpus root, e.g. `icdar2015/img_1.jpg`); blank lines and
    /// lines starting with `#` are skipped. ``corpus`` is FrameOCR's own list of
    /// `../shared/data` (`Sources/FrameOCREvaluation/corpus-split.tsv`, written once by
    /// `tools/make_corpus_split.py`: per folder, images sorted by name, even positions tuning).
    ///
    /// An image is looked up by its sample path (``Sample/folder`` and file name) and then by
    /// that path with leading folders dropped, so `data/icdar2015/img_1.jpg` (the corpus root
    /// searched as a whole) finds `icdar2015/img_1.jpg`. An image the list does not hold gets the
    /// half of a stable hash of its file name (FNV-1a, 64 bits: even → tuning), the same on every
    /// machine and run, and ``half(of:)`` says so.
    public struct Split: Hashable, Sendable {
        /// The listed halves by relative path.
        public var halves: [String: Half]

        public init(halves: [String: Half] = [:]) { self.halves = halves }

        /// Parses a list (see the type's overview).
        /// - Throws: ``FrameOCRError/Code/invalidParameter`` naming the first malformed line: not
        ///   two tab-separated fields, a half other than `tuning` or `held-out`, or a path listed
        ///   twice.
        public init(parsing text: String) throws(FrameOCRError) {
            var halves: [String: Half] = [:]
            // Lines end in LF or CRLF (one Character: `isNewline`).
            for (n, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
                if line.allSatisfy(\.isWhitespace) || line.hasPrefix("#") { continue }
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                guard fields.count == 2, let half = Half(rawValue: String(fields[0])), !fields[1].isEmpty else {
                    throw FrameOCRError(
                        .invalidParameter, "split: line \(n + 1): '\(line)' is not tuning|held-out<TAB>path",
                        stage: .load)
                }
                let path = String(fields[1])
                guard halves.updateValue(half, forKey: path) == nil else {
                    throw FrameOCRError(
                        .invalidParameter, "split: line \(n + 1): \(path) is listed twice", stage: .load)
                }
            }
            self.halves = halves
        }

        /// Reads a list from a file.
        /// - Throws: ``FrameOCRError/Code/io`` when the file cannot be read; the errors of
        ///   ``init(parsing:)``.
        public init(contentsOfFile path: String) throws(FrameOCRError) {
            let text: String
            do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
                throw FrameOCRError(.io, "\(path): cannot read the split: \(error)", stage: .load)
            }
            try self.init(parsing: text)
        }

        /// FrameOCR's evaluation corpus (`../shared/data`), split once and embedded in the binary.
        public static let corpus: Split = {
            // The embedded list is checked by the tests; a malformed one is a build defect.
            (try? Split(parsing: String(decoding: PackageResources.corpus_split_tsv, as: UTF8.self))) ?? Split()
        }()

        /// The half of `sample`, and whether the list holds it (false: assigned by the hash of
        /// its file name).
        public func half(of sample: Sample) -> (half: Half, listed: Bool) {
            let name = (sample.image as NSString).lastPathComponent
            var parts = sample.folder.split(separator: "/").map(String.init) + [name]
            while !parts.isEmpty {
                if let h = halves[parts.joined(separator: "/")] { return (h, true) }
                parts.removeFirst()
            }
            return (Self.hashedHalf(name), false)
        }

        /// The half of an image the list does not hold: FNV-1a (64 bits) of its file name's UTF-8
        /// bytes, even → ``Half/tuning``.
        public static func hashedHalf(_ fileName: String) -> Half {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for b in fileName.utf8 {
                h ^= UInt64(b)
                h = h &* 0x0000_0100_0000_01b3
            }
            return h % 2 == 0 ? .tuning : .heldOut
        }
    }
}
