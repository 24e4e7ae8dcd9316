import Foundation

/// What a Core ML model (`.mlmodel`, `.mlpackage`, `.mlmodelc`) declares, as Core ML's `MLModelDescription` gives it:
/// its inputs and outputs with their Core ML types and size constraints, class labels, metadata, and how OpenVision
/// feeds its image inputs and reads its image outputs and detections.
///
/// The converter writes it as JSON (`json()`, sorted keys) into the ONNX model's `metadata_props` (key `coreml`) and,
/// in OpenVision's compiled `.mlmodelc` folders, as `coreml.json` beside `model.onnx`; a loaded model's
/// `ModelDescription.coreML` is that JSON read back. docs/coreml.md documents every key.
public struct CoreMLModelInfo: Codable, Sendable, Hashable {
    /// An input or output (`MLFeatureDescription`; Model.proto's `FeatureDescription`, flattened).
    public struct Feature: Codable, Sendable, Hashable {
        /// The feature's name (an input's or output's key in Core ML's dictionaries).
        public var name: String
        /// The model author's description of the feature ("" when none).
        public var shortDescription: String = ""
        /// Whether the model runs without it (the NMS thresholds of detector pipelines).
        public var optional: Bool = false
        /// "image", "multiArray", "double", "int64", "string", "dictionary", "sequence", "state" or "invalid".
        public var type: String
        /// Images: the default width.
        public var width: Int?
        /// Images: the default height.
        public var height: Int?
        /// Images: "RGB", "BGR", "GRAYSCALE" or "GRAYSCALE_FLOAT16".
        public var colorSpace: String?
        /// Images: the allowed sizes, as [width, height] pairs, when the size is enumerated.
        public var enumeratedSizes: [[Int]]?
        /// Images: [lower, upper] of the allowed widths (upper −1: unbounded).
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
        /// Dictionaries: the key type; sequences: the element type ("string" or "int64").
        public var keyType: String?

        /// A feature of `type` with nothing else set.
        package init(name: String, type: String) {
            self.name = name
            self.type = type
        }

        /// The Core ML type as `models info` and error messages write it: "image 28×28 GRAYSCALE",
        /// "multiArray INT32 [513, 513]", "double", "dictionary (string keys)", "sequence of int64".
        public var typeDescription: String {
            switch type {
            case "image": "image \(width ?? 0)×\(height ?? 0) \(colorSpace ?? "")"
            case "multiArray": "multiArray \(dataType ?? "") \(shape ?? [])"
            case "dictionary": "dictionary (\(keyType ?? "") keys)"
            case "sequence": "sequence of \(keyType ?? "")"
            default: type
            }
        }
    }

    /// How an image input is fed: `scale × pixel + bias[c]` per channel, in `colorOrder`, at `width` × `height`.
    public struct ImageInput: Codable, Sendable, Hashable {
        /// The size the graph takes.
        public var width: Int
        /// The size the graph takes.
        public var height: Int
        /// "rgb" or "bgr": the channel order of the graph input.
        public var colorOrder: String
        /// The factor applied to the pixels (0...255) before the bias.
        public var scale: Float
        /// Per graph-input channel, added after the scale.
        public var bias: [Float]
        /// The image's own colour space ("GRAYSCALE" images are given as RGB; the graph makes the luma).
        public var colorSpace: String
        /// A grayscale network input's own scaler, which the graph applies to the luma it makes (`scale` and `bias`
        /// above then leave the pixels as they are); nil otherwise.
        public var graphScale: Float?
        /// The bias of `graphScale`'s scaler.
        public var graphBias: Float?

        /// An input fed as the arguments say.
        package init(
            width: Int, height: Int, colorOrder: String, scale: Float, bias: [Float], colorSpace: String,
            graphScale: Float? = nil, graphBias: Float? = nil
        ) {
            (self.width, self.height, self.colorOrder, self.scale, self.bias) = (width, height, colorOrder, scale, bias)
            (self.colorSpace, self.graphScale, self.graphBias) = (colorSpace, graphScale, graphBias)
        }
    }

