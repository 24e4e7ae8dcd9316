import Foundation
import OpenVisionTestSupport
import Testing

@testable import OpenVision

/// `DetectHumanBodyPoseRequest` (MediaPipe's pose_detection + pose_landmark_full TFLite files, converted to
/// ONNX) against MediaPipe Python 0.10.14 running the same files, on the shared photos.
@Suite struct BodyPoseTests {
    /// MediaPipe's landmarks (normalised, top-left origin, with visibility) per image; nil: no pose.
    /// Made with (mediapipe==0.10.14 in a Python 3.11 venv; the solutions API, static_image_mode=True,
    /// model_complexity=1):
    ///   cd ../shared/images && python Benchmarks/python/mediapipe_pose_reference.py pose person.jpg astronaut.png \
    ///       dog.jpg eagle.jpg giraffe.jpg horses.jpg > Tests/Fixtures/MediaPipe/pose-reference.json
    struct Reference: Decodable {
        struct Entry: Decodable {
            var width: Int
            var height: Int
            var landmarks: [[Double]]?
        }
        var generator: String
        var images: [String: Entry]
    }

    static let reference: Reference = {
        let url = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/MediaPipe/pose-reference.json")
        // A missing or broken fixture is a test failure, reported by the tests that use it.
        guard let data = try? Data(contentsOf: url), let decoded = try? JSONDecoder().decode(Reference.self, from: data)
        else {
            return Reference(generator: "missing \(url.path)", images: [:])
        }
        return decoded
    }()

    /// Mean distance between our landmarks and MediaPipe's, as a fraction of the image diagonal: all 33, or
    /// only those MediaPipe sees (visibility ≥ `minimumVisibility`).
    static func meanError(
        _ pose: HumanBodyPoseObservation, _ expected: [[Double]], width: Int, height: Int,
        minimumVisibility: Double = 0
    ) -> Double {
        let w = Double(width)
        let h = Double(height)
        var total = 0.0
        var count = 0
        for (ours, theirs) in zip(pose.landmarks, expected) where theirs[2] >= minimumVisibility {
            let p = ours.pixelLocation(width: width, height: height)
            total += hypot(p.x - theirs[0] * w, p.y - theirs[1] * h)
            count += 1
        }
        return total / Double(max(count, 1)) / hypot(w, h)
    }

    @Test(arguments: ["person.jpg", "astronaut.png"])
    func jointsMatchMediaPipe(_ name: String) async throws {
        let entry = try #require(Self.reference.images[name], "\(Self.reference.generator)")
        let expected = try #require(entry.landmarks)
        let poses = try await DetectHumanBodyPoseRequest().perform(on: Fixtures.sharedImage(name))
        #expect(poses.count == 1, "\(name): \(poses.count) poses")
        let pose = try #require(poses.first)
        #expect(pose.landmarks.count == 33 && expected.count == 33)
        let error = Self.meanError(pose, expected, width: entry.width, height: entry.height)
        #expect(error <= 0.01, "\(name): mean landmark error \(error * 100)% of the diagonal")
        // Visibility is MediaPipe's too.
        let visibilityError = zip(pose.landmarks, expected).map { abs(Double($0.confidence) - $1[2]) }.reduce(0, +) / 33
        #expect(visibilityError < 0.05, "\(name): mean visibility difference \(visibilityError)")
        #expect(pose.confidence >= 0.5 && pose.confidence <= 1)
    }

    /// Photos without people (as MediaPipe finds none): empty results, not errors.
    @Test(arguments: ["dog.jpg", "eagle.jpg", "giraffe.jpg", "horses.jpg"])
    func noPersonGivesNoPose(_ name: String) async throws {
        let entry = try #require(Self.reference.images[name], "\(Self.reference.generator)")
        #expect(entry.landmarks == nil)
        #expect(try await DetectHumanBodyPoseRequest().perform(on: Fixtures.sharedImage(name)).isEmpty)
    }

