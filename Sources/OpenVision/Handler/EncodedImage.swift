import Foundation
import Synchronization

/// The encoded bytes behind a handler (a file, memory-mapped, or `Data`), read and their header
/// checked once, however many times and at whatever scale the image is then decoded.
final class EncodedImage: Sendable {
    private let path: String?
    private let limit: Int
    private let read: @Sendable () throws(VisionError) -> Data
    private let loaded = Mutex<Result<(data: Data, header: ImageHeader), VisionError>?>(nil)

    /// `path` names the file in error messages; `limit` is the handler's maximum pixel count.
    init(path: String?, limit: Int, read: @escaping @Sendable () throws(VisionError) -> Data) {
        self.path = path
        self.limit = limit
        self.read = read
    }

    /// The bytes and their checked header (image size within the limit).
    func load() throws(VisionError) -> (data: Data, header: ImageHeader) {
        try loaded.withLock { loaded throws(VisionError) -> (data: Data, header: ImageHeader) in
            if let loaded { return try loaded.get() }
            let made = Result { () throws(VisionError) -> (data: Data, header: ImageHeader) in
                let data = try read()
                return (
                    data,
                    try attributing { () throws(VisionError) in
                        try VisionImage.checkedHeader(data, maximumPixelCount: limit)
                    }
                )
            }
            loaded = made
            return try made.get()
        }
    }

    /// Runs `body`, prefixing the file's path to the message of any error it throws.
    func attributing<T>(_ body: () throws(VisionError) -> T) throws(VisionError) -> T {
        do {
            return try body()
        } catch {
            guard let path else { throw error }
            throw error.attributed(to: path)
        }
    }
}
