import Foundation

/// Bounds on what a Core ML file may declare, so that a corrupt or hostile file is an error before
/// anything is allocated for it.
package enum CoreMLLimits {
    /// Nesting of pipelines within pipelines.
    package static let pipelineDepth = 8
    /// One dimension of a declared shape, image size or layer parameter.
    package static let dimension = 1 << 24
    /// Elements of one tensor whose shape the file states (a constant, a static fill, a reshape target).
    package static let elements = 1 << 28
    /// Rank of a tensor.
    package static let rank = 8
    /// Layers of a model, its pipeline's sub-models together (as TensorFlow graphs' nodes are bounded).
    package static let layers = 50_000
}

extension CoreMLSpec {
    /// Reads a `.mlmodel` file's bytes. Throws `ConversionError` `.syntax` for bytes that are not a
    /// Core ML model (malformed protobuf, no description, a specification version outside 1...10),
    /// `.invalidValue` for impossible declarations (negative sizes, unknown enum values, pipelines
    /// nested deeper than `CoreMLLimits.pipelineDepth`).
    package init(bytes: [UInt8]) throws {
        self = try bytes.withUnsafeBytes { raw in
            let message = try ProtoMessage(raw[...], context: "Model")
            return try Self.parse(message, bytes: bytes, depth: 0)
        }
        let layers = Self.layerCount(self)
        guard layers <= CoreMLLimits.layers else {
            throw ConversionError(
                .limitExceeded, "the model's networks have \(layers) layers, more than \(CoreMLLimits.layers)")
        }
    }

    /// The layers of every neural network in `spec` (a pipeline's sub-models together).
    static func layerCount(_ spec: CoreMLSpec) -> Int {
        switch spec.kind {
        case .neuralNetwork(let nn): nn.layers.count
        case .pipeline(let p): p.models.reduce(0) { $0 + layerCount($1) }
        default: 0
        }
    }

    /// Model.proto's `Model.Type` oneof: field number → name, for model types other than neural networks, pipelines,
    /// ML Programs and NMS (the classic ones among them are `CoreMLClassicModel.ModelType`).
    static let otherTypeNames: [Int: String] = [
        300: "glmRegressor", 301: "supportVectorRegressor", 302: "treeEnsembleRegressor",
        304: "bayesianProbitRegressor",
        400: "glmClassifier", 401: "supportVectorClassifier", 402: "treeEnsembleClassifier",
        404: "kNearestNeighborsClassifier", 501: "itemSimilarityRecommender", 555: "customModel", 556: "linkedModel",
        560: "classConfidenceThresholding", 600: "oneHotEncoder", 601: "imputer", 602: "featureVectorizer",
        603: "dictVectorizer", 604: "scaler", 606: "categoricalMapping", 607: "normalizer",
        609: "arrayFeatureExtractor",
        2000: "textClassifier", 2001: "wordTagger", 2002: "visionFeaturePrint", 2003: "soundAnalysisPreprocessing",
        2004: "gazetteer", 2005: "wordEmbedding", 2006: "audioFeaturePrint", 3000: "serializedModel",
    ]

