import Foundation

/// Core ML's classic model types as ONNX: ONNX-ML (`ai.onnx.ml`, operator set 4) operators where ONNX Runtime's CPU
/// kernels compute at Core ML's precision — `TreeEnsembleRegressor` (thresholds and leaf values as double tensors,
/// summed in double), `SVMRegressor` / `SVMClassifier` (float, as ONNX defines them), `OneHotEncoder`,
/// `DictVectorizer`, `LabelEncoder`, `ArrayFeatureExtractor` — and standard operators in double where ONNX Runtime's
/// ONNX-ML kernel is float-only or missing (`LinearRegressor`, `LinearClassifier`, `Scaler`, `Normalizer`,
/// `FeatureVectorizer`, `Imputer` for doubles) or where ONNX-ML has none (k-nearest neighbours). Core ML computes these
/// models in double; their features here are double `[1, n]` rows (scalars `[1, 1]`), int64 and string scalars keep
/// their types, and a classifier's label is computed in the graph (`Gather` of its labels) beside its probabilities
/// (`[1, classes]`, double, in label order).
extension CoreMLToONNX {
    /// ONNX-ML operator set used.
    static let onnxMLOpset = 4

    mutating func lowerClassic(_ model: CoreMLClassicModel, description d: CoreMLModelDescription, prefix: String)
        throws
    {
        layerCounts[model.type.rawValue, default: 0] += 1
        classicCount += 1
        let name = "\(prefix)\(model.type.rawValue)\(classicCount)"
        switch model.type {
        case .glmRegressor: try lowerGLMRegressor(try model.glm(), d, name)
        case .glmClassifier: try lowerGLMClassifier(try model.glm(), d, name)
        case .treeEnsembleRegressor, .treeEnsembleClassifier: try lowerTreeEnsemble(try model.treeEnsemble(), d, name)
        case .supportVectorRegressor, .supportVectorClassifier: try lowerSVM(try model.svm(), d, name)
        case .kNearestNeighborsClassifier: try lowerNearestNeighbors(try model.nearestNeighbors(), d, name)
        case .oneHotEncoder: try lowerOneHotEncoder(try model.oneHotEncoder(), d, name)
        case .imputer: try lowerImputer(try model.imputer(), d, name)
        case .scaler: try lowerScaler(try model.scaler(), d, name)
        case .normalizer: try lowerNormalizer(try model.normalizer(), d, name)
        case .featureVectorizer: try lowerFeatureVectorizer(try model.featureVectorizer(), d, name)
        case .dictVectorizer: try lowerDictVectorizer(try model.dictVectorizer(), d, name)
        case .categoricalMapping: try lowerCategoricalMapping(try model.categoricalMapping(), d, name)
        case .arrayFeatureExtractor: try lowerArrayFeatureExtractor(try model.arrayFeatureExtractor(), d, name)
        }
    }

    // MARK: Helpers

    /// An ONNX-ML node.
    mutating func addML(_ op: String, _ inputs: [String], _ outputs: [String], _ attributes: [ONNXWriter.Attribute]) {
        usesONNXML = true
        graph.nodes.append(
            ONNXWriter.Node(
                opType: op, name: outputs[0] + "/" + op, inputs: inputs, outputs: outputs,
                attributes: attributes, domain: "ai.onnx.ml"))
    }

    mutating func doubles(_ name: String, _ values: [Double], _ dims: [Int]) -> String {
        graph.initializers.append(ONNXWriter.Tensor(name: name, dims: dims, doubles: values))
        return name
    }

    /// `value` as `type` (itself when it already is).
    mutating func cast(_ value: String, from: ONNXWriter.DataType, to type: ONNXWriter.DataType, _ name: String)
        -> String
    {
        guard from != type else { return value }
        add("Cast", [value], name, [.init("to", .int(Int(type.rawValue)))])
        return name
    }

    /// The one output of a model with a single output (its description's first).
    static func onlyOutput(_ d: CoreMLModelDescription, _ what: String) throws -> CoreMLFeature {
        guard let output = d.outputs.first else {
            throw ConversionError(.syntax, "\(what): the model describes no output")
        }
        return output
    }

