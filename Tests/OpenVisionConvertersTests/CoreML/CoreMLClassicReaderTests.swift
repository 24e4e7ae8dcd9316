import Foundation
import Testing

@testable import OpenVisionConverters

/// The classic model types' readers and lowerings on files made to break them: trees that are not trees (cycles,
/// two roots, two parents, missing children), millions of nodes, absurd kNN indexes and sparse support vectors,
/// inconsistent weights — each a `ConversionError` with its code, before anything is allocated for what the file does
/// not hold. The fixtures' conversions themselves are checked against their libraries in
/// Tests/OpenVisionTests/Models/CoreMLClassicTests.swift.
@Suite struct CoreMLClassicReaderTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/coreml/classic")

    /// A FeatureDescription of a multi-array of `width` doubles (kind 5), a double (2), an int64 (1) or a string (3).
    static func feature(_ e: inout ONNXProtobufEncoder, _ field: Int, _ name: String, _ kind: Int, width: Int = 2) {
        e.message(field) { f in
            f.string(1, name)
            f.message(3) { t in
                if kind == 5 {
                    t.message(5) { a in
                        a.int64(1, Int64(width))
                        a.int64(2, 65600)
                    }
                } else {
                    t.message(kind) { _ in }
                }
            }
        }
    }

    /// A Model of `type` (Model.proto field) with input "x" (a `width`-wide multi-array) and output "y" (a double), or a
    /// classifier's string label and probabilities, whose parameters `body` writes.
    static func model(
        _ field: Int, classifier: Bool = false, width: Int = 2, _ body: (inout ONNXProtobufEncoder) -> Void
    ) -> [UInt8] {
        var e = ONNXProtobufEncoder()
        e.int64(1, 4)
        e.message(2) { d in
            feature(&d, 1, "x", 5, width: width)
            if classifier {
                feature(&d, 10, "label", 3)
                d.message(10) { f in
                    f.string(1, "probabilities")
                    f.message(3) { t in t.message(6) { $0.message(2) { _ in } } }
                }
                d.string(11, "label")
                d.string(12, "probabilities")
            } else {
                feature(&d, 10, "y", 2)
            }
        }
        e.message(field, body)
        return e.bytes
    }

    /// A tree node: tree 0, `id`, a branch (≤ 0.5 on feature 0) to `children`, or a leaf adding `value`.
    static func node(
        _ e: inout ONNXProtobufEncoder, _ id: Int, children: (Int, Int)? = nil, value: Double = 1, tree: Int = 0
    ) {
        e.message(1) { n in
            n.int64(1, Int64(tree))
            n.int64(2, Int64(id))
            if let (t, f) = children {
                n.int64(3, 0)
                n.double(11, 0.5)
                n.int64(12, Int64(t))
                n.int64(13, Int64(f))
            } else {
                n.int64(3, 6)
                n.message(20) { $0.double(2, value) }
            }
        }
    }

    static func tree(_ nodes: (inout ONNXProtobufEncoder) -> Void, dimensions: Int64 = 1) -> [UInt8] {
        model(302) { r in
            r.message(1) { t in
                nodes(&t)
                t.int64(2, dimensions)
            }
        }
    }

    static func conversionError(_ bytes: [UInt8]) -> ConversionError? {
        do {
            _ = try CoreMLConverter.onnxData(bytes: bytes)
            return nil
        } catch {
            return error as? ConversionError
        }
    }

    @Test func aWellFormedTreeConverts() throws {
        let bytes = Self.tree { t in
            Self.node(&t, 0, children: (1, 2))
            Self.node(&t, 1, value: 3)
            Self.node(&t, 2, value: 4)
        }
        let onnx = try CoreMLConverter.onnxData(bytes: bytes)
        let info = try ONNXModelInfo(data: onnx)
        #expect(info.inputs.map(\.name) == ["x"] && info.outputs.map(\.name) == ["y"])
    }

    /// (what the tree does wrong, the nodes, the message's words)
    static let brokenTrees: [(String, @Sendable (inout ONNXProtobufEncoder) -> Void, String)] = [
        (
            "cycle",
            { t in
                Self.node(&t, 0, children: (1, 2))
                Self.node(&t, 1, children: (0, 2))
                Self.node(&t, 2)
            }, "two branches"
        ),
        (
            "loop without a root",
            { t in
                Self.node(&t, 0, children: (1, 2))
                Self.node(&t, 1, children: (0, 3))
                Self.node(&t, 2)
                Self.node(&t, 3)
            },
            "cycle"
        ),
        (
            "self loop",
            { t in
                Self.node(&t, 0, children: (0, 1))
                Self.node(&t, 1)
                Self.node(&t, 5, value: 2, tree: 1)
            }, "cycle"
        ),
        (
            "missing child",
            { t in
                Self.node(&t, 0, children: (1, 7))
                Self.node(&t, 1)
            }, "does not have"
        ),
        (
            "two roots",
            { t in
                Self.node(&t, 0)
                Self.node(&t, 1)
            }, "two roots"
        ),
        (
            "repeated id",
            { t in
                Self.node(&t, 0, children: (1, 2))
                Self.node(&t, 1)
                Self.node(&t, 1)
                Self.node(&t, 2)
            }, "two nodes 1"
        ),
    ]

    @Test(arguments: brokenTrees.indices)
    func treesThatAreNotTreesAreRefused(_ index: Int) {
        let (what, nodes, words) = Self.brokenTrees[index]
        let error = Self.conversionError(Self.tree(nodes))
        #expect(error?.code == .invalidValue, "\(what): \(String(describing: error))")
        #expect(error?.message.contains(words) == true, "\(what): \(String(describing: error))")
    }

    /// More nodes than `CoreMLClassicLimits.treeNodes` (4,194,305 empty nodes, 8 MB) are counted and refused before
    /// one is decoded; absurd dimension counts and leaves past them too.
    @Test func sizesBeyondTheLimitsAreRefused() {
        var big = ONNXProtobufEncoder()
        for _ in 0...CoreMLClassicLimits.treeNodes { big.bytes(1, [] as [UInt8]) }
        let forest = Self.model(302) { r in r.bytes(1, big.bytes) }
        #expect(Self.conversionError(forest)?.code == .limitExceeded)
        #expect(
            Self.conversionError(Self.tree({ Self.node(&$0, 0) }, dimensions: 1 << 40))?.message.contains(
                "numPredictionDimensions") == true)
        let leafPastDimensions = Self.model(302) { r in
            r.message(1) { t in
                t.message(1) { n in
                    n.int64(3, 6)
                    n.message(20) {
                        $0.int64(1, 3)
                        $0.double(2, 1)
                    }
                }
                t.int64(2, 2)
            }
        }
        #expect(Self.conversionError(leafPastDimensions)?.message.contains("dimension 3 of 2") == true)
        // A branch reading feature 7 of a two-value input.
        let wideBranch = Self.tree { t in
            t.message(1) { n in
                n.int64(2, 0)
                n.int64(10, 7)
                n.int64(12, 1)
                n.int64(13, 2)
            }
            Self.node(&t, 1)
            Self.node(&t, 2)
        }
        #expect(Self.conversionError(wideBranch)?.message.contains("feature 7 of 2") == true)
    }

    /// kNN indexes of 2²⁴ dimensions × 17 samples and sparse support vectors reaching index 2²⁴ are refused by count,
    /// before their values are read or a dense copy is made; samples of the wrong width and a dimension count out of
    /// range are invalid.
    @Test func absurdIndexesAndSupportVectorsAreRefused() {
        let knn = Self.model(404, classifier: true) { k in
            k.message(1) { index in
                index.int64(1, 1 << 24)
                for _ in 0..<17 { index.message(2) { _ in } }
            }
        }
        #expect(Self.conversionError(knn)?.code == .limitExceeded)
        let narrow = Self.model(404, classifier: true) { k in
            k.message(1) { index in
                index.int64(1, 2)
                index.message(2) { $0.float(1, 1) }
            }
            k.message(100) { $0.string(1, "a") }
        }
        #expect(Self.conversionError(narrow)?.message.contains("1 values for 2 dimensions") == true)
        #expect(
            Self.conversionError(Self.model(404, classifier: true) { $0.message(1) { $0.int64(1, -1) } })?.code
                == .invalidValue)
        let sparse = Self.model(301) { s in
            s.message(1) { $0.message(2) { $0.double(1, 0.5) } }
            s.message(2) { vectors in
                for _ in 0..<17 {
                    vectors.message(1) {
                        $0.message(1) { n in
                            n.int64(1, 1 << 24)
                            n.double(2, 1)
                        }
                    }
                }
            }
            s.message(4) { c in for _ in 0..<17 { c.double(1, 1) } }
        }
        #expect(Self.conversionError(sparse)?.code == .limitExceeded)
    }

    @Test func inconsistentLinearModelsAreRefused() {
        let ragged = Self.model(300) { g in
            g.message(1) {
                $0.double(1, 1)
                $0.double(1, 2)
            }
            g.message(1) { $0.double(1, 1) }
        }
        #expect(Self.conversionError(ragged)?.message.contains("different lengths") == true)
        let wide = Self.model(300, width: 3) { g in
            g.message(1) {
                $0.double(1, 1)
                $0.double(1, 2)
            }
        }
        #expect(Self.conversionError(wide)?.message.contains("2 weights per row for 3 input values") == true)
        let oneClass = Self.model(400, classifier: true) { g in
            g.message(1) {
                $0.double(1, 1)
                $0.double(1, 2)
            }
            g.message(100) { $0.string(1, "only") }
        }
        #expect(Self.conversionError(oneClass)?.message.contains("two class labels") == true)
        let infinite = Self.model(300) { g in
            g.message(1) {
                $0.double(1, .infinity)
                $0.double(1, 2)
            }
        }
        #expect(Self.conversionError(infinite)?.message.contains("not finite") == true)
    }

    /// The fixtures read as coremltools describes them (`ct.utils.load_spec`): MarsHabitatPricer-like pipelines of
    /// classic models, the kNN's distinct labels as its class labels, classic models counted by type.
    @Test func fixturesReadAsCoremltoolsDescribesThem() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent("glm_regressor_scalars.mlmodel")))
        let spec = try CoreMLSpec(bytes: bytes)
        guard case .pipeline(let p) = spec.kind else {
            Issue.record("not a pipeline")
            return
        }
        #expect(p.models.map(\.typeName) == ["featureVectorizer", "glmRegressor"])
        let conversion = try CoreMLConverter.conversion(spec: spec, name: "scalars", blob: { _ in [] })
        #expect(conversion.info.layerCounts == ["featureVectorizer": 1, "glmRegressor": 1])
        let knn = try CoreMLConverter.conversion(
            bytes: [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent("knn_inverse_distance.mlmodel"))),
            name: "knn", blob: { _ in [] })
        #expect(knn.info.classLabels == ["red", "green", "blue"])
        // Still refused, naming the type: Apple's private feature print.
        var e = ONNXProtobufEncoder()
        e.int64(1, 4)
        e.message(2) { d in
            Self.feature(&d, 1, "x", 5)
            Self.feature(&d, 10, "y", 5)
        }
        e.message(2002) { _ in }
        #expect(Self.conversionError(e.bytes)?.message.contains("visionFeaturePrint") == true)
    }
}
