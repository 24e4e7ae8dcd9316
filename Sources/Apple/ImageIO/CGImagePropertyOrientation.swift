import OpenVision

/// The EXIF orientation of an image's stored pixels: OpenVision's `ImageOrientation`, which has the cases and raw
/// values (1...8) of Apple's `CGImagePropertyOrientation`.
public typealias CGImagePropertyOrientation = ImageOrientation
