// libFuzzer target: the encoded-image header parser (OpenVision/Image/ImageHeader.swift), built
// with the few pure-Swift files it needs. Any input must give a header or a VisionError.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageHeader(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    if let header = try? ImageHeader.parse(data) {
        precondition(header.width >= 0 && header.height >= 0)
    }
    return 0
}