    static func parse(_ m: ProtoMessage, bytes: [UInt8], depth: Int) throws -> CoreMLSpec {
        let version = try m.int64(1)
        guard (1...10).contains(version) else {
            throw ConversionError(
                .syntax, "\(m.context): specification version \(version) is not a Core ML one (1...10)")
        }
        guard let descriptionMessage = try m.message(2, "description") else {
            throw ConversionError(.syntax, "\(m.context): no model description")
        }
        let description = try parseDescription(descriptionMessage)
        let typeFields: Set<Int> = Set([200, 201, 202, 303, 403, 500, 502, 610, 900]).union(otherTypeNames.keys)
        let kind: Kind
        switch m.oneof(typeFields) {
        case 500?, 403?, 303?:
            let field = m.oneof([500, 403, 303])!
            let flavor: NeuralNetworkSpec.Flavor = field == 500 ? .plain : field == 403 ? .classifier : .regressor
            let nn = try m.message(field, flavor.typeName)!
            kind = .neuralNetwork(try parseNeuralNetwork(nn, flavor: flavor, bytes: bytes))
        case 200?, 201?, 202?:
            let field = m.oneof([200, 201, 202])!
            guard depth < CoreMLLimits.pipelineDepth else {
                throw ConversionError(
                    .invalidValue, "\(m.context): pipelines nested more than \(CoreMLLimits.pipelineDepth) deep")
            }
            let flavor: CoreMLPipelineSpec.Flavor = field == 202 ? .plain : field == 200 ? .classifier : .regressor
            var pipeline = try m.message(field, flavor.typeName)!
            if field != 202 {
                guard let inner = try pipeline.message(1, "pipeline") else {
                    throw ConversionError(.syntax, "\(pipeline.context): no pipeline")
                }
                pipeline = inner
            }
            var models: [CoreMLSpec] = []
            for (i, body) in try pipeline.messageBodies(1).enumerated() {
                let sub = try ProtoMessage(body, context: "\(pipeline.context) model \(i)")
                models.append(try parse(sub, bytes: bytes, depth: depth + 1))
            }
            kind = .pipeline(CoreMLPipelineSpec(flavor: flavor, models: models, names: try pipeline.repeatedStrings(2)))
        case 610?:
            kind = .nonMaximumSuppression(try parseNMS(try m.message(610, "nonMaximumSuppression")!))
        case 502?:
            let body = try m.bytes(502)!
            kind = .mlProgram(bytes[body.startIndex..<body.endIndex])
        case 900?:
            kind = .identity
        case let field? where CoreMLClassicModel.ModelType(field: field) != nil:
            let body = try m.bytes(field)!
            kind = .classic(
                CoreMLClassicModel(
                    type: CoreMLClassicModel.ModelType(field: field)!,
                    parameters: body.startIndex..<body.endIndex, bytes: bytes))
        case let field?:
            kind = .other(otherTypeNames[field] ?? "model type \(field)")
        case nil:
            kind = .other("(no model type)")
        }
        return CoreMLSpec(
            specificationVersion: Int(version), description: description, kind: kind, isUpdatable: try m.bool(10))
    }

    // MARK: Description

    static func parseDescription(_ d: ProtoMessage) throws -> CoreMLModelDescription {
        var result = CoreMLModelDescription()
        var inputs = try d.messages(1, "input")
        var outputs = try d.messages(10, "output")
        result.predictedFeatureName = try d.string(11)
        result.predictedProbabilitiesName = try d.string(12)
        // Multi-function models (specification 9): the default function's features.
        let functions = try d.messages(20, "function")
        if inputs.isEmpty && outputs.isEmpty, !functions.isEmpty {
            let defaultName = try d.string(21)
            var chosen = functions[0]
            for f in functions where try f.string(1) == defaultName { chosen = f }
            inputs = try chosen.messages(2, "input")
            outputs = try chosen.messages(3, "output")
            result.predictedFeatureName = try chosen.string(4)
            result.predictedProbabilitiesName = try chosen.string(5)
        }
        result.inputs = try inputs.map(parseFeature)
        result.outputs = try outputs.map(parseFeature)
        if let meta = try d.message(100, "metadata") {
            result.metadata.shortDescription = try meta.string(1)
            result.metadata.versionString = try meta.string(2)
            result.metadata.author = try meta.string(3)
            result.metadata.license = try meta.string(4)
            for entry in try meta.messages(100, "userDefined") {
                result.metadata.userDefined[try entry.string(1)] = try entry.string(2)
            }
        }
        return result
    }

