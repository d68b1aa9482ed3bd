internal import CFrameOCR
import Foundation

/// One `TessBaseAPI` (through the shim's `include/focr_tesseract.h`). Single owner: used by one
/// thread at a time; the ``Recognizer`` pool guarantees that. Freed in `deinit`.
final class TesseractEngine: @unchecked Sendable {
    private let handle: OpaquePointer

    init(configuration c: RecognizerConfiguration, userWordsFile: String?, userPatternsFile: String?)
        throws(FrameOCRError)
    {
        let names = c.variables.keys.sorted()
        let values = names.map { c.variables[$0]! }
        var out: OpaquePointer?
        let status = withCStrings(names) { namePtrs in
            withCStrings(values) { valuePtrs in
                var config = focr_engine_config()
                let languages = c.languages.joined(separator: "+")
                return languages.withCString { lang in
                    (c.tessdataPath ?? "").withCString { data in
                        (userWordsFile ?? "").withCString { uw in
                            (userPatternsFile ?? "").withCString { up in
                                config.datapath = c.tessdataPath == nil ? nil : data
                                config.languages = lang
                                config.engine_mode = c.engineMode.rawValue
                                config.user_words_file = userWordsFile == nil ? nil : uw
                                config.user_patterns_file = userPatternsFile == nil ? nil : up
                                config.variable_names = namePtrs
                                config.variable_values = valuePtrs
                                config.variable_count = Int32(names.count)
                                return focr_engine_create(&config, &out)
                            }
                        }
                    }
                }
            }
        }
        try check(status, .recognition)
        handle = out!
    }

    deinit { focr_engine_destroy(handle) }

    /// Recognizes a `gray8` (or RGB/RGBA) image; the returned elements are copied out of the
    /// engine before the next call.
    func recognize(_ image: PixelBuffer, options: RecognitionOptions, deadlineMS: Int32) throws(FrameOCRError)
        -> RawRecognition
    {
        var out = focr_recognition()
        let status = (options.characterWhitelist ?? "").withCString { wl in
            (options.characterBlacklist ?? "").withCString { bl in
                var o = focr_recognize_options(
                    page_segmentation_mode: options.pageSegmentationMode.rawValue,
                    source_resolution: Int32(clamping: options.sourceResolution), whitelist: wl, blacklist: bl,
                    deadline_ms: deadlineMS, want_symbols: options.includeSymbols ? 1 : 0,
                    alternates: Int32(clamping: options.alternates), thresholding_method: options.binarization.rawValue,
                    skip_inverted_reading: options.invertedLineReading ? 0 : 1)
                return Shim.withImage(image) { focr_engine_recognize(handle, $0, &o, &out) }
            }
        }
        try check(status, .recognition)
        var elements: [RawElement] = []
        elements.reserveCapacity(Int(out.element_count))
        for i in 0..<Int(out.element_count) {
            let e = out.elements[i]
            var alternates: [Alternate] = []
            withUnsafeBytes(of: e.alternate_text) { texts in
                let ptrs = texts.bindMemory(to: UnsafePointer<CChar>?.self)
                withUnsafeBytes(of: e.alternate_confidence) { confs in
                    withUnsafeBytes(of: e.alternate_log10_likelihood) { logs in
                        let cs = confs.bindMemory(to: Float.self)
                        let ls = logs.bindMemory(to: Float.self)
                        for k in 0..<Int(e.alternate_count) {
                            if let p = ptrs[k] {
                                alternates.append(
                                    Alternate(
                                        text: String(cString: p), confidence: confidence(cs[k]),
                                        log10RelativeLikelihood: ls[k].isFinite ? ls[k] : nil))
                            }
                        }
                    }
                }
            }
            elements.append(
                RawElement(
                    level: Int(e.level), left: e.left, top: e.top, right: e.right, bottom: e.bottom,
                    confidence: confidence(e.confidence), text: String(cString: e.text),
                    alternates: alternates))
        }
        return RawRecognition(elements: elements, timedOut: out.timed_out != 0)
    }

    /// Orientation detection (needs `osd.traineddata`): clockwise degrees to upright and
    /// Tesseract's confidence, or nil when it cannot tell.
    func detectOrientation(_ image: PixelBuffer, sourceResolution: Int) -> (degrees: Int, confidence: Float)? {
        var degrees: Int32 = 0
        var conf: Float = 0
        let status = Shim.withImage(image) {
            focr_engine_detect_orientation(handle, $0, Int32(clamping: sourceResolution), &degrees, &conf)
        }
        guard status == FOCR_OK, conf.isFinite, conf > 0 else { return nil }
        return (Int(degrees), conf)
    }
}

private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
    var duplicates = strings.map { strdup($0) }
    defer { for d in duplicates { free(d) } }
    return duplicates.withUnsafeMutableBufferPointer { buf in
        buf.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: max(1, buf.count)) {
            body(buf.count == 0 ? nil : $0)
        }
    }
}

extension Shim {

    /// `focr_limit_openmp`: OpenMP single-threaded for every recognition in the process from now on.
    static func limitOpenMP() { _ = focr_limit_openmp() }
}
