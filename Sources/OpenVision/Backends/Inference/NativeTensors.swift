internal import CNative

/// Copies a native ov_tensors list into `Tensor`s and frees it.
enum NativeTensors {
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
