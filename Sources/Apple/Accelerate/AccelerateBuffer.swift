/// A contiguous buffer of elements the `vDSP.` and `vForce.` functions read (arrays, slices, buffer pointers).
public protocol AccelerateBuffer {
    /// The element type.
    associatedtype Element
    /// The number of elements.
    var count: Int { get }
    /// Calls `body` with the elements; the pointer is valid only inside.
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R
}

/// A contiguous buffer the `vDSP.` and `vForce.` functions write their results into.
public protocol AccelerateMutableBuffer: AccelerateBuffer {
    /// Calls `body` with the elements to write; the pointer is valid only inside.
    mutating func withUnsafeMutableBufferPointer<R>(_ body: (inout UnsafeMutableBufferPointer<Element>) throws -> R)
        rethrows -> R
}

extension Array: AccelerateMutableBuffer {}
extension ContiguousArray: AccelerateMutableBuffer {}
extension ArraySlice: AccelerateMutableBuffer {}

extension UnsafeBufferPointer: AccelerateBuffer {
    /// Calls `body` with the buffer itself.
    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try body(self)
    }
}

extension UnsafeMutableBufferPointer: AccelerateMutableBuffer {
    /// Calls `body` with the buffer itself.
    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(self))
    }

    /// Calls `body` with the buffer itself.
    public mutating func withUnsafeMutableBufferPointer<R>(
        _ body: (inout UnsafeMutableBufferPointer<Element>) throws -> R
    ) rethrows -> R {
        try body(&self)
    }
}

extension AccelerateBuffer where Element == Float {
    /// Calls `body` with the base address (a valid pointer even for no elements) and the count.
    func withFloats<R>(_ body: (UnsafePointer<Float>, vDSP_Length) -> R) -> R {
        withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress { return body(base, vDSP_Length(buffer.count)) }
            var empty: Float = 0
            return body(&empty, 0)
        }
    }
}

/// A new array of `count` Floats filled by `body`.
func makeFloats(_ count: Int, _ body: (UnsafeMutablePointer<Float>) -> Void) -> [Float] {
    [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
        if count > 0 { body(buffer.baseAddress!) }
        initialized = count
    }
}
