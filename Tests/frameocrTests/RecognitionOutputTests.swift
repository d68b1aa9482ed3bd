import Foundation
import FrameOCR
import Testing

@testable import FrameOCRCommandLine

/// The one renderer of recognition results (`RecognitionOutput`), and what `serve` and
/// `recognize --format jsonl` build on it, on a result made by hand: exact strings for each
/// format.
@Suite("RecognitionOutput: every format, exactly")
struct RecognitionOutputTests {
    /// A box of the 200×50 frame, in pixels.
    static func box(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> String {
        func n(_ v: Int, _ d: Int) -> String { String(Double(v) / Double(d)) }
        return """
            {"x":\(x),"y":\(y),"width":\(w),"height":\(h),"quad":[[\(x),\(y)],[\(x + w),\(y)],[\(x + w),\(y + h)],[\(x),\(y + h)]],\
            "normalized":{"x":\(n(x, 200)),"y":\(n(y, 50)),"width":\(n(w, 200)),"height":\(n(h, 50)),\
            "quad":[[\(n(x, 200)),\(n(y, 50))],[\(n(x + w, 200)),\(n(y, 50))],[\(n(x + w, 200)),\(n(y + h, 50))],[\(n(x, 200)),\(n(y + h, 50))]]}}
            """
    }

    /// "Hello world" on a 200×50 image: one block, one line, two words.
    static func result() throws -> RecognitionResult {
        let blocks = """
            [{"text":"Hello world","confidence":0.75,"box":\(box(10, 10, 120, 20)),"lines":[{"text":"Hello world",\
            "confidence":0.75,"box":\(box(10, 10, 120, 20)),"paragraph":0,"words":[\
            {"text":"Hello","confidence":0.5,"box":\(box(10, 10, 50, 20)),"symbols":[]},\
            {"text":"world","confidence":1,"box":\(box(70, 10, 60, 20)),"symbols":[]}]}]}]
            """
        return RecognitionResult(
            text: "Hello world", confidence: 0.75,
            blocks: try JSONDecoder().decode([TextBlock].self, from: Data(blocks.utf8)),
            transform: FrameTransform(
                orientation: .up, rawWidth: 200, rawHeight: 50, region: PixelRect(x: 0, y: 0, width: 200, height: 50)))
    }

    static func output(_ format: RecognitionOutput.Format) -> RecognitionOutput {
        RecognitionOutput(format: format, language: "eng")
    }

    @Test("text: the text and a newline; with several images a ==> FILE <== line before each")
    func text() throws {
        let r = try Self.result()
        let text = Self.output(.text)
        #expect(text.render(r, file: "a.png") == .text("Hello world"))
        #expect(text.piece(r, file: "a.png", index: 0, count: 1) == "Hello world\n")
        let pieces = [0, 1].map { text.piece(r, file: "p\($0).png", index: $0, count: 2) }
        #expect(text.document(pieces, count: 2) == "==> p0.png <==\nHello world\n==> p1.png <==\nHello world\n")
    }

    @Test("json and jsonl: the library's JSON with \"file\" first; alone pretty-printed, several an array")
    func json() throws {
        let r = try Self.result()
        let body = String(decoding: r.jsonData(prettyPrinted: false), as: UTF8.self)
        let row = RecognitionOutput.row(r, file: "dir/a \"1\".png")
        // The compact row, exactly: "file" first (quotes escaped, slashes not), then the
        // library's keys sorted; durations in milliseconds.
        #expect(row == Self.row)
        #expect(row == #"{"file":"dir/a \"1\".png","# + body.dropFirst())
        #expect(Self.output(.jsonl).render(r, file: "dir/a \"1\".png") == .object(row))
        #expect(Self.output(.json).render(r, file: nil) == .object(body))

        let json = Self.output(.json)
        let pretty = String(decoding: r.jsonData(prettyPrinted: true), as: UTF8.self)
        let alone = json.piece(r, file: "a.png", index: 0, count: 1)
        #expect(alone == "{\n  \"file\" : \"a.png\"," + pretty.dropFirst())
        #expect(json.document([alone], count: 1) == alone + "\n")
        let two = [0, 1].map { json.piece(r, file: "p\($0).png", index: $0, count: 2) }
        #expect(two[1] == #"{"file":"p1.png","# + body.dropFirst())
        #expect(json.document(two, count: 2) == "[\n" + two[0] + ",\n" + two[1] + "\n]\n")
        #expect(json.document([], count: 2) == "[]\n")
        #expect(json.document([], count: 1) == "")
    }

    static let row =
        #"{"file":"dir/a \"1\".png","backend":"cpu","blocks":[{"box":{"height":20,"normalized":{"height":0"#
        + #".4,"quad":[[0.05,0.2],[0.65,0.2],[0.65,0.6],[0.05,0.6]],"width":0.6,"x":0.05,"y":0.2},"quad":[[1"#
        + #"0,10],[130,10],[130,30],[10,30]],"width":120,"x":10,"y":10},"confidence":0.75,"lines":[{"box":{""#
        + #"height":20,"normalized":{"height":0.4,"quad":[[0.05,0.2],[0.65,0.2],[0.65,0.6],[0.05,0.6]],"widt"#
        + #"h":0.6,"x":0.05,"y":0.2},"quad":[[10,10],[130,10],[130,30],[10,30]],"width":120,"x":10,"y":10},""#
        + #"confidence":0.75,"paragraph":0,"text":"Hello world","words":[{"box":{"height":20,"normalized":{""#
        + #"height":0.4,"quad":[[0.05,0.2],[0.3,0.2],[0.3,0.6],[0.05,0.6]],"width":0.25,"x":0.05,"y":0.2},"q"#
        + #"uad":[[10,10],[60,10],[60,30],[10,30]],"width":50,"x":10,"y":10},"confidence":0.5,"symbols":[],""#
        + #"text":"Hello"},{"box":{"height":20,"normalized":{"height":0.4,"quad":[[0.35,0.2],[0.65,0.2],[0.6"#
        + #"5,0.6],[0.35,0.6]],"width":0.3,"x":0.35,"y":0.2},"quad":[[70,10],[130,10],[130,30],[70,30]],"wid"#
        + #"th":60,"x":70,"y":10},"confidence":1,"symbols":[],"text":"world"}]}],"text":"Hello world"}],"con"#
        + #"fidence":0.75,"frame":{"height":50,"width":200},"orientation":"up","region":{"height":50,"width""#
        + #":200,"x":0,"y":0},"regionClamped":false,"scale":{"x":1,"y":1},"status":"complete","text":"Hello "#
        + #"world","timings":{"automaticMs":0,"colorConversionMs":0,"cropMs":0,"detectionMs":0,"engineLoadMs":0,"#
        + #""fusedMs":0,"lineRecognitionMs":0,"queueWaitMs":0,"recognitionMs":0,"rotationMs":0,"scaleMs":0,"thresholdMs":0,"#
        + #""totalMs":0}}"#

    @Test("tsv: tesseract's columns, the header on the first page only, pages numbered on")
    func tsv() throws {
        let r = try Self.result()
        let tsv = Self.output(.tsv)
        let header = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
        let page1 = """
            1\t1\t0\t0\t0\t0\t0\t0\t200\t50\t-1\t
            2\t1\t1\t0\t0\t0\t10\t10\t120\t20\t-1\t
            3\t1\t1\t1\t0\t0\t10\t10\t120\t20\t-1\t
            4\t1\t1\t1\t1\t0\t10\t10\t120\t20\t-1\t
            5\t1\t1\t1\t1\t1\t10\t10\t50\t20\t50.000000\tHello
            5\t1\t1\t1\t1\t2\t70\t10\t60\t20\t100.000000\tworld

            """
        #expect(tsv.render(r, file: nil) == .text(header + page1))
        #expect(tsv.piece(r, file: "a.png", index: 0, count: 2) == header + page1)
        // Page 2: no header, page_num 2.
        let page2 = page1.split(separator: "\n").map { line in
            var fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            fields[1] = "2"
            return fields.joined(separator: "\t") + "\n"
        }.joined()
        #expect(tsv.piece(r, file: "b.png", index: 1, count: 2) == page2)
    }

    @Test("hocr: one document per image, named by its file (a request's image bytes: \"image\")")
    func hocr() throws {
        let r = try Self.result()
        let hocr = Self.output(.hocr)
        let named = hocr.piece(r, file: "a.png", index: 0, count: 1)
        #expect(
            named == """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
                <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">
                 <head>
                  <title>a.png</title>
                  <meta http-equiv="Content-Type" content="text/html;charset=utf-8"/>
                  <meta name="ocr-system" content="frameocr (tesseract \(Recognizer.tesseractVersion))"/>
                  <meta name="ocr-capabilities" content="ocr_page ocr_carea ocr_par ocr_line ocrx_word ocrp_wconf"/>
                 </head>
                 <body>
                  <div class="ocr_page" id="page_1" title="image &quot;a.png&quot;; bbox 0 0 200 50; ppageno 0">
                   <div class="ocr_carea" id="block_1_1" title="bbox 10 10 130 30">
                    <p class="ocr_par" id="par_1_1" lang="eng" title="bbox 10 10 130 30">
                     <span class="ocr_line" id="line_1_1" title="bbox 10 10 130 30"><span class="ocrx_word" id="word_1_1" \
                title="bbox 10 10 60 30; x_wconf 50">Hello</span> <span class="ocrx_word" id="word_1_2" \
                title="bbox 70 10 130 30; x_wconf 100">world</span></span>
                    </p>
                   </div>
                  </div>
                 </body>
                </html>

                """)
        #expect(hocr.render(r, file: nil) == .text(r.hocr(imageName: "image", language: "eng")))
        #expect(
            RecognitionOutput(format: .hocr, language: "eng+deu").render(r, file: "a.png")
                == .text(r.hocr(imageName: "a.png", language: "eng+deu")))
    }

    @Test("A failed image's row, and the error object of a row and of a response")
    func errors() {
        let error = FrameOCRError(.io, "/x.png: No such file or directory", stage: .load)
        #expect(
            RecognitionOutput.errorRow(file: "/x.png", error)
                == #"{"file":"/x.png","error":{"code":"io","stage":"load","message":"/x.png: No such file or directory"}}"#
        )
        #expect(
            RecognitionOutput.errorObject(code: "badRequest", stage: nil, message: "unknown key 'a/b'")
                == #"{"code":"badRequest","message":"unknown key 'a/b'"}"#)
    }

    @Test("serve's responses: protocol, id, status, ms, then the result or the error, in that order")
    func responses() throws {
        let r = try Self.result()
        let ms = Duration.microseconds(41_208)
        func line(_ id: RequestID, _ outcome: ServeResponse.Outcome) -> String {
            ServeResponse(id: id, elapsed: ms, outcome: outcome).line
        }
        #expect(
            line(.string("7"), .result(Self.output(.text).render(r, file: "a.png")))
                == #"{"protocol":1,"id":"7","status":"ok","ms":41.208,"result":"Hello world"}"#)
        #expect(
            line(.number(NSNumber(value: 8)), .result(Self.output(.json).render(r, file: "a.png")))
                == #"{"protocol":1,"id":8,"status":"ok","ms":41.208,"result":"#
                + RecognitionOutput.row(r, file: "a.png")
                + "}")
        #expect(
            line(.none, .failure(ServeFailure("badRequest", "not a JSON object")))
                == #"{"protocol":1,"id":null,"status":"error","ms":41.208,"error":{"code":"badRequest","message":"not a JSON object"}}"#
        )
        let big = try #require(
            (try JSONSerialization.jsonObject(with: Data(#"{"id":123456789012345678901234}"#.utf8)) as? [String: Any])?[
                "id"] as? NSNumber)
        #expect(
            line(.number(big), .failure(ServeFailure(FrameOCRError(.decode, "x: not an image", stage: .load))))
                == #"{"protocol":1,"id":123456789012345678901234,"status":"error","ms":41.208,"#
                + #""error":{"code":"decode","stage":"load","message":"x: not an image"}}"#)
    }
}
