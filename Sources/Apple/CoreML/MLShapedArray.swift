import Foundation

/// Core ML's `MLShapedArrayScalar`: the element types a shaped array holds (Float, Double, Int32, Float16), each
/// matching one `MLMultiArrayDataType`.
public protocol MLShapedArrayScalar: Sendable, Equatable {
    /// The multi-array data type holding this scalar type.
    static var multiArrayDataType: MLMultiArrayDataType { get }
    /// The value from a multi-array element (Int32 truncates towards zero and clamps, as `MLMultiArray` stores it).
    init(multiArrayElement value: Double)
    /// The value as a multi-array element.
    var multiArrayElement: Double { get }
}

extension Float: MLShapedArrayScalar {
    /// `.float32`.
    public static var multiArrayDataType: MLMultiArrayDataType { .float32 }
    /// The element rounded to the nearest Float.
    public init(multiArrayElement value: Double) { self = Float(value) }
    /// The value as a Double (exact).
    public var multiArrayElement: Double { Double(self) }
}

extension Double: MLShapedArrayScalar {
    /// `.double`.
    public static var multiArrayDataType: MLMultiArrayDataType { .double }
    /// The element as it is.
    public init(multiArrayElement value: Double) { self = value }
    /// The value itself.
    public var multiArrayElement: Double { self }
}

extension Int32: MLShapedArrayScalar {
    /// `.int32`.
    public static var multiArrayDataType: MLMultiArrayDataType { .int32 }
    /// NaN becomes 0; values beyond Int32's range clamp to it.
    public init(multiArrayElement value: Double) {
        self = value.isNaN ? 0 : Int32(Swift.max(-2147483648, Swift.min(2147483647, value.rounded(.towardZero))))
    }
    /// The value as a Double (exact).
    public var multiArrayElement: Double { Double(self) }
}

extension Float16: MLShapedArrayScalar {
    /// `.float16`.
    public static var multiArrayDataType: MLMultiArrayDataType { .float16 }
    /// The element rounded to the nearest Float16 (through Float).
    public init(multiArrayElement value: Double) { self = Float16(Float(value)) }
    /// The value as a Double (exact).
    public var multiArrayElement: Double { Double(Float(self)) }
}

/// Core ML's `MLShapedArray`: an N-dimensional array of one scalar type, row-major, a value type. It converts to
/// and from `MLMultiArray` (`init(_:)` / `MLMultiArray(_:)`), and as a collection it is its slices along the
/// first dimension (`array[0]`, `array[0][1]`), as Apple's.
public struct MLShapedArray<Scalar: MLShapedArrayScalar>: Sendable, Equatable {
    /// Every element, row-major.
    public var scalars: [Scalar] {
        didSet {
            precondition(scalars.count == oldValue.count, "MLShapedArray: \(scalars.count) scalars for shape \(shape)")
        }
    }
    /// The dimensions, outermost first (empty for a scalar).
    public let shape: [Int]

    /// An array of `shape` from the first elements of `scalars` (Apple's rule: the sequence must hold at least
    /// the shape's product; extra elements are ignored).
    public init<S: Sequence>(scalars: S, shape: [Int]) where S.Element == Scalar {
        let count = Self.elementCount(shape)
        var values: [Scalar] = []
        values.reserveCapacity(count)
        var iterator = scalars.makeIterator()
        while values.count < count, let next = iterator.next() { values.append(next) }
        precondition(
            values.count == count, "MLShapedArray: \(values.count) scalars for shape \(shape) (\(count) needed)")
        self.scalars = values
        self.shape = shape
    }

    /// Every element `repeatedValue`.
    public init(repeating repeatedValue: Scalar, shape: [Int]) {
        self.scalars = [Scalar](repeating: repeatedValue, count: Self.elementCount(shape))
        self.shape = shape
    }

    /// A rank-0 array holding one value.
    public init(scalar: Scalar) {
        self.scalars = [scalar]
        self.shape = []
    }

    /// The values of `multiArray` (any data type; converted to `Scalar` as Core ML converts).
    public init(_ multiArray: MLMultiArray) {
        self.init(converting: multiArray)
    }

    /// The values of `multiArray`, converted from its data type to `Scalar`.
    public init(converting multiArray: MLMultiArray) {
        self.scalars = multiArray.doubleValues.map(Scalar.init(multiArrayElement:))
        self.shape = multiArray.shape.map(\.intValue)
    }

    /// A copy of a slice.
    public init(_ slice: MLShapedArraySlice<Scalar>) {
        self.scalars = slice.scalars
        self.shape = slice.shape
    }

