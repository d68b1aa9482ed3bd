import FrameOCR

enum PreprocessCommand {
    static let help = """
        Usage: frameocr preprocess IN OUT [options]

        Writes the image the recognizer would see (gray, cropped, upright, scaled, thresholded)
        to OUT; the extension picks the format (.png, .tif, .pgm, .bmp, .jpg, .webp).

        \(CommonOptions.help)
        """

    static func run(_ raw: [String]) throws -> Int32 {
        let a = try Arguments(raw, valued: CommonOptions.valued, flagNames: CommonOptions.flags.union(["help"]))
        if a.flag("help") {
            print(help)
            return 0
        }
        guard a.positionals.count == 2 else { throw UsageError("preprocess needs IN and OUT") }
        let pipeline = try CommonOptions.pipeline(a)
        let image = try PixelBuffer(contentsOfFile: a.positionals[0], limits: CommonOptions.limits(a))
        let prepared = try pipeline.run(image)
        try prepared.image.write(toFile: a.positionals[1])
        let t = prepared.transform
        printError(
            "frameocr: wrote \(prepared.image.width)x\(prepared.image.height) gray to \(a.positionals[1]) (region \(t.region)\(prepared.regionClamped ? ", clamped" : ""), orientation \(t.orientation))"
        )
        return 0
    }
}
