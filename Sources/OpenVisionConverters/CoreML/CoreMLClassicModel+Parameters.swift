import Foundation

// The decoded parameters of each classic model type, read from the file by the functions of
// CoreMLClassicModel+Reader.swift. Field numbers are those of coremltools 9.0's GLMRegressor.proto,
// GLMClassifier.proto, TreeEnsemble.proto, SVM.proto, NearestNeighbors.proto, OneHotEncoder.proto,
// Imputer.proto, Scaler.proto, Normalizer.proto, FeatureVectorizer.proto, DictVectorizer.proto,
// CategoricalMapping.proto, ArrayFeatureExtractor.proto and DataStructures.proto.
extension CoreMLClassicModel {
    /// A classifier's labels: strings or int64s (`stringClassLabels` 100 / `int64ClassLabels` 101).
    package enum Labels: Sendable, Equatable {
        case strings([String])
        case int64s([Int64])

        package var count: Int {
            switch self {
            case .strings(let s): s.count
            case .int64s(let i): i.count
            }
        }

        /// The labels as text (int64s in decimal), as `CoreMLModelInfo.classLabels` lists them.
        package var text: [String] {
            switch self {
            case .strings(let s): s
            case .int64s(let i): i.map(String.init)
            }
        }
    }

    /// `GLMRegressor` / `GLMClassifier`: `weights` (1, rows of `value` 1), `offset` (2),
    /// `postEvaluationTransform` (3), `classEncoding` (4).
    package struct GLM: Sendable {
        package enum Transform: Sendable { case none, logit, probit }
        /// One row per output (a regressor's targets; a classifier's classes, or classes − 1).
        package var weights: [[Double]]
        /// One per row (empty: zeros).
        package var offsets: [Double]
        package var transform: Transform
        /// Classifiers: `OneVsRest` (true) or `ReferenceClass`.
        package var oneVsRest: Bool
        package var labels: Labels?
    }

    /// `TreeEnsembleParameters` with its transform (and a classifier's labels), node by node in file order.
    package struct TreeEnsemble: Sendable {
        /// `TreeNodeBehavior`: 0 ≤, 1 <, 2 ≥, 3 >, 4 =, 5 ≠ (branches), 6 leaf.
        package var behaviors: [UInt8] = []
        package var treeIds: [Int] = []
        package var nodeIds: [Int] = []
        package var featureIndices: [Int] = []
        package var values: [Double] = []
        package var trueChildren: [Int] = []
        package var falseChildren: [Int] = []
        package var missingTracksTrue: [Bool] = []
        /// Leaf contributions (`evaluationInfo`): node index into the arrays above, target, value.
        package var leafNodes: [Int] = []
        package var leafTargets: [Int] = []
        package var leafValues: [Double] = []
        /// `numPredictionDimensions`.
        package var dimensions = 0
        /// `basePredictionValue` (empty: zeros).
        package var base: [Double] = []
        /// `TreeEnsemblePostEvaluationTransform`: 0 none, 1 softmax, 2 logistic, 3 softmax with a zero class reference.
        package var transform = 0
        package var labels: Labels?
        /// The largest branch feature index, −1 without branches.
        package var maximumFeature = -1

        package var nodeCount: Int { behaviors.count }
    }

    /// `SupportVectorRegressor` / `SupportVectorClassifier`, support vectors made dense.
    package struct SVM: Sendable {
        /// `Kernel`: "LINEAR", "RBF", "POLY" or "SIGMOID" (ONNX's names).
        package var kernel: String
        /// ONNX's `kernel_params`: gamma, coef0 (Core ML's `c`), degree.
        package var kernelParameters: [Double]
        /// `vectors` × `features`, row-major.
        package var supportVectors: [Double]
        package var vectors: Int
        /// The features of a dense vector (the largest sparse index, for sparse ones).
        package var features: Int
        /// Regressor: one row; classifier: classes − 1 rows of `vectors` values.
        package var coefficients: [[Double]]
        package var rho: [Double]
        package var probA: [Double] = []
        package var probB: [Double] = []
        package var vectorsPerClass: [Int] = []
        package var labels: Labels?
    }

    /// `KNearestNeighborsClassifier`: a linear (or k-d tree) index of float samples, each with a label.
    package struct NearestNeighbors: Sendable {
        package var dimensions: Int
        /// `samples` × `dimensions`, row-major.
        package var samples: [Float]
        package var sampleCount: Int
        /// One per sample.
        package var labels: Labels
        /// `defaultStringLabel` / `defaultInt64Label`: the label of an empty index.
        package var defaultLabel: Labels
        /// `numberOfNeighbors.defaultValue` (or the old `k`).
        package var k: Int
        /// `inverseDistanceWeighting` (else uniform).
        package var inverseDistance: Bool
    }

    /// `OneHotEncoder`.
    package struct OneHotEncoder: Sendable {
        package var categories: Labels
        package var outputSparse: Bool
        /// `IgnoreUnknown` (all zeros) instead of `ErrorOnUnknown`.
        package var ignoreUnknown: Bool
    }

    /// `Imputer`: what replaces a missing value, and which value is missing (NaN when unset).
    package struct Imputer: Sendable {
        package enum Imputed: Sendable {
            case double(Double)
            case int64(Int64)
            case string(String)
            case doubles([Double])
            case int64s([Int64])
        }
        package enum Replaced: Sendable {
            case double(Double)
            case int64(Int64)
            case string(String)
        }
        package var imputed: Imputed
        package var replaced: Replaced
    }

    /// `Scaler`: `scale × (x + shift)`; each list empty, one value or one per feature.
    package struct Scaler: Sendable {
        package var shift: [Double]
        package var scale: [Double]
    }

    /// `Normalizer`: 0 LMax, 1 L1, 2 L2.
    package struct Normalizer: Sendable {
        package var norm: Int
    }

    /// `FeatureVectorizer`: the input features in order, with their widths.
    package struct FeatureVectorizer: Sendable {
        package var columns: [(name: String, width: Int)]
    }

    /// `DictVectorizer`: the keys in output order.
    package struct DictVectorizer: Sendable {
        package var keys: Labels
    }

    /// `CategoricalMapping`: string → int64 or int64 → string, with the value for an unknown input.
    package struct CategoricalMapping: Sendable {
        package var stringKeys: [String] = []
        package var int64Values: [Int64] = []
        package var int64Keys: [Int64] = []
        package var stringValues: [String] = []
        /// Whether the map goes from strings to int64s.
        package var fromStrings: Bool
        package var defaultString: String?
        package var defaultInt64: Int64?
    }

    /// `ArrayFeatureExtractor`: the indices to take.
    package struct ArrayFeatureExtractor: Sendable {
        package var indices: [Int]
    }
}
