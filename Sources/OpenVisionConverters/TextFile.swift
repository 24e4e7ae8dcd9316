import Foundation

/// Reading the text form of a model file (`.pbtxt`, `.prototxt`) with a size bound.
enum TextFile {
    /// The text of the file at `url`, at most `limit` bytes (UTF-8; invalid bytes replaced, as a
    /// protobuf text parser would refuse them anyway). `what` names the file in errors.
    static func read(_ url: URL, limit: Int, what: String) throws -> String {
        let data: Data
        do {
            let size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
            guard size <= limit else {
                throw ConversionError(
                    .limitExceeded, "the \(what) is \(size) bytes, more than \(limit)",
                    file: url.lastPathComponent)
            }
            data = try Data(contentsOf: url)
        } catch let error as ConversionError {
            throw error
        } catch {
            throw ConversionError.unreadable(url, what: what, error)
        }
        guard data.count <= limit else {
            throw ConversionError(
                .limitExceeded, "the \(what) is more than \(limit) bytes", file: url.lastPathComponent)
        }
        return String(decoding: data, as: UTF8.self)
    }
}
