import Foundation
import FrameOCR
import FrameOCREvaluation

/// A generated video with ground truth: cards of text (a line rendered in a TrueType font, on its
/// own paper) that pan, zoom, turn a few degrees, blur, hide, appear and leave on a canvas, under
/// changing light and sensor noise. What the live reader (``LiveReading``) is tested, tuned and
/// benchmarked on, besides real video: every frame's truth is known exactly.
///
/// Frames are `gray8`, ``width``×``height`` pixels, made on demand (``frame(_:)``), identical for
/// the same scene on every machine (the noise comes from a seeded generator). A card is drawn
/// with `cv::warpAffine` (bilinear) through its similarity map at that frame; blur is
/// `cv::GaussianBlur`; text is rendered with `cv::freetype`.
public struct SyntheticScene: Sendable {
    /// A line of text on its own paper.
    public struct Card: Sendable, Hashable {
        public var text: String
        /// A TrueType font file (e.g. `/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf`).
        public var fontPath: String
        /// The font's pixel height at scale 1 (4…1024).
        public var height: Int
        /// Paper around the text, pixels at scale 1.
        public var margin: Int
        /// Gray levels of the text and of its paper.
        public var ink: UInt8
        public var paper: UInt8

        public init(text: String, fontPath: String, height: Int, margin: Int = 8, ink: UInt8 = 20, paper: UInt8 = 235) {
            self.text = text
            self.fontPath = fontPath
            self.height = height
            self.margin = margin
            self.ink = ink
            self.paper = paper
        }
    }

    /// Where a card is at frame `i`: its center `center + velocity·i` (canvas pixels), its scale
    /// `scale·(1 + zoomPerFrame)^i`, and its angle `degrees + turnAmplitude·sin(2πi / turnPeriod)`
    /// (degrees clockwise as displayed).
    public struct Motion: Sendable, Hashable {
        public var center: Point
        public var velocity: Point
        public var scale: Double
        public var zoomPerFrame: Double
        public var degrees: Double
        public var turnAmplitude: Double
        /// Frames per turn cycle (> 0).
        public var turnPeriod: Double

        public init(
            center: Point, velocity: Point = Point(x: 0, y: 0), scale: Double = 1, zoomPerFrame: Double = 0,
            degrees: Double = 0, turnAmplitude: Double = 0, turnPeriod: Double = 50
        ) {
            self.center = center
            self.velocity = velocity
            self.scale = scale
            self.zoomPerFrame = zoomPerFrame
            self.degrees = degrees
            self.turnAmplitude = turnAmplitude
            self.turnPeriod = turnPeriod
        }

        /// The center, scale and angle at frame `i`.
        public func pose(at i: Int) -> (center: Point, scale: Double, degrees: Double) {
            let t = Double(i)
            return (
                Point(x: center.x + velocity.x * t, y: center.y + velocity.y * t),
                scale * pow(1 + zoomPerFrame, t),
                degrees + turnAmplitude * sin(2 * Double.pi * t / max(turnPeriod, 1e-9))
            )
        }
    }

    /// A card on the canvas: drawn in the frames of `frames` except those of `hidden` (covered).
    public struct Item: Sendable, Hashable {
        public var card: Card
        public var motion: Motion
        public var frames: Range<Int>
        public var hidden: [Range<Int>]

        public init(card: Card, motion: Motion, frames: Range<Int>, hidden: [Range<Int>] = []) {
            self.card = card
            self.motion = motion
            self.frames = frames
            self.hidden = hidden
        }

        /// Whether the card is drawn in frame `i`.
        public func isDrawn(at i: Int) -> Bool { frames.contains(i) && !hidden.contains { $0.contains(i) } }
    }

    /// Where a hand-held camera is at one frame: the whole canvas moved by a similarity about
    /// its center — scaled by ``scale``, turned ``degrees`` clockwise as displayed, then shifted
    /// by (``dx``, ``dy``) pixels. Every card moves with it.
    public struct CameraPose: Sendable, Hashable {
        public var dx: Double
        public var dy: Double
        public var scale: Double
        public var degrees: Double

        public init(dx: Double = 0, dy: Double = 0, scale: Double = 1, degrees: Double = 0) {
            self.dx = dx
            self.dy = dy
            self.scale = scale
            self.degrees = degrees
        }
    }