    /// Feature `name` as a `[1, width]` row of `type` (nil: of its own type, int64 as double): its elements in order (a
    /// scalar is one). Strings and dictionaries are refused naming the model.
    mutating func row(_ name: String, type: ONNXWriter.DataType?, value: String, what: String) throws -> (String, Int) {
        let f = try feature(name)
        guard f.type != .string, !f.isMap else {
            throw ConversionError(
                .invalidValue,
                "\(what) reads '\(name)', a \(f.type == .string ? "string" : "dictionary"); it takes numbers")
        }
        guard let shape = f.shape, shape.allSatisfy({ $0 > 0 }) else {
            throw ConversionError(.invalidValue, "\(what) reads '\(name)', whose size is not known when converting")
        }
        let width = shape.reduce(1, *)
        var v = f.value
        if shape != [1, width] {
            add("Reshape", [v, int64s("\(value)_shape", [1, width])], "\(value)_row")
            v = "\(value)_row"
        }
        return (cast(v, from: f.type, to: type ?? (f.type == .float ? .float : .double), value), width)
    }

    /// The type of the row `inputRow(_:type: nil, …)` gives: float when every input is float, else double.
    func rowType(_ d: CoreMLModelDescription) -> ONNXWriter.DataType {
        d.inputs.allSatisfy { features[$0.name]?.type == .float } ? .float : .double
    }

    /// The model's inputs as one `[1, width]` row of `type` (nil: float when every input is float, else double): each
    /// input's elements in description order, concatenated.
    mutating func inputRow(_ d: CoreMLModelDescription, type: ONNXWriter.DataType?, _ name: String, what: String) throws
        -> (String, Int)
    {
        guard !d.inputs.isEmpty else { throw ConversionError(.syntax, "\(what): the model describes no input") }
        let type = type ?? rowType(d)
        var parts: [String] = []
        var width = 0
        for (i, input) in d.inputs.enumerated() {
            let (v, w) = try row(input.name, type: type, value: "\(name)/x\(i)", what: what)
            parts.append(v)
            width += w
        }
        guard parts.count > 1 else { return (parts[0], width) }
        add("Concat", parts, "\(name)/x", [.init("axis", .int(1))])
        return ("\(name)/x", width)
    }

    /// The labels as a constant tensor (strings or int64s) of `count` values.
    mutating func labelTensor(_ labels: CoreMLClassicModel.Labels, _ name: String) -> String {
        switch labels {
        case .strings(let s): graph.initializers.append(ONNXWriter.Tensor(name: name, dims: [s.count], strings: s))
        case .int64s(let i): graph.initializers.append(ONNXWriter.Tensor(name: name, dims: [i.count], int64s: i))
        }
        return name
    }

    /// `labels[index]`: a `[1]` string or int64 tensor (`Gather` of the labels).
    mutating func label(_ labels: CoreMLClassicModel.Labels, index: String, _ name: String) -> String {
        add("Gather", [labelTensor(labels, "\(name)/labels"), index], "\(name)/label", [.init("axis", .int(0))])
        return "\(name)/label"
    }

    /// A classifier's outputs: its label `label` (a `[1]` tensor of `labels`' type) under the description's predicted
    /// feature name (else its string or int64 output), and its `[1, classes]` probabilities (of `type`) under the
    /// predicted probabilities name (else its dictionary output); `classes` when they are not one per label.
    mutating func classifierOutputs(
        _ d: CoreMLModelDescription, labels: CoreMLClassicModel.Labels, label: String,
        probabilities: String?, type: ONNXWriter.DataType = .float, classes: Int? = nil,
        _ name: String
    ) throws {
        let isInt: Bool
        if case .int64s = labels { isInt = true } else { isInt = false }
        let labelName =
            !d.predictedFeatureName.isEmpty
            ? d.predictedFeatureName
            : d.outputs.first(where: { $0.type == .string || $0.type == .int64 })?.name
        guard let labelName else { throw ConversionError(.syntax, "\(name): the classifier describes no label output") }
        features[labelName] = Feature(value: label, shape: [1], type: isInt ? .int64 : .string)
        let probabilityName =
            !d.predictedProbabilitiesName.isEmpty
            ? d.predictedProbabilitiesName
            : d.outputs.first(where: { if case .dictionary = $0.type { return true } else { return false } })?.name
        if let probabilityName, let probabilities {
            features[probabilityName] = Feature(value: probabilities, shape: [1, classes ?? labels.count], type: type)
        } else if let probabilityName {
            throw ConversionError(
                .unsupported, "\(name): the classifier gives no probabilities for its output '\(probabilityName)'")
        }
    }

