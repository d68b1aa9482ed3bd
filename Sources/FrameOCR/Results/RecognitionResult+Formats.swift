import Foundation

// Output formats: JSON (the result tree), TSV (as `tesseract … tsv`), hOCR, plain text.
// Every box is in upright-frame pixels (mapped back through crop, rotation and scale).

extension RecognitionResult: Encodable {
    private enum Keys: String, CodingKey {
        case status, text, confidence, frame, region, regionClamped, orientation, scale, padding, skewDegrees, backend,
            backendFallback,
            timings, blocks, preprocessing
    }
    private struct Size: Encodable {
        var width: Int
        var height: Int
    }
    private struct Scale: Encodable {
        var x: Double
        var y: Double
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(status, forKey: .status)
        try c.encode(text, forKey: .text)
        try c.encode(confidence, forKey: .confidence)
        try c.encode(Size(width: frameWidth, height: frameHeight), forKey: .frame)
        try c.encode(transform.region, forKey: .region)
        try c.encode(regionClamped, forKey: .regionClamped)
        try c.encode(transform.orientation.description, forKey: .orientation)
        try c.encode(Scale(x: transform.scaleX, y: transform.scaleY), forKey: .scale)
        if transform.padding > 0 { try c.encode(transform.padding, forKey: .padding) }
        if transform.skewDegrees != 0 { try c.encode(transform.skewDegrees, forKey: .skewDegrees) }
        try c.encodeIfPresent(preprocessing, forKey: .preprocessing)
        try c.encode(backend, forKey: .backend)
        try c.encodeIfPresent(backendFallback, forKey: .backendFallback)
        var t: [String: Double] = [:]
        for s in timings.stages { t[s.name + "Ms"] = (s.duration.milliseconds * 1000).rounded() / 1000 }
        try c.encode(t, forKey: .timings)
        try c.encode(blocks, forKey: .blocks)
    }