    /// How an image output's graph tensor becomes an image: the float32 `[1, channels, height, width]` values are the
    /// pixels (0...255; Core ML clamps and rounds them to 8 bits), channels in `colorOrder`.
    public struct ImageOutput: Codable, Sendable, Hashable {
        /// The default width (a flexible output's tensor gives the real one).
        public var width: Int
        /// The default height (a flexible output's tensor gives the real one).
        public var height: Int
        /// 1 (grayscale) or 3.
        public var channels: Int
        /// "rgb", "bgr" (the tensor's channels are blue, green, red) or "gray".
        public var colorOrder: String
        /// The image's colour space: "RGB", "BGR", "GRAYSCALE" or "GRAYSCALE_FLOAT16".
        public var colorSpace: String
        /// Whether the size is flexible (enumerated sizes or ranges).
        public var flexible: Bool

        /// An output read as the arguments say.
        package init(width: Int, height: Int, channels: Int, colorOrder: String, colorSpace: String, flexible: Bool) {
            (self.width, self.height, self.channels, self.colorOrder) = (width, height, channels, colorOrder)
            (self.colorSpace, self.flexible) = (colorSpace, flexible)
        }
    }

    /// The settings of a detector pipeline's non-maximum suppression.
    public struct NMS: Codable, Sendable, Hashable {
        /// The pipeline's own IoU threshold (used unless its input `iouThresholdInput` is given).
        public var iouThreshold: Double
        /// The pipeline's own confidence threshold (used unless its input `confidenceThresholdInput` is given).
        public var confidenceThreshold: Double
        /// Suppression within each label only.
        public var perClass: Bool
        /// The input overriding the IoU threshold ("" when the model has none).
        public var iouThresholdInput: String
        /// The input overriding the confidence threshold ("" when the model has none).
        public var confidenceThresholdInput: String
        /// The confidences output, `[boxes, classes]`.
        public var confidenceOutput: String
        /// The coordinates output, `[boxes, 4]` (centre x, centre y, width, height, relative to the image).
        public var coordinatesOutput: String

        /// Settings as the arguments say.
        package init(
            iouThreshold: Double, confidenceThreshold: Double, perClass: Bool, iouThresholdInput: String,
            confidenceThresholdInput: String, confidenceOutput: String, coordinatesOutput: String
        ) {
            (self.iouThreshold, self.confidenceThreshold, self.perClass) = (iouThreshold, confidenceThreshold, perClass)
            (self.iouThresholdInput, self.confidenceThresholdInput) = (iouThresholdInput, confidenceThresholdInput)
            (self.confidenceOutput, self.coordinatesOutput) = (confidenceOutput, coordinatesOutput)
        }
    }

    /// Core ML's model metadata (`MLModelMetadataKey`).
    public struct Metadata: Codable, Sendable, Hashable {
        /// What the model does, in its author's words.
        public var shortDescription: String = ""
        /// The model's version.
        public var versionString: String = ""
        /// Who made it.
        public var author: String = ""
        /// Its licence.
        public var license: String = ""
        /// Creator-defined keys and values.
        public var userDefined: [String: String] = [:]

        /// Empty metadata.
        package init() {}
    }

