import Foundation
import OpenVisionTestSupport
import Testing

@testable import OpenVision

/// `DetectHumanBodyPose3DRequest` and `GeneratePersonInstanceMaskRequest` (MediaPipe's pose_detection +
/// pose_landmark_full TFLite files, converted to ONNX: the landmark model's world landmarks and segmentation)
/// against MediaPipe Python 0.10.14 running the same files, on the shared photos.
@Suite struct BodyPose3DTests {
    /// MediaPipe's world landmarks (x, y, z metres, hip-centred, y down; visibility), image landmarks (x, y
    /// normalised, top-left origin) and segmentation mask (thresholded at 0.5, run-length encoded) per image; nil:
    /// no pose. Made with (mediapipe==0.10.14 in a Python 3.11 venv; the solutions API, static_image_mode=True,
    /// model_complexity=1, enable_segmentation=True):
    ///   cd ../shared/images && python Benchmarks/python/mediapipe_pose_reference.py world person.jpg astronaut.png \
    ///       dog.jpg > Tests/Fixtures/MediaPipe/pose-world-reference.json
    struct Reference: Decodable {
        struct Mask: Decodable {
            var rle: [Int]
            var foreground: Double
        }
        struct Entry: Decodable {
            var width: Int
            var height: Int
            var world: [[Double]]?
            var landmarks: [[Double]]?
            var mask: Mask?
        }
        var generator: String
        var images: [String: Entry]
    }

    static let reference: Reference = {
        let url = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/MediaPipe/pose-world-reference.json")
        guard let data = try? Data(contentsOf: url), let decoded = try? JSONDecoder().decode(Reference.self, from: data)
        else {
            return Reference(generator: "missing \(url.path)", images: [:])
        }
        return decoded
    }()

    /// Mean distance in millimetres between our world landmarks and MediaPipe's, over all 33.
    static func meanWorldError(_ pose: HumanBodyPose3DObservation, _ expected: [[Double]]) -> Double {
        zip(pose.worldLandmarks, expected).map { ours, theirs in
            let d = ours - SIMD3(theirs[0], theirs[1], theirs[2])
            return (d * d).sum().squareRoot() * 1000
        }.reduce(0, +) / Double(expected.count)
    }

