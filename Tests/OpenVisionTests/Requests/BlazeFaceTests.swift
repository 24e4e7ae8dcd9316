import Foundation
import OpenVisionTestSupport
import Testing

@testable import OpenVision

/// `DetectFaceRectanglesRequest`'s BlazeFace revisions against MediaPipe Python 0.10.14
/// (`mp.solutions.face_detection`, model_selection 0 = short range, 1 = full range) on the same images and model
/// files. Reference: `/work/.venv-mp/bin/python Benchmarks/python/mediapipe_reference.py ../shared/images Tests/Fixtures/MediaPipe`.
@Suite struct BlazeFaceTests {
    static let reference = Result { try MediaPipeReference.load() }

    static func iou(_ a: CGRect, _ b: CGRect) -> Double {
        let i = a.intersection(b)
        guard !i.isNull, i.width > 0, i.height > 0 else { return 0 }
        return Double(i.width * i.height) / Double(a.width * a.height + b.width * b.height - i.width * i.height)
    }

    /// Every image, both ranges: the same faces (the short-range model's false positives on the rendered hands
    /// included), boxes IoU ≥ 0.9, scores ± 0.02, the 6 keypoints within 1% of the diagonal on average.
    @Test(
        arguments: ["astronaut.png", "person.jpg", "hand-single.jpg", "hands-two.jpg", "hand-small.jpg"],
        [DetectFaceRectanglesRequest.Revision.blazeFaceShortRange, .blazeFaceFullRange])
    func facesMatchMediaPipe(_ name: String, _ revision: DetectFaceRectanglesRequest.Revision) async throws {
        let reference = try #require(try Self.reference.get().images[name])
        let expected = try #require(reference.faces[revision == .blazeFaceShortRange ? "short" : "full"])
        let faces = try await ImageRequestHandler(MediaPipeReference.imageURL(name)).perform(
            DetectFaceRectanglesRequest(revision))
        #expect(faces.count == expected.count, "\(name) \(revision): \(faces.count) faces, MediaPipe \(expected.count)")
        let (w, h) = (Double(reference.width), Double(reference.height))
        for theirs in expected {
            let theirBox = CGRect(
                x: theirs.box[0] * w, y: theirs.box[1] * h, width: theirs.box[2] * w, height: theirs.box[3] * h)
            let ours = try #require(
                faces.max {
                    Self.iou(
                        $0.boundingBox.toImageCoordinates(CGSize(width: w, height: h), origin: .upperLeft), theirBox)
                        < Self.iou(
                            $1.boundingBox.toImageCoordinates(CGSize(width: w, height: h), origin: .upperLeft), theirBox
                        )
                })
            let box = ours.boundingBox.toImageCoordinates(CGSize(width: w, height: h), origin: .upperLeft)
            #expect(Self.iou(box, theirBox) >= 0.9, "\(name) \(revision): \(box) vs \(theirBox)")
            #expect(
                abs(Double(ours.confidence) - theirs.score) < 0.02, "\(name): \(ours.confidence) vs \(theirs.score)")
            let points = try #require(ours.landmarks).allPoints.pointsInImage(
                imageSize: CGSize(width: w, height: h), origin: .upperLeft)
            #expect(points.count == 6)
            let mean =
                zip(points, theirs.keypoints).map { hypot(Double($0.x) - $1[0] * w, Double($0.y) - $1[1] * h) }.reduce(
                    0, +) / 6
            #expect(mean <= 0.01 * hypot(w, h), "\(name): keypoints \(mean) px off")
        }
    }

    @Test func coarseLandmarksAndRoll() async throws {
        let face = try #require(
            try await ImageRequestHandler(Fixtures.sharedImage("astronaut.png"))
                .perform(DetectFaceRectanglesRequest(.blazeFaceFullRange)).first)
        let l = try #require(face.landmarks)
        #expect(
            l.leftPupil.pointCount == 1 && l.rightPupil.pointCount == 1 && l.nose.pointCount == 1
                && l.innerLips.pointCount == 0)
        // The subject's right eye is on the image's left; the nose is between the eyes and above the mouth.
        let size = CGSize(width: 210, height: 210)
        let right = l.rightPupil.pointsInImage(imageSize: size, origin: .upperLeft)[0]
        let left = l.leftPupil.pointsInImage(imageSize: size, origin: .upperLeft)[0]
        let nose = l.nose.pointsInImage(imageSize: size, origin: .upperLeft)[0]
        let mouth = l.outerLips.pointsInImage(imageSize: size, origin: .upperLeft)[0]
        #expect(right.x < nose.x && nose.x < left.x && nose.y < mouth.y)
        #expect(abs(try #require(face.roll)) < 10 * .pi / 180)
    }

    /// The astronaut turned 90° on a giraffe photo: BlazeFace full range finds the face, dlib's HOG frontal detector
    /// (which tolerates some roll: it finds the face turned 45°) does not.
    @Test func findsRotatedFacesTheHOGDetectorMisses() async throws {
        let astronaut = try VisionImage(contentsOf: Fixtures.sharedImage("astronaut.png"))
        var canvas = try ImageCanvas(copying: try VisionImage(contentsOf: Fixtures.sharedImage("giraffe.jpg")))
        try Fixtures.paste(astronaut, on: &canvas, x: 60, y: 60, degrees: 90)
        let image = canvas.makeImage()
        // The face box (55, 50, 100, 98) of astronaut.png, turned 90° counter-clockwise about the image centre (105, 105)
        // and moved by (60, 60): its centre (105, 99) goes to (60 + 105 − 6, 60 + 105) = (159, 165), its sides swap.
        let truth = CGRect(x: 159 - 49, y: 165 - 50, width: 98, height: 100)
        let size = image.size
        let blaze = try await ImageRequestHandler(image: image).perform(
            DetectFaceRectanglesRequest(.blazeFaceFullRange))
        #expect(
            blaze.contains { Self.iou($0.boundingBox.toImageCoordinates(size, origin: .upperLeft), truth) >= 0.5 },
            "\(blaze.map(\.boundingBox))")
        let hog = try await ImageRequestHandler(image: image).perform(DetectFaceRectanglesRequest(.hog))
        #expect(!hog.contains { Self.iou($0.boundingBox.toImageCoordinates(size, origin: .upperLeft), truth) >= 0.5 })
    }

    @Test(arguments: [1, 5, 100])
    func smallImagesWork(_ side: Int) async throws {
        let image = try VisionImage(contentsOf: Fixtures.sharedImage("astronaut.png")).resized(
            width: side, height: side)
        for revision in [DetectFaceRectanglesRequest.Revision.blazeFaceShortRange, .blazeFaceFullRange] {
            let faces = try await ImageRequestHandler(image: image).perform(DetectFaceRectanglesRequest(revision))
            // 100 px: the face is still there; 1 and 5 px: nothing to find.
            #expect(side == 100 ? faces.count == 1 : faces.isEmpty, "\(side) px \(revision): \(faces.count)")
        }
    }

    @Test func revisionsByName() {
        #expect(DetectFaceRectanglesRequest.Revision(name: "hog") == .hog)
        #expect(DetectFaceRectanglesRequest.Revision(name: "BlazeFace-Full") == .blazeFaceFullRange)
        #expect(DetectFaceRectanglesRequest.Revision(name: "2") == .blazeFaceShortRange)
        #expect(DetectFaceRectanglesRequest.Revision(name: "revision3") == .blazeFaceFullRange)
        #expect(DetectFaceRectanglesRequest.Revision(name: "cnn") == nil)
        #expect(DetectFaceRectanglesRequest().revision == DetectFaceRectanglesRequest.Revision.defaultRevision)
        #expect(DetectFaceRectanglesRequest.Revision.supportedRevisions.count == 3)
    }

    /// The tiles the face mesh's detector adds: none on images under 4/3 of 256 px; on 1200 × 1200, squares of 600
    /// (3 × 3) and 300 (7 × 7) overlapping by half, inside the image and covering it; on 500 × 375, 256-px tiles (3 × 2);
    /// on a 4000 × 3000 photo at most 64 (the finest level that fits the budget is the last).
    @Test func tilesCoverTheImageLevelByLevel() {
        #expect(BlazeFaceDetector.tiles(width: 210, height: 210).isEmpty)
        #expect(BlazeFaceDetector.tiles(width: 300, height: 340).isEmpty)
        let big = BlazeFaceDetector.tiles(width: 1200, height: 1200)
        #expect(big.count == 9 + 49)
        #expect(Set(big.map(\.width)) == [600, 300])
        for side in [600.0, 300.0] {
            let level = big.filter { $0.width == side }
            #expect(
                level.allSatisfy { $0.centerX - side / 2 >= 0 && $0.centerX + side / 2 <= 1200 && $0.rotation == 0 })
            #expect(level.map { $0.centerX + side / 2 }.max() == 1200 && level.map { $0.centerY - side / 2 }.min() == 0)
            // Overlap by half: neighbouring starts are half a tile apart.
            let xs = Set(level.map(\.centerX)).sorted()
            #expect(zip(xs, xs.dropFirst()).allSatisfy { $1 - $0 == side / 2 })
        }
        let voc = BlazeFaceDetector.tiles(width: 500, height: 375)
        #expect(voc.count == 6 && voc.allSatisfy { $0.width == 256 && $0.height == 256 })
        #expect(BlazeFaceDetector.tiles(width: 4000, height: 3000).count <= BlazeFaceDetector.maximumTiles)
    }

    /// A 6 × 6 grid of the astronaut's face at 100 px: BlazeFace on the whole 600-px image (128 × 128 input) finds
    /// none; with tiles (3 × 3 of 300 px) it finds all 36, one detection each, as dlib's HOG does.
    @Test func tilesFindTheFacesOfAGrid() throws {
        let astronaut = try VisionImage(contentsOf: Fixtures.sharedImage("astronaut.png"))
        let face = try astronaut.cropped(to: NormalizedRect(x: 0.19, y: 0.14, width: 0.67, height: 0.71))
            .resized(width: 100, height: 100)
        var canvas = try Fixtures.canvas(width: 600, height: 600)
        for i in 0..<6 {
            for j in 0..<6 { try Fixtures.paste(face, on: &canvas, x: Double(100 * i), y: Double(100 * j)) }
        }
        let grid = canvas.makeImage()
        let detector = try BlazeFaceDetector.installed(.short)
        #expect(try detector.detect(in: grid).isEmpty)
        let found = try detector.detectTiled(in: grid)
        #expect(found.count == 36)
        // One detection per cell, centred in it.
        let cells = Set(found.map { Int(($0.xMin + $0.xMax) / 2 * 6) * 6 + Int(($0.yMin + $0.yMax) / 2 * 6) })
        #expect(cells.count == 36)
        #expect(try DetectFaceRectanglesRequest(.hog).perform(in: ImageAnalysisContext(image: grid)).count == 36)
        // A portrait (the astronaut at 1024 px: one face half the image wide) is not tiled, and stays one face.
        let portrait = try astronaut.resized(width: 1024, height: 1024)
        #expect(try detector.detectTiled(in: portrait).count == 1)
    }
}
