import Foundation

/// AVFoundation's capture output: what a capture delegate is told its frames come from.
open class AVCaptureOutput: @unchecked Sendable {
    /// The connections of this output: its one video connection.
    public let connections: [AVCaptureConnection]

    init() {
        connections = [AVCaptureConnection()]
    }

    /// The connection carrying `mediaType` (only `.video` here), as Apple's `connection(with:)`.
    public func connection(with mediaType: AVMediaType) -> AVCaptureConnection? {
        mediaType == .video ? connections.first : nil
    }
}

/// A kind of media (AVFoundation's `AVMediaType`): only `.video` is captured here.
public struct AVMediaType: Hashable, RawRepresentable, Sendable {
    /// Apple's string for it.
    public let rawValue: String
    /// Wraps `rawValue`; any string is accepted, as with Apple's type.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps `rawValue`; any string is accepted, as with Apple's type.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// Video ("vide").
    public static let video = AVMediaType(rawValue: "vide")
}

/// AVFoundation's connection between a capture source and an output: here the one video stream of the source the
/// bridge reads. `isEnabled` false stops delivery to the delegate (frames are dropped without a call).
open class AVCaptureConnection: @unchecked Sendable {
    private let lock = NSLock()
    private var enabled = true

    init() {}

    /// Whether frames flow to the output's delegate (default true).
    public var isEnabled: Bool {
        get { lock.withLock { enabled } }
        set { lock.withLock { enabled = newValue } }
    }
}
