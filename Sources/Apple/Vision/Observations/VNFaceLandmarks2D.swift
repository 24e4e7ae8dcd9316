import OpenVision

/// A face's landmark regions, as Vision's: Vision's 76 or 65 points (revision 3, MediaPipe's face mesh) or dlib's 68
/// grouped as Vision's regions (revisions 1 and 2).
open class VNFaceLandmarks2D {
    /// Confidence of the landmark fit, 0...1.
    public let confidence: VNConfidence
    /// Every point, in the model's order.
    public let allPoints: VNFaceLandmarkRegion2D?
    /// The jaw line. Never nil here (as every region below): a region the revision lacks has no points.
    public let faceContour: VNFaceLandmarkRegion2D?
    /// The person's left eye outline.
    public let leftEye: VNFaceLandmarkRegion2D?
    /// The person's right eye outline.
    public let rightEye: VNFaceLandmarkRegion2D?
    /// The person's left eyebrow.
    public let leftEyebrow: VNFaceLandmarkRegion2D?
    /// The person's right eyebrow.
    public let rightEyebrow: VNFaceLandmarkRegion2D?
    /// The nose's outline.
    public let nose: VNFaceLandmarkRegion2D?
    /// The nose's ridge.
    public let noseCrest: VNFaceLandmarkRegion2D?
    /// The face's vertical centre line.
    public let medianLine: VNFaceLandmarkRegion2D?
    /// The lips' outer outline.
    public let outerLips: VNFaceLandmarkRegion2D?
    /// The lips' inner outline.
    public let innerLips: VNFaceLandmarkRegion2D?
    /// The person's left pupil (one point).
    public let leftPupil: VNFaceLandmarkRegion2D?
    /// The person's right pupil (one point).
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
