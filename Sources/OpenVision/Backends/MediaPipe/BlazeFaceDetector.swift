import Foundation

/// MediaPipe's BlazeFace face detectors (`mp.solutions.face_detection`, mediapipe 0.10.14: graphs
/// face_detection_short_range / face_detection_full_range and face_detection.pbtxt): the letterboxed image
/// at the model's size with values in [-1, 1], SSD decoding over MediaPipe's anchors, weighted NMS.
struct BlazeFaceDetector: Sendable {
    enum Range: Sendable { case short, full }

    let model: VisionModel
    let anchors: MediaPipeAnchors.Options
    /// `min_score_thresh` (mp.solutions.face_detection's `min_detection_confidence`, default 0.5).
    var minimumScore: Float = 0.5

    static func installed(_ range: Range) throws(VisionError) -> BlazeFaceDetector {
        switch range {
        case .short:
            BlazeFaceDetector(
                model: try MediaPipeModels.model(MediaPipeModels.faceShortRange), anchors: .faceShortRange)
        case .full:
            BlazeFaceDetector(model: try MediaPipeModels.model(MediaPipeModels.faceFullRange), anchors: .faceFullRange)
        }
    }

    /// Faces normalised to the image (top-left origin), best first, each with its 6 keypoints (the subject's
    /// right eye, left eye, nose tip, mouth centre, right ear tragion, left ear tragion).
    func detect(in image: VisionImage) throws(VisionError) -> [MediaPipeDetection] {
        try detect(in: image, tile: .fullImage(width: image.width, height: image.height))
    }

    /// `detect(in:)` on the whole image and on overlapping tiles (`tiles(width:height:)`), merged: faces too small for
    /// the whole image at the model's input size are found in a tile where they are large enough. Of two detections
    /// one of which lies mostly inside the other, the surer is kept: a tile that holds part of a large face can see a
    /// small one in it, and a coarse level can see one large face across several small ones. A portrait (the whole
    /// image shows a face at least `portraitShare` of its longer side wide) is not tiled: tiles cost one detector run
    /// each (58 on a 1024-px image, 2.3× the single face's time), and the small faces they find are a group's.
    func detectTiled(in image: VisionImage) throws(VisionError) -> [MediaPipeDetection] {
        var all = try detect(in: image)
        let longer = Double(max(image.width, image.height))
        let widest =
            all.map { max(($0.xMax - $0.xMin) * Double(image.width), ($0.yMax - $0.yMin) * Double(image.height)) }
            .max() ?? 0
        guard widest < Self.portraitShare * longer else { return all }
        // The tiles' runs at once (the model runs one thread), merged in tile order.
        let tiles = Self.tiles(width: image.width, height: image.height)
        let found = try ConcurrentWork.map(tiles.count) { (i: Int) throws(VisionError) in
            try detect(in: image, tile: tiles[i])
        }
        all += found.joined()
        var kept: [MediaPipeDetection] = []
        for d in MediaPipeDetection.weightedNonMaxSuppression(all, threshold: 0.3) {
            let area = (d.xMax - d.xMin) * (d.yMax - d.yMin)
            let inside = kept.contains { k in
                let overlap =
                    max(0, min(k.xMax, d.xMax) - max(k.xMin, d.xMin))
                    * max(0, min(k.yMax, d.yMax) - max(k.yMin, d.yMin))
                return overlap > 0.5 * min(area, (k.xMax - k.xMin) * (k.yMax - k.yMin))
            }
            if !inside { kept.append(d) }
        }
        return kept
    }

    /// The smallest tile side: a face of 40 px (what dlib's HOG finds with one upsampling) is 15 % of it, about the
    /// smallest face BlazeFace finds in its input.
    static let minimumTileSide = 256.0
    /// A face at least this share of the image's longer side makes the image a portrait, which is not tiled.
    static let portraitShare = 0.2
    /// At most this many tiles per image (on large images the smallest levels are left out).
    static let maximumTiles = 64

    /// The tiles of `width` × `height` (pixels): squares of half the longer side, then half that, …, down to
    /// `minimumTileSide` (a level within 3/4 of the one above is left out), each level covering the image with tiles
    /// that overlap by half, so that any face up to half a tile wide lies whole in one; coarse levels first, at most
    /// `maximumTiles` in all (whole levels). None for images under 4/3 of `minimumTileSide`.
    static func tiles(width: Int, height: Int) -> [MediaPipeRegion] {
        let (w, h) = (Double(width), Double(height))
        var side = max(w, h)
        var out: [MediaPipeRegion] = []
        while true {
            let next = max(side / 2, minimumTileSide)
            guard next < 0.75 * side else { break }
            side = next
            func starts(_ extent: Double) -> [Double] {
                guard extent > side else { return [0] }
                let n = Int(((extent - side) / (side / 2)).rounded(.up)) + 1
                return (0..<n).map { min(Double($0) * side / 2, extent - side) }
            }
            let level = starts(h).flatMap { y in
                starts(w).map { x in
                    MediaPipeRegion(
                        centerX: x + min(side, w) / 2, centerY: y + min(side, h) / 2, width: min(side, w),
                        height: min(side, h), rotation: 0)
                }
            }
            guard out.count + level.count <= maximumTiles else { break }
            out += level
        }
        return out
    }

    /// Faces in `tile` (pixels, unrotated), normalised to the whole image.
    private func detect(in image: VisionImage, tile: MediaPipeRegion) throws(VisionError) -> [MediaPipeDetection] {
        let (w, h, _) = try MediaPipeTensorInput.inputGeometry(of: model)
        guard w == anchors.inputWidth, h == anchors.inputHeight else {
            throw VisionError(
                .invalidModel,
                "\(model.url.lastPathComponent) takes \(w) × \(h) images; BlazeFace's anchors here are for "
                    + "\(anchors.inputWidth) × \(anchors.inputHeight)")
        }
        // The tile letterboxed (zero border) into the input, values in -1...1.
        let region = tile.keepingAspectRatio(tensorWidth: w, tensorHeight: h)
        let input = try MediaPipeTensorInput.tensor(
            for: model, image: image, region: region, range: -1...1, borderZero: true)
        let outputs = try model.backend.run([input])
        let (boxes, scores) = try HandPosePipeline.detectionOutputs(outputs, coordinates: 16, model: model)
        let decoded = try MediaPipeDetection.decode(
            boxes: boxes.scalars, scores: scores.scalars, anchors: MediaPipeAnchors(anchors).anchors,
            options: .ssd(inputSize: w, keypoints: 6, minScore: minimumScore))
        let (iw, ih) = (Double(image.width), Double(image.height))
        return MediaPipeDetection.weightedNonMaxSuppression(decoded, threshold: 0.3).map { d in
            d.projected { x, y in
                let p = region.project(x: x, y: y)
                return (p.x / iw, p.y / ih)
            }
        }
    }
}
