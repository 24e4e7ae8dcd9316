import OpenVision

/// Vision's translation between two images (OpenVision's `TranslationalImageRegistrationRequest`).
open class VNTranslationalImageRegistrationRequest: VNTargetedImageRequest {
    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        try perform(TranslationalImageRegistrationRequest(targetImage: targetedImage), in: context)
            .map { [VNImageTranslationAlignmentObservation($0)] } ?? []
    }
}
