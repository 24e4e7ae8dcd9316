import Foundation
import OpenVisionConverters

/// Writes the Swift source Xcode generates for a Core ML model file (`MobileNet.mlmodel` → `MobileNet`,
/// `MobileNetInput`, `MobileNetOutput`), with Xcode's names and signatures, over the `CoreML` compatibility
/// module: the model class (`init()`, `init(configuration:)`, `init(contentsOf:)`, `init(contentsOf:configuration:)`,
/// `init(model:)`, `load(…)` with a completion handler and `async`, `model`, `urlOfModelInThisBundle`,
/// `prediction(input:)`, `prediction(input:options:)`, `prediction(<input names>:)`, `predictions(inputs:options:)`),
/// the input provider (with `init(<image>With:)` / `init(<image>At:)` for image inputs) and the output provider
/// with typed properties. Used by the `CoreMLModelClasses` build-tool plugin (`openvision-coreml-classes`).
///
/// Differences from Xcode's output, each a clear error instead of a trap: loading checks the model's
/// features against the class's (`MLModelError` naming what differs), `prediction` checks every declared output
/// is present before the typed properties read it, and a missing bundled model throws from `init(configuration:)`.
///
/// The model file is untrusted input: every string from it lands escaped for its place (`SwiftSourceText`: string
/// literals, comments) or mapped to an identifier (`SwiftIdentifiers`: keywords, characters, collisions, the classes'
/// own names), so whatever it holds, the code has the template's structure and compiles; what cannot be mapped
/// (a feature declared twice, a name over 1 KiB, a file name that makes no class name) is refused, naming it.
package enum CoreMLClassGenerator {
    /// The Swift source for the model described by `info`, the class named after `rawName` (the file's name,
    /// mapped to an identifier). Throws `.unsupported` for a feature type the compatibility module has no Swift type
    /// for (sequences, states) and for names that cannot be mapped, naming the feature.
    ///
    /// The code is rendered a second time with placeholder names and no descriptions, and written only if both have
    /// the same token skeleton (`SwiftTokenSkeleton`): a model string can change names, literals and comment text,
    /// never the declarations or statements.
    package static func source(className rawName: String, info: CoreMLModelInfo, modelFileName: String) throws -> String
    {
        let source = try render(className: rawName, info: info, modelFileName: modelFileName)
        let reference = try render(className: "Model", info: placeholders(info), modelFileName: "Model.mlmodel")
        guard SwiftTokenSkeleton.tokens(source) == SwiftTokenSkeleton.tokens(reference) else {
            throw ConversionError(
                .unsupported,
                "the class generated for \(SwiftIdentifiers.quoted(rawName)) would not "
                    + "have the template's structure (a generator bug: please report it); nothing written")
        }
        return source
    }

    /// `info` with its features named `input0`, `output0`, … (the NMS threshold inputs renamed along) and without
    /// descriptions: the same code structure, no model strings.
    static func placeholders(_ info: CoreMLModelInfo) -> CoreMLModelInfo {
        var plain = info
        var renamed: [String: String] = [:]
        for i in plain.inputs.indices {
            renamed[plain.inputs[i].name] = "input\(i)"
            plain.inputs[i].name = "input\(i)"
            plain.inputs[i].shortDescription = ""
        }
        for i in plain.outputs.indices {
            plain.outputs[i].name = "output\(i)"
            plain.outputs[i].shortDescription = ""
        }
        if var nms = plain.nms {
            nms.iouThresholdInput = renamed[nms.iouThresholdInput] ?? ""
            nms.confidenceThresholdInput = renamed[nms.confidenceThresholdInput] ?? ""
            plain.nms = nms
        }
        plain.modelType = "model"
        return plain
    }

    static func render(className rawName: String, info: CoreMLModelInfo, modelFileName: String) throws -> String {
        let className = try SwiftIdentifiers.className(rawName)
        let classNames: Set<String> = [className, className + "Input", className + "Output"]
        let inputNames = try SwiftIdentifiers.assign(info.inputs.map(\.name), what: "input", taken: classNames) {
            i, name in
            guard info.inputs[i].type == "image" else { return [] }
            return ["set" + name.prefix(1).uppercased() + name.dropFirst(), name + "With", name + "At"]
        }
        let outputNames = try SwiftIdentifiers.assign(info.outputs.map(\.name), what: "output", taken: classNames) {
            i, name in
            Field.shapedScalar(info.outputs[i]) == nil ? [] : [name + "ShapedArray"]
        }
        let inputs = try zip(info.inputs, inputNames).map { feature, identifier -> Field in
            var field = try Field(feature, identifier: identifier)
            // Defaults Xcode's description gives the optional scalar inputs: a multi-array's default, the NMS thresholds.
            if feature.type == "double" || feature.type == "int64", let nms = info.nms {
                // An int64 input takes a whole threshold only (else no default: found by scripts/fuzz class-generator).
                let literal = { (value: Double) in feature.type == "double" ? doubleLiteral(value) : int64Literal(value)
                }
                if feature.name == nms.iouThresholdInput { field.defaultValue = literal(nms.iouThreshold) }
                if feature.name == nms.confidenceThresholdInput {
                    field.defaultValue = literal(nms.confidenceThreshold)
                }
            }
            return field
        }
        let outputs = try zip(info.outputs, outputNames).map { try Field($0, identifier: $1) }
        let header = SwiftSourceText.comment(
            "from \(modelFileName), as Xcode generates it (model type \(info.modelType), "
                + "specification \(info.specificationVersion)). Do not edit.")
        var s = """
            // \(className).swift — generated by OpenVision's CoreMLModelClasses plugin
            // \(header)

            import CoreML
            import Foundation


            """
        s += inputClass(className, inputs)
        s += outputClass(className, outputs)
        s += modelClass(className, inputs, outputs, resource: rawName)
        return s
    }

    /// `value` as a Swift `Int64` literal when it is a whole number of at most 2^53; else nil.
    static func int64Literal(_ value: Double) -> String? {
        guard value.isFinite, value.rounded() == value, abs(value) <= 9_007_199_254_740_992 else { return nil }
        return "\(Int64(value))"
    }

    /// `value` as a Swift `Double` expression (`Double.nan`, `-Double.infinity` for the values without a literal).
    static func doubleLiteral(_ value: Double) -> String {
        if value.isNaN { return "Double.nan" }
        if value.isInfinite { return value < 0 ? "-Double.infinity" : "Double.infinity" }
        return "\(value)"
    }

    /// One feature's Swift form.
    struct Field {
        let name: String
        /// The identifier, and as written in code (back-quoted when a keyword).
        let identifier: String
        let swiftName: String
        let swiftType: String
        let feature: CoreMLModelInfo.Feature
        /// An optional input's default value as a Swift literal, when known.
        var defaultValue: String?
        /// The expression making an `MLFeatureValue` of the stored property.
        var featureValue: String {
            switch feature.type {
            case "image": "MLFeatureValue(pixelBuffer: \(swiftName))"
            case "multiArray": "MLFeatureValue(multiArray: \(swiftName))"
            case "double": "MLFeatureValue(double: \(swiftName))"
            case "int64": "MLFeatureValue(int64: \(swiftName))"
            case "string": "MLFeatureValue(string: \(swiftName))"
            default: "(try? MLFeatureValue(dictionary: \(swiftName)))"
            }
        }
        /// The `MLShapedArray` element type Xcode gives a multi-array feature of this data type; nil for other features
        /// (and for INT8 arrays, which have no shaped-array scalar).
        var shapedScalar: String? { Self.shapedScalar(feature) }

        static func shapedScalar(_ feature: CoreMLModelInfo.Feature) -> String? {
            guard feature.type == "multiArray" else { return nil }
            return ["FLOAT32": "Float", "DOUBLE": "Double", "INT32": "Int32", "FLOAT16": "Float16"][
                feature.dataType ?? "FLOAT32"]
        }

        /// A name derived from the identifier (`setImage`, `imageWith`, `yShapedArray`), never a keyword.
        func derived(prefix: String = "", suffix: String = "") -> String {
            prefix.isEmpty
                ? identifier + suffix : prefix + identifier.prefix(1).uppercased() + identifier.dropFirst() + suffix
        }
        /// The expression reading it from `provider`'s `MLFeatureValue` named `name`.
        var readValue: String {
            let value = "provider.featureValue(for: \(literal(name)))!"
            switch feature.type {
            case "image": return "\(value).imageBufferValue!"
            case "multiArray": return "\(value).multiArrayValue!"
            case "double": return "\(value).doubleValue"
            case "int64": return "\(value).int64Value"
            case "string": return "\(value).stringValue"
            default: return "\(value).dictionaryValue as! \(swiftType)"
            }
        }
        var doc: String {
            var d: String
            switch feature.type {
            case "image":
                d =
                    "\(name) as \(feature.colorSpace == "GRAYSCALE" ? "grayscale" : "color") image buffer, "
                    + "\(feature.width ?? 0) pixels wide by \(feature.height ?? 0) pixels high"
            case "multiArray":
                let shape = (feature.shape ?? []).map(String.init).joined(separator: " × ")
                d =
                    "\(name) as \(shape.isEmpty ? "" : shape + " ")\((feature.dataType ?? "FLOAT32").lowercased()) multi-array"
            case "dictionary":
                d = "\(name) as dictionary of \(feature.keyType == "int64" ? "64-bit integers" : "strings") to doubles"
            case "double": d = "\(name) as double value"
            case "int64": d = "\(name) as integer value"
            default: d = "\(name) as string value"
            }
            if !feature.shortDescription.isEmpty { d += " (\(feature.shortDescription))" }
            return SwiftSourceText.comment(d)
        }

        init(_ f: CoreMLModelInfo.Feature, identifier: String) throws {
            feature = f
            name = f.name
            self.identifier = identifier
            swiftName = SwiftIdentifiers.spelled(identifier)
            switch f.type {
            case "image": swiftType = "CVPixelBuffer"
            case "multiArray": swiftType = "MLMultiArray"
            case "double": swiftType = "Double"
            case "int64": swiftType = "Int64"
            case "string": swiftType = "String"
            case "dictionary": swiftType = f.keyType == "int64" ? "[Int64 : Double]" : "[String : Double]"
            default:
                throw ConversionError(
                    .unsupported,
                    "feature \(SwiftIdentifiers.quoted(f.name)) is a \(SwiftIdentifiers.quoted(f.type)); "
                        + "generated classes take images, "
                        + "multi-arrays, numbers, strings and dictionaries")
            }
        }
    }

    static func inputClass(_ className: String, _ inputs: [Field]) -> String {
        var s = """
            /// Model Prediction Input Type
            class \(className)Input : MLFeatureProvider {

            """
        for f in inputs {
            s += "\n    /// \(f.doc)\n    var \(f.swiftName): \(f.swiftType)\n"
        }
        s += """

                var featureNames: Set<String> { [\(inputs.map { literal($0.name) }.joined(separator: ", "))] }

                func featureValue(for featureName: String) -> MLFeatureValue? {

            """
        for f in inputs {
            s += "        if featureName == \(literal(f.name)) {\n            return \(f.featureValue)\n        }\n"
        }
        s += "        return nil\n    }\n\n"
        let params = inputs.map { "\($0.swiftName): \($0.swiftType)" }.joined(separator: ", ")
        s += "    init(\(params)) {\n"
        for f in inputs { s += "        self.\(f.swiftName) = \(f.swiftName)\n" }
        s += "    }\n"
        // Xcode's shaped-array form: every multi-array input as an `MLShapedArray` of its data type.
        if inputs.contains(where: { $0.shapedScalar != nil }) {
            let params = inputs.map { f in
                f.shapedScalar.map { "\(f.swiftName): MLShapedArray<\($0)>" } ?? "\(f.swiftName): \(f.swiftType)"
            }
            s += "\n    convenience init(\(params.joined(separator: ", "))) {\n        self.init("
            s += inputs.map { f in
                f.shapedScalar == nil
                    ? "\(f.swiftName): \(f.swiftName)" : "\(f.swiftName): MLMultiArray(\(f.swiftName))"
            }
            .joined(separator: ", ")
            s += ")\n    }\n"
        }
        // Optional inputs with a known default (a detector pipeline's NMS thresholds): an init without them.
        let optional = inputs.filter { $0.feature.optional && $0.defaultValue != nil }
        if !optional.isEmpty {
            let required = inputs.filter { !($0.feature.optional && $0.defaultValue != nil) }
            let defaults = optional.map { "\($0.name) \($0.defaultValue ?? "")" }.joined(separator: ", ")
            s +=
                "\n    /// " + SwiftSourceText.comment("The optional inputs at the model's defaults (\(defaults)).")
                + "\n"
            s +=
                "    convenience init(\(required.map { "\($0.swiftName): \($0.swiftType)" }.joined(separator: ", "))) {\n"
            s +=
                "        self.init(\(inputs.map { "\($0.swiftName): \($0.defaultValue ?? $0.swiftName)" }.joined(separator: ", ")))\n    }\n"
            if required.contains(where: { $0.feature.type == "image" }) {
                for (suffix, type) in [("With", "CGImage"), ("At", "URL")] {
                    let params = required.map {
                        $0.feature.type == "image"
                            ? "\($0.derived(suffix: suffix)) \($0.swiftName): \(type)"
                            : "\($0.swiftName): \($0.swiftType)"
                    }.joined(separator: ", ")
                    let args = inputs.map { f in
                        f.feature.type == "image"
                            ? "\(f.derived(suffix: suffix)): \(f.swiftName)"
                            : "\(f.swiftName): \(f.defaultValue ?? f.swiftName)"
                    }.joined(separator: ", ")
                    s += "\n    convenience init(\(params)) throws {\n        try self.init(\(args))\n    }\n"
                }
            }
        }
        // Xcode's image conveniences: every image input from a CGImage or an image file, the rest as given.
        let images = inputs.filter { $0.feature.type == "image" }
        if !images.isEmpty {
            for (suffix, type) in [("With", "CGImage"), ("At", "URL")] {
                let params = inputs.map {
                    $0.feature.type == "image"
                        ? "\($0.derived(suffix: suffix)) \($0.swiftName): \(type)"
                        : "\($0.swiftName): \($0.swiftType)"
                }.joined(separator: ", ")
                s += "\n    convenience init(\(params)) throws {\n        self.init("
                s += inputs.map { f -> String in
                    guard f.feature.type == "image" else { return "\(f.swiftName): \(f.swiftName)" }
                    return
                        "\(f.swiftName): try \(imageValue(f, from: f.swiftName, label: suffix == "With" ? "cgImage" : "imageAt"))"
                }.joined(separator: ", ")
                s += ")\n    }\n"
            }
            for f in images {
                let setter = f.derived(prefix: "set")
                s += "\n    func \(setter)(with \(f.swiftName): CGImage) throws {\n"
                s += "        self.\(f.swiftName) = try \(imageValue(f, from: f.swiftName, label: "cgImage"))\n    }\n"
                s += "\n    func \(setter)(with \(f.swiftName): URL) throws {\n"
                s += "        self.\(f.swiftName) = try \(imageValue(f, from: f.swiftName, label: "imageAt"))\n    }\n"
            }
        }
        s += "}\n\n\n"
        return s
    }

    static func imageValue(_ f: Field, from variable: String, label: String) -> String {
        let format =
            f.feature.colorSpace?.hasPrefix("GRAYSCALE") == true
            ? "kCVPixelFormatType_OneComponent8" : "kCVPixelFormatType_32ARGB"
        return
            "MLFeatureValue(\(label): \(variable), pixelsWide: \(f.feature.width ?? 0), pixelsHigh: \(f.feature.height ?? 0), "
            + "pixelFormatType: \(format), options: nil).imageBufferValue!"
    }

    static func outputClass(_ className: String, _ outputs: [Field]) -> String {
        var s = """
            /// Model Prediction Output Type
            class \(className)Output : MLFeatureProvider {

                /// Source provided by CoreML
                private let provider : MLFeatureProvider

            """
        for f in outputs {
            s += "\n    /// \(f.doc)\n    var \(f.swiftName): \(f.swiftType) {\n        return \(f.readValue)\n    }\n"
            if let scalar = f.shapedScalar {
                s += "\n    /// \(f.doc)\n    var \(f.derived(suffix: "ShapedArray")): MLShapedArray<\(scalar)> {\n"
                s += "        return MLShapedArray<\(scalar)>(self.\(f.swiftName))\n    }\n"
            }
        }
        s += """

                var featureNames: Set<String> {
                    return self.provider.featureNames
                }

                func featureValue(for featureName: String) -> MLFeatureValue? {
                    return self.provider.featureValue(for: featureName)
                }


            """
        let params = outputs.map { "\($0.swiftName): \($0.swiftType)" }.joined(separator: ", ")
        s += "    init(\(params)) {\n        self.provider = try! MLDictionaryFeatureProvider(dictionary: ["
        // Inside `try!` (Xcode's form): a dictionary's value is made with `try`.
        s += outputs.map {
            "\(literal($0.name)) : \($0.feature.type == "dictionary" ? "MLFeatureValue(dictionary: \($0.swiftName))" : $0.featureValue)"
        }
        .joined(separator: ", ")
        // No outputs (the fuzz target's find): the empty dictionary literal.
        if outputs.isEmpty { s += ":" }
        s += "])\n    }\n\n    init(features: MLFeatureProvider) {\n        self.provider = features\n    }\n}\n\n\n"
        return s
    }

    static func modelClass(_ className: String, _ inputs: [Field], _ outputs: [Field], resource: String) -> String {
        let inputNames = "[" + inputs.map { literal($0.name) }.joined(separator: ", ") + "]"
        let outputNames = "[" + outputs.map { literal($0.name) }.joined(separator: ", ") + "]"
        var s = """
            /// Class for model loading and prediction
            class \(className) {
                let model: MLModel

                /// URL of model assuming it was installed in the same bundle as this class
                class var urlOfModelInThisBundle : URL {
                    return Bundle.module.bundleURL.appendingPathComponent(\(literal(resource + ".mlmodelc")))
                }

                /// The features this class was generated for: a model without them is refused with an error naming the difference.
                private static func checked(_ model: MLModel) throws -> MLModel {
                    try model.requireFeatures(inputs: \(inputNames), outputs: \(outputNames), for: \(literal(className)))
                    return model
                }

                /**
                    Construct \(className) instance with an existing MLModel object.

                    Usually the application does not use this initializer unless it makes a subclass of \(className).
                    Such application may want to use `MLModel(contentsOfURL:configuration:)` and `\(className).urlOfModelInThisBundle` to create a MLModel object to pass-in.

                    - parameters:
                      - model: MLModel object
                */
                init(model: MLModel) {
                    self.model = model
                }

                /**
                    Construct a model with configuration

                    - parameters:
                       - configuration: the desired model configuration

                    - throws: an NSError object that describes the problem
                */
                convenience init(configuration: MLModelConfiguration) throws {
                    try self.init(contentsOf: type(of:self).urlOfModelInThisBundle, configuration: configuration)
                }

                /**
                    Construct a model with default configuration (Xcode deprecates it: it traps on an error; use `init(configuration:)`).
                */
                @available(*, deprecated, message: "Use init(configuration:) instead and handle errors appropriately.")
                convenience init() {
                    try! self.init(contentsOf: type(of:self).urlOfModelInThisBundle)
                }

                /**
                    Construct \(className) instance with explicit path to mlmodelc file
                    - parameters:
                       - modelURL: the file url of the model

                    - throws: an NSError object that describes the problem
                */
                convenience init(contentsOf modelURL: URL) throws {
                    try self.init(model: \(className).checked(MLModel(contentsOf: modelURL)))
                }

                /**
                    Construct a model with URL of the .mlmodelc directory and configuration

                    - parameters:
                       - modelURL: the file url of the model
                       - configuration: the desired model configuration

                    - throws: an NSError object that describes the problem
                */
                convenience init(contentsOf modelURL: URL, configuration: MLModelConfiguration) throws {
                    try self.init(model: \(className).checked(MLModel(contentsOf: modelURL, configuration: configuration)))
                }

                /**
                    Construct \(className) instance asynchronously with optional configuration.

                    Model loading may take time when the model content is not immediately available (e.g. encrypted model). Use this factory method especially when the caller is on the main thread.

                    - parameters:
                      - configuration: the desired model configuration
                      - handler: the completion handler to be called when the model loading completes successfully or unsuccessfully
                */
                class func load(configuration: MLModelConfiguration = MLModelConfiguration(), completionHandler handler: @escaping (Swift.Result<\(className), Error>) -> Void) {
                    load(contentsOf: self.urlOfModelInThisBundle, configuration: configuration, completionHandler: handler)
                }

                /**
                    Construct \(className) instance asynchronously with optional configuration.

                    - parameters:
                      - configuration: the desired model configuration
                */
                class func load(configuration: MLModelConfiguration = MLModelConfiguration()) async throws -> \(className) {
                    return try await load(contentsOf: self.urlOfModelInThisBundle, configuration: configuration)
                }

                /**
                    Construct \(className) instance asynchronously with URL of the .mlmodelc directory with optional configuration.

                    - parameters:
                      - modelURL: the URL to the model
                      - configuration: the desired model configuration
                      - handler: the completion handler to be called when the model loading completes successfully or unsuccessfully
                */
                class func load(contentsOf modelURL: URL, configuration: MLModelConfiguration = MLModelConfiguration(), completionHandler handler: @escaping (Swift.Result<\(className), Error>) -> Void) {
                    MLModel.load(contentsOf: modelURL, configuration: configuration) { result in
                        switch result {
                        case .failure(let error):
                            handler(.failure(error))
                        case .success(let model):
                            handler(Swift.Result { \(className)(model: try \(className).checked(model)) })
                        }
                    }
                }

                /**
                    Construct \(className) instance asynchronously with URL of the .mlmodelc directory with optional configuration.

                    - parameters:
                      - modelURL: the URL to the model
                      - configuration: the desired model configuration
                */
                class func load(contentsOf modelURL: URL, configuration: MLModelConfiguration = MLModelConfiguration()) async throws -> \(className) {
                    let model = try await MLModel.load(contentsOf: modelURL, configuration: configuration)
                    return \(className)(model: try \(className).checked(model))
                }

                /**
                    Make a prediction using the structured interface

                    - parameters:
                       - input: the input to the prediction as \(className)Input

                    - throws: an NSError object that describes the problem

                    - returns: the result of the prediction as \(className)Output
                */
                func prediction(input: \(className)Input) throws -> \(className)Output {
                    return try self.prediction(input: input, options: MLPredictionOptions())
                }

                /**
                    Make a prediction using the structured interface

                    - parameters:
                       - input: the input to the prediction as \(className)Input
                       - options: prediction options

                    - throws: an NSError object that describes the problem

                    - returns: the result of the prediction as \(className)Output
                */
                func prediction(input: \(className)Input, options: MLPredictionOptions) throws -> \(className)Output {
                    let outFeatures = try model.prediction(from: input, options: options)
                    try MLModel.requireOutputs(\(outputNames), in: outFeatures, for: \(literal(className)))
                    return \(className)Output(features: outFeatures)
                }


            """
        let params = inputs.map { "\($0.swiftName): \($0.swiftType)" }.joined(separator: ", ")
        let args = inputs.map { "\($0.swiftName): \($0.swiftName)" }.joined(separator: ", ")
        s += """
                /**
                    Make a prediction using the convenience interface

                    - parameters:
            \(inputs.map { "            - \($0.swiftName): \($0.doc)" }.joined(separator: "\n"))

                    - throws: an NSError object that describes the problem

                    - returns: the result of the prediction as \(className)Output
                */
                func prediction(\(params)) throws -> \(className)Output {
                    let input_ = \(className)Input(\(args))
                    return try self.prediction(input: input_)
                }

                \(shortPrediction(className, inputs))
                /**
                    Make a batch prediction using the structured interface

                    - parameters:
                       - inputs: the inputs to the prediction as [\(className)Input]
                       - options: prediction options

                    - throws: an NSError object that describes the problem

                    - returns: the result of the prediction as [\(className)Output]
                */
                func predictions(inputs: [\(className)Input], options: MLPredictionOptions = MLPredictionOptions()) throws -> [\(className)Output] {
                    let batchIn = MLArrayBatchProvider(array: inputs)
                    let batchOut = try model.predictions(from: batchIn, options: options)
                    var results : [\(className)Output] = []
                    results.reserveCapacity(inputs.count)
                    for i in 0..<batchOut.count {
                        let outProvider = batchOut.features(at: i)
                        try MLModel.requireOutputs(\(outputNames), in: outProvider, for: \(literal(className)))
                        results.append(\(className)Output(features: outProvider))
                    }
                    return results
                }
            }

            """
        return s
    }

    /// With optional inputs of known defaults, `prediction(<required inputs>:)` using the defaults; else nothing.
    static func shortPrediction(_ className: String, _ inputs: [Field]) -> String {
        let required = inputs.filter { !($0.feature.optional && $0.defaultValue != nil) }
        guard required.count < inputs.count else { return "" }
        return """
            /// The convenience interface with the optional inputs at the model's defaults.
                func prediction(\(required.map { "\($0.swiftName): \($0.swiftType)" }.joined(separator: ", "))) throws -> \(className)Output {
                    return try self.prediction(input: \(className)Input(\(required.map { "\($0.swiftName): \($0.swiftName)" }.joined(separator: ", "))))
                }

            """
    }

    /// A Swift string literal of `text` (`SwiftSourceText.literal`).
    static func literal(_ text: String) -> String {
        SwiftSourceText.literal(text)
    }
}
