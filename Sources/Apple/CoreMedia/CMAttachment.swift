import Foundation

/// Something attachments can be set on: a `CMSampleBuffer` or a `CVBuffer`.
public typealias CMAttachmentBearer = CFTypeRef
/// Whether an attachment propagates to buffers made from this one.
public typealias CMAttachmentMode = UInt32
/// The attachment is not copied.
public let kCMAttachmentMode_ShouldNotPropagate: CMAttachmentMode = 0
/// The attachment is copied.
public let kCMAttachmentMode_ShouldPropagate: CMAttachmentMode = 1

/// The camera's intrinsic matrix: `Data` (a `CFData`) holding a `matrix_float3x3` (three columns of
/// `simd_float3`, 48 bytes) — `[fx 0 0; 0 fy 0; ox oy 1]` by columns, focal lengths and principal point in pixels.
public let kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix: CFString = "CameraIntrinsicMatrix"

extension CMSampleBuffer {
    /// The attachments by key, with their modes.
    final class Attachments: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [String: (value: CFTypeRef, mode: CMAttachmentMode)] = [:]

        subscript(key: String) -> (value: CFTypeRef, mode: CMAttachmentMode)? {
            get {
                lock.lock()
                defer { lock.unlock() }
                return values[key]
            }
            set {
                lock.lock()
                defer { lock.unlock() }
                values[key] = newValue
            }
        }

        func removeAll() {
            lock.lock()
            defer { lock.unlock() }
            values = [:]
        }
    }
}

/// The value attached to `target` under `key` (its mode into `attachmentModeOut`), or nil; `target` is a
/// `CMSampleBuffer` or a `CVBuffer` (anything else has no attachments).
public func CMGetAttachment(
    _ target: CMAttachmentBearer, key: CFString,
    attachmentModeOut: UnsafeMutablePointer<CMAttachmentMode>?
) -> CFTypeRef? {
    if let buffer = target as? CMSampleBuffer {
        guard let attachment = buffer.attachments[key as String] else { return nil }
        attachmentModeOut?.pointee = attachment.mode
        return attachment.value
    }
    if let buffer = target as? CVBuffer {
        var mode = CVAttachmentMode.shouldNotPropagate
        let value = CVBufferCopyAttachment(buffer, key, &mode)
        if value != nil { attachmentModeOut?.pointee = mode.rawValue }
        return value
    }
    return nil
}

/// Attaches `value` to `target` (a `CMSampleBuffer` or a `CVBuffer`) under `key`; a nil value removes it.
public func CMSetAttachment(
    _ target: CMAttachmentBearer, key: CFString, value: CFTypeRef?,
    attachmentMode: CMAttachmentMode
) {
    if let buffer = target as? CMSampleBuffer {
        buffer.attachments[key as String] = value.map { ($0, attachmentMode) }
    } else if let buffer = target as? CVBuffer {
        if let value {
            CVBufferSetAttachment(buffer, key, value, CVAttachmentMode(rawValue: attachmentMode) ?? .shouldNotPropagate)
        } else {
            CVBufferRemoveAttachment(buffer, key)
        }
    }
}

/// Removes the value attached to `target` under `key`.
public func CMRemoveAttachment(_ target: CMAttachmentBearer, key: CFString) {
    CMSetAttachment(target, key: key, value: nil, attachmentMode: kCMAttachmentMode_ShouldNotPropagate)
}

/// Removes every attachment of `target`.
public func CMRemoveAllAttachments(_ target: CMAttachmentBearer) {
    if let buffer = target as? CMSampleBuffer { buffer.attachments.removeAll() }
    if let buffer = target as? CVBuffer { CVBufferRemoveAllAttachments(buffer) }
}
