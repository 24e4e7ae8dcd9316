import Foundation
import Synchronization

/// Independent model runs spread over Dispatch's pool (the calling thread takes a share): MediaPipe's face models run
/// one thread each, so two runs at once use both cores of a small machine. Errors are thrown as their own, the first
/// (in order) first; results keep their order.
enum ConcurrentWork {
    /// `first` and `second` at once.
    static func pair<A: Sendable, B: Sendable>(
        _ first: @Sendable () throws(VisionError) -> A, _ second: @Sendable () throws(VisionError) -> B
    ) throws(VisionError) -> (A, B) {
        let a = Mutex<Result<A, VisionError>?>(nil)
        let b = Mutex<Result<B, VisionError>?>(nil)
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            if index == 0 {
                let result = Result { () throws(VisionError) -> A in try first() }
                a.withLock { $0 = result }
            } else {
                let result = Result { () throws(VisionError) -> B in try second() }
                b.withLock { $0 = result }
            }
        }
        return (try a.withLock { $0! }.get(), try b.withLock { $0! }.get())
    }

    /// `body(0) … body(count − 1)`, as many at once as the pool has threads; in order. One item runs on the calling
    /// thread alone.
    static func map<T: Sendable>(_ count: Int, _ body: @Sendable (Int) throws(VisionError) -> T) throws(VisionError)
        -> [T]
    {
        if count <= 1 { return count == 1 ? [try body(0)] : [] }
        let results = Mutex<[Result<T, VisionError>?]>(Array(repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let result = Result { () throws(VisionError) -> T in try body(index) }
            results.withLock { $0[index] = result }
        }
        var out: [T] = []
        out.reserveCapacity(count)
        for result in results.withLock({ $0 }) { out.append(try result!.get()) }
        return out
    }
}
