import Foundation
import Testing

@testable import FrameOCR

/// The consensus of one tracked line over many readings (`TextConsensus`): the ROVER-style vote,
/// its confidence and agreement, the bounded memory and what it drops. Weights are chosen
/// exact in binary (0.25, 0.5, 0.75) where a test turns on a tie.
@Suite("Text consensus")
struct TextConsensusTests {
    typealias Reading = TextConsensus.Reading

    static func reading(_ text: String, _ confidence: Float, _ frame: UInt64 = 0, characters: [Float] = [])
        -> Reading
    {
        Reading(text: text, characterConfidences: characters, confidence: confidence, frameID: frame)
    }

    /// Adds the readings one by one and returns the consensus text after each.
    static func texts(_ readings: [Reading], into consensus: inout TextConsensus) -> [String] {
        readings.map {
            consensus.add($0)
            return consensus.text
        }
    }

    @Test("Nothing read: empty text, zero confidence and agreement; one reading: its text and its confidence")
    func oneReading() {
        var c = TextConsensus()
        #expect(c.text == "" && c.confidence == 0 && c.agreement == 0 && c.count == 0 && c.kept == 0)
        c.add(Self.reading("EXIT 3", 0.83, 7, characters: [0.9, 0.8, 0.95, 0.9, 0.5, 0.7]))
        #expect(c.text == "EXIT 3")
        #expect(c.confidence == 0.83)
        #expect(c.agreement == 1)
        #expect(c.count == 1 && c.kept == 1 && c.readings.map(\.frameID) == [7])
    }

    @Test("MATTER five times at 0.9 among WATTER, MATTE, MATTER., MAT TER: MATTER from the third reading on")
    func singleFrameErrors() {
        let sequence = ["WATTER", "MATTER", "MATTER", "MATTE", "MATTER", "MATTER.", "MATTER", "MAT TER", "MATTER"]
        var c = TextConsensus()
        let texts = Self.texts(sequence.enumerated().map { Self.reading($1, 0.9, UInt64($0)) }, into: &c)
        // One reading each way is a tie; the tie keeps the previous consensus (WATTER), then the
        // majority holds through every later error.
        #expect(texts == ["WATTER", "WATTER"] + Array(repeating: "MATTER", count: 7))
        #expect(c.count == 9 && c.kept == 9)
        // Agreement: 5 of the 9 readings are exact; each error costs one character at 0.9.
        // Characters counted: 5 × 6 (MATTER) + 6 (WATTER) + 6 (MATTE: 5 and the missing R)
        // + 7 (MATTER.) + 7 (MAT TER) = 56, of which 4 disagree.
        #expect(abs(c.agreement - 52.0 / 56.0) < 1e-12)
    }

    @Test("A less confident majority loses to a confident minority exactly when the weights say so")
    func weights() {
        // CAT, CAT at 0.25 against CAR at 0.75: T weighs 0.5 and R 0.75, so CAR.
        var c = TextConsensus()
        _ = Self.texts([Self.reading("CAT", 0.25), Self.reading("CAT", 0.25), Self.reading("CAR", 0.75)], into: &c)
        #expect(c.text == "CAR")
        // C and A: share 1 × mean confidence (0.25 + 0.25 + 0.75) / 3; R: share 0.75 / 1.25 × 0.75.
        #expect(abs(Double(c.confidence) - (2 * 1.25 / 3 + 0.6 * 0.75) / 3) < 1e-6)
        // Each CAT has 2 of its 3 characters (0.25 each) with the consensus, CAR all 3 (0.75 each).
        #expect(abs(c.agreement - 3.25 / 3.75) < 1e-12)
        // A third CAT: 0.75 against 0.75, a tie; the pivot (CAR: closest to the previous consensus
        // among equally central readings) keeps R. A fourth: 1.0 against 0.75, CAT.
        c.add(Self.reading("CAT", 0.25))
        #expect(c.text == "CAR")
        c.add(Self.reading("CAT", 0.25))
        #expect(c.text == "CAT")

        // Per-character confidence decides where it is given: R read at 0.4 weighs less than two
        // Ts at 0.25, though the line (0.75) and the pivot (CAR) say R.
        var perCharacter = TextConsensus()
        let shaky = Self.reading("CAR", 0.75, characters: [0.75, 0.75, 0.4])
        _ = Self.texts([Self.reading("CAT", 0.25), Self.reading("CAT", 0.25), shaky], into: &perCharacter)
        #expect(perCharacter.text == "CAT")
        // …and is ignored unless one per Character (two values for three characters).
        var mismatched = TextConsensus()
        let wrong = Self.reading("CAR", 0.75, characters: [0.1, 0.1])
        _ = Self.texts([Self.reading("CAT", 0.25), Self.reading("CAT", 0.25), wrong], into: &mismatched)
        #expect(mismatched.text == "CAR")

        // Zero confidence still counts (floored at 0.01): two CATs at 0 outvote one CAR at 0.
        var zero = TextConsensus()
        _ = Self.texts([Self.reading("CAR", 0), Self.reading("CAT", 0), Self.reading("CAT", 0)], into: &zero)
        #expect(zero.text == "CAT" && zero.confidence == 0)
    }

