import Foundation

/// One of Core ML's classic (non-neural) model types, as the file holds it: its type and where its
/// parameters are in the file's bytes. The parameters are decoded when the model is converted
/// (`CoreMLClassicModel+Reader.swift`), so that describing a file (`models info`) does not decode a
/// forest of a million nodes.
package struct CoreMLClassicModel: Sendable {
    /// The model types converted to ONNX-ML (and standard ONNX) operators, by Model.proto name.
    package enum ModelType: String, Sendable, CaseIterable {
        case glmRegressor, supportVectorRegressor, treeEnsembleRegressor
        case glmClassifier, supportVectorClassifier, treeEnsembleClassifier, kNearestNeighborsClassifier
        case oneHotEncoder, imputer, featureVectorizer, dictVectorizer, scaler, categoricalMapping, normalizer
        case arrayFeatureExtractor

        /// The field of Model.proto's `Type` oneof holding it.
        package var field: Int {
            switch self {
            case .glmRegressor: 300
            case .supportVectorRegressor: 301
            case .treeEnsembleRegressor: 302
            case .glmClassifier: 400
            case .supportVectorClassifier: 401
            case .treeEnsembleClassifier: 402
            case .kNearestNeighborsClassifier: 404
            case .oneHotEncoder: 600
            case .imputer: 601
            case .featureVectorizer: 602
            case .dictVectorizer: 603
            case .scaler: 604
            case .categoricalMapping: 606
            case .normalizer: 607
            case .arrayFeatureExtractor: 609
            }
        }

        /// The type whose parameters are in Model.proto field `field`, if it is a classic one.
        package init?(field: Int) {
            guard let type = Self.allCases.first(where: { $0.field == field }) else { return nil }
            self = type
        }

        /// Whether the model gives a class label (and may give probabilities by label).
        package var isClassifier: Bool {
            switch self {
            case .glmClassifier, .supportVectorClassifier, .treeEnsembleClassifier, .kNearestNeighborsClassifier: true
            default: false
            }
        }
    }

    package var type: ModelType
    /// The bytes of the model's parameter message in `bytes`.
    package var parameters: Range<Int>
    /// The whole file (shared, not copied).
    let bytes: [UInt8]

    package init(type: ModelType, parameters: Range<Int>, bytes: [UInt8]) {
        self.type = type
        self.parameters = parameters
        self.bytes = bytes
    }

    /// Calls `body` with the parameter message (valid only during the call).
    func withMessage<R>(_ body: (ProtoMessage) throws -> R) throws -> R {
        try bytes.withUnsafeBytes { raw in
            try body(try ProtoMessage(raw[parameters], context: type.rawValue))
        }
    }
}

/// Bounds on a classic model's parameters beyond those of `CoreMLLimits`: sizes the converter would
/// allocate for without the file holding them (a dense copy of sparse support vectors, base values of a
/// declared dimension count), and structures a runtime would walk (tree nodes).
package enum CoreMLClassicLimits {
    /// Nodes of one tree ensemble, over all its trees (about 250 bytes each through conversion and ONNX Runtime:
    /// 1 GiB at the bound).
    package static let treeNodes = 1 << 22
    /// Prediction dimensions (classes, targets) of a tree ensemble, classes of a classifier, categories of an encoder.
    package static let classes = 1 << 20
    /// Values of the dense support-vector matrix (support vectors × features) and of a kNN index (samples ×
    /// dimensions), as float32: 1 GiB.
    package static let denseValues = 1 << 28
}
