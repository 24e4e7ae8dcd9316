import Foundation
// The fixtures and scenes are part of what every test imports with the test support.
@_exported import OpenVisionFixtures

/// Runs blocking work (child processes, waiting on pipes) on a Dispatch thread, so that it never
/// holds one of the few cooperative threads other tests need.
public func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}
