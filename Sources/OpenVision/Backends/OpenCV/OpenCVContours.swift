internal import CNative
import Foundation

/// `DetectContoursRequest`'s backend: OpenCV `findContours` in `ov_contours.cpp` (see its
/// "Algorithm / Decisions" header).
enum OpenCVContours {
    /// The contour tree of `image`; an empty observation for a flat image.
    static func detect(
        in image: VisionImage, contrastAdjustment: Float, contrastPivot: Float?, detectsDarkOnLight: Bool,
        maximumImageDimension: Int
    ) throws(VisionError) -> ContoursObservation {
        var params = ov_contour_params(
            contrast_adjustment: contrastAdjustment, contrast_pivot: contrastPivot ?? 0,
            has_contrast_pivot: contrastPivot == nil ? 0 : 1,
            detects_dark_on_light: detectsDarkOnLight ? 1 : 0,
            maximum_image_dimension: Int32(clamping: maximumImageDimension))
        var set = ov_contour_set()
        defer { ov_contour_set_free(&set) }
        try NativeError.check(ov_detect_contours(image.handle, &params, &set), "contour detection")
        let aspect = Float(image.width) / Float(max(image.height, 1))
        let count = Int(set.contour_count)
        guard count > 0 else { return ContoursObservation(topLevelContours: [], aspectRatio: aspect) }

        // Pixel centres of the working image → normalised, lower-left origin.
        let w = Float(max(set.width, 1))
        let h = Float(max(set.height, 1))
        var points: [[SIMD2<Float>]] = []
        var children: [[Int]] = Array(repeating: [], count: count)
        var roots: [Int] = []
        points.reserveCapacity(count)
        for i in 0..<count {
            let start = Int(set.point_offsets[i])
            let end = Int(set.point_offsets[i + 1])
            points.append(
                (start..<end).map { k in
                    SIMD2((set.points[2 * k] + 0.5) / w, 1 - (set.points[2 * k + 1] + 0.5) / h)
                })
            let parent = Int(set.parents[i])
            if parent >= 0 && parent < count { children[parent].append(i) } else { roots.append(i) }
        }
        func build(_ i: Int, _ path: IndexPath) -> Contour {
            Contour(
                indexPath: path, normalizedPoints: points[i],
                childContours: children[i].enumerated().map { build($0.element, path.appending($0.offset)) },
                aspectRatio: aspect)
        }
        return ContoursObservation(
            topLevelContours: roots.enumerated().map { build($0.element, [$0.offset]) }, aspectRatio: aspect)
    }
}