    /// The ONNX-ML classifiers' label attribute (`classlabels_strings` / `classlabels_ints` or `…_int64s`).
    static func labelAttribute(_ labels: CoreMLClassicModel.Labels, ints: String) -> ONNXWriter.Attribute {
        switch labels {
        case .strings(let s): .init("classlabels_strings", .strings(s))
        case .int64s(let i): .init(ints, .ints(i.map { Int($0) }))
        }
    }

    /// A constant of `type` (float or double).
    mutating func constant(_ name: String, _ values: [Double], _ dims: [Int], type: ONNXWriter.DataType) -> String {
        type == .double ? doubles(name, values, dims) : floats(name, values.map { Float($0) }, dims)
    }

    /// `[1, 1] → [1, 2]`: the probabilities of the two classes from the second one's (of `type`).
    mutating func binaryProbabilities(_ p1: String, type: ONNXWriter.DataType = .double, _ name: String) -> String {
        add("Sub", [constant("\(name)/one", [1], [1, 1], type: type), p1], "\(name)/p0")
        add("Concat", ["\(name)/p0", p1], "\(name)/probabilities", [.init("axis", .int(1))])
        return "\(name)/probabilities"
    }

    /// The standard normal distribution function Φ(x) = (1 + erf(x / √2)) / 2 of `value`, in float (ONNX Runtime's
    /// `Erf` is float-only).
    mutating func probit(_ value: String, from type: ONNXWriter.DataType, _ name: String) -> String {
        let x = cast(value, from: type, to: .float, "\(name)/probit_x")
        add("Mul", [x, floats("\(name)/probit_scale", [Float(0.5.squareRoot())], [1])], "\(name)/probit_z")
        add("Erf", ["\(name)/probit_z"], "\(name)/probit_erf")
        add("Mul", ["\(name)/probit_erf", floats("\(name)/probit_half", [0.5], [1])], "\(name)/probit_half_erf")
        add("Add", ["\(name)/probit_half_erf", floats("\(name)/probit_offset", [0.5], [1])], "\(name)/probit")
        return "\(name)/probit"
    }

    // MARK: Generalized linear models

    /// `[1, rows]` scores `x · weightsᵀ + offsets` (`Gemm`) in double, or in float when every input is float (a network's
    /// output: Core ML's double would add nothing the input has); and that type.
    mutating func linearScores(
        _ glm: CoreMLClassicModel.GLM, _ d: CoreMLModelDescription, _ name: String,
        what: String
    ) throws -> (String, ONNXWriter.DataType) {
        let type = rowType(d)
        let (x, width) = try inputRow(d, type: type, name, what: what)
        guard width == glm.weights[0].count else {
            throw ConversionError(
                .invalidValue, "\(what) has \(glm.weights[0].count) weights per row for \(width) input values")
        }
        var transposed = [Double](repeating: 0, count: width * glm.weights.count)
        for (r, row) in glm.weights.enumerated() {
            for (c, w) in row.enumerated() { transposed[c * glm.weights.count + r] = w }
        }
        add(
            "Gemm",
            [
                x, constant("\(name)/weights", transposed, [width, glm.weights.count], type: type),
                constant("\(name)/offsets", glm.offsets, [glm.weights.count], type: type),
            ], "\(name)/scores")
        return ("\(name)/scores", type)
    }

