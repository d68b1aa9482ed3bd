import Foundation
import FrameOCR
import FrameOCREvaluation

// The generated scenes the live reader is tuned and checked on: one of each kind of motion per
// seed, in two halves that share no font and no seed, so that a threshold chosen on the tuning
// half is checked on scenes it has never seen.
extension SyntheticScene {
    /// What changes in a scene.
    public enum Kind: String, Sendable, CaseIterable, Codable {
        /// Two lines moving 1…3 px per frame.
        case pan
        /// Two lines growing or shrinking 0.4…0.8 % per frame.
        case zoom
        /// Two lines turning back and forth by 3…8°.
        case turn
        /// Moving lines with two bursts of 3…5 frames blurred (Gaussian, σ 2.5…4 px).
        case blur
        /// Two slowly moving lines, one covered for 5…12 frames, then seen again.
        case hide
        /// A line throughout, one that appears and disappears, and one that crosses the frame
        /// from edge to edge.
        case appearLeave
        /// Nothing moves: only sensor noise.
        case still
        /// Still lines under light rising and falling by 25…40 %.
        case light
        /// A line whose number changes once or twice (a meter, a price, a screen), beside one
        /// that stays; both still or slowly moving.
        case change
        /// A label of three lines filmed by a hand-held camera: the whole frame wanders by up to
        /// 20 px, zooms by ±10 % and sways by ±5° (``CameraPose``), each on its own slow cycle.
        case handheld
        /// A label of three lines, the camera swaying a little, then a quick move of 60…120 px
        /// in 10…15 frames, every one of them motion-blurred (σ 2.5…4 px), then still again.
        case burst
        /// A label of three lines, a hand passing over it from top to bottom: each line hidden
        /// for 6…12 frames, the next line 2…4 frames after the one above.
        case occluder
        /// ``handheld``, every frame JPEG-compressed at quality 20…35 (a cheap camera's or a
        /// stream's encoder: blocks and ringing around the strokes, different each frame).
        case jpeg
    }

    /// A half of the generated scenes.
    public enum Half: String, Sendable, CaseIterable, Codable {
        /// What thresholds are chosen on: DejaVu fonts (Debian `fonts-dejavu-core`), even seeds.
        case tuning
        /// What they are checked on: Liberation fonts (`fonts-liberation2`; other designs, the
        /// metrics of Arial, Times and Courier), odd seeds.
        case heldOut
    }

    /// The font files of `half`.
    public static func fonts(_ half: Half) -> [String] {
        switch half {
        case .tuning:
            let d = "/usr/share/fonts/truetype/dejavu/"
            return ["DejaVuSans.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSansMono.ttf", "DejaVuSans-Bold.ttf"].map {
                d + $0
            }
        case .heldOut:
            let l = "/usr/share/fonts/truetype/liberation2/"
            return [
                "LiberationSans-Regular.ttf", "LiberationSerif-Bold.ttf", "LiberationMono-Regular.ttf",
                "LiberationSans-Bold.ttf",
            ].map { l + $0 }
        }
    }

    /// `count` seeds of `half` (tuning: 0, 2, 4…; held out: 1, 3, 5…), a scene of every kind for
    /// each: `count × 12` scenes of `frameCount` frames.
    public static func suite(_ half: Half, count: Int = 1, frameCount: Int = 75) -> [SyntheticScene] {
        (0..<count).flatMap { n in
            Kind.allCases.map { kind in
                make(kind, seed: UInt64(2 * n + (half == .tuning ? 0 : 1)), fonts: fonts(half), frameCount: frameCount)
            }
        }
    }

    /// Words the lines are made of: label, sign and screen words, and numbers.
    static let words = [
        "BATCH", "LOT", "EXPIRES", "SERIAL", "MODEL", "PRICE", "TOTAL", "GATE", "PLATFORM", "EXIT", "OPEN", "CLOSED",
        "NORTH", "SOUTH", "STATION", "ROOM", "FLOOR", "Coffee", "Fresh", "Milk", "Water", "Energy", "Station", "Depot",
        "Ticket", "Window", "Garden", "Market", "Street", "Harbour", "Library", "Bakery", "Service", "Entrance",
    ]