    @Test("Insertions and deletions: BLACK with BLACKK, BLAK, BBLACK; and BLACK from BLAK, BLACKK, BBLACK alone")
    func insertionsAndDeletions() {
        var c = TextConsensus()
        let texts = Self.texts(["BLACK", "BLACKK", "BLAK", "BBLACK"].map { Self.reading($0, 0.8) }, into: &c)
        #expect(texts == ["BLACK", "BLACK", "BLACK", "BLACK"])

        // No reading is right. The pivot is BLAK (all three are 2 edits apart; the tie keeps the
        // first); BLACKK inserts CK and BBLACK inserts C in the gap before K: CK is the gap's
        // longest run, C fits on its first slot, so C wins 2 to 1 and K loses 1 to 2.
        var wrong = TextConsensus()
        let votes = Self.texts(["BLAK", "BLACKK", "BBLACK"].map { Self.reading($0, 0.8) }, into: &wrong)
        #expect(votes == ["BLAK", "BLAK", "BLACK"])

        // The alignment itself: BBLACK on BLAK is B inserted before the pivot, B L A matched, C
        // inserted before K, K matched.
        let a = TextAlignment.align(Array("BBLACK"), to: Array("BLAK"))
        #expect(a.matched == [1, 2, 3, 5])
        #expect(a.inserted == [0..<1, 0..<0, 0..<0, 4..<5, 0..<0])
        #expect(TextAlignment.fit(Array("C")[...], onto: Array("CK")[...]) == [0])
        #expect(TextAlignment.fit(Array("K")[...], onto: Array("CK")[...]) == [1])
        #expect(TextAlignment.fit(Array("XK")[...], onto: Array("CXK")[...]) == [1, 2])
        #expect(TextAlignment.distance(Array("BLACKK"), Array("BBLACK")) == 2)
    }

    @Test("Empty and whitespace-only readings vote for nothing; all empty is empty; whitespace runs are one space")
    func emptyAndWhitespace() {
        var empty = TextConsensus()
        let texts = Self.texts(
            [Self.reading("", 0.8), Self.reading("   ", 0.8), Self.reading("\t\n", 0.8)], into: &empty)
        #expect(texts == ["", "", ""])
        #expect(abs(empty.confidence - 0.8) < 1e-6 && empty.agreement == 1 && empty.kept == 3)

        // EXIT twice and two empty readings at 0.9: every slot ties 1.8 to 1.8; the pivot (EXIT,
        // the previous consensus) keeps it, at half the confidence and half the agreement.
        var mixed = TextConsensus()
        let votes = Self.texts(["EXIT", "EXIT", "", "  "].map { Self.reading($0, 0.9) }, into: &mixed)
        #expect(votes == ["EXIT", "EXIT", "EXIT", "EXIT"])
        #expect(abs(Double(mixed.confidence) - 0.45) < 1e-6 && abs(mixed.agreement - 0.5) < 1e-12)
        // A third empty reading: nothing wins; confidence 2.7 / 4.5 of the weight × 0.9.
        mixed.add(Self.reading(" ", 0.9))
        #expect(mixed.text == "")
        #expect(abs(Double(mixed.confidence) - 0.54) < 1e-6)
        #expect(mixed.agreement == 0)  // the only characters at stake (EXIT's) disagree

        // Whitespace: runs become one space, the ends are trimmed; the three readings are one text.
        var spaced = TextConsensus()
        _ = Self.texts(["MAT   TER", " MAT\tTER ", "MAT TER\n"].map { Self.reading($0, 0.7) }, into: &spaced)
        #expect(spaced.text == "MAT TER" && spaced.agreement == 1)
        // A collapsed run weighs the mean of its characters' confidences: (0.2 + 0.4) / 2 = 0.3
        // loses to two readings without the space (0.2 + 0.2), though A B is the pivot.
        var run = TextConsensus()
        let wide = Self.reading("A  B", 0.9, characters: [0.9, 0.2, 0.4, 0.9])
        _ = Self.texts([wide, Self.reading("AB", 0.2), Self.reading("AB", 0.2)], into: &run)
        #expect(run.text == "AB")
    }

