internal import CNative

/// The registration requests' backend: phase correlation and ORB + RANSAC + Lucas-Kanade homographies
/// in `ov_registration.cpp` (see its "Algorithm / Decisions" header).
enum OpenCVRegistration {
    /// The translation laying `floating` over `reference` (same size), or nil when either is flat.
    static func translation(reference: VisionImage, floating: VisionImage) throws(VisionError)
        -> ImageTranslationAlignmentObservation?
    {
        var found: Int32 = 0
        var dx = 0.0
        var dy = 0.0
        var response = 0.0
        try NativeError.check(
            ov_register_translation(reference.handle, floating.handle, &found, &dx, &dy, &response),
            "translational registration")
        guard found != 0 else { return nil }
        // floating(x + dx, y + dy) ≈ reference(x, y) with y down: move the floating image by (−dx, −dy),
        // which is (−dx, +dy) with y up.
        return ImageTranslationAlignmentObservation(tx: -dx, ty: dy, confidence: Float(response))
    }

    /// The homography laying `floating` over `reference` (same size), or nil when either is flat or
    /// too few features match.
    static func homography(reference: VisionImage, floating: VisionImage) throws(VisionError)
        -> ImageHomographicAlignmentObservation?
    {
        var found: Int32 = 0
        var h = [Double](repeating: 0, count: 9)
        var ratio = 0.0
        try NativeError.check(
            ov_register_homography(reference.handle, floating.handle, &found, &h, &ratio),
            "homographic registration")
        guard found != 0 else { return nil }
        let flip = Matrix3x3.flipY(height: reference.height)
        var warp = flip * Matrix3x3(rowMajor: h) * flip
        let scale = warp[2, 2]
        if scale != 0 { warp = Matrix3x3(rowMajor: warp.rowMajor.map { $0 / scale }) }
        return ImageHomographicAlignmentObservation(
            warpTransform: warp, imageHeight: reference.height, confidence: Float(ratio))
    }
}
