internal import CNative

/// `DetectFaceRectanglesRequest`'s backend (and `DetectFaceLandmarksRequest`'s when it finds faces
/// itself): dlib's HOG frontal face detector in `ov_faces.cpp`.
enum DlibFaceDetector {
    /// Faces in `image` with dlib's scores as confidences; `upsampling` must be 0...3.
    static func detect(in image: VisionImage, upsampling: Int) throws(VisionError) -> [FaceObservation] {
        guard (0...3).contains(upsampling) else {
            throw VisionError(.invalidArgument, "upsampling must be 0...3, not \(upsampling)")
        }
        var capacity = 32
        while true {
            var boxes = [ov_face_box](repeating: ov_face_box(), count: capacity)
            var count: Int32 = 0
            try NativeError.check(
                ov_detect_faces(image.handle, Int32(upsampling), &boxes, Int32(capacity), &count),
                "face detection")
            if Int(count) > capacity {
                capacity = Int(count)
                continue
            }
            let map = PixelToNormalized(image)
            return boxes.prefix(Int(count)).map {
                FaceObservation(
                    boundingBox: map.rect(
                        x: Double($0.x), y: Double($0.y), width: Double($0.width),
                        height: Double($0.height)),
                    confidence: $0.confidence)
            }
        }
    }
}