    @Test("Capacity 16, 40 readings: 16 kept; a display going from 12 to 13 reads 13 from the 9th 13 on")
    func capacityFollowsChange() {
        var c = TextConsensus(capacity: 16)
        let readings = (0..<40).map { Self.reading($0 < 20 ? "12" : "13", 0.8, UInt64($0)) }
        let texts = Self.texts(readings, into: &c)
        #expect(c.kept == 16 && c.count == 40)
        // Old 12s leave first (all agree alike, so the oldest goes); after 8 13s the vote is 8 to
        // 8 and the tie keeps 12; the 9th 13 makes it 9 to 7.
        #expect(texts == Array(repeating: "12", count: 28) + Array(repeating: "13", count: 12))
        #expect(c.readings.map(\.frameID) == Array(24..<40))
    }

    @Test("What is dropped when full: the least agreeing of the older half, the oldest among equals")
    func dropsLeastContributing() {
        // An outlier among the older half goes before an older reading that agrees (FIFO would
        // drop frame 0).
        var c = TextConsensus(capacity: 4)
        _ = Self.texts(
            ["OPEN", "0PFN", "OPEN", "OPEN", "OPEN"].enumerated().map { Self.reading($1, 0.9, UInt64($0)) }, into: &c)
        #expect(c.readings.map(\.frameID) == [0, 2, 3, 4])
        c.add(Self.reading("OPEN", 0.9, 5))
        #expect(c.readings.map(\.frameID) == [2, 3, 4, 5])

        // The newest half is never dropped: the outlier stays two readings, then goes.
        var late = TextConsensus(capacity: 4)
        let sequence = ["OPEN", "OPEN", "OPEN", "OPEN", "0PFN", "OPEN", "OPEN", "OPEN"]
        var kept: [[UInt64]] = []
        for (i, t) in sequence.enumerated() {
            late.add(Self.reading(t, 0.9, UInt64(i)))
            kept.append(late.readings.map(\.frameID))
        }
        #expect(kept[4...] == [[1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6], [3, 5, 6, 7]])
        #expect(late.text == "OPEN")

        // A change read with little confidence (13 at 0.2 after 12 at 0.9): its readings lose
        // the vote and are dropped as they age, but a reading leaves at the latest when 2 ×
        // capacity have arrived since; then 13 takes over, at the 8th 13.
        var change = TextConsensus(capacity: 4)
        let texts = Self.texts(
            (0..<12).map { Self.reading($0 < 4 ? "12" : "13", $0 < 4 ? 0.9 : 0.2, UInt64($0)) }, into: &change)
        #expect(texts == Array(repeating: "12", count: 11) + ["13"])
        #expect(change.readings.map(\.frameID) == [8, 9, 10, 11])
    }

    @Test("Confidence rises with agreement: 1, 2, 4, 8 equal readings at 0.7 give 0.7; beside a dissent, less, rising")
    func confidenceRisesWithAgreement() {
        var unanimous: [Float] = []
        var mixed: [Float] = []
        for n in [1, 2, 4, 8] {
            var same = TextConsensus()
            _ = Self.texts(Array(repeating: Self.reading("EXIT", 0.7), count: n), into: &same)
            unanimous.append(same.confidence)
            var dissent = TextConsensus()
            _ = Self.texts(
                [Self.reading("EX1T", 0.7)] + Array(repeating: Self.reading("EXIT", 0.7), count: n), into: &dissent)
            mixed.append(dissent.confidence)
        }
        #expect(zip(unanimous, unanimous.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(unanimous.allSatisfy { abs($0 - 0.7) < 1e-6 })
        // (3 × 0.7 + 0.7 × share of the third slot) / 4, the share 1/2 (a tie the first reading
        // keeps, so EX1T), 2/3, 4/5, 8/9.
        let expected = [0.5, 2.0 / 3, 4.0 / 5, 8.0 / 9].map { (3 * 0.7 + 0.7 * $0) / 4 }
        #expect(zip(mixed, expected).allSatisfy { abs(Double($0) - $1) < 1e-6 }, "\(mixed)")
        #expect(zip(mixed, mixed.dropFirst()).allSatisfy { $0 < $1 })
        #expect(zip(mixed, unanimous).allSatisfy { $0 < $1 })
    }

