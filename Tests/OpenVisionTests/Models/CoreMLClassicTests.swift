import Foundation
import OpenVisionTestSupport
import Testing

@testable import OpenVision

/// Core ML's classic model types through `VisionModel.prediction(features:)`: every fixture of
/// Tests/Fixtures/coreml/classic (made by coremltools' scikit-learn / XGBoost / LibSVM converters and builders,
/// scripts/models/coreml_classic_fixtures.py) gives the outputs its source library computes for the same inputs —
/// scikit-learn's predict / predict_proba / transform, XGBoost's predict, LibSVM's svm_predict, numpy for the hand-made
/// ones — and Apple's MarsHabitatPricer and UpdatableDrawingClassifier answer as their files say.
@Suite struct CoreMLClassicTests {
    static let folder = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/coreml/classic")
    static let wild = Fixtures.shared.appendingPathComponent("models/coreml-wild")

    /// A fixture's cases: inputs and expected outputs by feature name, as JSON values.
    struct Fixture: Decodable {
        struct Case: Decodable {
            var inputs: [String: JSONValue]
            var outputs: [String: JSONValue]
        }
        var cases: [Case]
    }

    enum JSONValue: Decodable {
        case number(Double)
        case string(String)
        case array([Double])
        case object([String: Double])

        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let d = try? c.decode(Double.self) {
                self = .number(d)
                return
            }
            if let s = try? c.decode(String.self) {
                self = .string(s)
                return
            }
            if let a = try? c.decode([Double?].self) {
                self = .array(a.map { $0 ?? .nan })
                return
            }
            self = .object(try c.decode([String: Double].self))
        }
    }

    static func model(_ url: URL) throws -> VisionModel {
        var c = VisionModel.Configuration()
        c.threads = 1
        c.backend = .onnxRuntime
        return try VisionModel(contentsOf: url, configuration: c)
    }

    /// The fixtures and the tolerance of each (|got − want| ≤ tolerance × max(|want|, 1)): 1e-6 for GLMs, trees and
    /// feature engineering (double in Core ML and here); XGBoost predicts in float32, the network in float32, ONNX's
    /// SVM operators and ONNX Runtime's `Erf` compute in float32.
    static let fixtures: [(String, Double)] = [
        ("glm_regressor", 1e-6), ("glm_regressor_scalars", 1e-6), ("glm_classifier_binary", 1e-6),
        ("glm_classifier_ovr", 1e-6),
        ("glm_classifier_probit", 1e-5), ("tree_regressor", 1e-6), ("forest_classifier", 1e-6),
        ("boosted_classifier_binary", 1e-6),
        ("xgboost_regressor", 1e-5), ("xgboost_classifier", 1e-5), ("svr", 1e-4), ("svc_probability", 1e-4),
        ("svc_libsvm", 1e-4),
        ("knn_sklearn", 1e-6), ("knn_inverse_distance", 1e-6), ("knn_empty", 1e-6), ("scaler_normalizer_glm", 1e-6),
        ("normalizer_l2", 1e-6), ("normalizer_max", 1e-6), ("imputer_mean", 1e-6), ("string_imputer_mapping", 0),
        ("int_to_string_mapping", 0), ("dict_vectorizer_glm", 1e-6), ("one_hot_encoder", 0),
        ("array_feature_extractor", 0),
        ("network_then_glm", 1e-5),
    ]

    @Test(arguments: fixtures)
    func fixtureGivesItsLibrarysOutputs(_ name: String, _ tolerance: Double) throws {
        let model = try Self.model(Self.folder.appendingPathComponent(name + ".mlmodel"))
        let fixture = try JSONDecoder().decode(
            Fixture.self, from: Data(contentsOf: Self.folder.appendingPathComponent(name + ".json")))
        let declared = Dictionary(uniqueKeysWithValues: model.inputFeatures.map { ($0.name, $0) })
        func close(_ got: Double, _ want: Double) -> Bool { abs(got - want) <= tolerance * max(abs(want), 1) }
        for (k, c) in fixture.cases.enumerated() {
            var inputs: [String: FeatureValue] = [:]
            for (key, value) in c.inputs {
                let kind = try #require(declared[key]?.kind, "\(name): input \(key)")
                switch value {
                case .number(let d): inputs[key] = kind == .int64 ? .int64(Int64(d)) : .double(d)
                case .string(let s): inputs[key] = .string(s)
                case .array(let a): inputs[key] = .multiArray(try MultiArray(shape: [a.count], elements: .float64(a)))
                case .object(let o): inputs[key] = .stringDictionary(o)
                }
            }
            let outputs = try model.prediction(features: inputs)
            for (key, want) in c.outputs {
                let got = try #require(
                    outputs[key], "\(name) case \(k): no output \(key) (has \(outputs.keys.sorted()))")
                switch (want, got) {
                case (.number(let w), .double(let g)): #expect(close(g, w), "\(name) case \(k) \(key): \(g) vs \(w)")
                case (.number(let w), .int64(let g)): #expect(Double(g) == w, "\(name) case \(k) \(key): \(g) vs \(w)")
                case (.string(let w), .string(let g)): #expect(g == w, "\(name) case \(k) \(key): \(g) vs \(w)")
                case (.array(let w), .multiArray(let g)):
                    let values = try #require(g.doubles)
                    #expect(
                        values.count == w.count && zip(values, w).allSatisfy { close($0, $1) },
                        "\(name) case \(k) \(key): \(values) vs \(w)")
                case (.object(let w), .stringDictionary(let g)):
                    #expect(Set(g.keys) == Set(w.keys), "\(name) case \(k) \(key): labels \(g.keys.sorted())")
                    for (label, p) in w {
                        #expect(
                            close(g[label] ?? .nan, p),
                            "\(name) case \(k) \(key)[\(label)]: \(g[label] ?? .nan) vs \(p)")
                    }
                case (.object(let w), .int64Dictionary(let g)):
                    for (label, p) in w {
                        #expect(close(g[Int64(label) ?? -1] ?? .nan, p), "\(name) case \(k) \(key)[\(label)]")
                    }
                default:
                    Issue.record("\(name) case \(k) \(key): \(got) is not a \(want)")
                }
            }
        }
    }

    /// Apple's MarsHabitatPricer (featureVectorizer → glmRegressor): the price its weights give, in double.
    @Test func marsHabitatPricer() throws {
        let model = try Self.model(Self.wild.appendingPathComponent("MarsHabitatPricer.mlmodel"))
        #expect(model.inputFeatures.map(\.name) == ["solarPanels", "greenhouses", "size"])
        #expect(model.inputFeatures.allSatisfy { $0.kind == .double } && model.outputFeatures.map(\.kind) == [.double])
        // The file's weights (coremltools: spec.pipelineRegressor.pipeline.models[1].glmRegressor).
        for (panels, greenhouses, size) in [(1.0, 2.0, 750.0), (3.0, 0.0, 1000.0), (0.5, 5.0, 5000.0)] {
            let want =
                136.72672317810523 * panels + 653.51101376230667 * greenhouses + 5.8540790493029951 * size
                - 3751.0558784658238
            let out = try model.prediction(features: [
                "solarPanels": .double(panels), "greenhouses": .int64(Int64(greenhouses)),
                "size": .double(size),
            ])
            guard case .double(let price)? = out["price"] else {
                Issue.record("no price: \(out)")
                continue
            }
            #expect(abs(price - want) <= 1e-12 * abs(want), "\(price) vs \(want)")
        }
    }

    /// Apple's UpdatableDrawingClassifier as shipped: an empty kNN after the drawing embedder gives its default label
    /// "unknown" and no probabilities.
    @Test func emptyUpdatableDrawingClassifierGivesItsDefaultLabel() throws {
        let model = try Self.model(Self.wild.appendingPathComponent("UpdatableDrawingClassifier.mlmodel"))
        let drawing = try VisionImage(contentsOf: Self.wild.appendingPathComponent("inputs/one.png"))
        let out = try model.prediction(features: ["drawing": .image(drawing)])
        guard case .string(let label)? = out["label"], case .stringDictionary(let probabilities)? = out["labelProbs"]
        else {
            Issue.record("outputs \(out)")
            return
        }
        #expect(label == "unknown" && probabilities.isEmpty)
        #expect(model.modelDescription.coreML?.submodels == ["neuralNetwork", "kNearestNeighborsClassifier"])
    }

    /// Unknown, missing and mistyped inputs are `invalidArgument` naming the input and listing the model's.
    @Test func badInputsAreNamed() throws {
        let model = try Self.model(Self.wild.appendingPathComponent("MarsHabitatPricer.mlmodel"))
        let all: [String: FeatureValue] = ["solarPanels": .double(1), "greenhouses": .double(1), "size": .double(1)]
        var extra = all
        extra["windows"] = .double(4)
        #expect { _ = try model.prediction(features: extra) } throws: { e in
            (e as? VisionError)?.code == .invalidArgument && "\(e)".contains("no input 'windows'")
                && "\(e)".contains("solarPanels (double)")
        }
        #expect { _ = try model.prediction(features: ["solarPanels": .double(1)]) } throws: { e in
            (e as? VisionError)?.code == .invalidArgument && "\(e)".contains("needs the input 'greenhouses'")
        }
        var wrong = all
        wrong["size"] = .string("large")
        #expect { _ = try model.prediction(features: wrong) } throws: { e in
            (e as? VisionError)?.code == .invalidArgument && "\(e)".contains("input 'size'")
                && "\(e)".contains("takes a number")
        }
        let strings = try Self.model(Self.folder.appendingPathComponent("string_imputer_mapping.mlmodel"))
        #expect { _ = try strings.prediction(features: ["size": .double(2)]) } throws: { e in
            "\(e)".contains("takes a string")
        }
    }

    /// A converted classic model is ONNX that ONNX Runtime reads with its types: double, int64, string and map inputs;
    /// a classifier's label a string tensor beside its probabilities (float: ONNX-ML's `LinearClassifier`); an input
    /// only an SVM reads is float.
    @Test func graphKeepsCoreMLsTypes() throws {
        let mapping = try Self.model(Self.folder.appendingPathComponent("string_imputer_mapping.mlmodel"))
        #expect(mapping.modelDescription.inputs.map(\.elementType) == ["string"])
        #expect(mapping.modelDescription.outputs.map(\.elementType) == ["int64"])
        let classifier = try Self.model(Self.folder.appendingPathComponent("glm_classifier_binary.mlmodel"))
        #expect(classifier.modelDescription.inputs.map(\.elementType) == ["float64"])
        #expect(classifier.modelDescription.outputs.map(\.elementType).sorted() == ["float32", "string"])
        #expect(classifier.modelDescription.coreML?.classLabels == ["no", "yes"])
        let svr = try Self.model(Self.folder.appendingPathComponent("svr.mlmodel"))
        #expect(
            svr.modelDescription.inputs.map(\.elementType) == ["float32"]
                && svr.modelDescription.inputs[0].shape == [1, 4])
        let dictionary = try Self.model(Self.folder.appendingPathComponent("dict_vectorizer_glm.mlmodel"))
        #expect(dictionary.modelDescription.inputs.map(\.elementType) == ["non-tensor"])
    }
}