    static func parseFeature(_ f: ProtoMessage) throws -> CoreMLFeature {
        let name = try f.string(1)
        guard !name.isEmpty else { throw ConversionError(.syntax, "\(f.context): a feature without a name") }
        var type = CoreMLFeatureType.invalid
        var optional = false
        if let t = try f.message(3, "'\(name)' type") {
            optional = try t.bool(1000)
            switch t.oneof([1, 2, 3, 4, 5, 6, 7, 8]) {
            case 1?: type = .int64
            case 2?: type = .double
            case 3?: type = .string
            case 4?: type = .image(try parseImage(try t.message(4, "imageType")!))
            case 5?: type = .multiArray(try parseArray(try t.message(5, "multiArrayType")!))
            case 6?:
                let dict = try t.message(6, "dictionaryType")!
                type = .dictionary(stringKeys: dict.oneof([1, 2]) == 2)
            case 7?:
                let seq = try t.message(7, "sequenceType")!
                type = .sequence(ofStrings: seq.oneof([1, 3]) == 3)
            case 8?: type = .state
            default: type = .invalid
            }
        }
        var feature = CoreMLFeature(name: name, type: type)
        feature.shortDescription = try f.string(2)
        feature.isOptional = optional
        return feature
    }

    static func sizeRange(_ r: ProtoMessage) throws -> [Int] {
        let lower = try r.count(1, limit: CoreMLLimits.dimension, what: "size range lower bound")
        let upper = try r.int64(2)
        guard upper < 0 || (upper >= Int64(lower) && upper <= Int64(CoreMLLimits.dimension)) else {
            throw ConversionError(.invalidValue, "\(r.context): size range \(lower)...\(upper)")
        }
        return [lower, upper < 0 ? -1 : Int(upper)]
    }

    static func parseImage(_ m: ProtoMessage) throws -> CoreMLFeatureType.Image {
        let space: CoreMLFeatureType.Image.ColorSpace
        switch try m.int32(3) {
        case 10: space = .grayscale
        case 20: space = .rgb
        case 30: space = .bgr
        case 40: space = .grayscaleFloat16
        default: space = .invalid
        }
        var image = CoreMLFeatureType.Image(
            width: try m.count(1, limit: CoreMLLimits.dimension, what: "image width"),
            height: try m.count(2, limit: CoreMLLimits.dimension, what: "image height"),
            colorSpace: space)
        if let sizes = try m.message(21, "enumeratedSizes") {
            for s in try sizes.messages(1, "size") {
                image.enumeratedSizes.append([
                    try s.count(1, limit: CoreMLLimits.dimension, what: "image width"),
                    try s.count(2, limit: CoreMLLimits.dimension, what: "image height"),
                ])
            }
            if image.width == 0 || image.height == 0, let first = image.enumeratedSizes.first {
                image.width = first[0]
                image.height = first[1]
            }
        }
        if let range = try m.message(31, "imageSizeRange") {
            image.widthRange = try range.message(1, "widthRange").map(sizeRange) ?? [0, -1]
            image.heightRange = try range.message(2, "heightRange").map(sizeRange) ?? [0, -1]
            if image.width == 0 { image.width = max(image.widthRange![0], 1) }
            if image.height == 0 { image.height = max(image.heightRange![0], 1) }
        }
        return image
    }

    static func parseArray(_ m: ProtoMessage) throws -> CoreMLFeatureType.MultiArray {
        let type: CoreMLFeatureType.MultiArray.DataType
        switch try m.int32(2) {
        case 65568: type = .float32
        case 65600: type = .double
        case 131104: type = .int32
        case 131080: type = .int8
        case 65552: type = .float16
        default: type = .invalid
        }
        func shape(_ values: [Int]) throws -> [Int] {
            guard values.count <= CoreMLLimits.rank else {
                throw ConversionError(.invalidValue, "\(m.context): rank \(values.count) exceeds \(CoreMLLimits.rank)")
            }
            return values
        }
        var array = CoreMLFeatureType.MultiArray(
            shape: try shape(try m.repeatedCounts(1, limit: CoreMLLimits.dimension, what: "dimension")), dataType: type)
        if let e = try m.message(21, "enumeratedShapes") {
            for s in try e.messages(1, "shape") {
                array.enumeratedShapes.append(
                    try shape(try s.repeatedCounts(1, limit: CoreMLLimits.dimension, what: "dimension")))
            }
        }
        if let r = try m.message(31, "shapeRange") {
            array.shapeRanges = try r.messages(1, "sizeRange").map(sizeRange)
            _ = try shape(array.shapeRanges.map { $0[0] })
        }
        switch m.oneof([41, 51, 61]) {
        case 41?: array.defaultValue = Double(try m.int32(41))
        case 51?: array.defaultValue = Double(try m.float(51))
        case 61?: array.defaultValue = try m.double(61)
        default: break
        }
        return array
    }

