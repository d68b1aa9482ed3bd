// Live reading's scene lines: when the detector runs, the lines it found that the line finder
// did not, and their reading by the CTC recognizer, several in one run of its network.

/// What the live reader hands frames to for text detection (``LiveReading/detectEvery``): the
/// processor's detector thread (`LiveDetector`, in the Streaming room), whose regions come back
/// to the tracker (``TextTracker/detected(_:frameID:)``), not to the reader.
protocol RegionDetecting: Sendable {
    /// Takes a copy of the gray region `image` of frame `frameID` (its top-left at `origin` in the
    /// upright frame) to detect text in; never waits for the detection.
    func offer(_ image: PixelBuffer, frameID: UInt64, origin: Point) throws(FrameOCRError)
}

extension LiveReader {
    /// When the detector was last offered a frame.
    struct DetectionSchedule {
        /// Frames read so far (by the workers, in the order they took them).
        var framesRead = 0
        /// ``framesRead`` when a frame was last offered (nil: never).
        var lastOffer: Int?
        /// The tracks there were then.
        var tracksAtOffer = 0
    }

    /// Whether the frame being read (one more frame read; `tracks` tracks now) goes to the
    /// detector: the first frame read, then every ``LiveReading/detectEvery`` frames read, or
    /// after a quarter of that when there is no track or fewer than half of those there were at
    /// the last offer (a new scene, or the tracks thinned). Never without a detector or with
    /// `detectEvery` 0.
    func detectionDue(tracks: Int) -> Bool {
        guard detector != nil, settings.detectEvery > 0 else { return false }
        let every = settings.detectEvery
        return detection.withLock { d in
            d.framesRead += 1
            if let last = d.lastOffer {
                let since = d.framesRead - last
                let thinned = tracks == 0 || tracks * 2 < d.tracksAtOffer
                guard since >= every || (thinned && since >= max(1, every / 4)) else { return false }
            }
            d.lastOffer = d.framesRead
            d.tracksAtOffer = tracks
            return true
        }
    }

    /// Tracks' detector regions (``TextTracker/Plan/region``) found at most
    /// 2 × ``LiveReading/detectEvery`` frames read ago that no line of `found` overlaps (by
    /// ``LiveReading/matchOverlap``), as lines to read by the CTC recognizer, clipped to the
    /// upright `region`; those mostly outside it, or lower than ``LiveReading/minimumTextHeight``,
    /// are left out. A region older than that is no longer added: the detector did not find it
    /// again, and its track ages out unless the line finder finds its line.
    func detectedLines(plans: [TextTracker.Plan], besides found: [Line], region: PixelRect) -> [Line] {
        guard detector != nil else { return [] }
        let bounds = Rect(region)
        let keep = 2 * settings.detectEvery
        var lines: [Line] = []
        for plan in plans {
            guard let r = plan.region, let ago = plan.detectedAgo, ago <= keep else { continue }
            let box = r.boundingBox
            let inside = box.clipped(to: bounds)
            guard inside.width * inside.height * 2 >= box.width * box.height,
                min(r.height, inside.height) >= settings.minimumTextHeight,
                !found.contains(where: { $0.text.overlapFraction(with: box) >= settings.matchOverlap })
            else { continue }
            let upright = PixelRect(
                x: Int(inside.x.rounded(.down)), y: Int(inside.y.rounded(.down)),
                width: Int(inside.maxX.rounded(.up)) - Int(inside.x.rounded(.down)),
                height: Int(inside.maxY.rounded(.up)) - Int(inside.y.rounded(.down)))
            let local = PixelRect(
                x: upright.x - region.x, y: upright.y - region.y, width: upright.width, height: upright.height)
            let r0 = Rect(region)
            let cut =
                box.x <= r0.x + Self.cutMargin || box.y <= r0.y + Self.cutMargin
                || box.maxX >= r0.maxX - Self.cutMargin || box.maxY >= r0.maxY - Self.cutMargin
            lines.append(
                Line(
                    text: inside, upright: upright, box: local, textBox: local, cut: cut, characterHeight: r.height,
                    characterAspect: nil, region: r))
        }
        return lines
    }

