internal import CNative

/// A flag long native work polls to stop early when the task that started it is cancelled (`openvision serve`'s
/// request timeout, a cancelled `Task`): `RequestRunner.offload` makes one for each piece of pool work, sets it
/// from the task's cancellation handler, and makes it `current` while the work runs. The flag is a C object
/// (`ov_cancel`) owned here and freed in `deinit`.
///
/// What stops early: text recognition, `.fast` within one word (Tesseract's cancel callback; its layout analysis
/// and orientation detection run to their end) and `.accurate` before each model run (PP-OCR's detector,
/// classifier and recogniser batches; a run under way finishes). The request then fails with `cancelled`. Every
/// other request runs to its end.
final class NativeCancellation: @unchecked Sendable {
    // The handle never changes; ov_cancel_* are safe from any thread.
    let handle: OpaquePointer?

    init() {
        handle = ov_cancel_create()
    }

    deinit { ov_cancel_free(handle) }

    /// The cancellation of the pool work running on this thread, if any.
    @TaskLocal static var current: NativeCancellation?

    /// Asks the native work to stop.
    func cancel() { ov_cancel_set(handle) }

    var isCancelled: Bool { ov_cancel_is_set(handle) != 0 }
}