    /// `arrays` joined along `axis`; their other dimensions must be equal.
    public init(concatenating arrays: [MLShapedArray<Scalar>], alongAxis axis: Int) {
        precondition(!arrays.isEmpty, "MLShapedArray: nothing to concatenate")
        let first = arrays[0].shape
        precondition(axis >= 0 && axis < first.count, "MLShapedArray: axis \(axis) outside rank \(first.count)")
        for a in arrays {
            precondition(
                a.shape.count == first.count && a.shape.indices.allSatisfy { $0 == axis || a.shape[$0] == first[$0] },
                "MLShapedArray: shapes \(a.shape) and \(first) differ off axis \(axis)")
        }
        let outer = first[..<axis].reduce(1, *)
        var shape = first
        shape[axis] = arrays.map { $0.shape[axis] }.reduce(0, +)
        var values: [Scalar] = []
        values.reserveCapacity(Self.elementCount(shape))
        for o in 0..<outer {
            for a in arrays {
                let block = a.shape[axis...].reduce(1, *)
                values.append(contentsOf: a.scalars[(o * block)..<((o + 1) * block)])
            }
        }
        self.scalars = values
        self.shape = shape
    }

    static func elementCount(_ shape: [Int]) -> Int {
        precondition(shape.allSatisfy { $0 >= 0 }, "MLShapedArray: negative dimension in \(shape)")
        return shape.reduce(1, *)
    }

    /// Element strides, row-major.
    public var strides: [Int] { MLMultiArray.rowMajorStrides(shape) }
    /// The number of elements.
    public var scalarCount: Int { scalars.count }
    /// True for a rank-0 array.
    public var isScalar: Bool { shape.isEmpty }
    /// The value of a rank-0 array; nil for any other rank.
    public var scalar: Scalar? {
        get { isScalar ? scalars[0] : nil }
        set { if isScalar, let newValue { scalars[0] = newValue } }
    }

    func flatIndex(_ indices: [Int]) -> Int {
        precondition(
            indices.count == shape.count && zip(indices, shape).allSatisfy { $0 >= 0 && $0 < $1 },
            "MLShapedArray index \(indices) outside shape \(shape)")
        return zip(indices, strides).map { $0 * $1 }.reduce(0, +)
    }

    /// The element at a full index.
    public subscript(scalarAt indices: [Int]) -> Scalar {
        get { scalars[flatIndex(indices)] }
        set { scalars[flatIndex(indices)] = newValue }
    }

    /// The element at a full index.
    public subscript(scalarAt indices: Int...) -> Scalar {
        get { self[scalarAt: indices] }
        set { self[scalarAt: indices] = newValue }
    }

    /// The sub-array at the leading indices given (`array[0, 1]` is `array[0][1]`).
    public subscript(_ leadingIndices: Int...) -> MLShapedArraySlice<Scalar> {
        MLShapedArraySlice(self).slice(leadingIndices)
    }

    /// The same elements in another shape of the same element count.
    public func reshaped(to newShape: [Int]) -> MLShapedArray<Scalar> {
        precondition(
            Self.elementCount(newShape) == scalars.count, "MLShapedArray: cannot reshape \(shape) to \(newShape)")
        return MLShapedArray(scalars: scalars, shape: newShape)
    }

    /// The axes reordered: the result's dimension `i` is this array's dimension `axes[i]`.
    public func transposed(permutation axes: [Int]) -> MLShapedArray<Scalar> {
        precondition(
            axes.sorted() == Array(shape.indices), "MLShapedArray: \(axes) is not a permutation of \(shape.count) axes")
        let newShape = axes.map { shape[$0] }
        let source = strides
        let permuted = axes.map { source[$0] }
        var values: [Scalar] = []
        values.reserveCapacity(scalars.count)
        var index = [Int](repeating: 0, count: newShape.count)
        for _ in 0..<scalars.count {
            values.append(scalars[zip(index, permuted).map { $0 * $1 }.reduce(0, +)])
            var d = newShape.count - 1
            while d >= 0 {
                index[d] += 1
                if index[d] < newShape[d] { break }
                index[d] = 0
                d -= 1
            }
        }
        return MLShapedArray(scalars: values, shape: newShape)
    }

    /// The axes reversed.
    public func transposed() -> MLShapedArray<Scalar> {
        transposed(permutation: Array(shape.indices.reversed()))
    }
}

extension MLShapedArray: RandomAccessCollection, MutableCollection {
    /// Positions along the first dimension.
    public typealias Index = Int
    /// Always 0.
    public var startIndex: Int { 0 }
    /// The first dimension's size (0 for a scalar).
    public var endIndex: Int { shape.first ?? 0 }

    /// The slice at `position` along the first dimension.
    public subscript(position: Int) -> MLShapedArraySlice<Scalar> {
        get { MLShapedArraySlice(self).slice([position]) }
        set {
            let block = shape.dropFirst().reduce(1, *)
            precondition(
                position >= 0 && position < endIndex && newValue.shape == Array(shape.dropFirst()),
                "MLShapedArray: slice of shape \(newValue.shape) cannot replace element \(position) of \(shape)")
            scalars.replaceSubrange((position * block)..<((position + 1) * block), with: newValue.scalars)
        }
    }
}

