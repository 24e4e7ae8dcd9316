/// Core ML's `MLMultiArray` of Float32 values, row-major.
open class MLMultiArray {
    public let shape: [Int]
    /// The values, row-major (Core ML's `dataPointer` contents).
    public private(set) var values: [Float]
    public var count: Int { values.count }
    /// Element strides, row-major.
    public var strides: [Int] { shape.indices.map { shape[($0 + 1)...].reduce(1, *) } }

    public init(shape: [Int], values: [Float]) {
        self.shape = shape
        self.values = values
    }

    /// The value at a flat index.
    public subscript(index: Int) -> Float {
        get { values[index] }
        set { values[index] = newValue }
    }

    /// The value at a multi-dimensional index.
    public subscript(key: [Int]) -> Float {
        values[zip(key, strides).map { $0 * $1 }.reduce(0, +)]
    }
}
