internal import CNative

/// The optical-flow requests' backend: DIS optical flow in `ov_optical_flow.cpp` (see its
/// "Algorithm / Decisions" header).
enum OpenCVOpticalFlow {
    /// The flow field from `from` to `to` (same size): written by OpenCV straight into the observation's storage.
    static func flow(
        from: VisionImage, to: VisionImage,
        accuracy: GenerateOpticalFlowRequest.ComputationAccuracy
    ) throws(VisionError) -> PixelBufferObservation {
        let count = from.width * from.height * 2
        var status = OV_OK
        let values = [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            status = ov_optical_flow(
                from.handle, to.handle, ov_flow_accuracy(rawValue: UInt32(accuracy.native)), buffer.baseAddress)
            if status != OV_OK { buffer.initialize(repeating: 0) }
            initialized = count
        }
        try NativeError.check(status, "optical flow")
        return try PixelBufferObservation(
            width: from.width, height: from.height, channels: 2, values: values,
            featureName: GenerateOpticalFlowRequest.featureName)
    }
}
