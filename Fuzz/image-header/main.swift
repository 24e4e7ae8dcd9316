// libFuzzer target: the encoded-image header parser (OpenVision/Image/ImageHeader.swift) and ImageIO's
// CGImageSource functions that read only the header (Apple/ImageIO/CGImageSource.swift), built with the few
// pure-Swift files they need. Any input must give a header or a VisionError, and a source whose count is 0 or 1
// agreeing with its status, type and properties.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageHeader(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let header = try? ImageHeader.parse(data)
    if let header {
        precondition(header.width >= 0 && header.height >= 0)
    }
    guard let source = CGImageSourceCreateWithData(data as CFData, nil) else {
        precondition(data.isEmpty)
        return 0
    }
    let images = CGImageSourceGetCount(source)
    precondition(images == 0 || images == 1)
    precondition((images == 1) == (CGImageSourceGetStatus(source) == .statusComplete))
    precondition((images == 1) == (CGImageSourceGetType(source) != nil))
    let properties = CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [String: Any]
    precondition((properties != nil) == (images == 1))
    if let properties, let header {
        precondition(properties[kCGImagePropertyPixelWidth as String] as? Int == header.width)
        precondition(properties[kCGImagePropertyOrientation as String] as? UInt32 == header.orientation?.rawValue)
    }
    precondition(CGImageSourceCopyPropertiesAtIndex(source, 1, nil) == nil)
    return 0
}
