import Foundation

// Core ML's feature-engineering models (see CoreMLToONNX+Classic.swift).
extension CoreMLToONNX {
    /// The model's only input feature.
    func onlyInput(_ d: CoreMLModelDescription, _ what: String) throws -> Feature {
        guard d.inputs.count == 1 else {
            throw ConversionError(.invalidValue, "\(what) takes one input, not \(d.inputs.count)")
        }
        return try feature(d.inputs[0].name)
    }

    /// ONNX-ML `OneHotEncoder` of one string or integer value: `[1, 1, categories]` floats (all zeros for an unknown
    /// value when the file says to ignore it; ONNX Runtime's error otherwise).
    mutating func lowerOneHotEncoder(_ e: CoreMLClassicModel.OneHotEncoder, _ d: CoreMLModelDescription, _ name: String)
        throws
    {
        let f = try onlyInput(d, "oneHotEncoder")
        guard !e.outputSparse else {
            throw ConversionError(.unsupported, "oneHotEncoder: a sparse (dictionary) output is not converted")
        }
        guard !f.isMap, f.shape.map({ $0.reduce(1, *) == 1 }) ?? false else {
            throw ConversionError(.invalidValue, "oneHotEncoder encodes one value; '\(d.inputs[0].name)' is not one")
        }
        var attributes: [ONNXWriter.Attribute] = [.init("zeros", .int(e.ignoreUnknown ? 1 : 0))]
        switch e.categories {
        case .strings(let s):
            guard f.type == .string else {
                throw ConversionError(.invalidValue, "oneHotEncoder: string categories for a number")
            }
            attributes.append(.init("cats_strings", .strings(s)))
        case .int64s(let i):
            guard f.type != .string else {
                throw ConversionError(.invalidValue, "oneHotEncoder: integer categories for a string")
            }
            attributes.append(.init("cats_int64s", .ints(i.map { Int($0) })))
        }
        addML("OneHotEncoder", [f.value], ["\(name)/y"], attributes)
        features[try Self.onlyOutput(d, name).name] = Feature(
            value: "\(name)/y", shape: [1, 1, e.categories.count], type: .float)
    }

    /// Missing values replaced, by value type: numbers (NaN, or the file's value) and int64s with ONNX-ML's `Imputer`
    /// (float, as ONNX Runtime runs it, and int64); strings with `Where` on a `LabelEncoder` match. The output has the
    /// input's shape.
    mutating func lowerImputer(_ imputer: CoreMLClassicModel.Imputer, _ d: CoreMLModelDescription, _ name: String)
        throws
    {
        let f = try onlyInput(d, "imputer")
        guard let shape = f.shape, !f.isMap else {
            throw ConversionError(.invalidValue, "imputer: its input has no known shape")
        }
        let count = shape.reduce(1, *)
        let output = try Self.onlyOutput(d, name).name
        func check(_ n: Int) throws {
            guard n == 1 || n == count else {
                throw ConversionError(.invalidValue, "imputer: \(n) imputed values for \(count) input values")
            }
        }
        switch (imputer.imputed, imputer.replaced) {
        case (.double(let v), .double(let missing)):
            try lowerDoubleImputer(f, shape, values: [v], missing: missing, output: output, name)
        case (.doubles(let values), .double(let missing)):
            try check(values.count)
            try lowerDoubleImputer(f, shape, values: values, missing: missing, output: output, name)
        case (.int64(let v), .int64(let missing)):
            try lowerIntegerImputer(f, shape, values: [v], missing: missing, output: output, name)
        case (.int64s(let values), .int64(let missing)):
            try check(values.count)
            try lowerIntegerImputer(f, shape, values: values, missing: missing, output: output, name)
        case (.string(let v), .string(let missing)):
            guard f.type == .string else {
                throw ConversionError(.invalidValue, "imputer: a string imputed into a number")
            }
            addML(
                "LabelEncoder", [f.value], ["\(name)/missing_i"],
                [
                    .init("keys_strings", .strings([missing])), .init("values_int64s", .ints([1])),
                    .init("default_int64", .int(0)),
                ])
            add("Cast", ["\(name)/missing_i"], "\(name)/missing", [.init("to", .int(9))])
            graph.initializers.append(ONNXWriter.Tensor(name: "\(name)/imputed", dims: [1], strings: [v]))
            add("Where", ["\(name)/missing", "\(name)/imputed", f.value], "\(name)/y")
            features[output] = Feature(value: "\(name)/y", shape: shape, type: .string)
        default:
            throw ConversionError(
                .invalidValue, "imputer: the imputed value and the value it replaces are of different types")
        }
    }

