import OpenVision

/// Vision's homography between two images (OpenVision's `HomographicImageRegistrationRequest`).
open class VNHomographicImageRegistrationRequest: VNTargetedImageRequest {
    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        try perform(HomographicImageRegistrationRequest(targetImage: targetedImage), in: context)
            .map { [VNImageHomographicAlignmentObservation($0)] } ?? []
    }
}
