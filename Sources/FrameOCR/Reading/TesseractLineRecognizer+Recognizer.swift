extension TesseractLineRecognizer {
    /// A recognizer that reads with `recognizer`'s engines (no models loaded): the lines it reads
    /// and the recognizer's frames share one pool.
    /// - Parameters:
    ///   - recognizer: whose engine pool to share.
    ///   - options: the per-reading settings (default: the recognizer's
    ///     ``RecognizerConfiguration/defaultOptions``), with PSM 7 and symbols.
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for bad options.
    public convenience init(sharing recognizer: Recognizer, options: RecognitionOptions? = nil)
        throws(FrameOCRError)
    {
        try self.init(engines: recognizer.engines, options: options ?? recognizer.configuration.defaultOptions)
    }
}