    // MARK: Models

    static func classLabels(_ m: ProtoMessage, strings: Int, ints: Int) throws -> [String] {
        switch m.oneof([strings, ints]) {
        case strings?: return try m.message(strings, "stringClassLabels")!.repeatedStrings(1)
        case ints?: return try m.message(ints, "int64ClassLabels")!.repeatedInt64(1).map { String($0) }
        default: return []
        }
    }

    static func parseNeuralNetwork(_ m: ProtoMessage, flavor: NeuralNetworkSpec.Flavor, bytes: [UInt8]) throws
        -> NeuralNetworkSpec
    {
        var layers: [NeuralNetworkLayer] = []
        let layerFields = Set(NeuralNetworkLayer.typeNames.keys)
        for (i, body) in try m.messageBodies(1).enumerated() {
            guard i < CoreMLLimits.layers else {
                throw ConversionError(.limitExceeded, "\(m.context): more than \(CoreMLLimits.layers) layers")
            }
            let l = try ProtoMessage(body, context: "\(m.context) layer \(i)")
            let name = try l.string(1)
            let typeField = l.oneof(layerFields) ?? 0
            var range = 0..<0
            if typeField != 0, let params = try l.bytes(typeField) { range = params.startIndex..<params.endIndex }
            layers.append(
                NeuralNetworkLayer(
                    name: name.isEmpty ? "layer\(i)" : name, inputs: try l.repeatedStrings(2),
                    outputs: try l.repeatedStrings(3), typeField: typeField, parameters: range))
        }
        var preprocessing: [NeuralNetworkSpec.Preprocessing] = []
        for p in try m.messages(2, "preprocessing") {
            var item = NeuralNetworkSpec.Preprocessing(featureName: try p.string(1))
            if let s = try p.message(10, "scaler") {
                item.hasScaler = true
                item.channelScale = try s.float(10)
                item.blueBias = try s.float(20)
                item.greenBias = try s.float(21)
                item.redBias = try s.float(22)
                item.grayBias = try s.float(30)
            }
            if let mean = try p.message(11, "meanImage") {
                item.meanImage = try mean.repeatedFloats(1)
            }
            preprocessing.append(item)
        }
        let arrayMapping = try m.int32(5)
        let imageMapping = try m.int32(6)
        guard (0...1).contains(arrayMapping), (0...1).contains(imageMapping) else {
            throw ConversionError(
                .invalidValue,
                "\(m.context): unknown input shape mapping (array \(arrayMapping), image \(imageMapping))")
        }
        return NeuralNetworkSpec(
            flavor: flavor, layers: layers, preprocessing: preprocessing, arrayInputShapeMapping: Int(arrayMapping),
            imageInputShapeMapping: Int(imageMapping),
            classLabels: flavor == .classifier ? try classLabels(m, strings: 100, ints: 101) : [],
            labelProbabilityLayerName: flavor == .classifier ? try m.string(200) : "", bytes: bytes)
    }

    static func parseNMS(_ m: ProtoMessage) throws -> CoreMLNMSSpec {
        let perClass = try m.message(1, "pickTop")?.bool(1) ?? false
        let iou = try m.double(110)
        let confidence = try m.double(111)
        guard iou.isFinite, confidence.isFinite else {
            throw ConversionError(
                .invalidValue, "\(m.context): thresholds must be finite (IoU \(iou), confidence \(confidence))")
        }
        return CoreMLNMSSpec(
            perClass: perClass, classLabels: try classLabels(m, strings: 100, ints: 101), iouThreshold: iou,
            confidenceThreshold: confidence, confidenceInputFeatureName: try m.string(200),
            coordinatesInputFeatureName: try m.string(201), iouThresholdInputFeatureName: try m.string(202),
            confidenceThresholdInputFeatureName: try m.string(203), confidenceOutputFeatureName: try m.string(210),
            coordinatesOutputFeatureName: try m.string(211))
    }
}
