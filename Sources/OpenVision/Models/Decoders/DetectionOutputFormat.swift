/// Layouts of object-detector outputs that `DetectObjectsRequest` decodes. Chosen from the
/// output shapes unless the request names one.
public enum DetectionOutputFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// Darknet YOLO (v3/v4/Yolo-Fastest) as OpenCV DNN and `openvision models convert` give it:
    /// one or more outputs of rows `[cx, cy, w, h, objectness, class scores…]`, normalised to
    /// the input, class scores already multiplied by objectness.
    case darknet
    /// YOLOv5-style `[1, N, 5 + C]`: `cx, cy, w, h` in input pixels, objectness, class probabilities.
    case yolov5
    /// YOLOv8 / YOLO11-style `[1, 4 + C, N]`: `cx, cy, w, h` in input pixels, class scores.
    case yolov8
    /// Exports with NMS included: `[1, N, 6]` rows `x1, y1, x2, y2, score, class` (input pixels),
    /// or `[N, 7]` rows `batch, x1, y1, x2, y2, class, score`.
    case endToEnd
    /// SSD-style two outputs, in either order: boxes `[1, N, 4]` (`x1, y1, x2, y2`, normalised or
    /// pixels) and scores `[1, N, C]`. A first score column is background (skipped) when the model's
    /// labels say so (one label fewer than columns, or a first label "background"), or when an
    /// unlabelled model has two columns (UltraFace: background, face).
    case ssd
    /// The SSD `DetectionOutput` layer (Caffe / TensorFlow models on OpenCV DNN, e.g. OpenCV's face
    /// detector): `[1, 1, N, 7]` rows `image, label, confidence, x1, y1, x2, y2` (normalised). Label 0 is
    /// the background and never reported; label k is class k − 1 (or `labels[k]` when the labels start
    /// with "background").
    case detectionOutput
    /// YuNet (OpenCV Zoo's face detector, 2023): twelve outputs `cls_8/16/32 [1, HW, 1]`,
    /// `obj_* [1, HW, 1]`, `bbox_* [1, HW, 4]`, `kps_* [1, HW, 10]`, anchor-free per stride; score
    /// `sqrt(cls × obj)`, box centre `(col + dx, row + dy) × stride`, size `exp(dw, dh) × stride`, as
    /// OpenCV 4.8's `FaceDetectorYN` decodes it. One class (face). Landmarks are not reported.
    case yunet
    /// FastestDet `[1, 5 + C, H, W]`: per cell objectness (sigmoid applied), `tx, ty` (tanh offsets),
    /// `tw, th` (sigmoid sizes, fractions of the input), class scores (softmax applied); score
    /// `obj^0.6 × cls^0.4`, as its reference demo.
    case fastestDet
    /// Core ML detector pipelines (a network followed by `NonMaximumSuppression`, as Apple's YOLO models
    /// and Ultralytics' `nms=True` export): `confidence` `[M, C]` and `coordinates` `[M, 4]` (centre x,
    /// centre y, width, height, relative to the input), already suppressed. A row's label is its highest
    /// confidence; the request's `confidenceThreshold` filters rows. Chosen for models whose Core ML
    /// description has NMS settings; not inferred from shapes (they look like an SSD's).
    case coreML

    /// The format the output shapes imply, or nil when no decoder understands them.
    public static func infer(from outputs: [Tensor]) -> DetectionOutputFormat? {
        let shapes = outputs.map(\.squeezedShape)
        if DetectionDecoder.ssdPair(outputs) != nil { return .ssd }
        if outputs.count == 12,
            Set(outputs.map(\.name)).isSuperset(of: ["cls_8", "obj_8", "bbox_8", "kps_8", "cls_32", "bbox_32"])
        {
            return .yunet
        }
        if outputs.count == 1, let raw = outputs.first?.shape {
            if raw.count == 4 && raw[0] == 1 && raw[1] == 1 && raw[3] == 7 { return .detectionOutput }
            if raw.count == 4 && raw[0] == 1 && raw[1] > 5 && raw[2] > 1 && raw[3] > 1 && raw[1] > raw[2] {
                return .fastestDet
            }
        }
        if shapes.count >= 1, shapes.allSatisfy({ $0.count == 2 }) {
            let columns = shapes[0][1]
            if shapes.count == 1 && columns == 7 && outputs[0].shape.count == 2 { return .endToEnd }
            if shapes.count == 1, let raw = outputs.first?.shape, raw.count == 3 {
                // [1, A, B]: channels-first (YOLOv8) when A < B, rows otherwise.
                let (a, b) = (raw[1], raw[2])
                if a < b && a >= 5 { return .yolov8 }
                if (b == 6 || b == 7) && a <= 1000 { return .endToEnd }
                if b >= 6 { return .yolov5 }
                return nil
            }
            if columns >= 6 && shapes.allSatisfy({ $0[1] == columns }) { return .darknet }
        }
        return nil
    }
}
