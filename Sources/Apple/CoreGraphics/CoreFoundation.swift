import Foundation

// Core Foundation's names as Apple's Core Graphics brings them, each Foundation's toll-free counterpart on Linux:
// `dictionary as CFDictionary`, `data as CFData`, `url as CFURL` and `"key" as CFString` compile and mean what
// they mean on Apple platforms. (Linux has no importable Core Foundation of its own.)

/// Any Core Foundation object (an object reference).
public typealias CFTypeRef = AnyObject
/// Core Foundation's string: Foundation's `NSString` (`"key" as CFString`).
public typealias CFString = NSString
/// Core Foundation's dictionary: Foundation's `NSDictionary` (`[String: Any]() as CFDictionary`).
public typealias CFDictionary = NSDictionary
/// Core Foundation's mutable dictionary: Foundation's `NSMutableDictionary`.
public typealias CFMutableDictionary = NSMutableDictionary
/// Core Foundation's array: Foundation's `NSArray`.
public typealias CFArray = NSArray
/// Core Foundation's immutable bytes: Foundation's `NSData` (`data as CFData`, `cfData as Data`).
public typealias CFData = NSData
/// Core Foundation's mutable bytes: Foundation's `NSMutableData`.
public typealias CFMutableData = NSMutableData
/// Core Foundation's URL: Foundation's `NSURL` (`url as CFURL`).
public typealias CFURL = NSURL
/// Core Foundation's number: Foundation's `NSNumber`.
public typealias CFNumber = NSNumber
/// Core Foundation's Boolean: an `NSNumber` holding a `Bool`.
public typealias CFBoolean = NSNumber
/// Core Foundation's index and count type.
public typealias CFIndex = Int
/// A four-character code (pixel formats, file types), as Apple's `OSType`.
public typealias OSType = UInt32
/// A four-character code, as Apple's `FourCharCode`.
public typealias FourCharCode = UInt32
/// A status code: 0 for success, negative for an error, as Apple's `OSStatus`.
public typealias OSStatus = Int32

/// Core Foundation's memory allocator. Allocators are not modelled on Linux: functions that take one accept
/// `kCFAllocatorDefault` (nil, as on Apple platforms) or nil and use the default allocator.
public final class CFAllocator {
    private init() {}
}

/// The default allocator: nil, as Apple's `kCFAllocatorDefault` (a NULL allocator means the default one).
public let kCFAllocatorDefault: CFAllocator? = nil

/// Core Foundation's true (`kCFBooleanTrue`).
public let kCFBooleanTrue: CFBoolean! = NSNumber(value: true)
/// Core Foundation's false (`kCFBooleanFalse`).
public let kCFBooleanFalse: CFBoolean! = NSNumber(value: false)

/// The bytes of `theData`; valid while `theData` lives and is not mutated (Core Foundation's `CFDataGetBytePtr`).
public func CFDataGetBytePtr(_ theData: CFData!) -> UnsafePointer<UInt8>! {
    theData.bytes.assumingMemoryBound(to: UInt8.self)
}

/// The number of bytes in `theData` (Core Foundation's `CFDataGetLength`).
public func CFDataGetLength(_ theData: CFData!) -> CFIndex {
    theData.length
}