    /// A card's text as it is in one frame: drawn and wholly inside the canvas.
    public struct Truth: Sendable, Hashable {
        /// The item's index in ``items``: the identity a tracker should keep.
        public var item: Int
        public var text: String
        /// The text's corners (the card without its margin) and their bounding box, canvas pixels.
        public var quad: Quad
        public var box: Rect
    }

    /// Canvas size, pixels.
    public var width: Int
    public var height: Int
    public var frameCount: Int
    /// Frames per second, for timestamps (> 0).
    public var framesPerSecond: Double
    /// The canvas's gray level before light and noise.
    public var background: UInt8
    public var items: [Item]
    /// Frames blurred, each range with a Gaussian of this standard deviation (pixels, 0.1…10).
    public var blur: [(frames: Range<Int>, sigma: Double)]
    /// Light: every pixel p becomes `p·gain(i)` with
    /// `gain(i) = 1 + lightAmplitude·sin(2πi / lightPeriod)` (clamped to 0…255).
    public var lightAmplitude: Double
    public var lightPeriod: Double
    /// Sensor noise: the standard deviation in gray levels, independent per pixel and frame.
    public var noise: Double
    /// The camera's pose at each frame (empty, or a frame beyond the list: still), applied to
    /// every card after its own motion.
    public var camera: [CameraPose]
    /// Every frame JPEG-compressed at this quality (1…100) and decoded again, as a camera's or
    /// a stream's encoder leaves it (blocks, ringing around strokes); nil: not.
    public var jpegQuality: Int?
    public var seed: UInt64
    /// A label for reports ("pan", "zoom", …).
    public var name: String

    public init(
        name: String, width: Int = 640, height: Int = 360, frameCount: Int, framesPerSecond: Double = 25,
        background: UInt8 = 120, items: [Item], blur: [(frames: Range<Int>, sigma: Double)] = [],
        lightAmplitude: Double = 0, lightPeriod: Double = 100, noise: Double = 2, camera: [CameraPose] = [],
        jpegQuality: Int? = nil, seed: UInt64 = 1
    ) {
        self.name = name
        self.width = width
        self.height = height
        self.frameCount = frameCount
        self.framesPerSecond = framesPerSecond
        self.background = background
        self.items = items
        self.blur = blur
        self.lightAmplitude = lightAmplitude
        self.lightPeriod = lightPeriod
        self.noise = noise
        self.camera = camera
        self.jpegQuality = jpegQuality
        self.seed = seed
    }

    /// Frame `i`'s timestamp.
    public func timestamp(_ i: Int) -> Duration { .nanoseconds(Int64((Double(i) / framesPerSecond * 1e9).rounded())) }

    /// Whether frame `i` is blurred.
    public func isBlurred(_ i: Int) -> Bool { blur.contains { $0.frames.contains(i) } }

    /// The row-major 2×3 map that carries a pixel of `item`'s card (size `cardWidth`×`cardHeight`)
    /// onto the canvas at frame `i`: about the card's center, scaled, turned, then moved to the
    /// pose's center; then the camera's pose at `i` (``camera``) about the canvas's center.
    func affine(_ item: Item, cardWidth: Int, cardHeight: Int, at i: Int) -> [Double] {
        let pose = item.motion.pose(at: i)
        let t = pose.degrees * Double.pi / 180
        let c = cos(t) * pose.scale
        let s = sin(t) * pose.scale
        let cx = Double(cardWidth - 1) / 2
        let cy = Double(cardHeight - 1) / 2
        let card = [c, -s, pose.center.x - (c * cx - s * cy), s, c, pose.center.y - (s * cx + c * cy)]
        guard i >= 0, i < camera.count else { return card }
        // The camera: q = k + S·R·(p − k) + d, k the canvas's center; composed after the card's map.
        let v = camera[i]
        let a = v.degrees * Double.pi / 180
        let (gc, gs) = (cos(a) * v.scale, sin(a) * v.scale)
        let (kx, ky) = (Double(width) / 2, Double(height) / 2)
        let g = [gc, -gs, kx + v.dx - (gc * kx - gs * ky), gs, gc, ky + v.dy - (gs * kx + gc * ky)]
        return [
            g[0] * card[0] + g[1] * card[3], g[0] * card[1] + g[1] * card[4], g[0] * card[2] + g[1] * card[5] + g[2],
            g[3] * card[0] + g[4] * card[3], g[3] * card[1] + g[4] * card[4], g[3] * card[2] + g[4] * card[5] + g[5],
        ]
    }

