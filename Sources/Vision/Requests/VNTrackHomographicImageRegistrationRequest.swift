import OpenVision

/// Vision's frame-to-frame homography (OpenVision's `TrackHomographicImageRegistrationRequest`).
open class VNTrackHomographicImageRegistrationRequest: VNStatefulRequest {
    let native = TrackHomographicImageRegistrationRequest()

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        try perform(native, in: context).map { [VNImageHomographicAlignmentObservation($0)] } ?? []
    }
}
