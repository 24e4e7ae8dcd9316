internal import CNative

extension VisionImage {
    /// A `width` × `height` image of this one warped by the homography `transform`, which maps this
    /// image's pixel coordinates to the output's (in the convention `origin` names: lower-left with y up
    /// as Vision's `warpTransform`, or upper-left as OpenCV). Bilinear; outside pixels repeat the border.
    /// Aligns a registration's target with its reference:
    /// `target.warpedPerspective(by: observation.warpTransform, width: reference.width, height: reference.height)`.
    /// Throws `invalidArgument` for a non-positive size or a singular or non-finite matrix.
    public func warpedPerspective(
        by transform: Matrix3x3, width: Int, height: Int,
        origin: CoordinateOrigin = .lowerLeft
    ) throws(VisionError) -> VisionImage {
        guard width > 0, height > 0 else {
            throw VisionError(.invalidArgument, "warp size \(width)×\(height) must be positive")
        }
        let matrix =
            origin == .lowerLeft
            ? Matrix3x3.flipY(height: height) * transform * Matrix3x3.flipY(height: self.height) : transform
        var out: OpaquePointer?
        try NativeError.check(
            ov_image_warp_perspective(handle, matrix.rowMajor, Int32(width), Int32(height), &out), "perspective warp")
        return VisionImage(owning: out!)
    }
}
