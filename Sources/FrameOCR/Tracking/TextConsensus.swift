/// The consensus text of one tracked line over many readings: single readings flicker (`MATTER`,
/// `WATTER`, `MATTE`, `MATTER.`); their vote, character by character and weighted by the
/// engine's confidence, is one stable text.
///
/// The vote follows ROVER (Fiscus, "A post-processing system to yield reduced word error rates:
/// Recognizer Output Voting Error Reduction", 1997): the hypotheses are aligned into one
/// transition network and each slot of the network is voted on. Here the hypotheses are the
/// kept readings, the unit is the `Character` (a grapheme: `é` written precomposed or as `e` and
/// a combining accent is one character) and the network is built on a pivot reading:
///
/// 1. **Normalize** each reading: runs of whitespace become one space (spaces are characters),
///    leading and trailing whitespace is dropped, so a whitespace-only reading is empty.
/// 2. **Pivot**: the kept reading with the smallest confidence-weighted edit distance to the
///    others, `Σⱼ wⱼ · d(i, j)` (a medoid; `d` is Levenshtein distance, `wⱼ` reading j's line
///    weight), so one wild reading cannot be the skeleton. Ties (within 10⁻⁹) go to the reading
///    closest to the previous consensus (which keeps a tied vote from flickering), then to the
///    newest.
/// 3. **Align** every kept reading to the pivot by Levenshtein distance with traceback
///    (substitution, insertion and deletion cost 1; traced from the end, a tie prefers
///    match/substitution, then deletion, then insertion). The slots are one per pivot character
///    plus the gaps before, between and after them. Characters that readings insert into one gap
///    get as many insertion slots as the longest run inserted there (the first such run in the
///    kept order); every other run in the gap is fitted onto it by matches, substitutions and
///    skips (edit distance without insertions, the same tie rule), so `C` and `CK` inserted at
///    the same place vote together on `C`.
/// 4. **Vote**: in every slot each kept reading votes for a character or for nothing (ε). A
///    character's vote weighs the engine's confidence in that character (the reading's line
///    confidence when per-character confidences are not given); ε weighs the line confidence;
///    both are floored at ``weightFloor`` so a zero-confidence reading still counts a little. The
///    candidate with the largest summed weight wins the slot; a tie (within 10⁻⁹) goes to the
///    pivot's own vote. The consensus is the slots' winners without ε.
///
/// **Confidence** (0…1): with, for the slot of each consensus character k, `shareₖ` = the
/// winner's weight ÷ the slot's total weight and `meanₖ` = the mean line confidence (unfloored)
/// of the readings that voted for the winner,
///
///     confidence = (1 / K) · Σₖ shareₖ · meanₖ        (K consensus characters)
///
/// It rises with agreement and with the engine's confidence; one reading gives its own line
/// confidence. An empty consensus has `confidence` = (line weight of the empty readings ÷ line
/// weight of all) × the mean line confidence of the empty readings (0 when none is empty).
///
/// **Agreement** (0…1): for each kept reading, the slots where it or the consensus has a
/// character count at the weight of the reading's vote there; `agreement` is the share of that
/// weight, over all kept readings, whose vote equals the winner (a substituted, missing or extra
/// character disagrees). It is 1 when no reading and no consensus has a character, 0 before the
/// first reading. Each kept reading's own share is kept too: it chooses whom to drop.
///
/// **Bounded**: at most ``capacity`` readings are kept. When a reading arrives and the consensus
/// is full, one kept reading is dropped first:
/// - the oldest, if `2 × capacity` readings have arrived since it (with the new one), so any text
///   that stays is followed within `2 × capacity` readings even when it is read with less
///   confidence than the text it replaces;
/// - otherwise the one that contributes least to the consensus among the older readings (all but
///   the newest `capacity / 2`): the smallest line weight × its own agreement with the consensus
///   before the new reading; ties go to the oldest. A wild reading is the first to go once it
///   is no longer among the newest half (unless a reading contributes even less), and a text
///   that changes for good wins once its readings outweigh the rest (with equal confidences,
///   from a full consensus of the old text: at the `capacity / 2 + 1`-th reading of the new).
///
/// **Deterministic**: the same readings added in the same order give the same result (sums run
/// in the kept order, ties are broken by the rules above).
///
/// **Complexity** per ``add(_:)``, with k kept readings of at most L characters: the new
/// reading's edit distance to each kept one (O(k·L²), cached between calls, so the medoid costs
/// O(k²) sums), every reading aligned to the pivot with traceback (O(k·L²) time, O(L²) memory
/// each), the vote over O(L) slots (O(k·L), more with long insertions). Memory: O(k² + k·L).
/// Measured with 16 kept readings of 60 characters (7 % of the characters wrong, on a shared
/// 2-core x86-64 machine): 0.25 ms per add built with `-O` (p50, p90 0.27 ms), 5 ms in a debug
/// build (`TextConsensusTests` prints it).
struct TextConsensus: Sendable, Hashable {
    /// One reading of a line: its text, the engine's confidences, and the frame it came from.
    struct Reading: Sendable, Hashable {
        /// The text as read (any whitespace; the consensus normalizes it).
        var text: String
        /// The engine's confidence in each `Character` of `text`, 0…1; empty when unknown. Used
        /// only when it holds exactly one value per `Character` (`text.count`); otherwise each
        /// character weighs the line `confidence`. A collapsed run of whitespace weighs the mean
        /// of its characters' confidences.
        var characterConfidences: [Float]
        /// The line's mean word confidence, 0…1 (values outside are clamped; NaN counts as 0).
        var confidence: Float
        /// The frame the reading came from; recorded, not used by the vote.
        var frameID: UInt64
        /// The engine that read it; recorded (``TextTrack/engine``), not used by the vote: both
        /// engines' readings vote alike.
        var engine: RecognitionEngine

