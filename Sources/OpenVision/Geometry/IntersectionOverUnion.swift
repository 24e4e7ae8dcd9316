/// Intersection over union of two axis-aligned boxes given by their corners (min ≤ max on each axis): 0 when they
/// do not overlap or their union is empty. The one IoU of the package: non-maximum suppression (in the detector's
/// Float32, as torchvision computes it), tracking, MediaPipe's `OverlapSimilarity` and `NormalizedRect`.
func intersectionOverUnion<T: BinaryFloatingPoint>(
    _ a: (minX: T, minY: T, maxX: T, maxY: T),
    _ b: (minX: T, minY: T, maxX: T, maxY: T)
) -> T {
    let w = min(a.maxX, b.maxX) - max(a.minX, b.minX)
    let h = min(a.maxY, b.maxY) - max(a.minY, b.minY)
    guard w > 0, h > 0 else { return 0 }
    let intersection = w * h
    let union = (a.maxX - a.minX) * (a.maxY - a.minY) + (b.maxX - b.minX) * (b.maxY - b.minY) - intersection
    return union > 0 ? intersection / union : 0
}
