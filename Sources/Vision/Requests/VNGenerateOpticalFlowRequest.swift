import OpenVision

/// Vision's optical flow between two images (OpenVision's `GenerateOpticalFlowRequest`): a 2-channel field.
open class VNGenerateOpticalFlowRequest: VNTargetedImageRequest {
    public enum ComputationAccuracy: UInt, Sendable {
        case low = 0, medium = 1, high = 2, veryHigh = 3
        var native: GenerateOpticalFlowRequest.ComputationAccuracy {
            switch self { case .low: .low; case .medium: .medium; case .high: .high; case .veryHigh: .veryHigh }
        }
    }

    public var computationAccuracy: ComputationAccuracy = .medium

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        var request = GenerateOpticalFlowRequest(targetImage: targetedImage)
        request.computationAccuracy = computationAccuracy.native
        return [VNPixelBufferObservation(try perform(request, in: context))]
    }
}