    /// Vision's joints: names, groups, and neck and root as the midpoints of shoulders and hips.
    @Test func visionJointsAndGroups() async throws {
        let pose = try #require(
            try await DetectHumanBodyPoseRequest().perform(on: Fixtures.sharedImage("person.jpg")).first)
        #expect(pose.availableJointNames.count == 19)
        #expect(Set(pose.allRecognizedPoints.keys) == Set(HumanBodyPoseObservation.JointName.allCases.map(\.rawValue)))
        let arm = pose.recognizedPoints(.leftArm)
        #expect(Set(arm.keys) == [.leftShoulder, .leftElbow, .leftWrist])
        #expect(arm[.leftWrist]?.location == pose.landmark(.leftWrist).location)
        #expect(pose.recognizedPoints(.all).count == 19)
        #expect(pose.recognizedPoints(.torso).count == 6)
        let l = pose.landmark(.leftShoulder).location
        let r = pose.landmark(.rightShoulder).location
        let neck = pose.recognizedPoint(.neck)
        #expect(abs(neck.location.x - (l.x + r.x) / 2) < 1e-12 && abs(neck.location.y - (l.y + r.y) / 2) < 1e-12)
        #expect(
            neck.confidence == min(pose.landmark(.leftShoulder).confidence, pose.landmark(.rightShoulder).confidence))
        let root = pose.recognizedPoint(.root)
        #expect(
            abs(root.location.y - (pose.landmark(.leftHip).location.y + pose.landmark(.rightHip).location.y) / 2)
                < 1e-12)
        // Upright person: the nose is above the neck, the neck above the root (lower-left origin).
        #expect(pose.recognizedPoint(.nose).location.y > neck.location.y && neck.location.y > root.location.y)
        #expect(pose.landmark(.rightFootIndex).identifier == "rightFootIndex")
    }

    /// An image smaller than both model inputs (224 and 256): the same pose, in normalised coordinates,
    /// within 2% of the diagonal of MediaPipe's on the full-size image for the landmarks it sees (the
    /// astronaut's arms and legs are out of the frame, where a 120 px image moves the guesses a lot).
    @Test func imageSmallerThanTheModelInput() async throws {
        let entry = try #require(Self.reference.images["astronaut.png"])
        let expected = try #require(entry.landmarks)
        let small = try VisionImage(contentsOf: Fixtures.sharedImage("astronaut.png")).resized(width: 120, height: 120)
        let pose = try #require(try await ImageRequestHandler(image: small).perform(DetectHumanBodyPoseRequest()).first)
        let error = Self.meanError(pose, expected, width: 120, height: 120, minimumVisibility: 0.5)
        #expect(error <= 0.02, "mean landmark error \(error * 100)% of the diagonal")
    }

    /// A region of interest: the pose is found in the region and reported relative to it.
    @Test func regionOfInterest() async throws {
        let entry = try #require(Self.reference.images["person.jpg"])
        let expected = try #require(entry.landmarks)
        var request = DetectHumanBodyPoseRequest()
        request.regionOfInterest = NormalizedRect(x: 0.1, y: 0.05, width: 0.6, height: 0.9)
        let pose = try #require(try await request.perform(on: Fixtures.sharedImage("person.jpg")).first)
        let nose = pose.landmark(.nose).location.toFullImage(fromRegionOfInterest: request.regionOfInterest)
        let (w, h) = (Double(entry.width), Double(entry.height))
        #expect(hypot((nose.x - expected[0][0]) * w, (1 - nose.y - expected[0][1]) * h) < 0.02 * hypot(w, h))
    }

    @Test func badOptionsAreInvalidArgument() async throws {
        var request = DetectHumanBodyPoseRequest()
        request.maximumBodyCount = 0
        await #expect(throws: VisionError.self) { try await request.perform(on: Fixtures.sharedImage("person.jpg")) }
        do {
            _ = try await request.perform(on: Fixtures.sharedImage("person.jpg"))
        } catch {
            #expect(error.code == .invalidArgument)
        }
    }

    /// The report and the overlay: 19 joints and 33 landmarks per pose; a skeleton of Vision's pairs.
    @Test func reportAndOverlay() async throws {
        let poses = try await DetectHumanBodyPoseRequest().perform(on: Fixtures.sharedImage("person.jpg"))
        var report = AnalysisReport(image: "person.jpg", width: 640, height: 424)
        poses.add(to: &report)
        let entry = try #require(report.bodyPoses?.first)
        #expect(entry.joints.map(\.name) == HumanBodyPoseObservation.JointName.allCases.map(\.rawValue))
        #expect(entry.landmarks.count == 33)
        let nose = try #require(entry.joints.first { $0.name == "nose" })
        #expect(abs(nose.point.pixels.x - nose.point.normalized.x * 640) < 1e-9)
        let lines = poses.overlayItems.filter { if case .polygon = $0.shape { true } else { false } }
        #expect(lines.count >= 10 && lines.count <= HumanBodyPoseObservation.skeletonPairs.count)
    }
}
