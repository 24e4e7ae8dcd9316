import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

@Suite struct FaceTests {
    static let astronaut = Fixtures.sharedImage("astronaut.png")

    // Reference values from dlib 19.24 itself (C++: frontal_face_detector with pyramid_up once, and
    // shape_predictor_68_face_landmarks.dat on the same 210×210 image), pixels, top-left origin:
    //   face box (56.6, 56.7, 89.4, 89.6) score 1.20; point 30 (nose tip) (105, 107); 8 (chin) (100, 158);
    //   36 (image-left eye corner) (75, 81); 45 (image-right eye corner) (135, 84); 48/54 mouth (80, 119)/(126, 121).
    static let referenceBox = CGRect(x: 56.6, y: 56.7, width: 89.4, height: 89.6)

    @Test func findsTheAstronautsFace() async throws {
        let handler = ImageRequestHandler(Self.astronaut)
        let faces = try await handler.perform(DetectFaceRectanglesRequest(.hog))
        #expect(faces.count == 1)
        let face = try #require(faces.first)
        let box = face.boundingBox.toImageCoordinates(try handler.image().size, origin: .upperLeft)
        #expect(abs(box.minX - Self.referenceBox.minX) < 2 && abs(box.minY - Self.referenceBox.minY) < 2, "\(box)")
        #expect(
            abs(box.width - Self.referenceBox.width) < 2 && abs(box.height - Self.referenceBox.height) < 2, "\(box)")
        #expect(face.confidence > 0.9)
    }

    @Test func landmarksLandOnTheFace() async throws {
        let handler = ImageRequestHandler(Self.astronaut)
        let faces = try await handler.perform(DetectFaceLandmarksRequest(.dlib))
        let face = try #require(faces.first)
        let landmarks = try #require(face.landmarks)
        let size = try handler.image().size
        #expect(landmarks.allPoints.pointCount == 68)
        let all = landmarks.allPoints.pointsInImage(imageSize: size, origin: .upperLeft)
        func near(_ index: Int, _ x: Double, _ y: Double, _ tolerance: Double = 3) {
            #expect(
                hypot(all[index].x - x, all[index].y - y) < tolerance, "point \(index): \(all[index]) vs (\(x), \(y))")
        }
        near(30, 105, 107)
        near(8, 100, 158)
        near(36, 75, 81)
        near(45, 135, 84)
        near(48, 80, 119)
        near(54, 126, 121)
        // Regions: the subject's left eye is on the image's right; pupils lie inside their eyes; the
        // nose is between the eyes and above the mouth (lower-left origin: larger y is higher).
        let leftPupil = try #require(landmarks.leftPupil.pointsNormalizedToImage.first)
        let rightPupil = try #require(landmarks.rightPupil.pointsNormalizedToImage.first)
        #expect(leftPupil.x > rightPupil.x)
        let leftEyeBox = NormalizedRect(boundingPoints: landmarks.leftEye.pointsNormalizedToImage)
        #expect(leftEyeBox.minX <= leftPupil.x && leftPupil.x <= leftEyeBox.maxX)
        let noseTip = landmarks.noseCrest.pointsNormalizedToImage.last!
        let mouth = NormalizedRect(boundingPoints: landmarks.outerLips.pointsNormalizedToImage)
        #expect(noseTip.y > mouth.maxY && noseTip.y < leftPupil.y)
        #expect(
            landmarks.faceContour.pointCount == 17 && landmarks.outerLips.pointCount == 12
                && landmarks.innerLips.pointCount == 8)
        // Points are normalised to the face box (Vision's convention).
        #expect(
            landmarks.allPoints.normalizedPoints.allSatisfy { $0.x > -0.2 && $0.x < 1.2 && $0.y > -0.2 && $0.y < 1.2 })
        // The astronaut's head is nearly level: roll within 10°.
        #expect(abs(try #require(face.roll)) < 10 * .pi / 180)
    }

    @Test func landmarksForGivenFaces() async throws {
        let handler = ImageRequestHandler(Self.astronaut)
        let faces = try await handler.perform(DetectFaceRectanglesRequest(.hog))
        let withLandmarks = try await handler.perform(DetectFaceLandmarksRequest(.dlib, inputFaceObservations: faces))
        #expect(withLandmarks.count == 1)
        #expect(withLandmarks.first?.uuid == faces.first?.uuid)
        #expect(withLandmarks.first?.landmarks?.allPoints.pointCount == 68)
    }

    @Test(arguments: [ImageOrientation.right, .down, .leftMirrored])
    func sameFaceInEveryOrientation(_ orientation: ImageOrientation) async throws {
        let upright = try VisionImage(contentsOf: Self.astronaut)
        let stored = try upright.oriented(Fixtures.inverse(orientation)).encoded(as: .png)
        let faces = try await ImageRequestHandler(data: stored, orientation: orientation).perform(
            DetectFaceRectanglesRequest(.hog))
        let box = try #require(faces.first).boundingBox.toImageCoordinates(upright.size, origin: .upperLeft)
        // Mirrored images give a mirrored detector window: allow a few pixels.
        #expect(
            abs(box.midX - Self.referenceBox.midX) < 4 && abs(box.midY - Self.referenceBox.midY) < 4,
            "\(orientation): \(box)")
    }

    @Test(arguments: ["dog.jpg", "horses.jpg", "giraffe.jpg"])
    func noFacesInAnimalPhotos(_ name: String) async throws {
        let faces = try await ImageRequestHandler(Fixtures.sharedImage(name)).perform(DetectFaceRectanglesRequest(.hog))
        #expect(faces.isEmpty)
    }

    @Test func missingModelFile() async throws {
        var request = DetectFaceLandmarksRequest(.dlib)
        request.modelURL = URL(fileURLWithPath: "/nonexistent/shape_predictor_68_face_landmarks.dat")
        do {
            _ = try await ImageRequestHandler(Self.astronaut).perform(request)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .missingModelData)
            #expect(error.message.contains("/nonexistent/shape_predictor_68_face_landmarks.dat"))
        }
    }

    @Test func corruptModelFile() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ov-corrupt-\(UUID()).dat")
        try Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var request = DetectFaceLandmarksRequest(.dlib)
        request.modelURL = url
        do {
            _ = try await ImageRequestHandler(Self.astronaut).perform(request)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidModel)
        }
    }
}
