import Foundation

/// A release callback for `CGDataProvider(dataInfo:data:size:releaseData:)`: called once with the info, the
/// bytes and their size when the provider no longer needs them.
public typealias CGDataProviderReleaseDataCallback =
    @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer, Int) -> Void

/// The bytes behind an image (Core Graphics' data provider). Immutable; `data` is a copy of the bytes.
public final class CGDataProvider: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: Data?
    private var make: (() -> Data)?
    private let release: (() -> Void)?

    /// A provider of `data`'s bytes.
    public init?(data: CFData) {
        bytes = data as Data
        release = nil
    }

    /// A provider of the bytes of the file at `url`; nil when the file cannot be read.
    public init?(url: CFURL) {
        guard let contents = try? Data(contentsOf: url as URL, options: .mappedIfSafe) else { return nil }
        bytes = contents
        release = nil
    }

    /// A provider of `size` bytes at `data`, which stay the caller's: `releaseData(info, data, size)` is called when
    /// the provider is freed. The bytes must not change meanwhile.
    public init?(
        dataInfo info: UnsafeMutableRawPointer?, data: UnsafeRawPointer, size: Int,
        releaseData: @escaping CGDataProviderReleaseDataCallback
    ) {
        guard size >= 0 else { return nil }
        bytes = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: data), count: size, deallocator: .none)
        release = { releaseData(info, data, size) }
    }

    /// A provider whose bytes `make` produces on first use (an OpenVision image's pixels in a `CGImage`'s layout).
    init(producing make: @escaping () -> Data) {
        self.make = make
        release = nil
    }

    deinit { release?() }

    /// A copy of the provider's bytes (Apple's `CGDataProviderCopyData`).
    public var data: CFData? {
        storage.withUnsafeBytes { NSData(bytes: $0.baseAddress, length: $0.count) }
    }

    /// The provider's bytes, without copying (made on first use by a producing provider).
    var storage: Data {
        lock.lock()
        defer { lock.unlock() }
        if let bytes { return bytes }
        let made = make!()
        bytes = made
        make = nil
        return made
    }
}
