import Foundation

/// MediaPipe's BlazeFace face detectors (`mp.solutions.face_detection`, mediapipe 0.10.14: graphs
/// face_detection_short_range / face_detection_full_range and face_detection.pbtxt): the letterboxed image
/// at the model's size with values in [-1, 1], SSD decoding over MediaPipe's anchors, weighted NMS.
struct BlazeFaceDetector: Sendable {
    enum Range: Sendable { case short, full }

    let model: VisionModel
    let anchors: MediaPipeAnchors.Options
    /// `min_score_thresh` (mp.solutions.face_detection's `min_detection_confidence`, default 0.5).
    var minimumScore: Float = 0.5

    static func installed(_ range: Range) throws(VisionError) -> BlazeFaceDetector {
        switch range {
        case .short:
            BlazeFaceDetector(
                model: try MediaPipeModels.model(MediaPipeModels.faceShortRange), anchors: .faceShortRange)
        case .full:
            BlazeFaceDetector(model: try MediaPipeModels.model(MediaPipeModels.faceFullRange), anchors: .faceFullRange)
        }
    }

    /// Faces normalised to the image (top-left origin), best first, each with its 6 keypoints (the subject's
    /// right eye, left eye, nose tip, mouth centre, right ear tragion, left ear tragion).
    func detect(in image: VisionImage) throws(VisionError) -> [MediaPipeDetection] {
        let (w, h, _) = try MediaPipeTensorInput.inputGeometry(of: model)
        guard w == anchors.inputWidth, h == anchors.inputHeight else {
            throw VisionError(
                .invalidModel,
                "\(model.url.lastPathComponent) takes \(w) × \(h) images; BlazeFace's anchors here are for "
                    + "\(anchors.inputWidth) × \(anchors.inputHeight)")
        }
        // The whole image letterboxed (zero border) into the input, values in -1...1.
        let region = MediaPipeRegion.fullImage(width: image.width, height: image.height).keepingAspectRatio(
            tensorWidth: w, tensorHeight: h)
        let input = try MediaPipeTensorInput.tensor(
            for: model, image: image, region: region, range: -1...1, borderZero: true)
        let outputs = try model.backend.run([input])
        let (boxes, scores) = try HandPosePipeline.detectionOutputs(outputs, coordinates: 16, model: model)
        let decoded = try MediaPipeDetection.decode(
            boxes: boxes.scalars, scores: scores.scalars, anchors: MediaPipeAnchors(anchors).anchors,
            options: .ssd(inputSize: w, keypoints: 6, minScore: minimumScore))
        let (iw, ih) = (Double(image.width), Double(image.height))
        return MediaPipeDetection.weightedNonMaxSuppression(decoded, threshold: 0.3).map { d in
            d.projected { x, y in
                let p = region.project(x: x, y: y)
                return (p.x / iw, p.y / ih)
            }
        }
    }
}
