/// A multi-dimensional array of one element type, as a model takes or gives it (Core ML's `MLMultiArray`, an ONNX
/// tensor): row-major elements and the shape they fill. Unlike `Tensor` (float32 only) it keeps the model's type.
public struct MultiArray: Sendable, Hashable {
    /// The elements, row-major, in their type.
    public enum Elements: Sendable, Hashable {
        /// 32-bit floats (float16 outputs are widened to these).
        case float32([Float])
        /// 64-bit floats (Core ML's `DOUBLE`, ONNX's double).
        case float64([Double])
        /// 32-bit integers (bool and 8/16-bit integer outputs are widened to these).
        case int32([Int32])
        /// 64-bit integers (unsigned 32/64-bit outputs are read as these).
        case int64([Int64])
        /// Strings (ONNX string tensors: a classifier's labels).
        case string([String])

        /// The number of elements.
        public var count: Int {
            switch self {
            case .float32(let v): v.count
            case .float64(let v): v.count
            case .int32(let v): v.count
            case .int64(let v): v.count
            case .string(let v): v.count
            }
        }
    }

    /// Dimensions, outermost first.
    public let shape: [Int]
    /// The elements, as many as the shape's product.
    public let elements: Elements

    /// An array of `elements` filling `shape`. Throws `invalidArgument` for a negative dimension or a count that is
    /// not the shape's product.
    public init(shape: [Int], elements: Elements) throws(VisionError) {
        var product = 1
        for d in shape {
            let (p, overflow) = product.multipliedReportingOverflow(by: d)
            guard d >= 0, !overflow else {
                throw VisionError(.invalidArgument, "multi-array shape \(shape) is not a size")
            }
            product = p
        }
        guard product == elements.count else {
            throw VisionError(.invalidArgument, "\(elements.count) values do not fill the shape \(shape)")
        }
        self.shape = shape
        self.elements = elements
    }

    /// A float32 array of a `Tensor`'s values.
    public init(_ tensor: Tensor) {
        shape = tensor.shape
        elements = .float32(tensor.scalars)
    }

    /// The number of elements.
    public var count: Int { elements.count }

    /// The element type's name: "float32", "float64", "int32", "int64" or "string" (NumPy's names).
    public var dataType: String {
        switch elements {
        case .float32: "float32"
        case .float64: "float64"
        case .int32: "int32"
        case .int64: "int64"
        case .string: "string"
        }
    }

    /// The elements as doubles; nil for strings.
    public var doubles: [Double]? {
        switch elements {
        case .float32(let v): v.map(Double.init)
        case .float64(let v): v
        case .int32(let v): v.map(Double.init)
        case .int64(let v): v.map(Double.init)
        case .string: nil
        }
    }

    /// The elements as floats (rounded to float32); nil for strings.
    public var floats: [Float]? {
        switch elements {
        case .float32(let v): v
        case .float64(let v): v.map(Float.init)
        case .int32(let v): v.map(Float.init)
        case .int64(let v): v.map(Float.init)
        case .string: nil
        }
    }

    /// The array with its numbers converted to `dataType` ("float32", "float64", "int32", "int64"; integers rounded to
    /// nearest and clamped), or itself when it already is. Strings are not converted: nil for them, and for another
    /// type name.
    public func converted(to dataType: String) -> MultiArray? {
        guard dataType != self.dataType else { return self }
        guard let values = doubles else { return nil }
        func integer<T: FixedWidthInteger>(_ v: Double) -> T {
            guard !v.isNaN else { return 0 }
            let r = v.rounded()
            return r <= Double(T.min) ? T.min : r >= Double(T.max) ? T.max : T(r)
        }
        let elements: Elements
        switch dataType {
        case "float32": elements = .float32(values.map(Float.init))
        case "float64": elements = .float64(values)
        case "int32": elements = .int32(values.map(integer))
        case "int64": elements = .int64(values.map(integer))
        default: return nil
        }
        return try? MultiArray(shape: shape, elements: elements)
    }
}
