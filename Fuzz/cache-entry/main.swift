// libFuzzer target: the converted-model cache's entry reader (OpenVision/Models/CachedModelEntry.swift), built with
// VisionError.swift only. Any input must give an entry that writes back byte for byte as read (the reader takes
// nothing but the form it writes), or an invalidModel error whose message starts with "cache entry:" — never a trap.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCacheEntry(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    do {
        let entry = try CachedModelEntry(bytes: bytes)
        precondition(entry.text.utf8.elementsEqual(bytes), "an entry that does not write back as it was read")
        precondition(
            entry.size >= 0 && entry.revision >= 0 && entry.source.utf8.count == 64 && entry.sha256.utf8.count == 64)
    } catch {
        precondition(
            error.code == .invalidModel && error.message.hasPrefix("cache entry:"), "unexpected error: \(error)")
    }
    return 0
}
