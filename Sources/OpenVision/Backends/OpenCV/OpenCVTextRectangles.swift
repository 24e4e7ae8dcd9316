internal import CNative

/// `DetectTextRectanglesRequest`'s backend: connected components grouped into lines in
/// `ov_textrects.cpp` (see its "Algorithm / Decisions" header).
enum OpenCVTextRectangles {
    /// Text lines of `image`, top to bottom, with character boxes when `characterBoxes`.
    static func detect(in image: VisionImage, characterBoxes: Bool) throws(VisionError) -> [TextObservation] {
        var rects = ov_text_rects()
        defer { ov_text_rects_free(&rects) }
        try NativeError.check(ov_detect_text_rectangles(image.handle, &rects), "text rectangle detection")
        let map = PixelToNormalized(image)
        return (0..<Int(rects.line_count)).map { i in
            let l = rects.lines + 5 * i
            var chars: [RectangleObservation]?
            if characterBoxes {
                chars = (Int(rects.char_offsets[i])..<Int(rects.char_offsets[i + 1])).map { k in
                    let c = rects.chars + 4 * k
                    return RectangleObservation(
                        boundingBox: map.rect(
                            x: Double(c[0]), y: Double(c[1]), width: Double(c[2]),
                            height: Double(c[3])),
                        confidence: l[4])
                }
            }
            return TextObservation(
                boundingBox: map.rect(x: Double(l[0]), y: Double(l[1]), width: Double(l[2]), height: Double(l[3])),
                characterBoxes: chars, confidence: l[4])
        }
    }
}
