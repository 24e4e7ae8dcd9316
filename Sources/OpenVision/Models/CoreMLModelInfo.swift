import Foundation

/// What a Core ML model (`.mlmodel`, `.mlpackage`, `.mlmodelc`) declares, as Core ML's `MLModelDescription`
/// gives it: its inputs and outputs with their Core ML types and size constraints, class labels, metadata,
/// and how OpenVision feeds its image inputs and reads its detections. Read from the converted model
/// (the `coreml` metadata entry; `coreml.json` in compiled folders); docs/coreml.md lists every field.
public struct CoreMLModelInfo: Sendable, Hashable, Codable {
    /// An input or output (`MLFeatureDescription`).
    public struct Feature: Sendable, Hashable, Codable {
        /// The feature's name, as the model's inputs and outputs dictionaries key it.
        public var name: String
        /// The model's description of it ("" when none).
        public var shortDescription: String
        /// Whether the model runs without it (the NMS thresholds of detector pipelines).
        public var optional: Bool
        /// "image", "multiArray", "double", "int64", "string", "dictionary", "sequence" or "state".
        public var type: String
        /// Images: the default size.
        public var width: Int?
        /// Images: the default height.
        public var height: Int?
        /// Images: "RGB", "BGR", "GRAYSCALE" or "GRAYSCALE_FLOAT16".
        public var colorSpace: String?
        /// Images: the allowed sizes, as [width, height] pairs, when the size is enumerated.
        public var enumeratedSizes: [[Int]]?
        /// Images: [lower, upper] of the allowed widths and heights (upper −1: unbounded).
        public var widthRange: [Int]?
        /// Images: [lower, upper] of the allowed heights (upper −1: unbounded).
        public var heightRange: [Int]?
        /// Multi-arrays: the shape (the default one when flexible; may be empty with only ranges).
        public var shape: [Int]?
        /// Multi-arrays: "FLOAT32", "DOUBLE", "INT32", "FLOAT16" or "INT8".
        public var dataType: String?
        /// Multi-arrays: the allowed shapes, when the shape is enumerated.
        public var enumeratedShapes: [[Int]]?
        /// Multi-arrays: [lower, upper] per dimension (upper −1: unbounded).
        public var shapeRanges: [[Int]]?
        /// Optional inputs: the value used when none is given.
        public var defaultValue: Double?
        /// Dictionaries and sequences: "string" or "int64".
        public var keyType: String?
    }

    /// How an image input is fed: `scale × pixel + bias[c]` per channel, in `colorOrder`, at `width` × `height`.
    public struct ImageInput: Sendable, Hashable, Codable {
        /// The input width the image is resized to, in pixels.
        public var width: Int
        /// The input height the image is resized to, in pixels.
        public var height: Int
        /// "rgb" or "bgr".
        public var colorOrder: String
        /// The multiplier applied to every 0...255 pixel value.
        public var scale: Float
        /// Added after scaling, per channel in `colorOrder` (one value for grayscale).
        public var bias: [Float]
        /// The image's colour space; grayscale images are given as RGB and converted by the model.
        public var colorSpace: String
    }

    /// How an image output comes out of the converted model: a float32 tensor `[1, channels, height, width]` whose
    /// values are the pixels (0...255; Core ML clamps and rounds them to 8 bits), channels in `colorOrder`.
    public struct ImageOutput: Sendable, Hashable, Codable {
        /// The default size; a flexible output's tensor gives the real one.
        public var width: Int
        /// The default height; a flexible output's tensor gives the real one.
        public var height: Int
        /// 1 (grayscale) or 3.
        public var channels: Int
        /// "rgb", "bgr" (the tensor's channels are blue, green, red) or "gray".
        public var colorOrder: String
        /// The image's colour space: "RGB", "BGR", "GRAYSCALE" or "GRAYSCALE_FLOAT16".
        public var colorSpace: String
        /// Whether the size is flexible (enumerated sizes or ranges).
        public var flexible: Bool
    }

    /// The settings of a detector pipeline's non-maximum suppression.
    public struct NMS: Sendable, Hashable, Codable {
        /// The IoU above which a box is suppressed by a better one, 0...1.
        public var iouThreshold: Double
        /// Boxes whose best confidence is below this are dropped, 0...1.
        public var confidenceThreshold: Double
        /// Suppression within each label only.
        public var perClass: Bool
        /// The inputs overriding the thresholds ("" when the model has none).
        public var iouThresholdInput: String
        /// The input overriding the confidence threshold ("" when the model has none).
        public var confidenceThresholdInput: String
        /// The outputs: confidences `[boxes, classes]` and coordinates `[boxes, 4]` (centre x, centre y, width,
        /// height, relative to the image).
        public var confidenceOutput: String
        /// The coordinates output's name (see `confidenceOutput`).
        public var coordinatesOutput: String
    }

    /// Core ML's model metadata (`MLModelMetadataKey`).
    public struct Metadata: Sendable, Hashable, Codable {
        /// The model's description ("" when none).
        public var shortDescription: String
        /// The model's version string ("" when none).
        public var versionString: String
        /// The model's author ("" when none).
        public var author: String
        /// The model's licence ("" when none).
        public var license: String
        /// Creator-defined keys and values.
        public var userDefined: [String: String]
    }

    /// The converter's revision that wrote this description.
    public var converterRevision: Int
    /// The model's specification version (1–10).
    public var specificationVersion: Int
    /// Model.proto's model type: "neuralNetworkClassifier", "neuralNetwork", "pipeline", "mlProgram", …
    public var modelType: String
    /// A pipeline's sub-models' types.
    public var submodels: [String]
    /// The model's inputs, in the model's order.
    public var inputs: [Feature]
    /// The model's outputs, in the model's order.
    public var outputs: [Feature]
    /// A classifier's label output.
    public var predictedFeatureName: String
    /// A classifier's probabilities output.
    public var predictedProbabilitiesName: String
    /// The model's metadata.
    public var metadata: Metadata
    /// Class labels (a classifier's, or a detector's NMS labels).
    public var classLabels: [String]
    /// Per image input, how it is fed.
    public var imageInputs: [String: ImageInput]
    /// Per image output (an image-to-image model's), how its tensor becomes an image; nil when there is none.
    public var imageOutputs: [String: ImageOutput]?
    /// Detector pipelines: the non-maximum suppression settings.
    public var nms: NMS?
    /// Layers (and ML Programs, NMS models) by type.
    public var layerCounts: [String: Int]
    /// How the weights are stored: "float32", "float16", "8-bit LUT", "8-bit linear", …
    public var weightFormats: [String]

    /// Decodes the JSON the converter writes; nil when it is not that JSON.
    static func decode(_ text: String) -> CoreMLModelInfo? {
        try? JSONDecoder().decode(CoreMLModelInfo.self, from: Data(text.utf8))
    }
}