    mutating func lowerGLMRegressor(_ glm: CoreMLClassicModel.GLM, _ d: CoreMLModelDescription, _ name: String) throws {
        var (y, type) = try linearScores(glm, d, name, what: "glmRegressor")
        switch glm.transform {
        case .none: break
        case .logit:
            add("Sigmoid", [y], "\(name)/logit")
            y = "\(name)/logit"
        case .probit:
            y = probit(y, from: type, name)
            type = .float
        }
        features[try Self.onlyOutput(d, name).name] = Feature(value: y, shape: [1, glm.weights.count], type: type)
    }

    /// ONNX-ML `LinearClassifier` (float) with the logistic link: two classes from one row (`p₁ = σ(z)`, ONNX Runtime's
    /// binary form), one-vs-rest rows each through σ then normalized to sum 1 (ONNX-ML `Normalizer`), reference-class
    /// rows (classes − 1, the first class the reference) as a softmax with a zero row for the first class. The probit link
    /// (two classes only) is Φ(z) in standard operators: ONNX's `PROBIT` transform is the inverse function. The label is
    /// the most probable class.
    mutating func lowerGLMClassifier(_ glm: CoreMLClassicModel.GLM, _ d: CoreMLModelDescription, _ name: String) throws
    {
        let labels = glm.labels!
        let classes = labels.count
        let rows = glm.weights.count
        var weights = glm.weights
        var offsets = glm.offsets
        let transform: String
        if glm.transform == .probit {
            // [−z, z] / √2 (LinearClassifier's label: the larger, the first on a tie), then Φ of each: (1 + erf) / 2.
            guard classes == 2 && rows == 1 else {
                throw ConversionError(
                    .invalidValue,
                    "glmClassifier: probit is for two classes with one weight row, not \(classes) "
                        + "classes and \(rows) rows")
            }
            let s = 0.5.squareRoot()
            weights = [weights[0].map { -$0 * s }, weights[0].map { $0 * s }]
            offsets = [-offsets[0] * s, offsets[0] * s]
            transform = "NONE"
        } else if classes == 2 && rows == 1 || glm.oneVsRest && rows == classes {
            transform = "LOGISTIC"
        } else if !glm.oneVsRest && rows == classes - 1 {
            weights.insert([Double](repeating: 0, count: weights[0].count), at: 0)
            offsets.insert(0, at: 0)
            transform = "SOFTMAX"
        } else {
            throw ConversionError(
                .invalidValue,
                "glmClassifier: \(rows) weight rows for \(classes) classes with "
                    + "\(glm.oneVsRest ? "one-vs-rest (one row per class)" : "a reference class (classes − 1 rows)")")
        }
        let (x, width) = try inputRow(d, type: nil, name, what: "glmClassifier")
        guard width == weights[0].count else {
            throw ConversionError(
                .invalidValue, "glmClassifier has \(weights[0].count) weights per row for \(width) input values")
        }
        addML(
            "LinearClassifier", [x], ["\(name)/label", "\(name)/scores"],
            [
                .init("coefficients", .floats(weights.flatMap { $0 }.map { Float($0) })),
                .init("intercepts", .floats(offsets.map { Float($0) })),
                .init("post_transform", .string(transform)), Self.labelAttribute(labels, ints: "classlabels_ints"),
            ])
        var probabilities = "\(name)/scores"
        if transform == "LOGISTIC" && rows > 1 {
            addML("Normalizer", [probabilities], ["\(name)/probabilities"], [.init("norm", .string("L1"))])
            probabilities = "\(name)/probabilities"
        } else if transform == "NONE" {
            add("Erf", [probabilities], "\(name)/erf")
            add("Mul", ["\(name)/erf", floats("\(name)/half", [0.5], [1])], "\(name)/half_erf")
            add("Add", ["\(name)/half_erf", floats("\(name)/offset", [0.5], [1])], "\(name)/probabilities")
            probabilities = "\(name)/probabilities"
        }
        try classifierOutputs(d, labels: labels, label: "\(name)/label", probabilities: probabilities, name)
    }
}
