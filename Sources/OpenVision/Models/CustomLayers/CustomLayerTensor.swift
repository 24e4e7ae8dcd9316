/// One input or output of a custom layer's evaluation: float32 values, row-major, in `shape`, read and written in
/// place in the runtime's memory (no copy). Valid only during `CustomLayer.evaluate(inputs:outputs:)`.
public final class CustomLayerTensor {
    /// Dimensions, outermost first (rank 5 in old Core ML networks).
    public let shape: [Int]
    /// The number of elements (the shape's product).
    public let count: Int
    /// The elements; ONNX Runtime's buffer.
    package let baseAddress: UnsafeMutablePointer<Float>?

    package init(shape: [Int], count: Int, baseAddress: UnsafeMutablePointer<Float>?) {
        self.shape = shape
        self.count = count
        self.baseAddress = baseAddress
    }

    /// Calls `body` with the elements (empty for a tensor of no elements).
    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Float>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: baseAddress, count: baseAddress == nil ? 0 : count))
    }

    /// Calls `body` with the elements to change in place (an input's changes are not seen by other layers).
    public func withUnsafeMutableBufferPointer<R>(_ body: (UnsafeMutableBufferPointer<Float>) throws -> R) rethrows
        -> R
    {
        try body(UnsafeMutableBufferPointer(start: baseAddress, count: baseAddress == nil ? 0 : count))
    }

    /// The elements as an array (a copy).
    public var values: [Float] { withUnsafeBufferPointer { Array($0) } }
}