    /// The truth of frame `i`, with `cards` from ``renderCards()``: the cards drawn and wholly
    /// inside the canvas, in item order.
    public func truth(_ i: Int, cards: [PixelBuffer]) -> [Truth] {
        drawn(i, cards: cards).filter { t in
            t.quad.points.allSatisfy { $0.x >= 0 && $0.y >= 0 && $0.x <= Double(width) && $0.y <= Double(height) }
        }
    }

    /// Every card drawn in frame `i`, in item order, also those partly outside the canvas (their
    /// ``Truth/box`` clipped to it; their quads are not).
    public func drawn(_ i: Int, cards: [PixelBuffer]) -> [Truth] {
        var out: [Truth] = []
        for (k, item) in items.enumerated() where item.isDrawn(at: i) {
            let card = cards[k]
            let m = affine(item, cardWidth: card.width, cardHeight: card.height, at: i)
            let margin = Double(item.card.margin)
            let text = Quad(
                Rect(
                    x: margin - 0.5, y: margin - 0.5, width: Double(card.width) - 2 * margin,
                    height: Double(card.height) - 2 * margin))
            let quad = text.map { p in Point(x: m[0] * p.x + m[1] * p.y + m[2], y: m[3] * p.x + m[4] * p.y + m[5]) }
            let b = Rect(bounding: quad.points)
            let x0 = max(0, b.x)
            let y0 = max(0, b.y)
            let x1 = min(Double(width), b.maxX)
            let y1 = min(Double(height), b.maxY)
            guard x1 > x0, y1 > y0 else { continue }
            out.append(
                Truth(
                    item: k, text: item.card.text, quad: quad, box: Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
            )
        }
        return out
    }

    /// Every item's card, rendered once (``Card``'s font at its height and margin).
    /// - Throws: ``FrameOCRError/Code/io`` for a font that cannot be loaded.
    public func renderCards() throws(FrameOCRError) -> [PixelBuffer] {
        var cards: [PixelBuffer] = []
        for item in items {
            let c = item.card
            cards.append(
                try PixelBuffer.rendering(
                    c.text, fontPath: c.fontPath, height: c.height, margin: c.margin, ink: c.ink, paper: c.paper))
        }
        return cards
    }

    /// Frame `i` (0 ≤ i < ``frameCount``), with `cards` from ``renderCards()``: a new `gray8`
    /// buffer.
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for a frame out of range.
    public func frame(_ i: Int, cards: [PixelBuffer]) throws(FrameOCRError) -> PixelBuffer {
        guard (0..<frameCount).contains(i), cards.count == items.count else {
            throw FrameOCRError(
                .invalidParameter, "frame \(i) not in 0..<\(frameCount), or the cards not rendered", stage: .buffer)
        }
        var canvas = try PixelBuffer(width: width, height: height, pixelFormat: .gray8)
        canvas.withUnsafePlanes { planes in
            for y in 0..<height { planes[0].row(y).initializeMemory(as: UInt8.self, repeating: background) }
        }
        for (k, item) in items.enumerated() where item.isDrawn(at: i) {
            let card = cards[k]
            try canvas.draw(card, affine: affine(item, cardWidth: card.width, cardHeight: card.height, at: i))
        }
        // Light and noise: one pass, a generator seeded by the scene and the frame.
        let gain = 1 + lightAmplitude * sin(2 * Double.pi * Double(i) / max(lightPeriod, 1e-9))
        if gain != 1 || noise > 0 {
            var random = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(i))
            canvas.withUnsafePlanes { planes in
                for y in 0..<height {
                    let row = planes[0].row(y)
                    for x in 0..<width {
                        var v = Double(row[x]) * gain
                        if noise > 0 { v += noise * random.nextGaussian() }
                        row[x] = UInt8(max(0, min(255, v.rounded())))
                    }
                }
            }
        }
        if let sigma = blur.first(where: { $0.frames.contains(i) })?.sigma {
            canvas = try canvas.smoothed(sigma: sigma)
        }
        if let jpegQuality {
            canvas = try PixelBuffer(encoded: canvas.encoded(as: "jpg", quality: jpegQuality))
        }
        return canvas
    }
}