    /// Schema name of this JSON ("openvision-coreml").
    public var format = "openvision-coreml"
    /// Schema version of this JSON.
    public var version = 1
    /// `CoreMLConverter.revision` of the converter that wrote it.
    public var converterRevision: Int
    /// The model's specification version (1–10).
    public var specificationVersion: Int
    /// Model.proto's model type: "neuralNetworkClassifier", "neuralNetwork", "pipeline", "mlProgram", …
    public var modelType: String
    /// A pipeline's sub-models' types, in order.
    public var submodels: [String] = []
    /// The inputs, as the model declares them.
    public var inputs: [Feature]
    /// The outputs, as the model declares them.
    public var outputs: [Feature]
    /// A classifier's label output ("" when none).
    public var predictedFeatureName: String
    /// A classifier's probabilities output ("" when none).
    public var predictedProbabilitiesName: String
    /// The model's metadata.
    public var metadata: Metadata
    /// Class labels (a classifier's, or a detector's NMS labels).
    public var classLabels: [String]
    /// Per image input, how it is fed.
    public var imageInputs: [String: ImageInput] = [:]
    /// Per image output (an image-to-image model's), how its tensor becomes an image; nil when there is none.
    public var imageOutputs: [String: ImageOutput]?
    /// Detector pipelines: the non-maximum suppression settings.
    public var nms: NMS?
    /// Neural network layers (and ML Programs, NMS models) by type.
    public var layerCounts: [String: Int] = [:]
    /// How the weights are stored: "float32", "float16", "8-bit LUT", "8-bit linear", …
    public var weightFormats: [String] = []

    /// A description with the given parts and nothing else.
    package init(
        converterRevision: Int, specificationVersion: Int, modelType: String, inputs: [Feature], outputs: [Feature],
        predictedFeatureName: String, predictedProbabilitiesName: String, metadata: Metadata,
        classLabels: [String]
    ) {
        self.converterRevision = converterRevision
        self.specificationVersion = specificationVersion
        self.modelType = modelType
        self.inputs = inputs
        self.outputs = outputs
        self.predictedFeatureName = predictedFeatureName
        self.predictedProbabilitiesName = predictedProbabilitiesName
        self.metadata = metadata
        self.classLabels = classLabels
    }

    /// The JSON text (sorted keys).
    package func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Reads the JSON `json()` writes; `.syntax` when it is not that JSON.
    package static func decode(_ text: String) throws -> CoreMLModelInfo {
        do {
            return try JSONDecoder().decode(CoreMLModelInfo.self, from: Data(text.utf8))
        } catch {
            throw ConversionError(.syntax, "the Core ML description JSON is malformed: \(error)")
        }
    }
}

extension CoreMLModelInfo.Feature {
    /// A `FeatureDescription` read from a model file.
    init(_ f: CoreMLFeature) {
        self.init(name: f.name, type: CoreMLToONNX.typeName(f.type))
        shortDescription = f.shortDescription
        optional = f.isOptional
        switch f.type {
        case .image(let image):
            width = image.width
            height = image.height
            colorSpace =
                ["grayscale": "GRAYSCALE", "rgb": "RGB", "bgr": "BGR", "grayscaleFloat16": "GRAYSCALE_FLOAT16"][
                    image.colorSpace.rawValue] ?? "INVALID"
            if !image.enumeratedSizes.isEmpty { enumeratedSizes = image.enumeratedSizes }
            widthRange = image.widthRange
            heightRange = image.heightRange
        case .multiArray(let array):
            shape = array.shape
            dataType =
                ["float32": "FLOAT32", "double": "DOUBLE", "int32": "INT32", "int8": "INT8", "float16": "FLOAT16"][
                    array.dataType.rawValue] ?? "INVALID"
            if !array.enumeratedShapes.isEmpty { enumeratedShapes = array.enumeratedShapes }
            if !array.shapeRanges.isEmpty { shapeRanges = array.shapeRanges }
            defaultValue = array.defaultValue
        case .dictionary(let stringKeys):
            keyType = stringKeys ? "string" : "int64"
        case .sequence(let strings):
            keyType = strings ? "string" : "int64"
        default: break
        }
    }
}

extension CoreMLModelInfo.Metadata {
    /// A model file's `Metadata`.
    init(_ m: CoreMLMetadata) {
        self.init()
        shortDescription = m.shortDescription
        versionString = m.versionString
        author = m.author
        license = m.license
        userDefined = m.userDefined
    }
}