extension MLShapedArray: ExpressibleByArrayLiteral {
    /// A one-dimensional array of the literal's values.
    public init(arrayLiteral elements: Scalar...) {
        self.init(scalars: elements, shape: [elements.count])
    }
}

extension MLShapedArray: CustomStringConvertible {
    /// The value as short text, for logs.
    public var description: String {
        "MLShapedArray<\(Scalar.self)>(shape: \(shape), scalars: \(scalars.prefix(16))\(scalars.count > 16 ? "…" : ""))"
    }
}

/// Core ML's `MLShapedArraySlice`: a sub-array of a shaped array at fixed leading indices, itself a collection of
/// its slices.
public struct MLShapedArraySlice<Scalar: MLShapedArrayScalar>: Sendable, Equatable {
    private let storage: [Scalar]
    private let offset: Int
    /// The slice's dimensions.
    public let shape: [Int]

    init(_ base: MLShapedArray<Scalar>) {
        storage = base.scalars
        offset = 0
        shape = base.shape
    }

    private init(storage: [Scalar], offset: Int, shape: [Int]) {
        self.storage = storage
        self.offset = offset
        self.shape = shape
    }

    func slice(_ leading: [Int]) -> MLShapedArraySlice<Scalar> {
        precondition(
            leading.count <= shape.count && zip(leading, shape).allSatisfy { $0 >= 0 && $0 < $1 },
            "MLShapedArray index \(leading) outside shape \(shape)")
        let strides = MLMultiArray.rowMajorStrides(shape)
        let start = offset + zip(leading, strides).map { $0 * $1 }.reduce(0, +)
        return MLShapedArraySlice(storage: storage, offset: start, shape: Array(shape.dropFirst(leading.count)))
    }

    /// Every element, row-major.
    public var scalars: [Scalar] { Array(storage[offset..<(offset + shape.reduce(1, *))]) }
    /// Element strides, row-major.
    public var strides: [Int] { MLMultiArray.rowMajorStrides(shape) }
    /// The value of a rank-0 slice; nil for any other rank.
    public var scalar: Scalar? { shape.isEmpty ? storage[offset] : nil }
    /// True for a rank-0 slice.
    public var isScalar: Bool { shape.isEmpty }

    /// The element at a full index within the slice.
    public subscript(scalarAt indices: Int...) -> Scalar {
        precondition(indices.count == shape.count, "MLShapedArraySlice index \(indices) outside shape \(shape)")
        let element = slice(indices)
        return element.storage[element.offset]
    }

    /// The sub-slice at the leading indices given.
    public subscript(_ leadingIndices: Int...) -> MLShapedArraySlice<Scalar> { slice(leadingIndices) }

    /// The axes reversed.
    public func transposed() -> MLShapedArraySlice<Scalar> {
        MLShapedArraySlice(MLShapedArray(self).transposed())
    }

    /// Equal when the shapes and every scalar are.
    public static func == (a: Self, b: Self) -> Bool { a.shape == b.shape && a.scalars == b.scalars }
}

extension MLShapedArraySlice: RandomAccessCollection {
    /// Positions along the first dimension.
    public typealias Index = Int
    /// Always 0.
    public var startIndex: Int { 0 }
    /// The first dimension's size (0 for a scalar).
    public var endIndex: Int { shape.first ?? 0 }
    /// The sub-array at `position` along the first dimension.
    public subscript(position: Int) -> MLShapedArraySlice<Scalar> { slice([position]) }
}

extension MLMultiArray {
    /// A multi-array of the shaped array's data type holding its values (Core ML's `MLMultiArray(_:)`).
    public convenience init<Scalar: MLShapedArrayScalar>(_ shapedArray: MLShapedArray<Scalar>) {
        // The shaped array's elements already exist in memory, so its shape cannot overflow.
        try! self.init(shape: shapedArray.shape.map { NSNumber(value: $0) }, dataType: Scalar.multiArrayDataType)
        for (i, v) in shapedArray.scalars.enumerated() { store(v.multiArrayElement, at: i) }
    }

    /// A multi-array holding a slice's values.
    public convenience init<Scalar: MLShapedArrayScalar>(_ slice: MLShapedArraySlice<Scalar>) {
        self.init(MLShapedArray(slice))
    }
}

extension MLFeatureValue {
    /// A multi-array feature holding the shaped array's values (Core ML's `init(shapedArray:)`).
    public convenience init<Scalar: MLShapedArrayScalar>(shapedArray: MLShapedArray<Scalar>) {
        self.init(multiArray: MLMultiArray(shapedArray))
    }

    /// The multi-array value as a shaped array of `type`, converted; nil for a feature that is not a multi-array.
    public func shapedArrayValue<Scalar: MLShapedArrayScalar>(of type: Scalar.Type) -> MLShapedArray<Scalar>? {
        multiArrayValue.map { MLShapedArray<Scalar>(converting: $0) }
    }
}