    /// SplitMix64 (Steele, Lea & Flood 2014): a seeded generator, the same numbers on every run.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test("16 readings of 60 characters with random errors: the same consensus twice, the true line; time per add")
    func deterministicAndTimed() {
        let truth = "FRESH BREAD 2.49 EUR OPEN DAILY 7-19 EXCEPT SUNDAY AND MAY 1"
        #expect(truth.count == 60)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")
        var g = SeededGenerator(state: 2024)
        var readings: [Reading] = []
        var errors = 0
        for frame in 0..<16 {
            var text: [Character] = []
            var confidences: [Float] = []
            for c in truth {
                let roll = Double.random(in: 0..<1, using: &g)
                var other: Character { alphabet.filter { $0 != c }.randomElement(using: &g)! }
                switch roll {
                case ..<0.04:  // substituted
                    text.append(other)
                case ..<0.06:  // dropped
                    break
                case ..<0.08:  // another character inserted after it
                    text += [c, other]
                default:
                    text.append(c)
                }
                errors += roll < 0.08 ? 1 : 0
                while confidences.count < text.count { confidences.append(Float.random(in: 0.3...0.95, using: &g)) }
            }
            readings.append(
                Reading(
                    text: String(text), characterConfidences: confidences,
                    confidence: Float.random(in: 0.6...0.95, using: &g), frameID: UInt64(frame)))
        }
        #expect(readings.filter { $0.text == truth }.count < 4, "the errors must be there to vote out")

        var first = TextConsensus()
        var timings: [Duration] = []
        let clock = ContinuousClock()
        for r in readings { timings.append(clock.measure { first.add(r) }) }
        var second = TextConsensus()
        for r in readings { second.add(r) }
        #expect(first.text == second.text && first == second)
        #expect(first.text == truth, "\(first.text)")
        let exact = readings.filter { $0.text == truth }.count
        let total = timings.reduce(Duration.zero, +)
        print(
            "TextConsensus: 16 readings of 60 characters, \(errors) errors injected, \(exact) read exactly;",
            "consensus == truth: \(first.text == truth), confidence \(first.confidence), agreement \(first.agreement);",
            "add: mean \(total / timings.count), last (16 kept) \(timings.last!), max \(timings.max()!)")
    }

    @Test("Unicode: é and € align by Character (precomposed or not), and per-character confidences count Characters")
    func unicode() {
        #expect(TextAlignment.distance(Array("é€"), Array("e€")) == 1)
        #expect(TextAlignment.distance(Array("CAF\u{C9}"), Array("CAFE\u{301}")) == 0)
        var c = TextConsensus()
        let sequence = ["CAFÉ 3,50 €", "CAFE 3,50 €", "CAFÉ 3,50 E", "CAFE\u{301} 3,50 €", "CAFÉ 3,5O €"]
        _ = Self.texts(sequence.map { Self.reading($0, 0.8) }, into: &c)
        #expect(c.text == "CAFÉ 3,50 €" && c.text.count == 11)
        // Five readings, one error each in three of them: 3 of the 5 × 11 (+ 0) characters disagree.
        #expect(abs(c.agreement - 52.0 / 55.0) < 1e-12)

        // e + U+0301 is one Character: two confidences for two Characters (three scalars) are
        // used, and é at 0.1 loses to e at 0.5.
        var accents = TextConsensus()
        let decomposed = Self.reading("e\u{301}3", 0.9, characters: [0.1, 0.9])
        _ = Self.texts([decomposed, Self.reading("e3", 0.5)], into: &accents)
        #expect(accents.text == "e3")
    }
}