    /// One scene of `kind`, its texts, fonts, sizes and motions drawn from `seed`.
    public static func make(_ kind: Kind, seed: UInt64, fonts: [String], frameCount: Int = 75) -> SyntheticScene {
        var random = SplitMix64(seed: seed &* 7919 &+ UInt64(Kind.allCases.firstIndex(of: kind)!) &* 104_729 &+ 1)
        func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + (range.upperBound - range.lowerBound) * Double(random.next() >> 11) / Double(1 << 53)
        }
        func integer(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(random.next() % UInt64(range.count)) }
        func sign() -> Double { random.next() & 1 == 0 ? 1 : -1 }
        func text() -> String {
            let n = integer(2...3)
            var parts: [String] = []
            for k in 0..<n {
                parts.append(
                    k == n - 1 && random.next() % 2 == 0
                        ? String(integer(10...9999)) : words[integer(0...(words.count - 1))])
            }
            return parts.joined(separator: " ")
        }
        func card() -> Card {
            Card(
                text: text(), fontPath: fonts[integer(0...(fonts.count - 1))], height: integer(16...40), margin: 10,
                ink: UInt8(integer(0...50)), paper: UInt8(integer(215...250)))
        }
        let width = 640
        let height = 360
        let f = frameCount
        /// Centers of `n` lines one above the other, a little off the middle.
        func centers(_ n: Int) -> [Point] {
            (0..<n).map { k in
                Point(
                    x: Double(width) / 2 + uniform(-40...40),
                    y: Double(height) * Double(k + 1) / Double(n + 1) + uniform(-10...10))
            }
        }
        var items: [Item] = []
        var blur: [(frames: Range<Int>, sigma: Double)] = []
        var light = 0.0
        var noise = uniform(1.5...3)
        var camera: [CameraPose] = []
        var jpegQuality: Int?
        switch kind {
        case .pan, .blur:
            for c in centers(2) {
                // At most 3 px per frame, and the line stays near the middle: it moves ≤ 90 px.
                let speed = min(uniform(1...3), 90 / Double(f))
                let angle = uniform(0...(2 * Double.pi))
                items.append(
                    Item(
                        card: card(),
                        motion: Motion(
                            center: Point(
                                x: c.x - cos(angle) * speed * Double(f) / 2, y: c.y - sin(angle) * speed * Double(f) / 6
                            ),
                            velocity: Point(x: cos(angle) * speed, y: sin(angle) * speed / 3)), frames: 0..<f))
            }
            if kind == .blur {
                var start = integer((f / 5)...(f / 3))
                for _ in 0..<2 {
                    let length = integer(3...5)
                    blur.append((start..<max(start, min(f, start + length)), uniform(2.5...4)))
                    start += length + integer((f / 5)...(f / 3))
                }
            }
        case .zoom:
            for c in centers(2) {
                // Scale 0.75…1.3 over the scene, whichever way it goes.
                let fastest = pow(1.3 / 0.75, 1 / Double(f)) - 1
                let rate = sign() * min(uniform(0.004...0.008), fastest)
                items.append(
                    Item(
                        card: card(),
                        motion: Motion(
                            center: c, velocity: Point(x: uniform(-0.5...0.5), y: 0), scale: rate > 0 ? 0.75 : 1.3,
                            zoomPerFrame: rate), frames: 0..<f))
            }
        case .turn:
            for c in centers(2) {
                items.append(
                    Item(
                        card: card(),
                        motion: Motion(
                            center: c, velocity: Point(x: uniform(-0.8...0.8), y: uniform(-0.3...0.3)),
                            degrees: uniform(-2...2),
                            turnAmplitude: uniform(3...8), turnPeriod: uniform(40...80)), frames: 0..<f))
            }
        case .hide:
            for (k, c) in centers(2).enumerated() {
                let start = integer((f / 4)...(f / 2))
                let hidden = k == 0 ? [start..<min(f, start + integer(5...12))] : []
                items.append(
                    Item(
                        card: card(),
                        motion: Motion(
                            center: c, velocity: Point(x: uniform(-0.8...0.8), y: uniform(-0.2...0.2))), frames: 0..<f,
                        hidden: hidden))
            }
        case .appearLeave:
            let c = centers(3)
            items.append(Item(card: card(), motion: Motion(center: c[0]), frames: 0..<f))
            let appear = integer((f / 6)...(f / 4))
            items.append(Item(card: card(), motion: Motion(center: c[1]), frames: appear..<min(f, appear + f / 2)))
            // Crosses from beyond the left edge to beyond the right in the scene's length.
            let crosser = card()
            let speed = (Double(width) + 500) / Double(f)
            items.append(
                Item(
                    card: crosser,
                    motion: Motion(
                        center: Point(x: -250, y: c[2].y), velocity: Point(x: speed, y: 0)), frames: 0..<f))
        case .still:
            for c in centers(2) { items.append(Item(card: card(), motion: Motion(center: c), frames: 0..<f)) }
        case .light:
            for c in centers(2) { items.append(Item(card: card(), motion: Motion(center: c), frames: 0..<f)) }
            light = uniform(0.25...0.4)
            noise = uniform(1...2)
        case .handheld, .burst, .occluder, .jpeg:
            // A label: three lines one above the other near the middle, in one font and paper.
            var label = card()
            let step = Double(label.height) * 1.9
            for k in 0..<3 {
                label.text = text()
                let y = Double(height) / 2 + Double(k - 1) * step
                items.append(
                    Item(card: label, motion: Motion(center: Point(x: Double(width) / 2, y: y)), frames: 0..<f))
            }
            let (p1, p2, p3) = (uniform(40...80), uniform(40...80), uniform(50...90))
            let (phase1, phase2) = (uniform(0...(2 * Double.pi)), uniform(0...(2 * Double.pi)))
            switch kind {
            case .handheld, .jpeg:
                if kind == .jpeg { jpegQuality = integer(20...35) }
                let (zoom, sway, wander) = (uniform(0.07...0.1), uniform(3.5...5), uniform(12...20))
                camera = (0..<f).map { i in
                    let t = 2 * Double.pi * Double(i)
                    return CameraPose(
                        dx: wander * sin(t / p3 + phase1), dy: wander / 2 * sin(t / (p3 * 0.7) + phase2),
                        scale: 1 + zoom * sin(t / p1 + phase2), degrees: sway * sin(t / p2 + phase1))
                }
            case .burst:
                let start = integer((f / 4)...(f / 3))
                let length = integer(10...15)
                let distance = uniform(60...120) * sign()
                let sway = uniform(1...2)
                camera = (0..<f).map { i in
                    // Smoothstep over the burst: fastest in its middle.
                    let u = min(max(Double(i - start) / Double(length), 0), 1)
                    let moved = distance * u * u * (3 - 2 * u)
                    let t = 2 * Double.pi * Double(i)
                    return CameraPose(
                        dx: moved - distance / 2, dy: 3 * sin(t / p3 + phase1), scale: 1,
                        degrees: sway * sin(t / p2 + phase2))
                }
                blur.append((start..<max(start, min(f, start + length)), uniform(2.5...4)))
            default:
                let start = integer((f / 4)...(f / 3))
                let lag = integer(2...4)
                for k in 0..<3 {
                    let from = start + k * lag
                    items[k].hidden = [from..<max(from, min(f, from + integer(6...12)))]
                }
                camera = (0..<f).map { i in
                    CameraPose(
                        dx: 4 * sin(2 * Double.pi * Double(i) / p3 + phase1),
                        degrees: sin(2 * Double.pi * Double(i) / p2))
                }
            }
        case .change:
            let c = centers(2)
            let motion = Motion(center: c[0], velocity: Point(x: uniform(-0.3...0.3), y: 0))
            var first = card()
            first.text = words[integer(0...(words.count - 1))] + " " + String(integer(1000...9999))
            // The number changes at one or two frames; the words and the card stay.
            let changes = integer(1...2)
            var cuts = [0]
            for k in 1...changes { cuts.append(k * f / (changes + 1) + integer(-3...3)) }
            cuts.append(f)
            var text = first
            for k in 0..<(cuts.count - 1) {
                items.append(Item(card: text, motion: motion, frames: cuts[k]..<cuts[k + 1]))
                let parts = text.text.split(separator: " ")
                var number = Int(parts.last!)!
                number = (number + integer(1...999)) % 9000 + 1000
                text.text = parts.dropLast().joined(separator: " ") + " " + String(number)
            }
            items.append(Item(card: card(), motion: Motion(center: c[1]), frames: 0..<f))
        }
        return SyntheticScene(
            name: "\(kind.rawValue)-\(seed)", width: width, height: height, frameCount: f,
            background: UInt8(integer(60...170)), items: items, blur: blur, lightAmplitude: light,
            lightPeriod: Double(f) * uniform(0.8...1.2), noise: noise, camera: camera, jpegQuality: jpegQuality,
            seed: seed)
    }
}
