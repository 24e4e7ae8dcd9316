import Foundation
import Testing

@testable import OpenVisionConverters
@testable import OpenVisionCoreMLClasses

/// Issue 37, rows 1 and 2: a model file's names and descriptions go into generated Swift, which an app compiles with
/// its own code. A description holding `*/ }; func print(…) {…}; extension X { /*` ended the doc comment and defined a
/// module-level `print`; keywords (`precedencegroup`), characters (`-`, `é`), colliding names (`a-b`, `a_b`, `a b`),
/// the classes' own members (`provider`, `featureNames`), derived names (`y` + `yShapedArray`), `/*` in a description
/// and file names (`class.mlmodel`, a newline) gave code that did not compile. The oracle is the compiler: every
/// class generated here is typechecked against this build's CoreML module.
@Suite struct HostileModelStringsTests {
    /// A feature of `type` with the fields a generated class reads.
    static func feature(
        _ name: String, _ type: String, description: String = "", dataType: String = "FLOAT32",
        optional: Bool = false
    ) -> CoreMLModelInfo.Feature {
        var f = CoreMLModelInfo.Feature(name: name, type: type)
        f.shortDescription = description
        f.optional = optional
        switch type {
        case "image": (f.width, f.height, f.colorSpace) = (8, 8, "RGB")
        case "multiArray": (f.shape, f.dataType) = ([1, 4], dataType)
        case "dictionary": f.keyType = "string"
        default: break
        }
        return f
    }

    static func info(inputs: [CoreMLModelInfo.Feature], outputs: [CoreMLModelInfo.Feature]) -> CoreMLModelInfo {
        CoreMLModelInfo(
            converterRevision: CoreMLConverter.revision, specificationVersion: 4, modelType: "neuralNetwork",
            inputs: inputs, outputs: outputs, predictedFeatureName: "", predictedProbabilitiesName: "",
            metadata: CoreMLModelInfo.Metadata(), classLabels: [])
    }

    static let injection = "*/ }; func print(_ items: Any...) { }; extension Hostile { static let pwned = 1 }; /*"

    /// Names and descriptions that broke the generated code, each kind of place once.
    static let hostile = info(
        inputs: [
            feature("precedencegroup", "multiArray", description: injection),
            feature("-", "double", description: "ends\rthe line"),
            feature("é", "int64", description: "an unclosed /* nested comment"),
            feature("a-b", "multiArray", description: "line\u{2028}separator, next\u{85}line, \u{0}NUL, \u{202E}bidi"),
            feature("a_b", "string", description: "form\u{0C}feed and vertical\u{0B}tab"),
            feature("a b", "image", description: "///\n}\nfunc injected() {}\n//"),
            feature("image", "image"),
            feature("setImage", "double"),
            feature("self", "double"),
            feature("Self", "double"),
            feature("init", "multiArray", dataType: "DOUBLE"),
            feature("class", "image"),
            feature("3d", "multiArray", dataType: "INT32"),
            feature("MLMultiArray", "multiArray", dataType: "FLOAT16"),
            feature("URL", "string"),
            feature("input_", "double"),
            feature("HostileInput", "double"),
            feature("_", "dictionary"),
            feature("", "int64"),
            feature("\"quoted\" \\(interpolated)", "string", description: "\"\"\" and \\(x)"),
        ],
        outputs: [
            feature("provider", "multiArray", description: injection),
            feature("featureNames", "string"),
            feature("y", "multiArray"),
            feature("yShapedArray", "multiArray", dataType: "DOUBLE"),
            feature("featureValue", "dictionary"),
            feature("Type", "double"),
            feature("await", "int64"),
            feature("line\nbreak", "image"),
        ])