    @Test(arguments: ["person.jpg", "astronaut.png"])
    func worldLandmarksMatchMediaPipe(_ name: String) async throws {
        let entry = try #require(Self.reference.images[name], "\(Self.reference.generator)")
        let expected = try #require(entry.world)
        let poses = try await DetectHumanBodyPose3DRequest().perform(on: Fixtures.sharedImage(name))
        #expect(poses.count == 1, "\(name): \(poses.count) poses")
        let pose = try #require(poses.first)
        #expect(pose.worldLandmarks.count == 33 && expected.count == 33)
        let error = Self.meanWorldError(pose, expected)
        #expect(error <= 5, "\(name): mean world landmark error \(error) mm")
        // Vision's joints are MediaPipe's landmarks in Vision's axes, relative to the hips' midpoint, scaled.
        let root =
            (SIMD3(expected[23][0], expected[23][1], expected[23][2])
                + SIMD3(expected[24][0], expected[24][1], expected[24][2])) / 2
        var jointError = 0.0
        for joint in HumanBodyPose3DObservation.JointName.allCases {
            guard let l = joint.landmark else { continue }
            let e =
                (SIMD3(expected[l.rawValue][0], expected[l.rawValue][1], expected[l.rawValue][2]) - root)
                * pose.worldScale
            let p = pose.position(joint)
            let d = SIMD3(Double(p.x) - e.x, Double(p.y) + e.y, Double(p.z) + e.z)
            jointError += (d * d).sum().squareRoot() * 1000 / 12
        }
        #expect(jointError <= 8, "\(name): mean joint error \(jointError) mm")
        // The image points are the 2D landmarks'.
        let landmarks = try #require(entry.landmarks)
        let wrist = pose.pointInImage(.leftWrist)
        #expect(
            hypot(
                (wrist.x - landmarks[15][0]) * Double(entry.width),
                (1 - wrist.y - landmarks[15][1]) * Double(entry.height))
                < 0.01 * hypot(Double(entry.width), Double(entry.height)))
    }

    /// Vision's skeleton: 17 joints, the root at the origin, local positions relative to the parents, the reference
    /// height, the head above the root, the camera in front of the person.
    @Test func skeletonHeightAndCamera() async throws {
        let pose = try #require(
            try await DetectHumanBodyPose3DRequest().perform(on: Fixtures.sharedImage("person.jpg")).first)
        #expect(pose.availableJointNames.count == 17)
        #expect(pose.recognizedPoints(.all).count == 17 && pose.recognizedPoints(.torso).count == 7)
        #expect(Set(pose.recognizedPoints(.leftArm).keys) == [.leftShoulder, .leftElbow, .leftWrist])
        #expect(pose.recognizedPoint(.root).position == .identity)
        #expect(pose.recognizedPoint(.root).parentJoint == nil && pose.parentJointName(.leftWrist) == .leftElbow)
        for joint in HumanBodyPose3DObservation.JointName.allCases {
            let point = pose.recognizedPoint(joint)
            if let parent = joint.parent {
                let expected = point.position.translation - pose.recognizedPoint(parent).position.translation
                #expect(
                    ((point.localPosition.translation - expected) * (point.localPosition.translation - expected)).sum()
                        < 1e-10)
            }
        }
        #expect(pose.bodyHeight == 1.8 && pose.heightEstimation == .reference)
        // The skeleton's straightened height is the reference height.
        let top = pose.position(.topHead)
        let head = pose.position(.centerHead)
        #expect(top.y > head.y && head.y > pose.position(.centerShoulder).y && pose.position(.centerShoulder).y > 0)
        #expect(pose.position(.leftAnkle).y < -0.5 && pose.position(.leftAnkle).y > -1.2)
        // The camera is in front (+z) a few metres away, and sees the root at the hips' image point.
        let camera = pose.cameraOriginMatrix.translation
        #expect(camera.z > 1 && camera.z < 20, "camera at \(camera)")
        let relative = pose.cameraRelativePosition(.root).translation
        #expect(relative.z < 0 && abs(relative.z + camera.z) < 1e-5)
        let rootPoint = pose.pointInImage(.root)
        let topPoint = pose.pointInImage(.topHead)
        #expect(topPoint.y > pose.pointInImage(.centerHead).y && pose.pointInImage(.centerHead).y > rootPoint.y)
        #expect(topPoint.y < 1 && topPoint.y > 0.5)
    }

    @Test func noPersonGivesNoPose() async throws {
        #expect(try await DetectHumanBodyPose3DRequest().perform(on: Fixtures.sharedImage("dog.jpg")).isEmpty)
        #expect(try await GeneratePersonInstanceMaskRequest().perform(on: Fixtures.sharedImage("dog.jpg")) == nil)
    }

    /// The person's instance mask against MediaPipe's pose segmentation mask on the same file (IoU), one instance.
    @Test(arguments: ["person.jpg", "astronaut.png"])
    func instanceMaskMatchesMediaPipe(_ name: String) async throws {
        let entry = try #require(Self.reference.images[name], "\(Self.reference.generator)")
        let expected = PersonSegmentationTests.decode(try #require(entry.mask).rle)
        let observation = try #require(
            try await GeneratePersonInstanceMaskRequest().perform(on: Fixtures.sharedImage(name)))
        #expect(observation.allInstances == IndexSet([1]))
        #expect(observation.instanceMask.width == entry.width && observation.instanceMask.height == entry.height)
        let mask = try observation.generateMask(forInstances: [1])
        let iou = PersonSegmentationTests.iou(mask, expected)
        #expect(iou >= 0.98, "\(name): IoU \(iou)")
        let soft = try observation.generateScaledMaskForImage(forInstances: [1])
        #expect(zip(soft.values, mask.values).allSatisfy { s, m in m == 1 ? s >= 0.5 && s <= 1 : s == 0 })
        #expect(throws: VisionError.self) { try observation.generateMask(forInstances: [2]) }
    }

    /// The middle of person.jpg (x 64 to 384 of 640: the whole image is too wide for the detector once doubled)
    /// beside its mirror image: two people, each in its half, both masks together like MediaPipe's on person.jpg
    /// and its mirror.
    @Test func twoPeopleAreTwoInstances() async throws {
        let entry = try #require(Self.reference.images["person.jpg"])
        let full = PersonSegmentationTests.decode(try #require(entry.mask).rle)
        let half = try VisionImage(contentsOf: Fixtures.sharedImage("person.jpg")).cropped(
            to: NormalizedRect(x: 0.1, y: 0, width: 0.5, height: 1))
        let image = try Self.besideItsMirror(half)
        let observation = try #require(
            try await ImageRequestHandler(image: image).perform(GeneratePersonInstanceMaskRequest()))
        #expect(observation.allInstances == IndexSet([1, 2]))
        let (w, h, x0) = (half.width, half.height, 64)
        #expect(w == 320 && h == entry.height)
        // Each instance lies in one half; both halves together are MediaPipe's mask and its mirror.
        var twice = [Bool](repeating: false, count: 2 * w * h)
        for y in 0..<h {
            for x in 0..<w where full[y * entry.width + x0 + x] {
                twice[y * 2 * w + x] = true
                twice[y * 2 * w + (2 * w - 1 - x)] = true
            }
        }
        let both = try observation.generateMask(forInstances: [1, 2])
        #expect(PersonSegmentationTests.iou(both, twice) >= 0.93)
        for instance in [1, 2] {
            let mask = try observation.generateMask(forInstances: [instance])
            var left = 0
            var right = 0
            for y in 0..<h {
                for x in 0..<(2 * w) where mask.values[y * 2 * w + x] > 0 { if x < w { left += 1 } else { right += 1 } }
            }
            #expect(min(left, right) * 50 < max(left, right), "instance \(instance): \(left) px left, \(right) right")
        }
        let masked = try observation.generateMaskedImage(ofInstances: [1], from: image, croppedToInstancesExtent: true)
        #expect(masked.width < w && masked.height < h)
        var report = AnalysisReport(image: "two.png", width: 2 * w, height: h)
        GeneratePersonInstanceMaskRequest().reportable(observation).add(to: &report)
        #expect(report.personInstances?.instances.map(\.index) == [1, 2])
        #expect(report.personInstances?.mask.width == 2 * w)
    }

    /// Bad input: a tiny image, a person cut by the image's edge, a blank image: no crash, results or nothing.
    @Test func badInput() async throws {
        let person = try VisionImage(contentsOf: Fixtures.sharedImage("person.jpg"))
        for image in [
            try person.resized(width: 8, height: 6),
            try person.cropped(to: NormalizedRect(x: 0.3, y: 0.2, width: 0.4, height: 0.5)),
            try person.cropped(to: NormalizedRect(x: 0, y: 0.6, width: 1, height: 0.4)),
        ] {
            let handler = ImageRequestHandler(image: image)
            let poses = try await handler.perform(DetectHumanBodyPose3DRequest())
            for pose in poses {
                #expect(pose.bodyHeight == 1.8)
                #expect(
                    HumanBodyPose3DObservation.JointName.allCases.allSatisfy { j in
                        let p = pose.position(j)
                        return p.x.isFinite && p.y.isFinite && p.z.isFinite
                    })
            }
            if let mask = try await handler.perform(GeneratePersonInstanceMaskRequest()) {
                #expect(mask.allInstances.count <= 4 && mask.instanceMask.width == image.width)
            }
        }
        // Observations built from bad values are refused with invalidArgument.
        #expect(
            Self.invalidArgument {
                _ = try HumanBodyPose3DObservation(
                    worldLandmarks: [], imageLandmarks: [], imageWidth: 10,
                    imageHeight: 10, confidence: 1)
            })
        #expect(
            Self.invalidArgument {
                _ = try InstanceMaskObservation(width: 2, height: 1, labels: [0, 1.5], probabilities: [0, 1])
            })
        #expect(
            Self.invalidArgument {
                _ = try InstanceMaskObservation(width: 2, height: 1, labels: [0, 1], probabilities: [0])
            })
        var request = DetectHumanBodyPose3DRequest()
        request.maximumBodyCount = 0
        await #expect(throws: VisionError.self) { try await request.perform(on: Fixtures.sharedImage("person.jpg")) }
    }

    /// True when `body` throws `invalidArgument`.
    static func invalidArgument(_ body: () throws -> Void) -> Bool {
        do {
            try body()
            return false
        } catch {
            return (error as? VisionError)?.code == .invalidArgument
        }
    }

    /// `image` with its mirror image to its right.
    static func besideItsMirror(_ image: VisionImage) throws -> VisionImage {
        let (w, h) = (image.width, image.height)
        let rgb = [UInt8](image.rgbData())
        var out = [UInt8](repeating: 0, count: 2 * w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<3 {
                    out[(y * 2 * w + x) * 3 + c] = rgb[(y * w + x) * 3 + c]
                    out[(y * 2 * w + 2 * w - 1 - x) * 3 + c] = rgb[(y * w + x) * 3 + c]
                }
            }
        }
        return try VisionImage(pixels: PixelBuffer(data: Data(out), width: 2 * w, height: h, format: .rgb8))
    }
}
