import FrameOCR
import Synchronization

/// A value made on its first use, once, from any thread; the error of a failed making is kept and
/// thrown again to every later use.
///
/// `recognize` makes its ``Recognizer`` this way, once the first image has decoded: Tesseract's
/// model (about 20 MB resident) is never loaded by a run whose every file is refused (missing, not
/// an image, over the size limit), so refusing a 60000×60000 PNG header takes a process of the
/// size of `frameocr --version`.
final class FirstUse<Value: Sendable>: Sendable {
    private let make: @Sendable () throws(FrameOCRError) -> Value
    private let state = Mutex<Result<Value, FrameOCRError>?>(nil)

    init(_ make: @escaping @Sendable () throws(FrameOCRError) -> Value) { self.make = make }

    /// The value, made now if no caller made it before (callers meanwhile wait for it).
    /// - Throws: the error of making it, every time.
    func value() throws(FrameOCRError) -> Value {
        try state.withLock { state -> Result<Value, FrameOCRError> in
            if let made = state { return made }
            let made: Result<Value, FrameOCRError>
            do throws(FrameOCRError) { made = .success(try make()) } catch { made = .failure(error) }
            state = made
            return made
        }.get()
    }

    /// The error of making the value, if it was tried and failed; nil when it was never tried or
    /// succeeded.
    var failure: FrameOCRError? {
        state.withLock { state in
            if case .failure(let error) = state { return error }
            return nil
        }
    }
}
