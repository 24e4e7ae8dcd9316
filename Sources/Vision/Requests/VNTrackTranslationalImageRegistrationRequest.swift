import OpenVision

/// Vision's frame-to-frame translation (OpenVision's `TrackTranslationalImageRegistrationRequest`).
open class VNTrackTranslationalImageRegistrationRequest: VNStatefulRequest {
    let native = TrackTranslationalImageRegistrationRequest()

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        try perform(native, in: context).map { [VNImageTranslationAlignmentObservation($0)] } ?? []
    }
}
