// The CTC recognizer's reading as the shim returns it (`focr_recognized_line` and its
// `focr_recognized_char`s), copied into Swift values (`Bridge/Shim+TextRecognition.swift` makes
// them; ``TextLineRecognizer`` turns them into a ``LineRecognition``).

/// One character as the greedy CTC decoding output it (`focr_recognized_char`).
struct CTCCharacter {
    /// The class (1…classes − 1): ``TextLineRecognizer/keys``' index.
    var classIndex: Int
    /// The class's highest probability over the character's time steps, 0…1.
    var probability: Float
    /// The time steps the character was output at (inclusive).
    var steps: ClosedRange<Int>
    /// Its extent along the line, pixels of the image read: 0 ≤ `x0` ≤ `x1` ≤ width.
    var x0: Double
    var x1: Double
    /// Other allowed classes at its most probable step, most probable first.
    var alternates: [(classIndex: Int, probability: Float)]
}

/// The line (`focr_recognized_line`).
struct CTCReading {
    var characters: [CTCCharacter]
    /// The mean of the characters' probabilities (0 when there are none).
    var meanProbability: Float
    /// The crop's width after its resize to the network's height, and the input's width with
    /// its padding, pixels; the network's time steps.
    var resizedWidth: Int
    var inputWidth: Int
    var timeSteps: Int
}