    private mutating func lowerDoubleImputer(
        _ f: Feature, _ shape: [Int], values: [Double], missing: Double, output: String,
        _ name: String
    ) throws {
        guard f.type != .string else { throw ConversionError(.invalidValue, "imputer: a number imputed into a string") }
        let count = shape.reduce(1, *)
        var x = cast(f.value, from: f.type, to: .float, "\(name)/x")
        if shape != [1, count] {
            add("Reshape", [x, int64s("\(name)/row_shape", [1, count])], "\(name)/row")
            x = "\(name)/row"
        }
        addML(
            "Imputer", [x], ["\(name)/y"],
            [
                .init("imputed_value_floats", .floats(values.map { Float($0) })),
                .init("replaced_value_float", .float(Float(missing))),
            ])
        features[output] = Feature(value: "\(name)/y", shape: [1, count], type: .float)
    }

    private mutating func lowerIntegerImputer(
        _ f: Feature, _ shape: [Int], values: [Int64], missing: Int64, output: String,
        _ name: String
    ) throws {
        guard f.type == .int64 else {
            throw ConversionError(.invalidValue, "imputer: integers imputed into a non-integer input")
        }
        let count = shape.reduce(1, *)
        let row = "\(name)/row"
        add("Reshape", [f.value, int64s("\(name)/row_shape", [1, count])], row)
        addML(
            "Imputer", [row], ["\(name)/imputed_row"],
            [
                .init("imputed_value_int64s", .ints(values.map { Int($0) })),
                .init("replaced_value_int64", .int(Int(missing))),
            ])
        add("Reshape", ["\(name)/imputed_row", int64s("\(name)/shape", shape)], "\(name)/y")
        features[output] = Feature(value: "\(name)/y", shape: shape, type: .int64)
    }

    /// ONNX-ML `Scaler` (float): `scale × (x + shift)` as ONNX's `(x − offset) × scale`, on the input as a `[1, n]` row.
    mutating func lowerScaler(_ s: CoreMLClassicModel.Scaler, _ d: CoreMLModelDescription, _ name: String) throws {
        let (x, width) = try inputRow(d, type: nil, name, what: "scaler")
        for (values, what) in [(s.shift, "shift"), (s.scale, "scale")]
        where !(values.count <= 1 || values.count == width) {
            throw ConversionError(.invalidValue, "scaler: \(values.count) \(what) values for \(width) input values")
        }
        addML(
            "Scaler", [x], ["\(name)/y"],
            [
                .init("offset", .floats((s.shift.isEmpty ? [0] : s.shift).map { Float(-$0) })),
                .init("scale", .floats((s.scale.isEmpty ? [1] : s.scale).map { Float($0) })),
            ])
        features[try Self.onlyOutput(d, name).name] = Feature(value: "\(name)/y", shape: [1, width], type: .float)
    }

    /// ONNX-ML `Normalizer` (float): `x / ‖x‖` with Core ML's norms (LMax: the largest value, L1, L2); a zero norm gives
    /// zeros.
    mutating func lowerNormalizer(_ n: CoreMLClassicModel.Normalizer, _ d: CoreMLModelDescription, _ name: String)
        throws
    {
        let (x, width) = try inputRow(d, type: nil, name, what: "normalizer")
        addML("Normalizer", [x], ["\(name)/y"], [.init("norm", .string(["MAX", "L1", "L2"][n.norm]))])
        features[try Self.onlyOutput(d, name).name] = Feature(value: "\(name)/y", shape: [1, width], type: .float)
    }

    /// The listed features, each `width` values, as one double row (`Concat`).
    mutating func lowerFeatureVectorizer(
        _ v: CoreMLClassicModel.FeatureVectorizer, _ d: CoreMLModelDescription, _ name: String
    ) throws {
        var parts: [String] = []
        for (i, column) in v.columns.enumerated() {
            let (x, width) = try row(column.name, type: .double, value: "\(name)/x\(i)", what: "featureVectorizer")
            guard width == column.width else {
                throw ConversionError(
                    .invalidValue,
                    "featureVectorizer: '\(column.name)' has \(width) values; the model lists \(column.width)")
            }
            parts.append(x)
        }
        let total = v.columns.reduce(0) { $0 + $1.width }
        let y = "\(name)/y"
        if parts.count == 1 { add("Identity", parts, y) } else { add("Concat", parts, y, [.init("axis", .int(1))]) }
        features[try Self.onlyOutput(d, name).name] = Feature(value: y, shape: [1, total], type: .double)
    }

