import Foundation

/// Vision's 76- and 65-point face landmark constellations read off MediaPipe's 468-point face mesh (and the iris
/// model's pupils).
///
/// How the tables were chosen: Apple documents the constellations' sizes (`allPoints` holds 76 or 65 points) and the
/// regions' names, not which point is where. Each region takes mesh points on the feature it names, evenly spread
/// along it, from the mesh's own feature loops (MediaPipe's `FACEMESH_FACE_OVAL`, `FACEMESH_LIPS`,
/// `FACEMESH_RIGHT_EYE`/`LEFT_EYE`, `FACEMESH_RIGHT_EYEBROW`/`LEFT_EYEBROW` connection sets and the mesh's mid-line
/// 168-6-195-1-2-0-13-14-17-175-152), with the region sizes of Vision's constellations as apps see them
/// (76: contour 17, eyebrows 6, eyes 8, outer lips 14, inner lips 6, nose 6, nose crest 3, a pupil each; median line
/// 10 points shared with the others; 65: contour 11, eyebrows 4, eyes 8, outer lips 10, inner lips 6, nose 6, nose
/// crest 3, median line 3, a pupil each). Every table is left–right symmetric: the subject's left regions are the
/// mirror images of the right ones point for point, and the contour, lips, nose and median line are their own
/// mirror images. The mirror pairs (`mirrorPairs`) were checked against the mesh model itself: each point's nearest
/// point on the mirrored image's mesh, mirrored back, over the shared photos and dlib's example faces
/// (Benchmarks/python/mediapipe_people_reference.py's `mirror` mode).
/// "Right" and "left" are the subject's: mesh point 33 (the outer corner of the eye on the image's left in a
/// frontal photo) is the subject's right eye.
enum FaceConstellation {
    /// A region's mesh indices (`pupilRight` / `pupilLeft` stand for the iris model's pupils) and how they connect.
    struct Table: Sendable {
        var faceContour: [Int]
        var rightEye: [Int]
        var leftEye: [Int]
        var rightEyebrow: [Int]
        var leftEyebrow: [Int]
        var nose: [Int]
        var noseCrest: [Int]
        var medianLine: [Int]
        var outerLips: [Int]
        var innerLips: [Int]
        /// `allPoints`' order: every point once.
        var all: [Int]
    }

    static let pupilRight = -1
    static let pupilLeft = -2

    /// 76 points: contour 17 (the subject's right ear → chin → left ear), eyebrows 6 (outer end → inner end along the
    /// top, then the inner end's lower corner), eyes 8 (outer corner, upper lid, inner corner, lower lid), outer lips
    /// 14 (right corner, upper lip, left corner, lower lip), inner lips 6, nose 6 (right ala, right nostril, base,
    /// left nostril, left ala, tip), nose crest 3 (between the eyes → above the tip), median line 10 (shared points
    /// from between the eyes to the chin), pupils 1 each.
    static let points76: Table = {
        let contour = [127, 234, 93, 132, 58, 172, 136, 150, 152, 379, 365, 397, 288, 361, 323, 454, 356]
        let rightEye = [33, 160, 159, 158, 133, 153, 145, 144]
        let leftEye = [263, 387, 386, 385, 362, 380, 374, 373]
        let rightBrow = [70, 63, 105, 66, 107, 55]
        let leftBrow = [300, 293, 334, 296, 336, 285]
        let outer = [61, 185, 40, 37, 0, 267, 270, 409, 291, 321, 314, 17, 84, 91]
        let inner = [78, 82, 13, 312, 308, 14]
        let nose = [98, 97, 2, 326, 327, 1]
        let crest = [168, 6, 195]
        let median = [168, 6, 195, 1, 2, 0, 13, 14, 17, 152]
        return Table(
            faceContour: contour, rightEye: rightEye, leftEye: leftEye, rightEyebrow: rightBrow, leftEyebrow: leftBrow,
            nose: nose, noseCrest: crest, medianLine: median, outerLips: outer, innerLips: inner,
            all: contour + rightBrow + leftBrow + rightEye + leftEye + outer + inner + nose + crest + [
                pupilRight, pupilLeft,
            ])
    }()

    /// 65 points: contour 11, eyebrows 4, eyes 8, outer lips 10 (no centre points), inner lips 6, nose 6, nose crest
    /// 3, median line 3 (upper lip centre, lower lip centre, chin), pupils 1 each.
    static let points65: Table = {
        let contour = [234, 93, 132, 58, 136, 152, 365, 288, 361, 323, 454]
        let rightEye = points76.rightEye
        let leftEye = points76.leftEye
        let rightBrow = [70, 63, 105, 107]
        let leftBrow = [300, 293, 334, 336]
        let outer = [61, 40, 37, 267, 270, 291, 321, 314, 84, 91]
        let inner = [78, 82, 312, 308, 317, 87]
        let nose = points76.nose
        let crest = points76.noseCrest
        let median = [0, 17, 175]
        return Table(
            faceContour: contour, rightEye: rightEye, leftEye: leftEye, rightEyebrow: rightBrow, leftEyebrow: leftBrow,
            nose: nose, noseCrest: crest, medianLine: median, outerLips: outer, innerLips: inner,
            all: rightBrow + leftBrow + rightEye + leftEye + outer + inner + contour + nose + crest + median
                + [pupilRight, pupilLeft])
    }()

    /// The mesh's left–right mirror pairs among the points the tables use; the others (on the mid-line) are their own
    /// mirror images.
    static let mirrorPairs: [(Int, Int)] = [
        (33, 263), (160, 387), (159, 386), (158, 385), (133, 362), (153, 380), (145, 374), (144, 373),
        (70, 300), (63, 293), (105, 334), (66, 296), (107, 336), (55, 285),
        (127, 356), (234, 454), (93, 323), (132, 361), (58, 288), (172, 397), (136, 365), (150, 379),
        (61, 291), (185, 409), (40, 270), (37, 267), (91, 321), (84, 314),
        (78, 308), (82, 312), (87, 317), (98, 327), (97, 326),
    ]

    private static let mirrorMap: [Int: Int] = {
        var map: [Int: Int] = [:]
        for (a, b) in mirrorPairs {
            map[a] = b
            map[b] = a
        }
        return map
    }()

    /// The mirror image of mesh point `i` (itself on the mid-line).
    static func mirror(_ i: Int) -> Int { mirrorMap[i] ?? i }

    /// Every mesh index the two tables use.
    static let usedMeshIndices: [Int] = Array(
        Set(
            (points76.all + points65.all + points76.medianLine + points65.medianLine)
                .filter { $0 >= 0 })
    ).sorted()
}
