import FrameOCR

/// What one request asks for, its options resolved against the server's defaults.
package struct ServeSettings {
    package var pipeline: Pipeline
    package var configuration: Recognizer.Configuration
    package var format: RecognitionOutput.Format
    /// The server's `--max-pixels` (not a request key: requests cannot raise it).
    package var limits: ImageLimits
    /// The server's `--time-limit` (not a request key; nil: none).
    var timeLimit: Duration?

    /// The renderer of the result.
    package var output: RecognitionOutput {
        RecognitionOutput(format: format, language: configuration.languages.joined(separator: "+"))
    }
}

/// A request, checked: its settings and where its image comes from.
package struct ServeRequest {
    package enum Source {
        /// `"path"`: a file the worker reads.
        case path(String)
        /// `"image"`: the encoded file's bytes (base64 in the request).
        case encoded([UInt8])
        /// Raw pixels (`serve --http`'s body with a pixel format, or protocol 2's payload): the
        /// frame, wrapped.
        case pixels(PixelBuffer)
        /// Protocol 2's raw pixels before their payload is read: the request line's description.
        /// The worker reads the payload and makes it ``pixels(_:)``.
        case payload(PixelDescription)
    }
    var settings: ServeSettings
    var source: Source

    package init(settings: ServeSettings, source: Source) {
        self.settings = settings
        self.source = source
    }
}
