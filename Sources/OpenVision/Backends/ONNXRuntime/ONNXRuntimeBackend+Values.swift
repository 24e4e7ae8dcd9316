internal import CNative
import Foundation

extension ONNXRuntimeBackend {
    /// One model input for `run(values:)`: a multi-array in the model's element type, or an ONNX-ML map of doubles.
    enum Value {
        case array(String, MultiArray)
        case stringMap(String, [String: Double])
        case int64Map(String, [Int64: Double])

        var name: String {
            switch self {
            case .array(let n, _), .stringMap(let n, _), .int64Map(let n, _): n
            }
        }
    }

    /// Runs the model on `values` (one per input, by name) and returns every output by name, in model output order,
    /// each in its own element type (bool and 8/16-bit integers as int32, float16 as float32, unsigned 32/64-bit as
    /// int64). Throws `invalidArgument` for a missing, unknown or mistyped input and the runtime's errors.
    func run(values: [Value]) throws(VisionError) -> [(name: String, value: MultiArray)] {
        var handle: OpaquePointer?
        let status = Self.withValues(values[...], []) {
            ov_ort_run_values(session, Int32($0.count), $0.baseAddress, &handle)
        }
        if status != OV_OK, let failure = customLayers?.takeFailure() { throw failure }
        try NativeError.check(status, "ONNX Runtime run")
        guard let handle else { return [] }
        defer { ov_values_free(handle) }
        var outputs: [(name: String, value: MultiArray)] = []
        for i in 0..<ov_values_count(handle) {
            var name: UnsafePointer<CChar>?
            var type: Int32 = 0
            var rank: Int32 = 0
            var count = 0
            var shapePointer: UnsafePointer<Int64>?
            var data: UnsafeRawPointer?
            var lengths: UnsafePointer<Int>?
            try NativeError.check(
                ov_values_get(handle, i, &name, &type, &rank, &shapePointer, &count, &data, &lengths),
                "ONNX Runtime output")
            let shape = (0..<Int(rank)).map { Int(shapePointer![$0]) }
            guard let elements = Self.elements(type: type, count: count, data: data, lengths: lengths) else {
                throw VisionError(
                    .unsupported, "output \(i) has ONNX element type \(type), which OpenVision does not read")
            }
            outputs.append((name.map { String(cString: $0) } ?? "", try MultiArray(shape: shape, elements: elements)))
        }
        return outputs
    }

    /// Calls `body` with the C form of `values` (every pointer valid during the call).
    private static func withValues<R>(
        _ values: ArraySlice<Value>, _ done: [ov_ort_value],
        _ body: (UnsafeBufferPointer<ov_ort_value>) -> R
    ) -> R {
        guard let value = values.first else { return done.withUnsafeBufferPointer(body) }
        let rest = values.dropFirst()
        return value.name.withCString { name in
            switch value {
            case .array(_, let array):
                let shape = array.shape.map(Int64.init)
                return shape.withUnsafeBufferPointer { dims in
                    func next(_ type: Int32, _ data: UnsafeRawPointer?) -> R {
                        var v = ov_ort_value()
                        v.name = name
                        v.element_type = type
                        v.rank = Int32(dims.count)
                        v.shape = dims.baseAddress
                        v.data = data
                        v.count = array.count
                        return withValues(rest, done + [v], body)
                    }
                    switch array.elements {
                    case .float32(let a): return a.withUnsafeBytes { next(1, $0.baseAddress) }
                    case .float64(let a): return a.withUnsafeBytes { next(11, $0.baseAddress) }
                    case .int32(let a): return a.withUnsafeBytes { next(6, $0.baseAddress) }
                    case .int64(let a): return a.withUnsafeBytes { next(7, $0.baseAddress) }
                    case .string(let a): return withCStrings(a) { next(8, UnsafeRawPointer($0.baseAddress)) }
                    }
                }
            case .stringMap(_, let map):
                let keys = Array(map.keys)
                let numbers = keys.map { map[$0]! }
                return withCStrings(keys) { k in
                    numbers.withUnsafeBytes { n in
                        var v = ov_ort_value()
                        v.name = name
                        v.element_type = 11
                        v.data = n.baseAddress
                        v.count = keys.count
                        v.map_key_type = 8
                        v.keys = UnsafeRawPointer(k.baseAddress)
                        return withValues(rest, done + [v], body)
                    }
                }
            case .int64Map(_, let map):
                let keys = Array(map.keys)
                let numbers = keys.map { map[$0]! }
                return keys.withUnsafeBytes { k in
                    numbers.withUnsafeBytes { n in
                        var v = ov_ort_value()
                        v.name = name
                        v.element_type = 11
                        v.data = n.baseAddress
                        v.count = keys.count
                        v.map_key_type = 7
                        v.keys = k.baseAddress
                        return withValues(rest, done + [v], body)
                    }
                }
            }
        }
    }

    /// The elements of an output of ONNX element type `type`.
    private static func elements(type: Int32, count: Int, data: UnsafeRawPointer?, lengths: UnsafePointer<Int>?)
        -> MultiArray.Elements?
    {
        guard count > 0, let data else {
            switch type {
            case 11: return .float64([])
            case 7, 12, 13: return .int64([])
            case 8: return .string([])
            case 2, 3, 4, 5, 6, 9: return .int32([])
            case 1, 10, 16: return .float32([])
            default: return nil
            }
        }
        func read<T>(_: T.Type) -> UnsafeBufferPointer<T> {
            UnsafeBufferPointer(start: data.assumingMemoryBound(to: T.self), count: count)
        }
        switch type {
        case 1: return .float32(Array(read(Float.self)))
        case 11: return .float64(Array(read(Double.self)))
        case 6: return .int32(Array(read(Int32.self)))
        case 7: return .int64(Array(read(Int64.self)))
        case 2: return .int32(read(UInt8.self).map(Int32.init))
        case 3: return .int32(read(Int8.self).map(Int32.init))
        case 4: return .int32(read(UInt16.self).map(Int32.init))
        case 5: return .int32(read(Int16.self).map(Int32.init))
        case 9: return .int32(read(UInt8.self).map { $0 != 0 ? 1 : 0 })
        case 12: return .int64(read(UInt32.self).map(Int64.init))
        case 13: return .int64(read(UInt64.self).map { Int64(clamping: $0) })
        case 10: return .float32(read(UInt16.self).map(halfToFloat))
        case 16: return .float32(read(UInt16.self).map { Float(bitPattern: UInt32($0) << 16) })
        case 8:
            let strings = data.assumingMemoryBound(to: UnsafePointer<CChar>.self)
            return .string(
                (0..<count).map { k in
                    let length = lengths?[k] ?? strlen(strings[k])
                    return String(decoding: UnsafeRawBufferPointer(start: strings[k], count: length), as: UTF8.self)
                })
        default: return nil
        }
    }

    /// IEEE 754 half precision to single.
    private static func halfToFloat(_ h: UInt16) -> Float {
        let sign = UInt32(h & 0x8000) << 16
        let exponent = UInt32(h >> 10) & 0x1F
        let mantissa = UInt32(h & 0x3FF)
        if exponent == 0 { return Float(sign == 0 ? 1 : -1) * Float(mantissa) * 0x1p-24 }
        if exponent == 31 { return Float(bitPattern: sign | 0x7F80_0000 | mantissa << 13) }
        return Float(bitPattern: sign | (exponent + 112) << 23 | mantissa << 13)
    }
}
