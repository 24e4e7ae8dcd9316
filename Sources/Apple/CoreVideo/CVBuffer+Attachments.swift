import Foundation

/// Whether an attachment is copied to buffers made from this one (Apple's cases).
public enum CVAttachmentMode: UInt32, Sendable {
    /// Not copied.
    case shouldNotPropagate = 0
    /// Copied.
    case shouldPropagate = 1
}

extension CVBuffer {
    /// The attachments by key, with their modes.
    final class Attachments: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [String: (value: CFTypeRef, mode: CVAttachmentMode)] = [:]

        subscript(key: String) -> (value: CFTypeRef, mode: CVAttachmentMode)? {
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

        /// The values whose mode is `mode`, by key.
        func values(_ mode: CVAttachmentMode) -> [String: CFTypeRef] {
            lock.lock()
            defer { lock.unlock() }
            return values.filter { $0.value.mode == mode }.mapValues(\.value)
        }

        func removeAll() {
            lock.lock()
            defer { lock.unlock() }
            values = [:]
        }
    }
}

/// Attaches `value` to `buffer` under `key`, replacing what was there.
public func CVBufferSetAttachment(
    _ buffer: CVBuffer, _ key: CFString, _ value: CFTypeRef,
    _ attachmentMode: CVAttachmentMode
) {
    buffer.attachments[key as String] = (value, attachmentMode)
}

/// The value attached under `key` (its mode into `attachmentMode`), or nil.
public func CVBufferCopyAttachment(
    _ buffer: CVBuffer, _ key: CFString,
    _ attachmentMode: UnsafeMutablePointer<CVAttachmentMode>?
) -> CFTypeRef? {
    guard let attachment = buffer.attachments[key as String] else { return nil }
    attachmentMode?.pointee = attachment.mode
    return attachment.value
}

/// Removes the value attached under `key`.
public func CVBufferRemoveAttachment(_ buffer: CVBuffer, _ key: CFString) {
    buffer.attachments[key as String] = nil
}

/// Removes every attachment.
public func CVBufferRemoveAllAttachments(_ buffer: CVBuffer) {
    buffer.attachments.removeAll()
}

/// The attachments of `buffer` whose mode is `attachmentMode`, as a dictionary by key; nil when there are none.
public func CVBufferCopyAttachments(_ buffer: CVBuffer, _ attachmentMode: CVAttachmentMode) -> CFDictionary? {
    let values = buffer.attachments.values(attachmentMode)
    return values.isEmpty ? nil : NSDictionary(dictionary: values)
}

/// `CVBufferCopyAttachments(_:_:)` under its older name (Apple's deprecated `Get` form).
public func CVBufferGetAttachments(_ buffer: CVBuffer, _ attachmentMode: CVAttachmentMode) -> CFDictionary? {
    CVBufferCopyAttachments(buffer, attachmentMode)
}

/// Copies every attachment of `sourceBuffer` whose mode is `.shouldPropagate` onto `destinationBuffer` (same key,
/// same mode), replacing what was there under those keys.
public func CVBufferPropagateAttachments(_ sourceBuffer: CVBuffer, _ destinationBuffer: CVBuffer) {
    for (key, value) in sourceBuffer.attachments.values(.shouldPropagate) {
        destinationBuffer.attachments[key] = (value, .shouldPropagate)
    }
}
