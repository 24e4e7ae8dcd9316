internal import CNative

/// Copies a native ov_tensors list into `Tensor`s and frees it.
enum NativeTensors {
    /// Calls `body` with each input's float storage, its shape (Int64s) and its rank, as the native run functions
    /// take them (`const float *const *`, `const int64_t *const *`, `const int32_t *`); valid only inside `body`.
    static func withInputs<R>(
        _ inputs: [Tensor],
        _ body: (UnsafePointer<UnsafePointer<Float>?>, UnsafePointer<UnsafePointer<Int64>?>, UnsafePointer<Int32>) -> R
    ) -> R {
        var shapes = inputs.map { $0.shape.map(Int64.init) }
        let ranks = inputs.map { Int32($0.shape.count) }
        return withPointers(inputs.map(\.scalars)) { dataPointers in
            shapes.withUnsafeMutableBufferPointer { shapeArrays in
                let shapePointers = shapeArrays.map { array in array.withUnsafeBufferPointer { $0.baseAddress } }
                return dataPointers.withUnsafeBufferPointer { data in
                    shapePointers.withUnsafeBufferPointer { shapePtrs in
                        ranks.withUnsafeBufferPointer { rankPtr in
                            data.baseAddress!.withMemoryRebound(to: UnsafePointer<Float>?.self, capacity: data.count) {
                                d in
                                shapePtrs.baseAddress!.withMemoryRebound(
                                    to: UnsafePointer<Int64>?.self, capacity: shapePtrs.count
                                ) { body(d, $0, rankPtr.baseAddress!) }
                            }
                        }
                    }
                }
            }
        }
    }

    static func take(_ handle: OpaquePointer?) -> [Tensor] {
        guard let handle else { return [] }
        defer { ov_tensors_free(handle) }
        return (0..<ov_tensors_count(handle)).map { i in
            var rank: Int32 = 0
            var shapePointer: UnsafePointer<Int64>?
            var count = 0
            let data = ov_tensors_data(handle, i, &rank, &shapePointer, &count)
            let shape = (0..<Int(rank)).map { Int(shapePointer![$0]) }
            let scalars = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
            return Tensor(name: String(cString: ov_tensors_name(handle, i)), shape: shape, scalars: scalars)
        }
    }
}
