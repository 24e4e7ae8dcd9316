import Foundation

/// What a converted Core ML model was, as JSON: written into the ONNX model's `metadata_props` (key
/// `coreml`) and, in compiled `.mlmodelc` folders, as `coreml.json` beside `model.onnx`. OpenVision
/// reads it back (`CoreMLModelInfo`) for labels, image preprocessing, NMS settings and Core ML's own
/// description of the inputs and outputs. docs/coreml.md documents every key.
package struct CoreMLInfo: Codable, Sendable, Equatable {
    /// One input or output (FeatureDescription), flattened.
    package struct Feature: Codable, Sendable, Equatable {
        package var name: String
        package var shortDescription: String = ""
        package var optional: Bool = false
        /// "image", "multiArray", "double", "int64", "string", "dictionary", "sequence", "state", "invalid".
        package var type: String
        // Images
        package var width: Int?
        package var height: Int?
        /// "RGB", "BGR", "GRAYSCALE", "GRAYSCALE_FLOAT16".
        package var colorSpace: String?
        package var enumeratedSizes: [[Int]]?
        /// [lower, upper] (upper −1: unbounded).
        package var widthRange: [Int]?
        package var heightRange: [Int]?
        // Multi-arrays
        package var shape: [Int]?
        /// "FLOAT32", "DOUBLE", "INT32", "FLOAT16", "INT8".
        package var dataType: String?
        package var enumeratedShapes: [[Int]]?
        package var shapeRanges: [[Int]]?
        package var defaultValue: Double?
        // Dictionaries and sequences
        /// "string" or "int64".
        package var keyType: String?

        package init(name: String, type: String) {
            self.name = name
            self.type = type
        }

        init(_ f: CoreMLFeature) {
            self.init(name: f.name, type: CoreMLToONNX.typeName(f.type))
            shortDescription = f.shortDescription
            optional = f.isOptional
            switch f.type {
            case .image(let image):
                width = image.width
                height = image.height
                colorSpace = ["grayscale": "GRAYSCALE", "rgb": "RGB", "bgr": "BGR", "grayscaleFloat16": "GRAYSCALE_FLOAT16"][image.colorSpace.rawValue] ?? "INVALID"
                if !image.enumeratedSizes.isEmpty { enumeratedSizes = image.enumeratedSizes }
                widthRange = image.widthRange
                heightRange = image.heightRange
            case .multiArray(let array):
                shape = array.shape
                dataType = ["float32": "FLOAT32", "double": "DOUBLE", "int32": "INT32", "int8": "INT8", "float16": "FLOAT16"][array.dataType.rawValue] ?? "INVALID"
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

    /// How the caller turns an image into a graph input (`y = scale × pixel + bias[c]` in `colorOrder`).
    package struct ImageInput: Codable, Sendable, Equatable {
        package var width: Int
        package var height: Int
        /// "rgb" or "bgr": the channel order of the graph input.
        package var colorOrder: String
        package var scale: Float
        /// Per graph-input channel.
        package var bias: [Float]
        /// The image's own colour space ("GRAYSCALE" images take RGB pixels; the graph makes the luma).
        package var colorSpace: String
    }

    /// How an image output's graph tensor becomes an image: the float32 `[1, channels, height, width]` values are
    /// the pixels (0...255, clamped and rounded to 8 bits), channels in `colorOrder`.
    package struct ImageOutput: Codable, Sendable, Equatable {
        /// The default size (a flexible output's tensor gives the real one).
        package var width: Int
        package var height: Int
        /// 1 or 3.
        package var channels: Int
        /// "rgb", "bgr" (the tensor's channels are blue, green, red) or "gray".
        package var colorOrder: String
        /// The image's colour space: "RGB", "BGR", "GRAYSCALE" or "GRAYSCALE_FLOAT16".
        package var colorSpace: String
        /// Whether the size is flexible (enumerated sizes or ranges).
        package var flexible: Bool
    }

    /// Non-maximum suppression settings of a detector pipeline.
    package struct NMS: Codable, Sendable, Equatable {
        package var iouThreshold: Double
        package var confidenceThreshold: Double
        package var perClass: Bool
        /// Graph inputs overriding the thresholds (empty when none).
        package var iouThresholdInput: String
        package var confidenceThresholdInput: String
        package var confidenceOutput: String
        package var coordinatesOutput: String
    }

    /// Schema name and version of this JSON.
    package var format = "openvision-coreml"
    package var version = 1
    /// `CoreMLConverter.revision` of the converter that wrote it.
    package var converterRevision: Int
    package var specificationVersion: Int
    /// Model.proto's model type ("neuralNetworkClassifier", "pipeline", …).
    package var modelType: String
    /// The sub-models' types, for pipelines.
    package var submodels: [String] = []
    package var inputs: [Feature]
    package var outputs: [Feature]
    package var predictedFeatureName: String
    package var predictedProbabilitiesName: String
    package var metadata: CoreMLMetadata
    /// Class labels of the classifier or of the NMS model.
    package var classLabels: [String]
    /// Per image input, how the caller prepares it.
    package var imageInputs: [String: ImageInput] = [:]
    /// Per image output, how its tensor becomes an image; nil when the model has none.
    package var imageOutputs: [String: ImageOutput]?
    package var nms: NMS?
    /// Neural network layers (and ML Programs, NMS models) by type.
    package var layerCounts: [String: Int] = [:]
    /// How the weights are stored ("float32", "8-bit LUT", …).
    package var weightFormats: [String] = []

    /// The JSON text (sorted keys).
    package func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    package static func decode(_ text: String) throws -> CoreMLInfo {
        do {
            return try JSONDecoder().decode(CoreMLInfo.self, from: Data(text.utf8))
        } catch {
            throw ConversionError(.syntax, "the Core ML description JSON is malformed: \(error)")
        }
    }
}
