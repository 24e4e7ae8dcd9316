import Foundation

/// Core ML's `MLMultiArray`: an N-dimensional array of Float32, Float16, Double or Int32 values, row-major
/// (`strides`). Float16 values are rounded to half precision when stored; Int32 and Double are kept exactly.
open class MLMultiArray {
    /// The dimensions, outermost first.
    public let shape: [NSNumber]
    /// Element strides, row-major.
    public let strides: [NSNumber]
    public let dataType: MLMultiArrayDataType
    let dims: [Int]
    /// Float32 / Float16 values.
    private var floats: [Float]
    /// Double / Int32 values.
    private var doubles: [Double]

    /// A zero-filled array (Core ML's `init(shape:dataType:)`); throws for a negative dimension or a size that overflows.
    public init(shape: [NSNumber], dataType: MLMultiArrayDataType) throws {
        let dims = shape.map(\.intValue)
        var count = 1
        for d in dims {
            guard d >= 0 else { throw MLModelError.generic("MLMultiArray shape \(dims) has a negative dimension") }
            let (product, overflow) = count.multipliedReportingOverflow(by: d)
            guard !overflow, product <= 1 << 31 else { throw MLModelError.generic("MLMultiArray shape \(dims) is too large") }
            count = product
        }
        self.shape = shape
        self.dims = dims
        self.strides = Self.rowMajorStrides(dims).map { NSNumber(value: $0) }
        self.dataType = dataType
        let exact = dataType == .double || dataType == .int32
        floats = exact ? [] : [Float](repeating: 0, count: count)
        doubles = exact ? [Double](repeating: 0, count: count) : []
    }

    /// A Float32 array holding `values` (row-major); `values.count` must be the shape's product.
    public init(shape: [Int], values: [Float]) {
        precondition(shape.reduce(1, *) == values.count, "MLMultiArray: \(values.count) values for shape \(shape)")
        self.shape = shape.map { NSNumber(value: $0) }
        self.dims = shape
        self.strides = Self.rowMajorStrides(shape).map { NSNumber(value: $0) }
        self.dataType = .float32
        floats = values
        doubles = []
    }

    static func rowMajorStrides(_ dims: [Int]) -> [Int] {
        dims.indices.map { dims[($0 + 1)...].reduce(1, *) }
    }

    /// The number of elements.
    public var count: Int { dims.reduce(1, *) }

    /// Every value as Float, row-major.
    public var values: [Float] { doubles.isEmpty ? floats : doubles.map { Float($0) } }

    /// Every value as Double, row-major.
    public var doubleValues: [Double] { doubles.isEmpty ? floats.map(Double.init) : doubles }

    func store(_ value: Double, at index: Int) {
        switch dataType {
        case .float32: floats[index] = Float(value)
        case .float16: floats[index] = Float(Float16(Float(value)))
        case .double: doubles[index] = value
        case .int32: doubles[index] = Double(Int32(multiArrayElement: value))
        }
    }

    func load(_ index: Int) -> Double { doubles.isEmpty ? Double(floats[index]) : doubles[index] }

    private func flat(_ key: [Int]) -> Int {
        precondition(key.count == dims.count && zip(key, dims).allSatisfy { $0 >= 0 && $0 < $1 },
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
