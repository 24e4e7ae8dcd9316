internal import CNative

/// The saliency requests' backend: OpenCV contrib `saliency` in `ov_saliency.cpp` (see its
/// "Algorithm / Decisions" header).
enum OpenCVSaliency {
    enum Kind {
        /// StaticSaliencySpectralResidual.
        case attention
        /// StaticSaliencyFineGrained (BING's trained files are not shipped by Debian).
        case objectness
    }

    /// Vision's heat-map size.
    static let mapSize = 68
    /// At most this many salient regions are reported.
    static let maximumObjects = 16

    static func generate(_ kind: Kind, in image: VisionImage) throws(VisionError) -> SaliencyImageObservation {
        let n = mapSize
        var map = [Float](repeating: 0, count: n * n)
        var boxes = [ov_salient_box](repeating: ov_salient_box(), count: maximumObjects)
        var count: Int32 = 0
        let native: ov_saliency_kind = kind == .attention ? OV_SALIENCY_SPECTRAL_RESIDUAL : OV_SALIENCY_FINE_GRAINED
        let status = map.withUnsafeMutableBufferPointer { m in
            ov_saliency(image.handle, native, Int32(n), m.baseAddress, &boxes, Int32(maximumObjects), &count)
        }
        try NativeError.check(status, "saliency")
        let toNormalized = PixelToNormalized(width: n, height: n)
        let objects = boxes.prefix(min(Int(count), maximumObjects)).map { b in
            RectangleObservation(
                boundingBox: toNormalized.rect(
                    x: Double(b.x), y: Double(b.y), width: Double(b.width),
                    height: Double(b.height)),
                confidence: b.confidence)
        }
        let heatMap = try PixelBufferObservation(
            width: n, height: n, values: map,
            featureName: kind == .attention
                ? SaliencyImageObservation.attentionFeatureName
                : SaliencyImageObservation.objectnessFeatureName)
        return SaliencyImageObservation(heatMap: heatMap, salientObjects: objects)
    }
}