    @Test func hostileNamesAndDescriptionsGiveCodeThatCompilesAndInjectsNothing() throws {
        let dir = try GeneratorFiles.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try CoreMLClassGenerator.source(
            className: "Hostile", info: Self.hostile, modelFileName: "x*/.mlmodel")
        // Nothing of the injected code is code: it appears only inside comments.
        for line in source.split(separator: "\n")
        where line.contains("print(") || line.contains("pwned")
            || line.contains("injected()")
        {
            #expect(
                line.trimmingCharacters(in: .whitespaces).hasPrefix("///")
                    || line.trimmingCharacters(in: .whitespaces).hasPrefix("- "), "code from a description: \(line)")
        }
        // One line per template line: no line break of any kind came from the model.
        #expect(
            !source.unicodeScalars.contains {
                $0 == "\r" || $0 == "\u{0B}" || $0 == "\u{0C}" || $0 == "\u{85}"
                    || $0 == "\u{2028}" || $0 == "\u{2029}" || $0 == "\u{0}"
            })
        // The names as the issue asks: keywords back-quoted, characters mapped, collisions and reserved names resolved.
        for expected in [
            "var `precedencegroup`: MLMultiArray", "var feature_: Double", "var feature__2: Int64",
            "var a_b_2: MLMultiArray", "var a_b: String", "var a_b_3: CVPixelBuffer", "var self_2: Double",
            "var `Self`: Double", "var `init`: MLMultiArray", "var `class`: CVPixelBuffer",
            "var _3d: MLMultiArray", "var MLMultiArray_2: MLMultiArray", "var URL_2: String",
            "var input__2: Double", "var HostileInput_2: Double", "var feature__3: [String : Double]",
            "var image: CVPixelBuffer", "var setImage_2: Double", "func setImage(with image: CGImage)",
            "var feature: Int64", "var _quoted____interpolated_: String",
            "var provider_2: MLMultiArray", "var featureNames_2: String", "var y: MLMultiArray",
            "var yShapedArray_2: MLMultiArray", "var yShapedArray_2ShapedArray: MLShapedArray<Double>",
            "var featureValue_2: [String : Double]", "var `Type`: Double", "var `await`: Int64",
            "var line_break: CVPixelBuffer",
        ] {
            #expect(source.contains(expected), "missing: \(expected)")
        }
        // The feature names themselves reach Core ML unchanged, as escaped literals.
        #expect(source.contains(#"if featureName == "\"quoted\" \\(interpolated)" {"#))
        #expect(source.contains(#"return provider.featureValue(for: "line\nbreak")!.imageBufferValue!"#))
        let file = dir.appendingPathComponent("Hostile.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        // An app file that declares what the injection would have: a redeclaration if any of it became code.
        let app = dir.appendingPathComponent("App.swift")
        try "func print(_ items: Any...) {}\nextension Hostile { static let pwned = 2 }\n"
            .write(to: app, atomically: true, encoding: .utf8)
        let outcome = try SwiftTypecheck.run([file, app])
        #expect(outcome.accepted, "\(outcome.diagnostics.prefix(3000))")
    }

    /// The issue's reproductions (../shared/hardening3): an injected `print`, the keyword `precedencegroup` with
    /// others, and `/*` in a description, each as the tool's source for the file.
    @Test func sharedReproductionsCompile() throws {
        let folder = GeneratorFiles.shared.appendingPathComponent("hardening3")
        let dir = try GeneratorFiles.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        var files: [URL] = []
        for name in ["InjectTop", "Keywords", "UnclosedNested"] {
            let model = folder.appendingPathComponent("\(name).mlmodel")
            let info = try CoreMLConverter.conversion(contentsOf: model).info
            let source = try CoreMLClassGenerator.source(
                className: name, info: info, modelFileName: model.lastPathComponent)
            let file = dir.appendingPathComponent("\(name).swift")
            try source.write(to: file, atomically: true, encoding: .utf8)
            files.append(file)
        }
        // ../shared/hardening3/dup_print.swift: the injected print, which must not exist twice.
        let app = dir.appendingPathComponent("App.swift")
        try "func print(_ items: Any...) {}\n".write(to: app, atomically: true, encoding: .utf8)
        let outcome = try SwiftTypecheck.run(files + [app])
        #expect(outcome.accepted, "\(outcome.diagnostics.prefix(3000))")
    }

    /// Every keyword as a feature of each kind of place (input property, image input with its derived names,
    /// output with a shaped array) and model files whose names must be mapped: all compile.
    @Test func everyKeywordAndMappedFileNameCompiles() throws {
        let dir = try GeneratorFiles.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let keywords = SwiftIdentifiers.keywords.sorted()
        let info = Self.info(
            inputs: keywords.enumerated().map { i, k in Self.feature(k, i % 2 == 0 ? "image" : "double") },
            outputs: keywords.map { Self.feature($0, "multiArray") })
        var files: [URL] = []
        for (i, name) in ["Keywords", "My Model-v2", "3D\nPose", "Ünïcode"].enumerated() {
            let source = try CoreMLClassGenerator.source(className: name, info: info, modelFileName: "\(name).mlmodel")
            let file = dir.appendingPathComponent("Generated\(i).swift")
            try source.write(to: file, atomically: true, encoding: .utf8)
            files.append(file)
        }
        let outcome = try SwiftTypecheck.run(files)
        #expect(outcome.accepted, "\(outcome.diagnostics.prefix(3000))")
    }

    /// A model without outputs (found by `scripts/fuzz class-generator`: the output class's provider was made from
    /// `[]`, which is no dictionary literal) and one without inputs: classes that compile.
    @Test func modelsWithoutFeaturesCompile() throws {
        let dir = try GeneratorFiles.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        // And optional NMS threshold inputs of type int64 (the fuzz target's second find: `0.25` given to an Int64):
        // a whole threshold is their default, a fractional one none.
        var thresholds = Self.info(
            inputs: [
                Self.feature("x", "multiArray"), Self.feature("iou", "int64", optional: true),
                Self.feature("conf", "int64", optional: true),
            ],
            outputs: [Self.feature("y", "multiArray")])
        thresholds.nms = .init(
            iouThreshold: 0.25, confidenceThreshold: 1, perClass: false, iouThresholdInput: "iou",
            confidenceThresholdInput: "conf", confidenceOutput: "y", coordinatesOutput: "y")
        let shapes = [
            Self.info(inputs: [Self.feature("x", "double")], outputs: []),
            Self.info(inputs: [], outputs: [Self.feature("y", "multiArray")]), thresholds,
        ]
        var files: [URL] = []
        for (i, info) in shapes.enumerated() {
            let source = try CoreMLClassGenerator.source(
                className: "Bare\(i)", info: info, modelFileName: "Bare\(i).mlmodel")
            let file = dir.appendingPathComponent("Bare\(i).swift")
            try source.write(to: file, atomically: true, encoding: .utf8)
            files.append(file)
        }
        #expect(
            try String(contentsOf: files[0], encoding: .utf8).contains("MLDictionaryFeatureProvider(dictionary: [:])"))
        #expect(try String(contentsOf: files[2], encoding: .utf8).contains("self.init(x: x, iou: iou, conf: 1)"))
        let outcome = try SwiftTypecheck.run(files)
        #expect(outcome.accepted, "\(outcome.diagnostics.prefix(3000))")
    }

    @Test func fileNamesThatMakeNoClassAreRefusedNamingThem() throws {
        let info = Self.info(inputs: [Self.feature("x", "double")], outputs: [Self.feature("y", "double")])
        for name in ["class", "URL", "MLModel", "é", "-", "Self", "self"] {
            #expect {
                _ = try CoreMLClassGenerator.source(className: name, info: info, modelFileName: "\(name).mlmodel")
            } throws: { error in
                guard let e = error as? ConversionError else { return false }
                return e.code == .unsupported && e.message.contains("rename the model file")
                    && e.message.contains(SwiftSourceText.literal(name))
            }
        }
        #expect(try SwiftIdentifiers.className("My Model-v2") == "My_Model_v2")
        #expect(try SwiftIdentifiers.className("3D\nPose") == "_3D_Pose")
    }

    /// The tool the plugin runs, on the issue's injection model saved as `class.mlmodel`: exit status 1, the file
    /// named in the build log's one line, nothing written.
    @Test func theToolRefusesWhatItCannotMap() throws {
        let dir = try GeneratorFiles.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let model = dir.appendingPathComponent("class.mlmodel")
        try FileManager.default.copyItem(
            at: GeneratorFiles.shared.appendingPathComponent("hardening3/InjectTop.mlmodel"), to: model)
        let swift = dir.appendingPathComponent("class.swift")
        let compiled = dir.appendingPathComponent("class.mlmodelc")
        let process = Process()
        process.executableURL = GeneratorFiles.products.appendingPathComponent("openvision-coreml-classes")
        process.arguments = [model.path, "class", swift.path, compiled.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1, "\(stderr)")
        #expect(
            stderr.hasPrefix("error: openvision-coreml-classes: class.mlmodel: ")
                && stderr.contains("rename the model file"), "\(stderr)")
        #expect(
            !FileManager.default.fileExists(atPath: swift.path)
                && !FileManager.default.fileExists(atPath: compiled.path))
    }

    @Test func featuresThatCannotBeMappedAreRefusedNamingThem() throws {
        let escape = "\u{1B}]0;x\u{7}"
        let twice = Self.info(inputs: [Self.feature(escape, "double"), Self.feature(escape, "int64")], outputs: [])
        #expect {
            _ = try CoreMLClassGenerator.source(className: "M", info: twice, modelFileName: "M.mlmodel")
        } throws: { error in
            (error as? ConversionError)?.message == #"the model declares the input "\u{1b}]0;x\u{7}" twice"#
        }
        let long = String(repeating: "n", count: 2000) + "\u{1B}]0;title\u{7}"
        let tooLong = Self.info(inputs: [], outputs: [Self.feature(long, "double")])
        #expect {
            _ = try CoreMLClassGenerator.source(className: "M", info: tooLong, modelFileName: "M.mlmodel")
        } throws: { error in
            guard let e = error as? ConversionError else { return false }
            // Named, cut, and without the escape character itself.
            return e.message.contains("output \"nnnn") && e.message.contains("2010 bytes")
                && !e.message.contains("\u{1B}")
        }
    }

    /// The mapping is deterministic, and names that are identifiers already keep them whatever comes first.
    @Test func collisionsResolveDeterministically() throws {
        let names = try SwiftIdentifiers.assign(["a-b", "a_b", "a b", "a_b_2"], what: "input", taken: []) { _, _ in [] }
        #expect(names == ["a_b_3", "a_b", "a_b_4", "a_b_2"])
        #expect(SwiftIdentifiers.base("input.1") == "input_1" && SwiftIdentifiers.base("3x") == "_3x")
        #expect(SwiftIdentifiers.base("é") == "feature_" && SwiftIdentifiers.base("") == "feature")
    }

    /// What lands in comments and literals cannot leave them.
    @Test func commentAndLiteralEscaping() {
        #expect(SwiftSourceText.comment("a */ b /* c\r\nd\u{2028}e") == #"a * / b / * c\u{d}\u{a}d\u{2028}e"#)
        #expect(SwiftSourceText.comment("//*") == "// *")
        #expect(SwiftSourceText.comment(String(repeating: "x", count: 1000)).count == SwiftSourceText.commentLimit + 1)
        #expect(SwiftSourceText.literal("a\"b\\c\n\u{0}é\u{202E}") == #""a\"b\\c\n\u{0}\u{e9}\u{202e}""#)
    }
}
