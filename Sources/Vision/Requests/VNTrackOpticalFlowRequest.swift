import OpenVision

/// Vision's frame-to-frame optical flow (OpenVision's `TrackOpticalFlowRequest`).
open class VNTrackOpticalFlowRequest: VNStatefulRequest {
    let native = TrackOpticalFlowRequest()

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        try perform(native, in: context).map { [VNPixelBufferObservation($0)] } ?? []
    }
}
