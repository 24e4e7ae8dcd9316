import Foundation

extension MLMultiArrayDataType {
    /// The size of one element in bytes (Float32 4, Float16 2, Double 8, Int32 4).
    var byteCount: Int {
        switch self {
        case .float32, .int32: 4
        case .float16: 2
        case .double: 8
        }
    }

    /// Whether `type` is the Swift type of this data type's elements.
    func isElementType<T>(_ type: T.Type) -> Bool {
        switch self {
        case .float32: type == Float.self
        case .float16: type == Float16.self
        case .double: type == Double.self
        case .int32: type == Int32.self
        }
    }
}

extension MLMultiArray {
    /// The number of elements from `dataPointer` that the array's offsets reach (its count when row-major).
    var elementSpan: Int {
        guard !dims.contains(0) else { return 0 }
        return zip(dims, elementStrides).reduce(1) { $0 + ($1.0 - 1) * $1.1 }
    }

    /// The elements' bytes (Core ML's `withUnsafeBytes(_:)`): `elementSpan` elements from `dataPointer`, in the data
    /// type's layout at the offsets `strides` give.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: dataPointer, count: elementSpan * dataType.byteCount))
    }

    /// The elements' bytes to change in place, with the strides (Core ML's `withUnsafeMutableBytes(_:)`).
    public func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer, [Int]) throws -> R) rethrows -> R {
        try body(
            UnsafeMutableRawBufferPointer(start: dataPointer, count: elementSpan * dataType.byteCount),
            elementStrides)
    }

    /// The elements typed as `S` (Core ML's `withUnsafeBufferPointer(ofType:_:)`); `S` must be the data type's
    /// element type (Float for `.float32`, Float16, Double, Int32), else this traps as Core ML's precondition does.
    public func withUnsafeBufferPointer<S: MLShapedArrayScalar, R>(
        ofType type: S.Type, _ body: (UnsafeBufferPointer<S>) throws -> R
    ) rethrows -> R {
        precondition(dataType.isElementType(S.self), "MLMultiArray of \(dataType) read as \(S.self)")
        return try body(UnsafeBufferPointer(start: dataPointer.assumingMemoryBound(to: S.self), count: elementSpan))
    }

    /// The elements typed as `S` to change in place, with the strides (Core ML's
    /// `withUnsafeMutableBufferPointer(ofType:_:)`); `S` must be the data type's element type.
    public func withUnsafeMutableBufferPointer<S: MLShapedArrayScalar, R>(
        ofType type: S.Type, _ body: (UnsafeMutableBufferPointer<S>, [Int]) throws -> R
    ) rethrows -> R {
        precondition(dataType.isElementType(S.self), "MLMultiArray of \(dataType) written as \(S.self)")
        let elements = UnsafeMutableBufferPointer(
            start: dataPointer.assumingMemoryBound(to: S.self), count: elementSpan)
        return try body(elements, elementStrides)
    }

    /// `arrays` joined along `axis` into a new row-major array of `dataType`, values converted (Core ML's
    /// `init(concatenating:axis:dataType:)`). The arrays must have the same rank and equal dimensions except along
    /// `axis`; otherwise this traps, as Core ML raises an exception (its initializer cannot throw).
    public convenience init(concatenating arrays: [MLMultiArray], axis: Int, dataType: MLMultiArrayDataType) {
        precondition(!arrays.isEmpty, "MLMultiArray(concatenating:): no arrays")
        let first = arrays[0].dims
        precondition(
            axis >= 0 && axis < first.count,
            "MLMultiArray(concatenating:): axis \(axis) for rank \(first.count)")
        for array in arrays {
            precondition(
                array.dims.count == first.count
                    && array.dims.indices.allSatisfy { $0 == axis || array.dims[$0] == first[$0] },
                "MLMultiArray(concatenating:): shape \(array.dims) does not join \(first) along axis \(axis)")
        }
        var dims = first
        dims[axis] = arrays.reduce(0) { $0 + $1.dims[axis] }
        try! self.init(shape: dims.map { NSNumber(value: $0) }, dataType: dataType)
        // Row-major: each array contributes a block of (its axis length × inner size) per outer index.
        let outer = first[..<axis].reduce(1, *)
        let inner = first[(axis + 1)...].reduce(1, *)
        var index = 0
        for o in 0..<outer {
            for array in arrays {
                let block = array.dims[axis] * inner
                for i in 0..<block {
                    store(array.load(o * block + i), at: index)
                    index += 1
                }
            }
        }
    }
}

extension UnsafeMutableBufferPointer {
    /// The elements of `multiArray`, to change in place (Core ML's `init(_:)`): `elementSpan` elements from its
    /// `dataPointer`, valid while the array lives. Throws `MLModelError.featureType` when `Element` is not the array's
    /// element type (Float for `.float32`, Float16, Double, Int32).
    public init(_ multiArray: MLMultiArray) throws {
        guard multiArray.dataType.isElementType(Element.self) else {
            throw MLModelError.featureType(
                "an MLMultiArray of \(multiArray.dataType) is not a buffer of \(Element.self)")
        }
        self.init(start: multiArray.dataPointer.assumingMemoryBound(to: Element.self), count: multiArray.elementSpan)
    }
}

extension UnsafeBufferPointer {
    /// The elements of `multiArray` (Core ML's `init(_:)`), valid while the array lives. Throws
    /// `MLModelError.featureType` when `Element` is not the array's element type.
    public init(_ multiArray: MLMultiArray) throws {
        guard multiArray.dataType.isElementType(Element.self) else {
            throw MLModelError.featureType(
                "an MLMultiArray of \(multiArray.dataType) is not a buffer of \(Element.self)")
        }
        self.init(start: multiArray.dataPointer.assumingMemoryBound(to: Element.self), count: multiArray.elementSpan)
    }
}
