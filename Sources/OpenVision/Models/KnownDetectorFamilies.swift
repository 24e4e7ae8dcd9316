/// Public detectors whose preprocessing their files don't state, recognised by their inputs and outputs, so
/// they work without flags (`VisionModel.Configuration.preprocessing` or the pixel options still win).
/// Each entry is the family's own reference preprocessing.
enum KnownDetectorFamilies {
    /// The family's name and preprocessing, or nil for any other model.
    static func preprocessing(
        inputs: [TensorDescription], outputs: [TensorDescription],
        default base: ModelPreprocessing
    ) -> (String, ModelPreprocessing)? {
        let names = Set(outputs.map(\.name))
        var p = base
        // YuNet (OpenCV Zoo, 2023): BGR, raw 0...255, stretched to the input (OpenCV's FaceDetectorYN).
        if names.isSuperset(of: ["cls_8", "obj_8", "bbox_8", "kps_8"]) {
            p.colorOrder = .bgr
            p.scale = 1
            p.cropAndScale = .scaleFill
            return ("YuNet", p)
        }
        // UltraFace (Linzaer's version-RFB-320/640, slim-320): RGB, (x − 127) / 128, stretched to 320 × 240 or 640 × 480.
        if names == ["scores", "boxes"], let input = inputs.first, input.shape.count == 4,
            [[240, 320], [480, 640]].contains(input.shape[2...].compactMap { $0 })
        {
            p.scale = 1
            p.mean = [127, 127, 127]
            p.std = [128, 128, 128]
            p.cropAndScale = .scaleFill
            return ("UltraFace", p)
        }
        // FastestDet: one [1, 85, 22, 22] grid for a 352 × 352 input; BGR / 255, stretched (its demo).
        if outputs.count == 1, outputs[0].shape.compactMap({ $0 }) == [1, 85, 22, 22] {
            p.colorOrder = .bgr
            p.cropAndScale = .scaleFill
            return ("FastestDet", p)
        }
        // OpenCV's face detector (res10 SSD, Caffe or TensorFlow): 300 × 300 BGR, mean (104, 177, 123), scale 1.
        if names == ["detection_out"], inputs.first?.name == "data" || inputs.isEmpty {
            p = ModelPreprocessing(width: 300, height: 300)
            p.colorOrder = .bgr
            p.scale = 1
            p.mean = [104, 177, 123]
            p.cropAndScale = .scaleFill
            return ("OpenCV face SSD", p)
        }
        return nil
    }
}
