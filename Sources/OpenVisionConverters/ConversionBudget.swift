import Foundation

/// What one conversion may materialise: the model memory limit (`OPENVISION_MODEL_MEMORY_LIMIT`, as OpenVision's
/// runtimes read it: bytes, or with a K/M/G suffix, 64 MiB...1 TiB, default 4 GiB) held for the *sum* of every tensor
/// a conversion decodes or makes — weights widened to float32, de-quantized and de-palettized constants, each
/// reference to a weight blob (the same blob named twice is decoded twice), constants a layer makes from a declared
/// shape — charged before each is allocated. A conversion past it stops with `.limitExceeded` naming what went
/// over; a tiny file cannot make gigabytes.
///
/// Constants made up from a declared shape alone (a `fillStatic` or `rangeStatic` layer, the converter's own
/// helper tensors), which no bytes of the file back, are also bounded one by one by `maximumMadeUpElements`.
///
/// One budget serves a whole conversion, its pipelines' sub-models and ML Programs included: `scope` opens it at a
/// converter's entry point (reusing the enclosing one when conversions nest), `charge` draws on the current one.
/// Charges outside any scope draw on a fresh budget of their own (a unit test calling a layer converter directly).
package final class ConversionBudget: @unchecked Sendable {
    // Used by one conversion, on one thread.
    /// The limit in bytes.
    package let limit: Int
    /// What was charged so far.
    package private(set) var used = 0

    /// Elements of one tensor a converter may make up from a declared shape: 2^22 (16 MiB of float32).
    package static let maximumMadeUpElements = 1 << 22

    package init(limit: Int = ConversionBudget.memoryLimit()) {
        self.limit = limit
    }

    @TaskLocal static var current: ConversionBudget?

    /// Runs `body` with the enclosing budget, or a new one when there is none.
    package static func scope<T>(_ body: () throws -> T) throws -> T {
        if current != nil { return try body() }
        return try $current.withValue(ConversionBudget()) { try body() }
    }

    /// Draws `bytes` for `what` (a phrase: "layer 'fill0' (fillStatic): a [16384, 16384] float32 constant") from
    /// the current budget. Throws `.limitExceeded` when the conversion's sum would pass the limit.
    package static func charge(_ bytes: Int, _ what: @autoclosure () -> String) throws {
        try (current ?? ConversionBudget()).charge(bytes, what())
    }

    /// Draws `elements` × `elementSize` bytes for a tensor made up from its declared shape: at most
    /// `maximumMadeUpElements` elements, then charged as any other.
    package static func chargeMadeUp(_ elements: Int, elementSize: Int = 4, _ what: @autoclosure () -> String) throws {
        guard elements <= maximumMadeUpElements else {
            throw ConversionError(
                .limitExceeded,
                "\(what()) of \(elements) elements is made up from a declared shape, "
                    + "which no bytes of the file back; the converter makes at most \(maximumMadeUpElements)")
        }
        try charge(elements * elementSize, what())
    }

    func charge(_ bytes: Int, _ what: @autoclosure () -> String) throws {
        let (sum, overflow) = used.addingReportingOverflow(max(0, bytes))
        guard !overflow, sum <= limit else {
            throw ConversionError(
                .limitExceeded,
                "\(what()) (\(Self.describe(max(0, bytes)))) would bring what the "
                    + "conversion materialises to \(overflow ? "more than \(Self.describe(Int.max))" : Self.describe(sum)), "
                    + "past the \(Self.describe(limit)) model memory limit (OPENVISION_MODEL_MEMORY_LIMIT)")
        }
        used = sum
    }

    /// `OPENVISION_MODEL_MEMORY_LIMIT` as CNative's `ov_model_memory_limit` reads it (ov_limits.cpp): "4294967296",
    /// "512M", "2G", "64k"; outside 64 MiB...1 TiB or unreadable, the 4 GiB default.
    package static func memoryLimit(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        let fallback = 4 << 30
        guard var text = environment["OPENVISION_MODEL_MEMORY_LIMIT"] else { return fallback }
        while text.last?.isWhitespace == true { text.removeLast() }
        var shift = 0
        switch text.last?.uppercased() {
        case "K": shift = 10
        case "M": shift = 20
        case "G": shift = 30
        default: break
        }
        if shift > 0 { text.removeLast() }
        guard !text.isEmpty, text.count <= 15, text.allSatisfy({ ("0"..."9").contains($0) }), let value = Int(text),
            value <= (1 << 50) >> shift
        else { return fallback }
        let bytes = value << shift
        return bytes >= 64 << 20 && bytes <= 1 << 40 ? bytes : fallback
    }

    /// "1 GiB", "512 MiB", "900 KiB", "12 bytes".
    static func describe(_ bytes: Int) -> String {
        for (size, name) in [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")] where bytes >= size {
            let value = Double(bytes) / Double(size)
            return value.rounded() == value ? "\(Int(value)) \(name)" : String(format: "%.1f %@", value, name)
        }
        return "\(bytes) bytes"
    }
}