    /// ONNX-ML `DictVectorizer` of a dictionary input: a `[1, keys]` double row, zero for absent keys.
    mutating func lowerDictVectorizer(
        _ v: CoreMLClassicModel.DictVectorizer, _ d: CoreMLModelDescription, _ name: String
    ) throws {
        let f = try onlyInput(d, "dictVectorizer")
        guard f.isMap else {
            throw ConversionError(.invalidValue, "dictVectorizer reads a dictionary; '\(d.inputs[0].name)' is not one")
        }
        let attribute: ONNXWriter.Attribute
        switch v.keys {
        case .strings(let s): attribute = .init("string_vocabulary", .strings(s))
        case .int64s(let i): attribute = .init("int64_vocabulary", .ints(i.map { Int($0) }))
        }
        addML("DictVectorizer", [f.value], ["\(name)/y"], [attribute])
        features[try Self.onlyOutput(d, name).name] = Feature(
            value: "\(name)/y", shape: [1, v.keys.count], type: .double)
    }

    /// ONNX-ML `LabelEncoder` from strings to int64s or back. A value the map lacks gives the file's default, else
    /// −1 or the empty string (Core ML reports an error for it; ONNX has no way to).
    mutating func lowerCategoricalMapping(
        _ c: CoreMLClassicModel.CategoricalMapping, _ d: CoreMLModelDescription, _ name: String
    ) throws {
        let f = try onlyInput(d, "categoricalMapping")
        guard !f.isMap, let shape = f.shape else {
            throw ConversionError(.invalidValue, "categoricalMapping: its input has no known shape")
        }
        let attributes: [ONNXWriter.Attribute]
        if c.fromStrings {
            guard f.type == .string else {
                throw ConversionError(
                    .invalidValue, "categoricalMapping maps strings; '\(d.inputs[0].name)' is not one")
            }
            attributes = [
                .init("keys_strings", .strings(c.stringKeys)),
                .init("values_int64s", .ints(c.int64Values.map { Int($0) })),
                .init("default_int64", .int(Int(c.defaultInt64 ?? -1))),
            ]
        } else {
            guard f.type == .int64 else {
                throw ConversionError(
                    .invalidValue, "categoricalMapping maps integers; '\(d.inputs[0].name)' is not one")
            }
            attributes = [
                .init("keys_int64s", .ints(c.int64Keys.map { Int($0) })),
                .init("values_strings", .strings(c.stringValues)),
                .init("default_string", .string(c.defaultString ?? "")),
            ]
        }
        addML("LabelEncoder", [f.value], ["\(name)/y"], attributes)
        features[try Self.onlyOutput(d, name).name] = Feature(
            value: "\(name)/y", shape: shape, type: c.fromStrings ? .int64 : .string)
    }

    /// ONNX-ML `ArrayFeatureExtractor`: the listed elements of the input, in order, as a `[1, n]` row of its type.
    mutating func lowerArrayFeatureExtractor(
        _ a: CoreMLClassicModel.ArrayFeatureExtractor, _ d: CoreMLModelDescription,
        _ name: String
    ) throws {
        let f = try onlyInput(d, "arrayFeatureExtractor")
        guard !f.isMap, let shape = f.shape, shape.allSatisfy({ $0 > 0 }) else {
            throw ConversionError(.invalidValue, "arrayFeatureExtractor: its input has no known shape")
        }
        let count = shape.reduce(1, *)
        if let bad = a.indices.first(where: { $0 >= count }) {
            throw ConversionError(.invalidValue, "arrayFeatureExtractor: index \(bad) of an input of \(count) values")
        }
        var x = f.value
        if shape != [1, count] {
            add("Reshape", [x, int64s("\(name)/row_shape", [1, count])], "\(name)/row")
            x = "\(name)/row"
        }
        addML("ArrayFeatureExtractor", [x, int64s("\(name)/indices", a.indices)], ["\(name)/y"], [])
        features[try Self.onlyOutput(d, name).name] = Feature(
            value: "\(name)/y", shape: [1, a.indices.count], type: f.type)
    }
}
