import Foundation

/// A Core Video result code: `kCVReturnSuccess` (0) or a negative error, Apple's values.
public typealias CVReturn = Int32

/// Success.
public let kCVReturnSuccess: CVReturn = 0
/// An unspecified error.
public let kCVReturnError: CVReturn = -6660
/// An argument is invalid (a nil output pointer, a base address not locked).
public let kCVReturnInvalidArgument: CVReturn = -6661
/// The memory could not be allocated.
public let kCVReturnAllocationFailed: CVReturn = -6662
/// The operation is not supported.
public let kCVReturnUnsupported: CVReturn = -6663
/// The pixel format is not one buffers are made in.
public let kCVReturnInvalidPixelFormat: CVReturn = -6680
/// The size is invalid (zero, negative, or too large).
public let kCVReturnInvalidSize: CVReturn = -6681
/// An attribute in the attributes dictionary is invalid.
public let kCVReturnInvalidPixelBufferAttributes: CVReturn = -6682