        init(
            text: String, characterConfidences: [Float] = [], confidence: Float, frameID: UInt64 = 0,
            engine: RecognitionEngine = .tesseract
        ) {
            self.text = text
            self.characterConfidences = characterConfidences
            self.confidence = confidence
            self.frameID = frameID
            self.engine = engine
        }
    }

    /// The smallest weight a vote has (confidence 0…1 scale): a zero-confidence reading still
    /// counts a little. A choice, not a measurement.
    static let weightFloor = 0.01

    /// Weights or costs closer than this are equal, so that equal sums reached in a different
    /// order still tie.
    static let tieTolerance = 1e-9

    /// Readings kept at most (≥ 1; default 16).
    let capacity: Int
    /// The consensus text; "" before any reading.
    var text = ""
    /// 0…1: rises with agreement among the kept readings and with their confidence (formula in
    /// the type's comment); 0 before any reading.
    var confidence: Float = 0
    /// 0…1: the weighted share of the kept readings' characters that agree with the consensus
    /// (see the type's comment); 0 before any reading.
    var agreement = 0.0
    /// Readings added in all, kept or not.
    private(set) var count = 0

    /// The kept readings, oldest first.
    var entries: [Entry] = []
    /// Edit distances between the kept readings, in `entries` order (k × k, symmetric).
    var distances: [[Int]] = []

    /// An empty consensus keeping at most `capacity` readings (values below 1 are taken as 1).
    init(capacity: Int = 16) {
        self.capacity = Swift.max(1, capacity)
    }

    /// Readings kept now (≤ ``capacity``).
    var kept: Int { entries.count }

    /// Kept readings whose normalized text is the consensus, character for character (0 before
    /// any reading; an empty consensus is agreed with by the empty readings).
    var agreeingReadings: Int {
        let consensus = Array(text)
        return entries.reduce(0) { $0 + ($1.characters == consensus ? 1 : 0) }
    }

    /// The kept readings, oldest first.
    var readings: [Reading] { entries.map(\.reading) }

    /// Adds one reading and recomputes the consensus from the kept readings (dropping one first
    /// when ``capacity`` are kept; which one is in the type's comment).
    mutating func add(_ reading: Reading) {
        let entry = Entry(reading, serial: count)
        count += 1
        if entries.count >= capacity { remove(at: victim(arriving: entry.serial)) }
        entries.append(entry)
        var alphabet = Alphabet()
        let coded = entries.map { alphabet.codes(of: $0.characters) }
        let row = coded.map { TextAlignment.distance(coded[coded.count - 1], $0) }
        for i in distances.indices { distances[i].append(row[i]) }
        distances.append(row)
        recompute(coded, &alphabet)
    }
}

extension TextConsensus {
    /// A kept reading, normalized.
    struct Entry: Sendable, Hashable {
        var reading: Reading
        /// The normalized text.
        var characters: [Character]
        /// Per character: its vote's weight, ≥ `weightFloor`.
        var weights: [Double]
        /// The weight of its ε votes: the line confidence, ≥ `weightFloor`.
        var lineWeight: Double
        /// The line confidence clamped to 0…1.
        var lineConfidence: Double
        /// Its place among all readings added (0-based).
        var serial: Int
        /// Its weighted share of votes that agree with the consensus, from the last recompute.
        var agreement = 1.0

        init(_ reading: Reading, serial: Int) {
            self.reading = reading
            self.serial = serial
            lineConfidence = Self.clamped(reading.confidence)
            lineWeight = Swift.max(TextConsensus.weightFloor, lineConfidence)
            let perCharacter = reading.characterConfidences.count == reading.text.count
            var characters: [Character] = []
            var weights: [Double] = []
            var space: (sum: Double, count: Int)?
            for (i, c) in reading.text.enumerated() {
                let w =
                    perCharacter
                    ? Swift.max(TextConsensus.weightFloor, Self.clamped(reading.characterConfidences[i])) : lineWeight
                if c.isWhitespace {
                    if !characters.isEmpty { space = ((space?.sum ?? 0) + w, (space?.count ?? 0) + 1) }
                    continue
                }
                if let s = space {
                    characters.append(" ")
                    weights.append(s.sum / Double(s.count))
                    space = nil
                }
                characters.append(c)
                weights.append(w)
            }
            self.characters = characters
            self.weights = weights
        }

        static func clamped(_ x: Float) -> Double { x.isNaN ? 0 : Double(Swift.min(Swift.max(x, 0), 1)) }
    }

    /// Characters as small integers for the inner loops: equal `Character`s (canonical
    /// equivalence: `é` precomposed or decomposed) get one code. Made afresh on each add over the
    /// kept readings, so it stays as small as they are.
    struct Alphabet {
        var table: [Character: Int32] = [:]
        var symbols: [Character] = []

        mutating func code(of c: Character) -> Int32 {
            if let code = table[c] { return code }
            let code = Int32(symbols.count)
            table[c] = code
            symbols.append(c)
            return code
        }

        mutating func codes(of characters: [Character]) -> [Int32] { characters.map { code(of: $0) } }
    }

    /// The kept reading to drop to make room for the reading numbered `serial` (see the type's
    /// comment).
    private func victim(arriving serial: Int) -> Int {
        if serial - entries[0].serial >= 2 * capacity { return 0 }
        var best = 0
        for i in 1..<(entries.count - capacity / 2) {
            let e = entries[i]
            let b = entries[best]
            if e.lineWeight * e.agreement < b.lineWeight * b.agreement { best = i }
        }
        return best
    }

    private mutating func remove(at index: Int) {
        entries.remove(at: index)
        distances.remove(at: index)
        for i in distances.indices { distances[i].remove(at: index) }
    }
}
