// Live reading's second part: which lines to read, in what order.
extension LiveReader {
    /// The order to read a frame's lines in, and what was measured to decide it.
    struct Schedule {
        /// Indices of the lines to read, first first.
        var order: [Int]
        /// Each line's profile when it was measured to decide (nil otherwise).
        var profiles: [LineProfile?]
        /// Whether each line's profile changed since its track's last reading.
        var changed: [Bool]
        /// Whether each line is read by the CTC recognizer (a scene line,
        /// ``sceneLine(_:plan:)``) rather than by Tesseract.
        var ctc: [Bool] = []
    }

    /// New lines first, then unconfirmed tracks and confirmed ones whose line changed (by more
    /// than ``LiveReading/changedAbove``), then confirmed ones due for a reading (every
    /// ``LiveReading/rereadEvery`` frames); the larger lines first within each. A line is its
    /// track's when their boxes overlap by at least ``LiveReading/matchOverlap`` (the most
    /// overlapping track). Lines of confirmed tracks not due are not read.
    func schedule(
        _ lines: [Line], plans: [TextTracker.Plan], in gray: PixelBuffer, pool: PixelBufferPool
    ) throws(FrameOCRError) -> Schedule {
        var profiles = [LineProfile?](repeating: nil, count: lines.count)
        var changed = [Bool](repeating: false, count: lines.count)
        var priorities: [Int] = []
        var ctc = [Bool](repeating: false, count: lines.count)
        for (i, line) in lines.enumerated() {
            let box = line.text
            let plan = plans.filter { $0.box.overlapFraction(with: box) >= settings.matchOverlap }
                .max { $0.box.overlapFraction(with: box) < $1.box.overlapFraction(with: box) }
            ctc[i] = Self.sceneLine(line, plan: plan)
            guard let plan else {
                priorities.append(0)
                continue
            }
            if !plan.confirmed {
                priorities.append(1)
                continue
            }
            if settings.changedAbove > 0, let before = plan.profile {
                let now = try LineProfile(gray, box: line.textBox, pool: pool)
                profiles[i] = now
                if now.difference(from: before) > settings.changedAbove {
                    changed[i] = true
                    priorities.append(1)
                    continue
                }
            }
            priorities.append((plan.readAgo ?? Int.max) >= settings.rereadEvery ? 2 : 3)
        }
        let order = lines.indices.filter { priorities[$0] < 3 }.sorted { a, b in
            (priorities[a], -lines[a].upright.area, a) < (priorities[b], -lines[b].upright.area, b)
        }
        return Schedule(order: order, profiles: profiles, changed: changed, ctc: ctc)
    }

    /// Whether `line` (of the track `plan`, nil: none) is a scene line, read by the CTC
    /// recognizer: a detector region the line finder did not find, or a line of a track the
    /// detector found (``TextTracker/Plan/region``) whose last reading was the CTC recognizer's
    /// (Tesseract read it poorly and the CTC recognizer better,
    /// ``readPoorLine(_:line:gray:recognizer:options:deadline:timings:pool:)``, or it was read as a
    /// detector's line). A line the finder found is read by Tesseract first, so print (a label,
    /// a sign, a card) stays Tesseract's while it reads it well.
    static func sceneLine(_ line: Line, plan: TextTracker.Plan?) -> Bool {
        if line.region != nil { return true }
        guard let plan, plan.region != nil else { return false }
        return plan.engine == .ctc
    }
}
