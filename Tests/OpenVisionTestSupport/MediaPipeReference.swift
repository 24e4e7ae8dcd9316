import Foundation

/// What MediaPipe Python 0.10.14 finds on the hand and face test images (`Tests/Fixtures/MediaPipe/reference.json`,
/// written with the rendered hand images by
/// `/work/.venv-mp/bin/python Benchmarks/python/mediapipe_reference.py ../shared/images Tests/Fixtures/MediaPipe`).
/// Points are MediaPipe's: normalised, top-left origin.
public struct MediaPipeReference: Decodable, Sendable {
    public struct Hand: Decodable, Sendable {
        /// MediaPipe's handedness label ("Left" / "Right", for a mirrored image) and its score.
        public var label: String
        public var score: Double
        /// 21 × [x, y, z].
        public var landmarks: [[Double]]
    }

    public struct Face: Decodable, Sendable {
        public var score: Double
        /// [xmin, ymin, width, height].
        public var box: [Double]
        /// 6 × [x, y].
        public var keypoints: [[Double]]
    }

    public struct Image: Decodable, Sendable {
        public var width: Int
        public var height: Int
        /// "lite" (model_complexity 0), "full" (1).
        public var hands: [String: [Hand]]
        /// "short" (model_selection 0), "full" (1).
        public var faces: [String: [Face]]
    }

    public var mediapipe: String
    public var images: [String: Image]

    public static let directory = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/MediaPipe")

    public static func load() throws -> MediaPipeReference {
        try JSONDecoder().decode(
            MediaPipeReference.self, from: Data(contentsOf: directory.appendingPathComponent("reference.json")))
    }

    /// A test image: the rendered ones in the fixtures folder, the photos in ../shared/images.
    public static func imageURL(_ name: String) -> URL {
        let local = directory.appendingPathComponent(name)
        return FileManager.default.fileExists(atPath: local.path) ? local : Fixtures.sharedImage(name)
    }
}
