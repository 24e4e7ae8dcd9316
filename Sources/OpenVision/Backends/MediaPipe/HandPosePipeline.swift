import Foundation

/// MediaPipe's hand pipeline for still images (`mp.solutions.hands` with `static_image_mode=True`;
/// graphs hand_landmark_tracking_cpu, palm_detection_cpu, palm_detection_detection_to_roi and
/// hand_landmark_cpu of mediapipe 0.10.14): palms on the letterboxed image, a rotated square region
/// per palm grown to cover the hand, 21 landmarks in each region.
struct HandPosePipeline: Sendable {
    /// One hand: 21 landmarks normalised to the image (x, y; top-left origin; z relative to the wrist, in
    /// roughly x's scale), the hand presence score, and the probability that the hand is MediaPipe's "Left"
    /// (a left hand in a mirrored image: a right hand in an unmirrored photo).
    struct Hand: Sendable {
        var landmarks: [(x: Double, y: Double, z: Double)]
        var presence: Float
        var leftProbability: Float
        /// The region the landmarks were found in (image pixels).
        var region: MediaPipeRegion
    }

    let palmModel: VisionModel
    let landmarkModel: VisionModel
    /// Palm detection `min_score_thresh` (mp.solutions.hands' `min_detection_confidence`, default 0.5).
    var minimumPalmScore: Float = 0.5
    /// Hand presence threshold (`min_tracking_confidence`, default 0.5).
    var minimumPresence: Float = 0.5

    /// The full models (MediaPipe's `model_complexity=1`) or the lite ones (0).
    static func installed(full: Bool) throws(VisionError) -> HandPosePipeline {
        HandPosePipeline(
            palmModel: try MediaPipeModels.model(
                full ? MediaPipeModels.palmDetectionFull : MediaPipeModels.palmDetectionLite),
            landmarkModel: try MediaPipeModels.model(
                full ? MediaPipeModels.handLandmarkFull : MediaPipeModels.handLandmarkLite))
    }

    /// Palm detections in image pixels (top-left origin), best first, with their 7 keypoints (wrist centre,
    /// index/middle/ring/little finger MCPs, thumb CMC, thumb MCP... as the model orders them).
    func palms(in image: VisionImage) throws(VisionError) -> [MediaPipeDetection] {
        let (w, h, _) = try MediaPipeTensorInput.inputGeometry(of: palmModel)
        // ImageToTensorCalculator: the whole image letterboxed (zero border) into the input, values in 0...1.
        let region = MediaPipeRegion.fullImage(width: image.width, height: image.height).keepingAspectRatio(
            tensorWidth: w, tensorHeight: h)
        let input = try MediaPipeTensorInput.tensor(
            for: palmModel, image: image, region: region, range: 0...1, borderZero: true)
        let outputs = try palmModel.backend.run([input])
        let (boxes, scores) = try Self.detectionOutputs(outputs, coordinates: 18, model: palmModel)
        let decoded = try MediaPipeDetection.decode(
            boxes: boxes.scalars, scores: scores.scalars, anchors: Self.palmAnchors,
            options: .ssd(inputSize: w, keypoints: 7, minScore: minimumPalmScore))
        // DetectionLetterboxRemovalCalculator: input-normalised → image pixels.
        return MediaPipeDetection.weightedNonMaxSuppression(decoded, threshold: 0.3).map {
            $0.projected(region.project)
        }
    }

    static let palmAnchors = MediaPipeAnchors(.palmDetection).anchors

    /// `PalmDetectionDetectionToRoi`: the palm box rotated so the wrist → middle-finger MCP vector points up,
    /// shifted half its height towards the fingers, squared on its long side and scaled 2.6×.
    static func handRegion(palm: MediaPipeDetection) -> MediaPipeRegion {
        MediaPipeRegion(detection: palm, start: 0, end: 2, targetAngle: .pi / 2)
            .transformed(scaleX: 2.6, scaleY: 2.6, shiftY: -0.5, squareLong: true)
    }

