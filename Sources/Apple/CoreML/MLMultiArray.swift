import Foundation

/// Core ML's `MLMultiArray`: an N-dimensional array of Float32, Float16, Double or Int32 values, row-major
/// (`strides`). Float16 values are rounded to half precision when stored; Int32 and Double are kept exactly.
/// Core ML's `MLMultiArray`: an N-dimensional array of Float32, Float16, Double or Int32 values. The elements live
/// in `dataPointer` in the data type's own layout (4, 2, 8 and 4 bytes) at the element offsets `strides` give
/// (row-major unless the array was made with other strides), as Core ML's do.
open class MLMultiArray {
    /// The dimensions, outermost first.
    public let shape: [NSNumber]
    /// Element strides: the element at index (i₀, i₁, …) is at `Σ iₖ · strides[k]` elements from `dataPointer`.
    public let strides: [NSNumber]
    /// The elements' type.
    public let dataType: MLMultiArrayDataType
    /// The elements (Core ML's `dataPointer`): `dataType`'s values at the offsets `strides` give. Valid while the array
    /// lives; an array made with `init(dataPointer:…)` reads and writes the caller's memory.
    public let dataPointer: UnsafeMutableRawPointer
    let dims: [Int]
    let elementStrides: [Int]
    /// True when `strides` are row-major for `shape`, so the logical index is the element offset.
    let isContiguous: Bool
    /// Frees `dataPointer` (the caller's deallocator, or ours for memory this array allocated).
    private let deallocator: ((UnsafeMutableRawPointer) -> Void)?

    /// A zero-filled array (Core ML's `init(shape:dataType:)`); throws for a negative dimension or a size that
    /// overflows.
    public init(shape: [NSNumber], dataType: MLMultiArrayDataType) throws {
        let dims = shape.map(\.intValue)
        let count = try Self.elementCount(dims)
        self.shape = shape
        self.dims = dims
        elementStrides = Self.rowMajorStrides(dims)
        strides = elementStrides.map { NSNumber(value: $0) }
        isContiguous = true
        self.dataType = dataType
        let bytes = max(1, count * dataType.byteCount)
        dataPointer = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 16)
        dataPointer.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        deallocator = { $0.deallocate() }
    }

    /// An array over memory the caller owns (Core ML's `init(dataPointer:shape:dataType:strides:deallocator:)`): the
    /// elements are read and written in place, `deallocator` (if any) is called with `dataPointer` when the array is
    /// freed. The memory must hold `dataType`'s values at every offset `strides` reach. Throws
    /// `MLModelError.generic` for a negative dimension or stride, a stride count other than the shape's, or a size
    /// that overflows.
    public init(
        dataPointer: UnsafeMutableRawPointer, shape: [NSNumber], dataType: MLMultiArrayDataType,
        strides: [NSNumber], deallocator: ((UnsafeMutableRawPointer) -> Void)? = nil
    ) throws {
        let dims = shape.map(\.intValue)
        let steps = strides.map(\.intValue)
        _ = try Self.elementCount(dims)
        guard steps.count == dims.count else {
            throw MLModelError.generic(
                "MLMultiArray: \(steps.count) strides for the \(dims.count) dimensions of \(dims)")
        }
        guard steps.allSatisfy({ $0 >= 0 }) else {
            throw MLModelError.generic("MLMultiArray strides \(steps) have a negative stride")
        }
        self.shape = shape
        self.strides = strides
        self.dims = dims
        elementStrides = steps
        isContiguous = steps == Self.rowMajorStrides(dims)
        self.dataType = dataType
        self.dataPointer = dataPointer
        self.deallocator = deallocator
    }

    /// A Float32 array holding `values` (row-major); `values.count` must be the shape's product.
    public convenience init(shape: [Int], values: [Float]) {
        precondition(shape.reduce(1, *) == values.count, "MLMultiArray: \(values.count) values for shape \(shape)")
        try! self.init(shape: shape.map { NSNumber(value: $0) }, dataType: .float32)
        values.withUnsafeBytes { dataPointer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    }

    deinit { deallocator?(dataPointer) }

    /// The product of `dims`; throws for a negative dimension or more than 2³¹ elements.
    static func elementCount(_ dims: [Int]) throws -> Int {
        var count = 1
        for d in dims {
            guard d >= 0 else { throw MLModelError.generic("MLMultiArray shape \(dims) has a negative dimension") }
            let (product, overflow) = count.multipliedReportingOverflow(by: d)
            guard !overflow, product <= 1 << 31 else {
                throw MLModelError.generic("MLMultiArray shape \(dims) is too large")
            }
            count = product
        }
        return count
    }

    static func rowMajorStrides(_ dims: [Int]) -> [Int] {
        dims.indices.map { dims[($0 + 1)...].reduce(1, *) }
    }

    /// The number of elements.
    public var count: Int { dims.reduce(1, *) }

    /// Every value as Float, in row-major order.
    public var values: [Float] {
        if isContiguous && dataType == .float32 {
            return Array(UnsafeBufferPointer(start: dataPointer.assumingMemoryBound(to: Float.self), count: count))
        }
        return (0..<count).map { Float(load($0)) }
    }

    /// Every value as Double, in row-major order.
    public var doubleValues: [Double] { (0..<count).map(load) }

    /// The element offset of the row-major logical index `index`.
    func offset(_ index: Int) -> Int {
        if isContiguous { return index }
        var rest = index
        var offset = 0
        for k in dims.indices.reversed() where dims[k] > 0 {
            offset += (rest % dims[k]) * elementStrides[k]
            rest /= dims[k]
        }
        return offset
    }

    func store(_ value: Double, at index: Int) {
        let at = offset(index)
        switch dataType {
        case .float32: dataPointer.assumingMemoryBound(to: Float.self)[at] = Float(value)
        case .float16: dataPointer.assumingMemoryBound(to: Float16.self)[at] = Float16(Float(value))
        case .double: dataPointer.assumingMemoryBound(to: Double.self)[at] = value
        case .int32: dataPointer.assumingMemoryBound(to: Int32.self)[at] = Int32(multiArrayElement: value)
        }
    }

    func load(_ index: Int) -> Double {
        let at = offset(index)
        switch dataType {
        case .float32: return Double(dataPointer.assumingMemoryBound(to: Float.self)[at])
        case .float16: return Double(dataPointer.assumingMemoryBound(to: Float16.self)[at])
        case .double: return dataPointer.assumingMemoryBound(to: Double.self)[at]
        case .int32: return Double(dataPointer.assumingMemoryBound(to: Int32.self)[at])
        }
    }

    private func flat(_ key: [Int]) -> Int {
        precondition(
            key.count == dims.count && zip(key, dims).allSatisfy { $0 >= 0 && $0 < $1 },
            "MLMultiArray index \(key) outside shape \(dims)")
        return zip(key, Self.rowMajorStrides(dims)).map { $0 * $1 }.reduce(0, +)
    }

    /// The value at a flat (row-major) index, as Core ML's `NSNumber`.
    public subscript(index: Int) -> NSNumber {
        get { dataType == .int32 ? NSNumber(value: Int32(load(index))) : NSNumber(value: load(index)) }
        set { store(newValue.doubleValue, at: index) }
    }

    /// The value at a multi-dimensional index (Core ML's `subscript(_: [NSNumber])`).
    public subscript(key: [NSNumber]) -> NSNumber {
        get { self[flat(key.map(\.intValue))] }
        set { self[flat(key.map(\.intValue))] = newValue }
    }

    /// The value at a multi-dimensional index, as Float.
    public subscript(key: [Int]) -> Float { Float(load(flat(key))) }
}