    /// The result as JSON (schema in the README: status, text, confidence, frame, region,
    /// regionClamped, orientation, scale, backend, timings in ms, blocks › lines › words ›
    /// symbols with boxes in upright pixels and normalized). Keys are sorted.
    public func jsonData(prettyPrinted: Bool = true) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            prettyPrinted
            ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        // Encoding our own value types cannot fail (no non-finite numbers reach here).
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return prettyPrinted ? Self.collapsingPoints(data) : data
    }

    /// Puts `[x, y]` points and four-point quads on one line each in pretty-printed JSON.
    private static func collapsingPoints(_ data: Data) -> Data {
        var text = String(decoding: data, as: UTF8.self)
        let number = #"-?[0-9.]+(?:[eE][-+]?[0-9]+)?"#
        let point = #"\[\s*("# + number + #")\s*,\s*("# + number + #")\s*\]"#
        text = text.replacingOccurrences(of: point, with: "[$1, $2]", options: .regularExpression)
        let flat = #"(\[-?[0-9.eE+-]+, -?[0-9.eE+-]+\])"#
        let quad = #"\[\s*"# + flat + #",\s*"# + flat + #",\s*"# + flat + #",\s*"# + flat + #"\s*\]"#
        text = text.replacingOccurrences(of: quad, with: "[$1, $2, $3, $4]", options: .regularExpression)
        return Data(text.utf8)
    }

    /// Tab-separated values with the columns and levels of `tesseract IMAGE out tsv`:
    /// `level page_num block_num par_num line_num word_num left top width height conf text`
    /// (levels 1 page, 2 block, 3 paragraph, 4 line, 5 word; conf −1 except on words).
    /// - Parameters:
    ///   - pageNumber: the `page_num` column (default 1; a multi-image output numbers its pages).
    ///   - includeHeader: write the column-name line first (default true).
    public func tsv(pageNumber: Int = 1, includeHeader: Bool = true) -> String {
        var out =
            includeHeader
            ? "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n" : ""
        func row(_ level: Int, _ b: Int, _ p: Int, _ l: Int, _ w: Int, _ r: Rect, _ conf: String, _ text: String) {
            let x = Int(r.x.rounded())
            let y = Int(r.y.rounded())
            out +=
                "\(level)\t\(pageNumber)\t\(b)\t\(p)\t\(l)\t\(w)\t\(x)\t\(y)\t\(Int(r.maxX.rounded()) - x)\t\(Int(r.maxY.rounded()) - y)\t\(conf)\t\(text)\n"
        }
        row(1, 0, 0, 0, 0, Rect(x: 0, y: 0, width: Double(frameWidth), height: Double(frameHeight)), "-1", "")
        for (bi, block) in blocks.enumerated() {
            row(2, bi + 1, 0, 0, 0, block.box.rect, "-1", "")
            for (pi, para) in block.paragraphs.enumerated() {
                row(3, bi + 1, pi + 1, 0, 0, Rect(bounding: para.flatMap { $0.box.quad.points }), "-1", "")
                for (li, line) in para.enumerated() {
                    row(4, bi + 1, pi + 1, li + 1, 0, line.box.rect, "-1", "")
                    for (wi, word) in line.words.enumerated() {
                        let conf = word.confidence.map { String(format: "%.6f", Double($0) * 100) } ?? "-1"
                        row(5, bi + 1, pi + 1, li + 1, wi + 1, word.box.rect, conf, word.text)
                    }
                }
            }
        }
        return out
    }

    /// An hOCR 1.2 document (`ocr_page` › `ocr_carea` › `ocr_par` › `ocr_line` › `ocrx_word`, with
    /// `bbox` and `x_wconf`), as `tesseract IMAGE out hocr` writes it.
    public func hocr(imageName: String = "", language: String = "eng") -> String {
        func bbox(_ r: Rect) -> String {
            "bbox \(Int(r.x.rounded())) \(Int(r.y.rounded())) \(Int(r.maxX.rounded())) \(Int(r.maxY.rounded()))"
        }
        var s = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
            <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">
             <head>
              <title>\(imageName.xmlEscaped)</title>
              <meta http-equiv="Content-Type" content="text/html;charset=utf-8"/>
              <meta name="ocr-system" content="frameocr (tesseract \(Shim.tesseractVersion))"/>
              <meta name="ocr-capabilities" content="ocr_page ocr_carea ocr_par ocr_line ocrx_word ocrp_wconf"/>
             </head>
             <body>
              <div class="ocr_page" id="page_1" title="image &quot;\(imageName.xmlEscaped)&quot;; \(bbox(Rect(x: 0, y: 0, width: Double(frameWidth), height: Double(frameHeight)))); ppageno 0">

            """
        var lineID = 0
        var wordID = 0
        var parID = 0
        for (bi, block) in blocks.enumerated() {
            s += "   <div class=\"ocr_carea\" id=\"block_1_\(bi + 1)\" title=\"\(bbox(block.box.rect))\">\n"
            for para in block.paragraphs {
                parID += 1
                s +=
                    "    <p class=\"ocr_par\" id=\"par_1_\(parID)\" lang=\"\(language.xmlEscaped)\" title=\"\(bbox(Rect(bounding: para.flatMap { $0.box.quad.points })))\">\n"
                for line in para {
                    lineID += 1
                    s += "     <span class=\"ocr_line\" id=\"line_1_\(lineID)\" title=\"\(bbox(line.box.rect))\">"
                    for (i, word) in line.words.enumerated() {
                        wordID += 1
                        let conf = word.confidence.map { "; x_wconf \(Int((Double($0) * 100).rounded()))" } ?? ""
                        s +=
                            (i > 0 ? " " : "")
                            + "<span class=\"ocrx_word\" id=\"word_1_\(wordID)\" title=\"\(bbox(word.box.rect))\(conf)\">\(word.text.xmlEscaped)</span>"
                    }
                    s += "</span>\n"
                }
                s += "    </p>\n"
            }
            s += "   </div>\n"
        }
        s += "  </div>\n </body>\n</html>\n"
        return s
    }
}

extension TextBox {
    private enum Keys: String, CodingKey { case x, y, width, height, quad, normalized }

    /// `{"x","y","width","height","quad":[[x,y]×4],"normalized":{same, 0…1}}`, quad corners
    /// topLeft, topRight, bottomRight, bottomLeft; normalized values rounded to 6 decimals.
    public func encode(to encoder: any Encoder) throws {
        try Self.encode(
            rect: rect, quad: quad, digits: nil, to: encoder.container(keyedBy: Keys.self), nested: true,
            normalizedRect: normalizedRect, normalizedQuad: normalizedQuad)
    }

    private static func encode(
        rect: Rect, quad: Quad, digits: Int?, to container: KeyedEncodingContainer<Keys>, nested: Bool,
        normalizedRect: Rect, normalizedQuad: Quad
    ) throws {
        var c = container
        func r(_ v: Double) -> Double {
            guard let digits else { return v }
            let f = pow(10, Double(digits))
            return (v * f).rounded() / f
        }
        try c.encode(r(rect.x), forKey: .x)
        try c.encode(r(rect.y), forKey: .y)
        try c.encode(r(rect.width), forKey: .width)
        try c.encode(r(rect.height), forKey: .height)
        try c.encode(quad.points.map { [r($0.x), r($0.y)] }, forKey: .quad)
        if nested {
            try encode(
                rect: normalizedRect, quad: normalizedQuad, digits: 6,
                to: c.nestedContainer(keyedBy: Keys.self, forKey: .normalized), nested: false,
                normalizedRect: normalizedRect, normalizedQuad: normalizedQuad)
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        func read(_ c: KeyedDecodingContainer<Keys>) throws -> (Rect, Quad) {
            let rect = Rect(
                x: try c.decode(Double.self, forKey: .x), y: try c.decode(Double.self, forKey: .y),
                width: try c.decode(Double.self, forKey: .width), height: try c.decode(Double.self, forKey: .height))
            let q = try c.decode([[Double]].self, forKey: .quad)
            guard q.count == 4, q.allSatisfy({ $0.count == 2 }) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .quad, in: c, debugDescription: "quad needs 4 [x, y] points")
            }
            let p = q.map { Point(x: $0[0], y: $0[1]) }
            return (rect, Quad(topLeft: p[0], topRight: p[1], bottomRight: p[2], bottomLeft: p[3]))
        }
        (rect, quad) = try read(c)
        (normalizedRect, normalizedQuad) = try read(c.nestedContainer(keyedBy: Keys.self, forKey: .normalized))
    }
}

extension TextBlock {
    /// The block's lines grouped by paragraph, in order.
    public var paragraphs: [[TextLine]] {
        var groups: [[TextLine]] = []
        for (i, line) in lines.enumerated() {
            if i == 0 || line.paragraph != lines[i - 1].paragraph {
                groups.append([line])
            } else {
                groups[groups.count - 1].append(line)
            }
        }
        return groups
    }
}

extension String {
    var xmlEscaped: String {
        var out = ""
        out.reserveCapacity(count)
        for ch in self {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(ch)
            }
        }
        return out
    }
}
