import CoreML
import Foundation
import OpenVisionTestSupport
import Testing
import Vision

@testable import OpenVision

/// Vision symbols that real apps use and the first Vision module lacked or spelled differently (docs/porting.md
/// lists each): each is checked against what OpenVision's own request gives, or against a drawn truth.
@Suite struct VNPortingSymbolsTests {
    static let person = try! VisionImage(contentsOf: Fixtures.sharedImage("person.jpg"))
    static let astronaut = try! VisionImage(contentsOf: Fixtures.sharedImage("astronaut.png"))

    @Test func completionHandlerTypeAndTextLanguages() throws {
        var calls: [(Int, Bool)] = []
        let handler: VNRequestCompletionHandler = { request, error in
            calls.append(((request.results ?? []).count, error == nil))
        }
        let request = VNDetectFaceRectanglesRequest(completionHandler: handler)
        try VNImageRequestHandler(cgImage: CGImage(visionImage: Self.astronaut)).perform([request])
        let native = try DetectFaceRectanglesRequest().perform(in: ImageRequestHandler(image: Self.astronaut).context)
        #expect(calls.count == 1 && calls[0].1)
        #expect(calls[0].0 == (request.results?.count ?? -1) && calls[0].0 >= 1 && native.count >= 1)

        let text = VNRecognizeTextRequest()
        #expect(try text.supportedRecognitionLanguages() == ["en-US", "zh-Hans"])
        text.recognitionLevel = .fast
        #expect(try text.supportedRecognitionLanguages() == RecognizeTextRequest.supportedRecognitionLanguages())
        #expect(try text.supportedRecognitionLanguages().contains("eng"))
        #expect(
            try VNRecognizeTextRequest.supportedRecognitionLanguages(for: .accurate, revision: 3) == [
                "en-US", "zh-Hans",
            ])
        #expect(throws: VNError.self) {
            try VNRecognizeTextRequest.supportedRecognitionLanguages(for: .fast, revision: 9)
        }
    }

    /// The face-tracking sample's `VNFaceObservation(boundingBox:)`: a face given by its box only, then landmarks
    /// found in that box (the same as for the detector's own observation of that face).
    @Test func faceObservationFromABox() throws {
        let faces = VNDetectFaceRectanglesRequest()
        try VNImageRequestHandler(cgImage: CGImage(visionImage: Self.astronaut)).perform([faces])
        let detected = try #require(faces.results?.first)
        let given = VNFaceObservation(boundingBox: detected.boundingBox)
        #expect(given.boundingBox == detected.boundingBox && given.confidence == 1)
        #expect(given.landmarks == nil && given.roll == nil && given.yaw == nil)
        let landmarks = VNDetectFaceLandmarksRequest()
        landmarks.inputFaceObservations = [given]
        try VNImageRequestHandler(cgImage: CGImage(visionImage: Self.astronaut)).perform([landmarks])
        let found = try #require(landmarks.results?.first?.landmarks?.allPoints)
        #expect(found.pointCount == 76)
        let plain = VNDetectedObjectObservation(boundingBox: CGRect(x: 0.1, y: 0.2, width: 0.3, height: 0.4))
        #expect(plain.boundingBox == CGRect(x: 0.1, y: 0.2, width: 0.3, height: 0.4) && plain.confidence == 1)
    }

    /// `recognizedPoints(forGroupKey: .all)` (the sports-analysis sample's body box): every joint, by Vision's keys.
    @Test func allPointsGroupKey() throws {
        let request = VNDetectHumanBodyPoseRequest()
        try VNImageRequestHandler(cgImage: CGImage(visionImage: Self.person)).perform([request])
        let pose = try #require(request.results?.first)
        let all = try pose.recognizedPoints(forGroupKey: .all)
        #expect(all.count == 19 && Set(all.keys) == Set(pose.availableKeys))
        #expect(VNRecognizedPointGroupKey.all.rawValue == "VNIPOAll")
        #expect(VNHumanBodyPoseObservation.JointsGroupName.all.rawValue == .all)
        #expect(VNHumanHandPoseObservation.JointsGroupName.all.rawValue == .all)
        let nose = try #require(all[VNHumanBodyPoseObservation.JointName.nose.rawValue])
        #expect(nose.location == (try pose.recognizedPoint(.nose)).location)
        #expect(pose.availableGroupKeys.contains(.all))
        #expect(throws: VNError.self) { try pose.recognizedPoints(forGroupKey: VNRecognizedPointGroupKey("tail")) }
    }

    /// Trajectories as Vision types them: points are `VNPoint`s (equal when their locations are), and
    /// `targetFrameTime` spaces frames that carry no time. A drawn ball thrown on a parabola (as `TrajectoryTests`).
    @Test func trajectoryPointsAndTargetFrameTime() throws {
        let request = VNDetectTrajectoriesRequest(frameAnalysisSpacing: .zero, trajectoryLength: 10)
        request.objectMinimumNormalizedRadius = 0.005
        request.objectMaximumNormalizedRadius = 0.05
        #expect(abs(request.targetFrameTime.seconds - 1.0 / 30) < 1e-9)
        request.targetFrameTime = CMTime(value: 1, timescale: 25)
        #expect(request.targetFrameTime.seconds == 0.04)
        let sequence = VNSequenceRequestHandler()
        let k = 360.0 / 202_500
        for i in 0..<30 {
            var canvas = try Fixtures.canvas(width: 640, height: 480, gray: 60)
            let x = 30 + 9.6 * Double(i)
            try canvas.dot(
                at: CGPoint(x: x.rounded(), y: (80 + k * (x - 150) * (x - 150)).rounded()), radius: 8,
                color: .white)
            try sequence.perform([request], on: CGImage(visionImage: canvas.makeImage()))
        }
        let trajectory = try #require(request.results?.first)
        let points: [VNPoint] = trajectory.projectedPoints
        #expect(points.count == 10 && trajectory.detectedPoints.count == 10)
        // The last detected point is frame 29's ball: x = 30 + 9.6·29 = 308.4 px, y = 80 + k·158.4² px from the top.
        let last = try #require(trajectory.detectedPoints.last)
        #expect(abs(last.x * 640 - 308.4) < 2 && abs((1 - last.y) * 480 - (80 + k * 158.4 * 158.4)) < 2)
        #expect(VNPoint(x: 0.25, y: 0.5) == VNPoint(location: CGPoint(x: 0.25, y: 0.5)))
        #expect(VNPoint(x: 0.25, y: 0.5) != VNPoint(x: 0.25, y: 0.75))
        #expect(Set([VNPoint(x: 1, y: 2), VNPoint(x: 1, y: 2)]).count == 1)
    }

    /// `VNContour`'s equality: the same contour reached twice is equal, another is not.
    @Test func contourEquality() throws {
        var canvas = try Fixtures.canvas(width: 200, height: 200, gray: 255)
        try Fixtures.fill([(20, 20), (90, 20), (90, 90), (20, 90)], on: &canvas, gray: 0)
        try Fixtures.fill([(120, 120), (180, 120), (180, 180), (120, 180)], on: &canvas, gray: 0)
        let request = VNDetectContoursRequest()
        try VNImageRequestHandler(cgImage: CGImage(visionImage: canvas.makeImage())).perform([request])
        let observation = try #require(request.results?.first)
        let contours = observation.topLevelContours
        #expect(contours.count >= 2)
        let again = try observation.contour(at: contours[0].indexPath)
        #expect(again == contours[0] && again.hashValue == contours[0].hashValue)
        #expect(contours[0] != contours[1])
    }

    /// Apple's Swift API's `ImageRequestHandler(_: Data)`: the same answers as `init(data:)`.
    @Test func swiftHandlerFromData() async throws {
        let data = try Data(contentsOf: Fixtures.sharedImage("astronaut.png"))
        let faces = try await ImageRequestHandler(data).perform(DetectFaceRectanglesRequest())
        let same = try await ImageRequestHandler(data: data).perform(DetectFaceRectanglesRequest())
        #expect(faces.count >= 1 && faces.map(\.boundingBox) == same.map(\.boundingBox))
    }

    /// `VNCoreMLModel.featureProvider` (the dice sample's `ThresholdProvider`): a detector pipeline's threshold inputs
    /// take the provider's values; without one the pipeline's own defaults apply.
    @Test func featureProviderSetsAPipelinesThresholds() throws {
        final class Thresholds: MLFeatureProvider {
            let values: [String: MLFeatureValue]
            init(confidence: Double) {
                values = [
                    "iouThreshold": MLFeatureValue(double: 0.45),
                    "confidenceThreshold": MLFeatureValue(double: confidence),
                ]
            }
            var featureNames: Set<String> { Set(values.keys) }
            func featureValue(for featureName: String) -> MLFeatureValue? { values[featureName] }
        }
        let url = Fixtures.shared.appendingPathComponent("models/coreml/YoloFastestPipeline.mlmodel")
        let model = try VNCoreMLModel(for: MLModel(contentsOf: url))
        let dog = try VisionImage(contentsOf: Fixtures.sharedImage("dog.jpg"))
        func detect() throws -> [VNRecognizedObjectObservation] {
            let request = VNCoreMLRequest(model: model)
            request.imageCropAndScaleOption = .scaleFill
            try VNImageRequestHandler(cgImage: CGImage(visionImage: dog)).perform([request])
            return request.results as? [VNRecognizedObjectObservation] ?? []
        }
        let byDefault = try detect()
        model.featureProvider = Thresholds(confidence: 0.9)
        let strict = try detect()
        model.featureProvider = Thresholds(confidence: 0.05)
        let loose = try detect()
        // The pipeline's own confidence threshold is 0.25: the defaults keep dog, bicycle, car and truck there.
        #expect(byDefault.count >= 3 && byDefault.allSatisfy { $0.confidence >= 0.25 })
        #expect(!strict.isEmpty && strict.allSatisfy { $0.confidence >= 0.9 } && strict.count < byDefault.count)
        #expect(loose.count > byDefault.count && loose.allSatisfy { $0.confidence >= 0.05 })
    }

    /// Apple's Swift API geometry the tables sample uses: `cgPoint` / `cgRect`, `verticallyFlipped()` (hand-computed:
    /// y' = 1 − y, a rectangle's y' = 1 − y − height), and `normalizedPath` (a closed path through the points: its
    /// bounding box and containment, hand-computed for a triangle), on a region and on a `VNContour`.
    @Test func normalizedGeometryAndPaths() throws {
        let point = NormalizedPoint(x: 0.25, y: 0.2)
        #expect(point.cgPoint == CGPoint(x: 0.25, y: 0.2))
        #expect(point.verticallyFlipped() == NormalizedPoint(x: 0.25, y: 0.8))
        let rect = NormalizedRect(x: 0.1, y: 0.2, width: 0.3, height: 0.5)
        #expect(rect.cgRect == CGRect(x: 0.1, y: 0.2, width: 0.3, height: 0.5))
        #expect(rect.origin == CGPoint(x: 0.1, y: 0.2) && rect.size == CGSize(width: 0.3, height: 0.5))
        let flipped = rect.verticallyFlipped()
        #expect(abs(flipped.y - 0.3) < 1e-12 && flipped.x == 0.1 && flipped.width == 0.3 && flipped.height == 0.5)
        #expect(abs(flipped.verticallyFlipped().y - rect.y) < 1e-12)

        let triangle = NormalizedRegion(
            points: [
                NormalizedPoint(x: 0.1, y: 0.1), NormalizedPoint(x: 0.9, y: 0.1), NormalizedPoint(x: 0.5, y: 0.7),
            ],
            aspectRatio: 1)
        let path = triangle.normalizedPath
        let box = path.boundingBox
        #expect(abs(box.minX - 0.1) < 1e-6 && abs(box.maxX - 0.9) < 1e-6)
        #expect(abs(box.minY - 0.1) < 1e-6 && abs(box.maxY - 0.7) < 1e-6)
        #expect(path.contains(CGPoint(x: 0.5, y: 0.3)))
        #expect(!path.contains(CGPoint(x: 0.2, y: 0.6)))  // left of the edge (0.1, 0.1)–(0.5, 0.7)
        #expect(!path.contains(CGPoint(x: 0.5, y: 0.05)))
        #expect(NormalizedRegion(points: [], aspectRatio: 1).normalizedPath.isEmpty)

        // A detected contour's path: the square drawn at (20…90) in a 200-pixel image, normalised, lower-left origin.
        var canvas = try Fixtures.canvas(width: 200, height: 200, gray: 255)
        try Fixtures.fill([(20, 20), (90, 20), (90, 90), (20, 90)], on: &canvas, gray: 0)
        let request = VNDetectContoursRequest()
        try VNImageRequestHandler(cgImage: CGImage(visionImage: canvas.makeImage())).perform([request])
        let contour = try #require(request.results?.first?.topLevelContours.first)
        let square = contour.normalizedPath.boundingBox
        #expect(abs(square.minX - 0.1) <= 0.01 && abs(square.maxX - 0.45) <= 0.01, "\(square)")
        #expect(abs(square.minY - 0.55) <= 0.01 && abs(square.maxY - 0.9) <= 0.01, "\(square)")
        #expect(contour.normalizedPath.contains(CGPoint(x: 0.27, y: 0.72)))
        #expect(!contour.normalizedPath.contains(CGPoint(x: 0.7, y: 0.3)))
    }
}
