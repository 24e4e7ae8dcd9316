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

    mutating func lowerClassic(_ model: CoreMLClassicModel, description d: CoreMLModelDescription, prefix: String) throws {
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
        graph.nodes.append(ONNXWriter.Node(opType: op, name: outputs[0] + "/" + op, inputs: inputs, outputs: outputs,
                                           attributes: attributes, domain: "ai.onnx.ml"))
    }

    mutating func doubles(_ name: String, _ values: [Double], _ dims: [Int]) -> String {
        graph.initializers.append(ONNXWriter.Tensor(name: name, dims: dims, doubles: values))
        return name
    }

    /// `value` as `type` (itself when it already is).
    mutating func cast(_ value: String, from: ONNXWriter.DataType, to type: ONNXWriter.DataType, _ name: String) -> String {
        guard from != type else { return value }
        add("Cast", [value], name, [.init("to", .int(Int(type.rawValue)))])
        return name
    }

    /// The one output of a model with a single output (its description's first).
    static func onlyOutput(_ d: CoreMLModelDescription, _ what: String) throws -> CoreMLFeature {
        guard let output = d.outputs.first else { throw ConversionError(.syntax, "\(what): the model describes no output") }
        return output
    }

    /// Feature `name` as a `[1, width]` row of `type`: its elements in order (a scalar is one). Strings and
    /// dictionaries are refused naming the model.
    mutating func row(_ name: String, type: ONNXWriter.DataType, value: String, what: String) throws -> (String, Int) {
        let f = try feature(name)
        guard f.type != .string, !f.isMap else {
            throw ConversionError(.invalidValue, "\(what) reads '\(name)', a \(f.type == .string ? "string" : "dictionary"); it takes numbers")
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
        return (cast(v, from: f.type, to: type, value), width)
    }

    /// The model's inputs as one `[1, width]` row of `type`: each input's elements in description order, concatenated.
    mutating func inputRow(_ d: CoreMLModelDescription, type: ONNXWriter.DataType, _ name: String, what: String) throws -> (String, Int) {
        guard !d.inputs.isEmpty else { throw ConversionError(.syntax, "\(what): the model describes no input") }
        var parts: [String] = [], width = 0
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

    /// A classifier's outputs: its label (`labels[index]`, a `[1]` string or int64 tensor) under the description's
    /// predicted feature name (else its string or int64 output), and its `[1, classes]` double probabilities under the
    /// predicted probabilities name (else its dictionary output); `classes` when the probabilities are not one per label.
    mutating func classifierOutputs(_ d: CoreMLModelDescription, labels: CoreMLClassicModel.Labels, index: String,
                                    probabilities: String?, classes: Int? = nil, _ name: String) throws {
        let isInt: Bool
        if case .int64s = labels { isInt = true } else { isInt = false }
        let labelName = !d.predictedFeatureName.isEmpty ? d.predictedFeatureName
            : d.outputs.first(where: { $0.type == .string || $0.type == .int64 })?.name
        guard let labelName else { throw ConversionError(.syntax, "\(name): the classifier describes no label output") }
        add("Gather", [labelTensor(labels, "\(name)/labels"), index], "\(name)/label", [.init("axis", .int(0))])
        features[labelName] = Feature(value: "\(name)/label", shape: [1], type: isInt ? .int64 : .string)
        let probabilityName = !d.predictedProbabilitiesName.isEmpty ? d.predictedProbabilitiesName
            : d.outputs.first(where: { if case .dictionary = $0.type { return true } else { return false } })?.name
        if let probabilityName, let probabilities {
            features[probabilityName] = Feature(value: probabilities, shape: [1, classes ?? labels.count], type: .double)
        } else if let probabilityName {
            throw ConversionError(.unsupported, "\(name): the classifier gives no probabilities for its output '\(probabilityName)'")
        }
    }

    /// `[1, 1] → [1, 2]`: the probabilities of the two classes from the second one's.
    mutating func binaryProbabilities(_ p1: String, _ name: String) -> String {
        add("Sub", [doubles("\(name)/one", [1], [1, 1]), p1], "\(name)/p0")
        add("Concat", ["\(name)/p0", p1], "\(name)/probabilities", [.init("axis", .int(1))])
        return "\(name)/probabilities"
    }

    /// The standard normal distribution function Φ of double `value` (ONNX Runtime's `Erf` is float-only).
    mutating func probit(_ value: String, _ name: String) -> String {
        let x = cast(value, from: .double, to: .float, "\(name)/probit_x")
        add("Mul", [x, floats("\(name)/probit_scale", [Float(0.5.squareRoot())], [1])], "\(name)/probit_z")
        add("Erf", ["\(name)/probit_z"], "\(name)/probit_erf")
        add("Add", ["\(name)/probit_erf", floats("\(name)/probit_one", [1], [1])], "\(name)/probit_sum")
        add("Mul", ["\(name)/probit_sum", floats("\(name)/probit_half", [0.5], [1])], "\(name)/probit_f")
        return cast("\(name)/probit_f", from: .float, to: .double, "\(name)/probit")
    }

    // MARK: Generalized linear models

    /// `[1, rows]` double scores `x · weightsᵀ + offsets`.
    mutating func linearScores(_ glm: CoreMLClassicModel.GLM, _ d: CoreMLModelDescription, _ name: String, what: String) throws -> String {
        let (x, width) = try inputRow(d, type: .double, name, what: what)
        guard width == glm.weights[0].count else {
            throw ConversionError(.invalidValue, "\(what) has \(glm.weights[0].count) weights per row for \(width) input values")
        }
        var transposed = [Double](repeating: 0, count: width * glm.weights.count)
        for (r, row) in glm.weights.enumerated() { for (c, w) in row.enumerated() { transposed[c * glm.weights.count + r] = w } }
        add("Gemm", [x, doubles("\(name)/weights", transposed, [width, glm.weights.count]),
                     doubles("\(name)/offsets", glm.offsets, [glm.weights.count])], "\(name)/scores")
        return "\(name)/scores"
    }

    mutating func lowerGLMRegressor(_ glm: CoreMLClassicModel.GLM, _ d: CoreMLModelDescription, _ name: String) throws {
        var y = try linearScores(glm, d, name, what: "glmRegressor")
        switch glm.transform {
        case .none: break
        case .logit: add("Sigmoid", [y], "\(name)/logit"); y = "\(name)/logit"
        case .probit: y = probit(y, name)
        }
        features[try Self.onlyOutput(d, name).name] = Feature(value: y, shape: [1, glm.weights.count], type: .double)
    }

    /// Probabilities: two classes from one row (`p₁ = f(z)`); one-vs-rest rows each through the link, normalized to
    /// sum 1; reference-class rows (classes − 1, the first class the reference) through a softmax with a zero score
    /// for the first class. Probit is Core ML's for two classes only. The label is the first most probable class.
    mutating func lowerGLMClassifier(_ glm: CoreMLClassicModel.GLM, _ d: CoreMLModelDescription, _ name: String) throws {
        let labels = glm.labels!
        let classes = labels.count, rows = glm.weights.count
        let z = try linearScores(glm, d, name, what: "glmClassifier")
        var probabilities: String
        if classes == 2 && rows == 1 {
            var p1 = "\(name)/p1"
            if glm.transform == .probit { p1 = probit(z, name) } else { add("Sigmoid", [z], p1) }
            probabilities = binaryProbabilities(p1, name)
        } else if glm.transform == .probit {
            throw ConversionError(.invalidValue, "glmClassifier: probit is for two classes with one weight row, not \(classes) "
                                  + "classes and \(rows) rows")
        } else if glm.oneVsRest && rows == classes {
            add("Sigmoid", [z], "\(name)/each")
            add("ReduceSum", ["\(name)/each", int64s("\(name)/axis", [1])], "\(name)/sum", [.init("keepdims", .int(1))])
            add("Div", ["\(name)/each", "\(name)/sum"], "\(name)/probabilities")
            probabilities = "\(name)/probabilities"
        } else if !glm.oneVsRest && rows == classes - 1 {
            add("Concat", [doubles("\(name)/reference", [0], [1, 1]), z], "\(name)/all", [.init("axis", .int(1))])
            add("Softmax", ["\(name)/all"], "\(name)/probabilities", [.init("axis", .int(1))])
            probabilities = "\(name)/probabilities"
        } else {
            throw ConversionError(.invalidValue, "glmClassifier: \(rows) weight rows for \(classes) classes with "
                                  + "\(glm.oneVsRest ? "one-vs-rest (one row per class)" : "a reference class (classes − 1 rows)")")
        }
        add("ArgMax", [probabilities], "\(name)/index", [.init("axis", .int(1)), .init("keepdims", .int(0))])
        try classifierOutputs(d, labels: labels, index: "\(name)/index", probabilities: probabilities, name)
    }
}
