internal import CNative
import Foundation
import Synchronization

/// A loaded dlib shape predictor. Loaded once per process per path and shared; the native
/// predictor is safe to use from several threads at once.
final class ShapePredictor: @unchecked Sendable {
    let handle: OpaquePointer
    let parts: Int

    private init(handle: OpaquePointer) {
        self.handle = handle
        self.parts = Int(ov_shape_predictor_parts(handle))
    }

    deinit { ov_shape_predictor_free(handle) }

    /// Debian's `libdlib-data` location of the 68-point model.
    static let defaultPath = "/usr/share/dlib/shape_predictor_68_face_landmarks.dat"

    /// The model path: `OPENVISION_FACE_LANDMARKS_MODEL` if set, else Debian's location.
    static var configuredPath: String {
        ProcessInfo.processInfo.environment["OPENVISION_FACE_LANDMARKS_MODEL"] ?? defaultPath
    }

    private static let cache = Mutex<[String: ShapePredictor]>([:])

    /// The predictor at `path`, loading it on first use (the 68-point model takes about a second).
    static func shared(path: String) throws(VisionError) -> ShapePredictor {
        let result = cache.withLock { cache -> Result<ShapePredictor, VisionError> in
            if let loaded = cache[path] { return .success(loaded) }
            guard FileManager.default.fileExists(atPath: path) else {
                return .failure(
                    VisionError(
                        .missingModelData,
                        "face landmark model not found at \(path); install Debian's libdlib-data (scripts/setup does) "
                            + "or set OPENVISION_FACE_LANDMARKS_MODEL"))
            }
            var handle: OpaquePointer?
            let status = ov_shape_predictor_load(path, &handle)
            guard status == OV_OK, let handle else {
                var error = NativeError.error(for: status, context: "cannot load face landmark model \(path)")
                error.code = .invalidModel
                return .failure(error)
            }
            let predictor = ShapePredictor(handle: handle)
            cache[path] = predictor
            return .success(predictor)
        }
        return try result.get()
    }

    /// Pixel points (top-left origin) for the face at the pixel box.
    func predict(in image: VisionImage, x: Double, y: Double, width: Double, height: Double) throws(VisionError) -> [(
        Double, Double
    )] {
        var xy = [Float](repeating: 0, count: parts * 2)
        try NativeError.check(
            ov_predict_landmarks(
                handle, image.handle, Float(x), Float(y), Float(width), Float(height),
                &xy, Int32(xy.count)), "landmark prediction")
        return (0..<parts).map { (Double(xy[2 * $0]), Double(xy[2 * $0 + 1])) }
    }
}
