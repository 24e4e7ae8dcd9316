/// Vision's request revision constants (`VN…RequestRevisionN`, Apple's values). What each runs here: docs/porting.md.
public let VNClassifyImageRequestRevision1 = 1
/// Revision 2 of `VNClassifyImageRequest` (Apple's value 2).
public let VNClassifyImageRequestRevision2 = 2
/// Revision 1 of `VNCoreMLRequest` (Apple's value 1).
public let VNCoreMLRequestRevision1 = 1
/// Revision 1 of `VNDetectBarcodesRequest` (Apple's value 1).
public let VNDetectBarcodesRequestRevision1 = 1
/// Revision 2 of `VNDetectBarcodesRequest` (Apple's value 2).
public let VNDetectBarcodesRequestRevision2 = 2
/// Revision 3 of `VNDetectBarcodesRequest` (Apple's value 3).
public let VNDetectBarcodesRequestRevision3 = 3
/// Revision 4 of `VNDetectBarcodesRequest` (Apple's value 4).
public let VNDetectBarcodesRequestRevision4 = 4
/// Revision 1 of `VNDetectContoursRequest` (Apple's value 1).
public let VNDetectContoursRequestRevision1 = 1
/// Revision 1 of `VNDetectDocumentSegmentationRequest` (Apple's value 1).
public let VNDetectDocumentSegmentationRequestRevision1 = 1
/// Revision 1 of `VNDetectFaceLandmarksRequest` (Apple's value 1).
public let VNDetectFaceLandmarksRequestRevision1 = 1
/// Revision 2 of `VNDetectFaceLandmarksRequest` (Apple's value 2).
public let VNDetectFaceLandmarksRequestRevision2 = 2
/// Revision 3 of `VNDetectFaceLandmarksRequest` (Apple's value 3).
public let VNDetectFaceLandmarksRequestRevision3 = 3
/// Revision 1 of `VNDetectFaceRectanglesRequest` (Apple's value 1).
public let VNDetectFaceRectanglesRequestRevision1 = 1
/// Revision 2 of `VNDetectFaceRectanglesRequest` (Apple's value 2).
public let VNDetectFaceRectanglesRequestRevision2 = 2
/// Revision 3 of `VNDetectFaceRectanglesRequest` (Apple's value 3).
public let VNDetectFaceRectanglesRequestRevision3 = 3
/// Revision 1 of `VNDetectHorizonRequest` (Apple's value 1).
public let VNDetectHorizonRequestRevision1 = 1
/// Revision 1 of `VNDetectHumanBodyPoseRequest` (Apple's value 1).
public let VNDetectHumanBodyPoseRequestRevision1 = 1
/// Revision 1 of `VNDetectHumanHandPoseRequest` (Apple's value 1).
public let VNDetectHumanHandPoseRequestRevision1 = 1
/// Revision 1 of `VNDetectHumanRectanglesRequest` (Apple's value 1).
public let VNDetectHumanRectanglesRequestRevision1 = 1
/// Revision 2 of `VNDetectHumanRectanglesRequest` (Apple's value 2).
public let VNDetectHumanRectanglesRequestRevision2 = 2
/// Revision 1 of `VNDetectRectanglesRequest` (Apple's value 1).
public let VNDetectRectanglesRequestRevision1 = 1
/// Revision 1 of `VNDetectTextRectanglesRequest` (Apple's value 1).
public let VNDetectTextRectanglesRequestRevision1 = 1
/// Revision 1 of `VNDetectTrajectoriesRequest` (Apple's value 1).
public let VNDetectTrajectoriesRequestRevision1 = 1
/// Revision 1 of `VNGenerateAttentionBasedSaliencyImageRequest` (Apple's value 1).
public let VNGenerateAttentionBasedSaliencyImageRequestRevision1 = 1
/// Revision 2 of `VNGenerateAttentionBasedSaliencyImageRequest` (Apple's value 2).
public let VNGenerateAttentionBasedSaliencyImageRequestRevision2 = 2
/// Revision 1 of `VNGenerateImageFeaturePrintRequest` (Apple's value 1).
public let VNGenerateImageFeaturePrintRequestRevision1 = 1
/// Revision 2 of `VNGenerateImageFeaturePrintRequest` (Apple's value 2).
public let VNGenerateImageFeaturePrintRequestRevision2 = 2
/// Revision 1 of `VNGenerateObjectnessBasedSaliencyImageRequest` (Apple's value 1).
public let VNGenerateObjectnessBasedSaliencyImageRequestRevision1 = 1
/// Revision 2 of `VNGenerateObjectnessBasedSaliencyImageRequest` (Apple's value 2).
public let VNGenerateObjectnessBasedSaliencyImageRequestRevision2 = 2
/// Revision 1 of `VNGenerateOpticalFlowRequest` (Apple's value 1).
public let VNGenerateOpticalFlowRequestRevision1 = 1
/// Revision 2 of `VNGenerateOpticalFlowRequest` (Apple's value 2).
public let VNGenerateOpticalFlowRequestRevision2 = 2
/// Revision 1 of `VNGeneratePersonSegmentationRequest` (Apple's value 1).
public let VNGeneratePersonSegmentationRequestRevision1 = 1
/// Revision 1 of `VNHomographicImageRegistrationRequest` (Apple's value 1).
public let VNHomographicImageRegistrationRequestRevision1 = 1
/// Revision 1 of `VNRecognizeAnimalsRequest` (Apple's value 1).
public let VNRecognizeAnimalsRequestRevision1 = 1
/// Revision 2 of `VNRecognizeAnimalsRequest` (Apple's value 2).
public let VNRecognizeAnimalsRequestRevision2 = 2
/// Revision 1 of `VNRecognizeTextRequest` (Apple's value 1).
public let VNRecognizeTextRequestRevision1 = 1
/// Revision 2 of `VNRecognizeTextRequest` (Apple's value 2).
public let VNRecognizeTextRequestRevision2 = 2
/// Revision 3 of `VNRecognizeTextRequest` (Apple's value 3).
public let VNRecognizeTextRequestRevision3 = 3
/// Revision 1 of `VNTrackHomographicImageRegistrationRequest` (Apple's value 1).
public let VNTrackHomographicImageRegistrationRequestRevision1 = 1
/// Revision 1 of `VNTrackObjectRequest` (Apple's value 1).
public let VNTrackObjectRequestRevision1 = 1
/// Revision 2 of `VNTrackObjectRequest` (Apple's value 2).
public let VNTrackObjectRequestRevision2 = 2
/// Revision 1 of `VNTrackOpticalFlowRequest` (Apple's value 1).
public let VNTrackOpticalFlowRequestRevision1 = 1
/// Revision 1 of `VNTrackRectangleRequest` (Apple's value 1).
public let VNTrackRectangleRequestRevision1 = 1
/// Revision 1 of `VNTrackTranslationalImageRegistrationRequest` (Apple's value 1).
public let VNTrackTranslationalImageRegistrationRequestRevision1 = 1
/// Revision 1 of `VNTranslationalImageRegistrationRequest` (Apple's value 1).
public let VNTranslationalImageRegistrationRequestRevision1 = 1
/// Revision 1 of `VNDetectHumanBodyPose3DRequest` (Apple's value 1).
public let VNDetectHumanBodyPose3DRequestRevision1 = 1
/// Revision 1 of `VNGeneratePersonInstanceMaskRequest` (Apple's value 1).
public let VNGeneratePersonInstanceMaskRequestRevision1 = 1