    /// The scene lines `indices` of `found` (``Schedule/ctc``) read by `ctc`, the first of them
    /// that the time left before `deadline` allows (each line's cost predicted from its columns,
    /// ``inputColumns(width:height:)``, at ``columnCost`` a column; ``lineCost`` kept for
    /// `tesseractWaiting` Tesseract lines still to read), their crops read in one run of the
    /// network (``TextLineRecognizer/recognizeLines(_:choices:)``). A detector's region is cut
    /// out turned as found; a line finder's line, upright. Per line read, in `indices`' order:
    /// its reading (nil: nothing read) — fewer than `indices` when the time ran out. The model's
    /// time is added to `timings.lineRecognition`.
    func readScene(
        _ indices: [Int], of found: FoundLines, gray: PreprocessedFrame, ctc: TextLineRecognizer,
        options: RecognitionOptions, deadline: ContinuousClock.Instant?, tesseractWaiting: Bool,
        timings: inout StageTimings, pool: PixelBufferPool
    ) throws(FrameOCRError) -> [RecognitionResult?] {
        let clock = ContinuousClock()
        let columns = indices.map { i in
            let line = found.lines[i]
            return line.region.map { Self.inputColumns(width: $0.width, height: $0.height) }
                ?? Self.inputColumns(width: Double(line.box.width), height: Double(line.box.height))
        }
        var count = indices.count
        if let deadline {
            let perColumn = columnCost.withLock { $0 } * Self.sceneCostMargin
            var left = (deadline - clock.now - (tesseractWaiting ? lineCost.withLock { $0 } : .zero)).seconds
            count = 0
            for c in columns {
                left -= c * perColumn
                guard left >= 0 else { break }
                count += 1
            }
        }
        guard count > 0 else { return [] }
        let t = gray.transform
        let origin = Point(x: Double(t.region.x), y: Double(t.region.y))
        var regions: [DetectedText] = []
        var crops: [PixelBuffer] = []
        for i in indices.prefix(count) {
            let line = found.lines[i]
            let region: DetectedText
            if let r = line.region {
                region = r.moved(by: Point(x: -origin.x, y: -origin.y))
            } else {
                let b = line.box
                region = DetectedText(
                    center: Point(x: Double(b.x) + Double(b.width) / 2, y: Double(b.y) + Double(b.height) / 2),
                    width: Double(b.width), height: Double(b.height), angleDegrees: 0, score: 1)
            }
            regions.append(region)
            crops.append(
                try RegionReading.cut(
                    region, of: line.normalized ? found.light : gray.image, degrees: region.angleDegrees, pool: pool))
        }
        let started = clock.now
        let readings = try timed(&timings.lineRecognition) { () throws(FrameOCRError) in
            try ctc.recognizeLines(crops, choices: options.includeSymbols ? options.alternates : 0)
        }
        recordColumnCost(clock.now - started, columns: columns.prefix(count).reduce(0, +))
        return zip(regions, zip(readings, crops)).map { region, rc in
            RegionReading.line(
                rc.0, of: region, crop: rc.1, degrees: region.angleDegrees, origin: origin,
                frameWidth: t.uprightWidth, frameHeight: t.uprightHeight, options: options
            ).map { line in ResultBuilder.finish([RegionReading.block(line)], status: .complete, transform: t) }
        }
    }

    /// The columns of the CTC recognizer's input for a line crop of `width`×`height` pixels: its
    /// width at the network's 48-pixel height, at least 48.
    static func inputColumns(width: Double, height: Double) -> Double {
        48 * max(1, width / max(height, 1))
    }

    /// A running cost after one more measurement: the mean moved by ``lineCostWeight`` towards
    /// `measured`, taken at most ``costOutlier`` × the estimate (a run that compiled the
    /// network's kernels for a new input width, or was held up by another process, would
    /// otherwise raise the estimate so far that no line fits for many frames — and a line that
    /// is not read is not measured, so the estimate would come down only slowly).
    static func follow(_ estimate: Double, _ measured: Double) -> Double {
        let m = min(measured, costOutlier * estimate)
        return estimate * (1 - lineCostWeight) + m * lineCostWeight
    }

    /// The CTC reading of scene lines is planned at this multiple of its running cost: a batch's
    /// time varies more than a Tesseract line's (the detector's network runs beside it), and one
    /// that overruns takes its frame over budget, while one planned short only leaves time unused.
    static let sceneCostMargin = 1.25

    /// The most a measured cost counts for, as a multiple of the running estimate (``follow(_:_:)``).
    static let costOutlier = 2.0

    /// Follows the CTC recognizer's cost: `took` for a batch of `columns` input columns.
    func recordColumnCost(_ took: Duration, columns: Double) {
        guard columns > 0 else { return }
        columnCost.withLock { $0 = Self.follow($0, took.seconds / columns) }
    }
}
