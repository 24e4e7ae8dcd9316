import OpenVision

/// A face's landmark regions, as Vision's: Vision's 76 or 65 points (revision 3, MediaPipe's face mesh) or dlib's 68
/// grouped as Vision's regions (revisions 1 and 2).
open class VNFaceLandmarks2D {
    public let confidence: VNConfidence
    public let allPoints: VNFaceLandmarkRegion2D?
    public let faceContour: VNFaceLandmarkRegion2D?
    public let leftEye: VNFaceLandmarkRegion2D?
    public let rightEye: VNFaceLandmarkRegion2D?
    public let leftEyebrow: VNFaceLandmarkRegion2D?
    public let rightEyebrow: VNFaceLandmarkRegion2D?
    public let nose: VNFaceLandmarkRegion2D?
    public let noseCrest: VNFaceLandmarkRegion2D?
    public let medianLine: VNFaceLandmarkRegion2D?
    public let outerLips: VNFaceLandmarkRegion2D?
    public let innerLips: VNFaceLandmarkRegion2D?
    public let leftPupil: VNFaceLandmarkRegion2D?
    public let rightPupil: VNFaceLandmarkRegion2D?

    init(_ l: FaceLandmarks2D) {
        confidence = l.confidence
        allPoints = VNFaceLandmarkRegion2D(l.allPoints)
        faceContour = VNFaceLandmarkRegion2D(l.faceContour)
        leftEye = VNFaceLandmarkRegion2D(l.leftEye)
        rightEye = VNFaceLandmarkRegion2D(l.rightEye)
        leftEyebrow = VNFaceLandmarkRegion2D(l.leftEyebrow)
        rightEyebrow = VNFaceLandmarkRegion2D(l.rightEyebrow)
        nose = VNFaceLandmarkRegion2D(l.nose)
        noseCrest = VNFaceLandmarkRegion2D(l.noseCrest)
        medianLine = VNFaceLandmarkRegion2D(l.medianLine)
        outerLips = VNFaceLandmarkRegion2D(l.outerLips)
        innerLips = VNFaceLandmarkRegion2D(l.innerLips)
        leftPupil = VNFaceLandmarkRegion2D(l.leftPupil)
        rightPupil = VNFaceLandmarkRegion2D(l.rightPupil)
    }
}
