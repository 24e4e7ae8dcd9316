import Foundation
import Synchronization

/// Runs requests on an analysis context: the one place that calls `perform(in:)`, times it,
/// catches its error and calls completion handlers. Shared by `ImageRequestHandler`,
/// `SequenceRequestHandler` (through it) and the live pipeline.
enum RequestRunner {
    /// Runs blocking native work (decoding, detection, inference) on Dispatch's global pool, so that
    /// long CPU work never occupies the caller's cooperative Swift concurrency threads. Cancelling the calling
    /// task sets the work's `NativeCancellation`, which the native calls that can stop early poll.
    static func offload<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        let cancellation = NativeCancellation()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                DispatchQueue.global(qos: .userInitiated).async {
                    continuation.resume(returning: NativeCancellation.$current.withValue(cancellation) { body() })
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// The error a request gets when its task was cancelled before it ran.
    static let cancelledError = VisionError(.cancelled, "the request was cancelled")

    /// Runs one request on the global pool. Cancellation is checked here, on the caller's task:
    /// the pool's threads have no task to ask.
    static func runOffPool<R: VisionRequest>(_ request: R, in context: ImageAnalysisContext) async -> Result<
        R.Result, VisionError
    > {
        if Task.isCancelled { return .failure(cancelledError) }
        return await offload { runCatching(request, in: context) }
    }

    /// Runs requests on a context from the calling thread (independent requests in parallel on
    /// Dispatch's pool), for pipelines that live on threads of their own.
    static func performAllBlocking(_ requests: [any VisionRequest], in context: ImageAnalysisContext)
        -> [VisionRequestOutcome]
    {
        let results = Mutex<[VisionRequestOutcome?]>(Array(repeating: nil, count: requests.count))
        DispatchQueue.concurrentPerform(iterations: requests.count) { index in
            let outcome = runErased(requests[index], in: context)
            results.withLock { $0[index] = outcome }
        }
        return results.withLock { $0.map { $0! } }
    }

    static func run<R: VisionRequest>(_ request: R, in context: ImageAnalysisContext) throws(VisionError) -> R.Result {
        let result = runCatching(request, in: context)
        notify(request, result)
        return try result.get()
    }

    static func runCatching<R: VisionRequest>(_ request: R, in context: ImageAnalysisContext) -> Result<
        R.Result, VisionError
    > {
        Result { () throws(VisionError) -> R.Result in try request.perform(in: context) }
    }

    static func runErased<R: VisionRequest>(_ request: R, in context: ImageAnalysisContext) -> VisionRequestOutcome {
        let clock = ContinuousClock()
        let start = clock.now
        let result = runCatching(request, in: context)
        let duration = clock.now - start
        notify(request, result)
        var reportable: (any ReportableResult)?
        if case .success(let results) = result { reportable = request.reportable(results) }
        return VisionRequestOutcome(
            request: request, result: result.map { $0 as any Sendable }, duration: duration,
            reportable: reportable)
    }

    static func notify<R: VisionRequest>(_ request: R, _ result: Result<R.Result, VisionError>) {
        guard let handling = request as? any CompletionHandlingRequest else { return }
        func call<C: CompletionHandlingRequest>(_ c: C) {
            guard let typed = result as? Result<C.Result, VisionError> else { return }
            c.completionHandler?(typed)
        }
        call(handling)
    }

    /// The outcome of a request that did not run (cancelled, or its image failed to decode), after
    /// calling its completion handler with `error`.
    static func failedOutcome(_ request: any VisionRequest, _ error: VisionError) -> VisionRequestOutcome {
        func open<R: VisionRequest>(_ r: R) { notify(r, Result<R.Result, VisionError>.failure(error)) }
        open(request)
        return VisionRequestOutcome(request: request, result: .failure(error), duration: .zero, reportable: nil)
    }
}
