import Foundation

/// A Core ML model as a `.mlmodel` file holds it (`Model` of coremltools' Model.proto, specification
/// versions 1–10): its description and the model itself. Read by `CoreMLSpec(bytes:)`; the neural
/// network's layers stay in the file's bytes and are decoded when converted.
///
/// Field numbers quoted in this folder are those of coremltools 9.0's `mlmodel/format/*.proto`
/// (BSD-3-Clause, Copyright (c) 2017-2019, Apple Inc.).
package struct CoreMLSpec: Sendable {
    /// Which model the file holds.
    package enum Kind: Sendable {
        /// `neuralNetwork` (500), `neuralNetworkClassifier` (403) or `neuralNetworkRegressor` (303).
        case neuralNetwork(NeuralNetworkSpec)
        /// `pipeline` (202), `pipelineClassifier` (200) or `pipelineRegressor` (201).
        case pipeline(CoreMLPipelineSpec)
        /// `nonMaximumSuppression` (610).
        case nonMaximumSuppression(CoreMLNMSSpec)
        /// `mlProgram` (502): the serialized `MILSpec.Program`, converted by the MIL side.
        case mlProgram(ArraySlice<UInt8>)
        /// `mlProgram` compiled by Xcode: `model.mil` read, its `@model_path` weights under `root`.
        case compiledProgram(CoreMLProgramBridge.Program, root: URL)
        /// `identity` (900).
        case identity
        /// One of Core ML's classic model types (GLM, tree ensemble, SVM, kNN, feature engineering).
        case classic(CoreMLClassicModel)
        /// Any other model type, by its Model.proto name (`treeEnsembleClassifier`, `visionFeaturePrint`, …).
        case other(String)
    }

    package var specificationVersion: Int
    package var description: CoreMLModelDescription
    package var kind: Kind
    package var isUpdatable: Bool

    /// Model.proto's name for the model type ("neuralNetworkClassifier", "pipeline", …).
    package var typeName: String {
        switch kind {
        case .neuralNetwork(let nn): nn.flavor.typeName
        case .pipeline(let p): p.flavor.typeName
        case .nonMaximumSuppression: "nonMaximumSuppression"
        case .mlProgram, .compiledProgram: "mlProgram"
        case .identity: "identity"
        case .classic(let model): model.type.rawValue
        case .other(let name): name
        }
    }
}

/// `ModelDescription`: the features a model takes and gives, and its metadata.
package struct CoreMLModelDescription: Sendable, Codable, Equatable {
    package var inputs: [CoreMLFeature] = []
    package var outputs: [CoreMLFeature] = []
    package var predictedFeatureName: String = ""
    package var predictedProbabilitiesName: String = ""
    package var metadata = CoreMLMetadata()

    package init() {}
}

/// `Metadata` (Model.proto).
package struct CoreMLMetadata: Sendable, Codable, Equatable {
    package var shortDescription: String = ""
    package var versionString: String = ""
    package var author: String = ""
    package var license: String = ""
    package var userDefined: [String: String] = [:]

    package init() {}
}

/// `FeatureDescription`: a named input or output and its type.
package struct CoreMLFeature: Sendable, Codable, Equatable {
    package var name: String
    package var shortDescription: String = ""
    package var type: CoreMLFeatureType
    package var isOptional: Bool = false

    package init(name: String, type: CoreMLFeatureType) {
        self.name = name
        self.type = type
    }
}

/// `FeatureType` (FeatureTypes.proto) with its size flexibility.
package enum CoreMLFeatureType: Sendable, Codable, Equatable {
    case int64
    case double
    case string
    case image(Image)
    case multiArray(MultiArray)
    /// A dictionary keyed by strings (`true`) or int64s, of doubles.
    case dictionary(stringKeys: Bool)
    /// A sequence of int64s or strings.
    case sequence(ofStrings: Bool)
    case state
    /// No type set.
    case invalid

    /// `ImageFeatureType`.
    package struct Image: Sendable, Codable, Equatable {
        /// `ColorSpace` (10 GRAYSCALE, 20 RGB, 30 BGR, 40 GRAYSCALE_FLOAT16).
        package enum ColorSpace: String, Sendable, Codable { case grayscale, rgb, bgr, grayscaleFloat16, invalid }
        /// The required size, or the default one when the size is flexible.
        package var width: Int
        package var height: Int
        package var colorSpace: ColorSpace
        /// `enumeratedSizes`: the allowed (width, height) pairs.
        package var enumeratedSizes: [[Int]] = []
        /// `imageSizeRange`: [lower, upper] of width and height (upper −1: unbounded).
        package var widthRange: [Int]?
        package var heightRange: [Int]?

        package var channels: Int { colorSpace == .grayscale || colorSpace == .grayscaleFloat16 ? 1 : 3 }
    }

    /// `ArrayFeatureType`.
    package struct MultiArray: Sendable, Codable, Equatable {
        /// `ArrayDataType`.
        package enum DataType: String, Sendable, Codable { case float32, double, int32, int8, float16, invalid }
        /// The required shape, or the default one when the shape is flexible (may be empty: then the
        /// first enumerated shape or the ranges' lower bounds).
        package var shape: [Int]
        package var dataType: DataType
        /// `enumeratedShapes`.
        package var enumeratedShapes: [[Int]] = []
        /// `shapeRange`: [lower, upper] per dimension (upper −1: unbounded).
        package var shapeRanges: [[Int]] = []
        /// `defaultOptionalValue` of an optional input.
        package var defaultValue: Double?

        /// The shape Core ML uses when the caller gives none: `shape`, else the first enumerated
        /// shape, else each range's lower bound (at least 1).
        package var defaultShape: [Int] {
            if !shape.isEmpty { return shape }
            if let first = enumeratedShapes.first { return first }
            return shapeRanges.map { max($0.first ?? 1, 1) }
        }
    }
}

/// `Pipeline` / `PipelineClassifier` / `PipelineRegressor`.
package struct CoreMLPipelineSpec: Sendable {
    package enum Flavor: Sendable {
        case plain, classifier, regressor
        package var typeName: String {
            switch self {
            case .plain: "pipeline"
            case .classifier: "pipelineClassifier"
            case .regressor: "pipelineRegressor"
            }
        }
    }

    package var flavor: Flavor
    package var models: [CoreMLSpec]
    package var names: [String]
}

/// `NonMaximumSuppression` (NonMaximumSuppression.proto).
package struct CoreMLNMSSpec: Sendable, Codable, Equatable {
    /// `pickTop.perClass`: suppress only among boxes of the same label (the argmax of their confidences).
    package var perClass: Bool
    package var classLabels: [String]
    package var iouThreshold: Double
    package var confidenceThreshold: Double
    package var confidenceInputFeatureName: String
    package var coordinatesInputFeatureName: String
    package var iouThresholdInputFeatureName: String
    package var confidenceThresholdInputFeatureName: String
    package var confidenceOutputFeatureName: String
    package var coordinatesOutputFeatureName: String
}