    /// `AssociationNormRectCalculator` on one frame's regions: a region overlapping an earlier one by more than
    /// IoU 0.5 replaces it.
    static func associate(_ regions: [MediaPipeRegion], threshold: Double = 0.5) -> [MediaPipeRegion] {
        var kept: [MediaPipeRegion] = []
        for region in regions {
            kept.removeAll { $0.iou(region) > threshold }
            kept.append(region)
        }
        return kept
    }

    /// The landmarks in `region` (image pixels), or nil when the model says no hand is there.
    func hand(in image: VisionImage, region: MediaPipeRegion) throws(VisionError) -> Hand? {
        let (w, h, _) = try MediaPipeTensorInput.inputGeometry(of: landmarkModel)
        let padded = region.keepingAspectRatio(tensorWidth: w, tensorHeight: h)
        let input = try MediaPipeTensorInput.tensor(
            for: landmarkModel, image: image, region: padded, range: 0...1, borderZero: false)
        let outputs = try landmarkModel.backend.run([input])
        // hand_landmark_{lite,full}.tflite: landmarks [1, 63], hand flag [1, 1], handedness [1, 1], world landmarks [1, 63].
        guard outputs.count >= 3, outputs[0].count == 63, outputs[1].count == 1, outputs[2].count == 1 else {
            throw VisionError(
                .invalidModel,
                "\(landmarkModel.url.lastPathComponent) is not MediaPipe's hand landmark model: "
                    + "outputs \(outputs.map { "\($0.name) \($0.shape)" }.joined(separator: ", ")); expected [1, 63], [1, 1], [1, 1], …"
            )
        }
        let presence = outputs[1].scalars[0]
        guard presence >= minimumPresence else { return nil }
        let raw = outputs[0].scalars
        let (iw, ih) = (Double(image.width), Double(image.height))
        var landmarks: [(x: Double, y: Double, z: Double)] = []
        for i in 0..<21 {
            // `TensorsToLandmarksCalculator`: input pixels → 0...1; `LandmarkProjectionCalculator` onto the image;
            // z scaled by 1 / (input width × normalize_z 0.4) and the region's width as a fraction of the image's.
            let p = padded.project(x: Double(raw[3 * i]) / Double(w), y: Double(raw[3 * i + 1]) / Double(h))
            landmarks.append((p.x / iw, p.y / ih, Double(raw[3 * i + 2]) / Double(w) / 0.4 * region.width / iw))
        }
        return Hand(landmarks: landmarks, presence: presence, leftProbability: outputs[2].scalars[0], region: region)
    }

    /// Up to `maximumCount` hands, in palm-score order.
    func hands(in image: VisionImage, maximumCount: Int) throws(VisionError) -> [Hand] {
        guard maximumCount > 0 else { return [] }
        let detected = try palms(in: image).prefix(maximumCount)
        let regions = Self.associate(detected.map(Self.handRegion))
        var hands: [Hand] = []
        for region in regions {
            if let hand = try hand(in: image, region: region) { hands.append(hand) }
        }
        return hands
    }

    /// The regressors ([1, N, coordinates]) and scores ([1, N, 1]) among an SSD head's outputs, whichever order
    /// the converted model lists them in.
    static func detectionOutputs(_ outputs: [Tensor], coordinates: Int, model: VisionModel) throws(VisionError) -> (
        Tensor, Tensor
    ) {
        guard outputs.count == 2 else {
            throw VisionError(
                .invalidModel,
                "\(model.url.lastPathComponent) has \(outputs.count) outputs; an SSD detector has 2 (boxes, scores)")
        }
        let boxes = outputs.first { $0.shape.last == coordinates }
        let scores = outputs.first { $0.shape.last == 1 }
        guard let boxes, let scores else {
            throw VisionError(
                .invalidModel,
                "\(model.url.lastPathComponent)'s outputs are \(outputs.map { "\($0.shape)" }.joined(separator: ", ")); "
                    + "expected [1, N, \(coordinates)] and [1, N, 1]")
        }
        return (boxes, scores)
    }
}
