import Foundation

// Decoding each classic model type's parameters, with every count, index and size checked before it is used
// (CoreMLLimits, CoreMLClassicLimits): a malformed or hostile file is a ConversionError, never a trap or an
// allocation its bytes do not justify.
extension CoreMLClassicModel {
    // MARK: Shared pieces

    static func labels(_ m: ProtoMessage, strings: Int = 100, ints: Int = 101) throws -> Labels? {
        switch m.oneof([strings, ints]) {
        case strings?: return .strings(try m.message(strings, "stringClassLabels")!.repeatedStrings(1))
        case ints?: return .int64s(try m.message(ints, "int64ClassLabels")!.repeatedInt64(1))
        default: return nil
        }
    }

    static func invalid(_ m: ProtoMessage, _ message: String) -> ConversionError {
        ConversionError(.invalidValue, "\(m.context): \(message)")
    }

    static func requireFinite(_ values: [Double], _ what: String, _ m: ProtoMessage) throws {
        if let bad = values.first(where: { !$0.isFinite }) { throw invalid(m, "\(what) \(bad) is not finite") }
    }

    // MARK: Linear models

    /// `GLMRegressor` or `GLMClassifier`.
    func glm() throws -> GLM {
        try withMessage { m in
            let classifier = type == .glmClassifier
            let rows = try m.messages(1, "weights").map { try $0.repeatedDoubles(1) }
            guard let width = rows.first?.count, width > 0 else { throw Self.invalid(m, "no weights") }
            guard rows.allSatisfy({ $0.count == width }) else {
                throw Self.invalid(m, "weight rows of different lengths \(rows.map(\.count))")
            }
            guard rows.count <= CoreMLClassicLimits.classes, width <= CoreMLLimits.dimension else {
                throw ConversionError(.limitExceeded, "\(m.context): \(rows.count) × \(width) weights")
            }
            let offsets = try m.repeatedDoubles(2)
            guard offsets.isEmpty || offsets.count == rows.count else {
                throw Self.invalid(m, "\(offsets.count) offsets for \(rows.count) weight rows")
            }
            for row in rows { try Self.requireFinite(row, "weight", m) }
            try Self.requireFinite(offsets, "offset", m)
            let raw = try m.int32(3)
            let transform: GLM.Transform
            switch (classifier, raw) {
            case (false, 0): transform = .none
            case (false, 1), (true, 0): transform = .logit
            case (false, 2), (true, 1): transform = .probit
            default: throw Self.invalid(m, "unknown post-evaluation transform \(raw)")
            }
            let encoding = try m.int32(4)
            guard (0...1).contains(encoding) else { throw Self.invalid(m, "unknown class encoding \(encoding)") }
            var glm = GLM(
                weights: rows, offsets: offsets.isEmpty ? Array(repeating: 0, count: rows.count) : offsets,
                transform: transform, oneVsRest: encoding == 1, labels: nil)
            if classifier {
                guard let labels = try Self.labels(m), labels.count >= 2 else {
                    throw Self.invalid(m, "a classifier needs at least two class labels")
                }
                glm.labels = labels
            }
            return glm
        }
    }

    // MARK: Tree ensembles

    /// `TreeEnsembleRegressor` or `TreeEnsembleClassifier`, with every tree checked to be a tree: node ids unique
    /// within their tree, children that exist, one root, every node reached once from it (no cycles, no shared
    /// nodes), at most `CoreMLClassicLimits.treeNodes` nodes.
    func treeEnsemble() throws -> TreeEnsemble {
        try withMessage { m in
            guard let body = try m.bytes(1) else { throw Self.invalid(m, "no treeEnsemble") }
            var ensemble = try Self.treeParameters(body, context: "\(m.context) treeEnsemble")
            ensemble.transform = Int(try m.int32(2))
            guard (0...3).contains(ensemble.transform) else {
                throw Self.invalid(m, "unknown post-evaluation transform \(ensemble.transform)")
            }
            if type == .treeEnsembleClassifier {
                guard let labels = try Self.labels(m), labels.count >= 2 else {
                    throw Self.invalid(m, "a classifier needs at least two class labels")
                }
                ensemble.labels = labels
            }
            return ensemble
        }
    }

    static func treeParameters(_ body: ProtoMessage.Bytes, context: String) throws -> TreeEnsemble {
        func syntax(_ what: String) -> ConversionError { ConversionError(.syntax, "\(context): \(what)") }
        func invalid(_ what: String) -> ConversionError { ConversionError(.invalidValue, "\(context): \(what)") }
        func integer(_ v: UInt64, _ what: String) throws -> Int {
            guard v <= UInt64(Int.max) else { throw invalid("\(what) \(v) is out of range") }
            return Int(v)
        }
        var e = TreeEnsemble()
        // Count the nodes before decoding any.
        var counter = ProtoReader(body)
        var nodes = 0
        while let (field, _) = counter.next() {
            guard field == 1 else { continue }
            nodes += 1
            guard nodes <= CoreMLClassicLimits.treeNodes else {
                throw ConversionError(
                    .limitExceeded, "\(context): more than \(CoreMLClassicLimits.treeNodes) tree nodes")
            }
        }
        for array in [\TreeEnsemble.treeIds, \.nodeIds, \.featureIndices, \.trueChildren, \.falseChildren] {
            e[keyPath: array].reserveCapacity(nodes)
        }
        var reader = ProtoReader(body)
        var dimensions: UInt64 = 0
        while let (field, value) = reader.next() {
            switch (field, value) {
            case (1, .bytes(let node)):
                try readNode(node, into: &e, context: "\(context) node \(e.nodeCount)")
            case (2, .varint(let v)): dimensions = v
            case (3, .fixed64(let v)): e.base.append(Double(bitPattern: v))
            case (3, .bytes(let packed)):
                guard let values = ProtoReader.packedDoubles(packed) else {
                    throw syntax("malformed basePredictionValue")
                }
                e.base += values
            case (1, _), (2, _), (3, _): throw syntax("field \(field) has the wrong wire type")
            default: break
            }
            if e.base.count > CoreMLClassicLimits.classes {
                throw ConversionError(.limitExceeded, "\(context): too many base values")
            }
        }
        if reader.failed { throw syntax("malformed protobuf") }
        guard dimensions >= 1, dimensions <= UInt64(CoreMLClassicLimits.classes) else {
            throw invalid("numPredictionDimensions \(dimensions) is out of range 1...\(CoreMLClassicLimits.classes)")
        }
        e.dimensions = Int(dimensions)
        guard e.base.isEmpty || e.base.count == e.dimensions else {
            throw invalid("\(e.base.count) base prediction values for \(e.dimensions) dimensions")
        }
        if let bad = e.base.first(where: { !$0.isFinite }) {
            throw invalid("base prediction value \(bad) is not finite")
        }
        if let bad = e.leafTargets.first(where: { $0 >= e.dimensions }) {
            throw invalid("a leaf adds to dimension \(bad) of \(e.dimensions)")
        }
        try checkTrees(e, context: context)
        return e
    }

    private static func readNode(_ body: ProtoMessage.Bytes, into e: inout TreeEnsemble, context: String) throws {
        var tree: UInt64 = 0
        var node: UInt64 = 0
        var behavior: UInt64 = 0
        var feature: UInt64 = 0
        var threshold = 0.0
        var trueChild: UInt64 = 0
        var falseChild: UInt64 = 0
        var missingTrue = false
        var leaves: [(UInt64, Double)] = []
        var reader = ProtoReader(body)
        while let (field, value) = reader.next() {
            switch (field, value) {
            case (1, .varint(let v)): tree = v
            case (2, .varint(let v)): node = v
            case (3, .varint(let v)): behavior = v
            case (10, .varint(let v)): feature = v
            case (11, .fixed64(let v)): threshold = Double(bitPattern: v)
            case (12, .varint(let v)): trueChild = v
            case (13, .varint(let v)): falseChild = v
            case (14, .varint(let v)): missingTrue = v != 0
            case (20, .bytes(let info)):
                var index: UInt64 = 0
                var weight = 0.0
                var inner = ProtoReader(info)
                while let (f, v) = inner.next() {
                    switch (f, v) {
                    case (1, .varint(let x)): index = x
                    case (2, .fixed64(let x)): weight = Double(bitPattern: x)
                    case (1, _), (2, _):
                        throw ConversionError(.syntax, "\(context) evaluationInfo: field \(f) has the wrong wire type")
                    default: break
                    }
                }
                if inner.failed { throw ConversionError(.syntax, "\(context) evaluationInfo: malformed protobuf") }
                guard leaves.count < CoreMLClassicLimits.classes else {
                    throw ConversionError(
                        .limitExceeded, "\(context): more than \(CoreMLClassicLimits.classes) leaf values")
                }
                leaves.append((index, weight))
            case (1, _), (2, _), (3, _), (10, _), (11, _), (12, _), (13, _), (14, _), (20, _):
                throw ConversionError(.syntax, "\(context): field \(field) has the wrong wire type")
            default: break
            }
        }
        if reader.failed { throw ConversionError(.syntax, "\(context): malformed protobuf") }
        let limit = UInt64(Int.max)
        guard tree <= limit, node <= limit, trueChild <= limit, falseChild <= limit else {
            throw ConversionError(.invalidValue, "\(context): a tree or node id beyond \(Int.max)")
        }
        guard behavior <= 6 else {
            throw ConversionError(.invalidValue, "\(context): unknown node behavior \(behavior)")
        }
        let isLeaf = behavior == 6
        if !isLeaf {
            guard feature <= UInt64(CoreMLLimits.dimension) else {
                throw ConversionError(.invalidValue, "\(context): branch feature index \(feature) is out of range")
            }
            guard !threshold.isNaN else { throw ConversionError(.invalidValue, "\(context): the branch value is NaN") }
            e.maximumFeature = max(e.maximumFeature, Int(feature))
        }
        let index = e.nodeCount
        e.treeIds.append(Int(tree))
        e.nodeIds.append(Int(node))
        e.behaviors.append(UInt8(behavior))
        e.featureIndices.append(isLeaf ? 0 : Int(feature))
        e.values.append(isLeaf ? 0 : threshold)
        e.trueChildren.append(isLeaf ? 0 : Int(trueChild))
        e.falseChildren.append(isLeaf ? 0 : Int(falseChild))
        e.missingTracksTrue.append(missingTrue)
        guard isLeaf else { return }
        for (target, weight) in leaves {
            guard target <= UInt64(CoreMLClassicLimits.classes), weight.isFinite else {
                throw ConversionError(.invalidValue, "\(context): leaf value \(weight) for dimension \(target)")
            }
            e.leafNodes.append(index)
            e.leafTargets.append(Int(target))
            e.leafValues.append(weight)
        }
    }

    /// Throws unless every tree of `e` is a tree (see `treeEnsemble()`). Linear in the nodes, without recursion.
    private static func checkTrees(_ e: TreeEnsemble, context: String) throws {
        struct Key: Hashable { var tree: Int, node: Int }
        var index: [Key: Int] = [:]
        index.reserveCapacity(e.nodeCount)
        for i in 0..<e.nodeCount {
            let key = Key(tree: e.treeIds[i], node: e.nodeIds[i])
            guard index.updateValue(i, forKey: key) == nil else {
                throw ConversionError(.invalidValue, "\(context): tree \(key.tree) has two nodes \(key.node)")
            }
        }
        // Children by index; each node's parent count.
        var children = [Int](repeating: -1, count: 2 * e.nodeCount)
        var parents = [UInt8](repeating: 0, count: e.nodeCount)
        for i in 0..<e.nodeCount where e.behaviors[i] != 6 {
            for (k, child) in [e.trueChildren[i], e.falseChildren[i]].enumerated() {
                guard let c = index[Key(tree: e.treeIds[i], node: child)] else {
                    throw ConversionError(
                        .invalidValue,
                        "\(context): node \(e.nodeIds[i]) of tree \(e.treeIds[i]) branches to node "
                            + "\(child), which the tree does not have")
                }
                children[2 * i + k] = c
                guard parents[c] == 0 else {
                    throw ConversionError(
                        .invalidValue,
                        "\(context): node \(child) of tree \(e.treeIds[i]) is reached from two "
                            + "branches (a tree's nodes have one parent)")
                }
                parents[c] = 1
            }
        }
        // One root per tree; every node reached from it.
        var roots: [Int: Int] = [:]
        for i in 0..<e.nodeCount where parents[i] == 0 {
            if let other = roots.updateValue(i, forKey: e.treeIds[i]) {
                throw ConversionError(
                    .invalidValue,
                    "\(context): tree \(e.treeIds[i]) has two roots (nodes \(e.nodeIds[other]) and "
                        + "\(e.nodeIds[i]))")
            }
        }
        var reached = 0
        var stack: [Int] = []
        for root in roots.values {
            stack.append(root)
            while let n = stack.popLast() {
                reached += 1
                if e.behaviors[n] != 6 {
                    stack.append(children[2 * n])
                    stack.append(children[2 * n + 1])
                }
            }
        }
        guard reached == e.nodeCount else {
            let trees = Set(e.treeIds).subtracting(roots.keys).sorted().prefix(3).map(String.init).joined(
                separator: ", ")
            throw ConversionError(
                .invalidValue,
                "\(context): a tree has a cycle (\(e.nodeCount - reached) nodes are not reached "
                    + "from a root\(trees.isEmpty ? "" : "; trees without a root: \(trees)"))")
        }
    }

    // MARK: Support vector machines

    /// `SupportVectorRegressor` or `SupportVectorClassifier`, support vectors made dense (`features` wide).
    func svm() throws -> SVM {
        try withMessage { m in
            let classifier = type == .supportVectorClassifier
            guard let kernelMessage = try m.message(1, "kernel") else { throw Self.invalid(m, "no kernel") }
            var kernel = "LINEAR"
            var parameters = [0.0, 0.0, 0.0]
            switch kernelMessage.oneof([1, 2, 3, 4]) {
            case 1?, nil: break
            case 2?:
                kernel = "RBF"
                parameters = [try kernelMessage.message(2, "rbfKernel")!.double(1), 0, 0]
            case 3?:
                let poly = try kernelMessage.message(3, "polyKernel")!
                let degree = try poly.int32(1)
                guard (0...1000).contains(degree) else {
                    throw Self.invalid(m, "polynomial degree \(degree) is out of range 0...1000")
                }
                kernel = "POLY"
                parameters = [try poly.double(3), try poly.double(2), Double(degree)]
            default:
                let sigmoid = try kernelMessage.message(4, "sigmoidKernel")!
                kernel = "SIGMOID"
                parameters = [try sigmoid.double(1), try sigmoid.double(2), 0]
            }
            try Self.requireFinite(parameters, "kernel parameter", m)
            let (sparseField, denseField) = classifier ? (3, 4) : (2, 3)
            var vectors: [Double] = []
            var count = 0
            var features = 0
            switch m.oneof([sparseField, denseField]) {
            case denseField?:
                let rows = try m.message(denseField, "denseSupportVectors")!.messages(1, "vector")
                count = rows.count
                features = rows.isEmpty ? 0 : try rows[0].repeatedDoubles(1).count
                guard
                    count.multipliedReportingOverflow(by: max(features, 1)).partialValue
                        <= CoreMLClassicLimits.denseValues
                else {
                    throw ConversionError(
                        .limitExceeded, "\(m.context): \(count) support vectors of \(features) values")
                }
                vectors.reserveCapacity(count * features)
                for row in rows {
                    let values = try row.repeatedDoubles(1)
                    guard values.count == features else {
                        throw Self.invalid(m, "support vectors of \(values.count) and \(features) values")
                    }
                    vectors += values
                }
            case sparseField?:
                let rows = try m.message(sparseField, "sparseSupportVectors")!.messages(1, "vector")
                count = rows.count
                var entries: [[(Int, Double)]] = []
                for row in rows {
                    var entry: [(Int, Double)] = []
                    for node in try row.messages(1, "node") {
                        let index = try node.int32(1)
                        guard index >= 1, index <= CoreMLLimits.dimension else {
                            throw Self.invalid(
                                m, "sparse support vector index \(index) is out of range 1...\(CoreMLLimits.dimension)")
                        }
                        features = max(features, Int(index))
                        entry.append((Int(index), try node.double(2)))
                    }
                    entries.append(entry)
                }
                guard
                    count.multipliedReportingOverflow(by: max(features, 1)).partialValue
                        <= CoreMLClassicLimits.denseValues
                else {
                    throw ConversionError(
                        .limitExceeded,
                        "\(m.context): \(count) sparse support vectors up to index \(features) "
                            + "would be \(count) × \(features) values dense")
                }
                vectors = [Double](repeating: 0, count: count * features)
                for (r, entry) in entries.enumerated() { for (i, v) in entry { vectors[r * features + i - 1] = v } }
            default:
                throw Self.invalid(m, "no support vectors")
            }
            try Self.requireFinite(vectors, "support vector value", m)
            var svm = SVM(
                kernel: kernel, kernelParameters: parameters, supportVectors: vectors, vectors: count,
                features: features, coefficients: [], rho: [])
            if classifier {
                guard let labels = try Self.labels(m), labels.count >= 2, labels.count <= CoreMLClassicLimits.classes
                else {
                    throw Self.invalid(m, "a classifier needs at least two class labels")
                }
                svm.labels = labels
                let perClass = try m.repeatedInts(2, limit: Int(Int32.max), what: "support vectors of a class")
                guard perClass.count == labels.count, perClass.allSatisfy({ $0 >= 0 }), perClass.reduce(0, +) == count
                else {
                    throw Self.invalid(
                        m, "support vectors per class \(perClass) do not add up to \(count) for \(labels.count) classes"
                    )
                }
                svm.vectorsPerClass = perClass
                svm.coefficients = try m.messages(5, "coefficients").map { try $0.repeatedDoubles(1) }
                guard svm.coefficients.count == labels.count - 1, svm.coefficients.allSatisfy({ $0.count == count })
                else {
                    throw Self.invalid(
                        m,
                        "\(svm.coefficients.count) coefficient rows for \(labels.count) classes and \(count) "
                            + "support vectors (classes − 1 rows of one value per support vector)")
                }
                let pairs = labels.count * (labels.count - 1) / 2
                svm.rho = try m.repeatedDoubles(6)
                svm.probA = try m.repeatedDoubles(7)
                svm.probB = try m.repeatedDoubles(8)
                guard svm.rho.count == pairs, svm.probA.count == svm.probB.count,
                    svm.probA.isEmpty || svm.probA.count == pairs
                else {
                    throw Self.invalid(
                        m,
                        "\(svm.rho.count) rho and \(svm.probA.count)/\(svm.probB.count) probA/probB values for "
                            + "\(labels.count) classes (one per pair of classes, \(pairs))")
                }
                try Self.requireFinite(svm.probA + svm.probB, "probA/probB", m)
            } else {
                let alpha = try m.message(4, "coefficients")?.repeatedDoubles(1) ?? []
                guard alpha.count == count else {
                    throw Self.invalid(m, "\(alpha.count) coefficients for \(count) support vectors")
                }
                svm.coefficients = [alpha]
                svm.rho = [try m.double(5)]
            }
            for row in svm.coefficients { try Self.requireFinite(row, "coefficient", m) }
            try Self.requireFinite(svm.rho, "rho", m)
            return svm
        }
    }

    // MARK: Nearest neighbours

    /// `KNearestNeighborsClassifier` (squared Euclidean distance; linear or k-d tree index, searched exhaustively).
    func nearestNeighbors() throws -> NearestNeighbors {
        try withMessage { m in
            guard let index = try m.message(1, "nearestNeighborsIndex") else {
                throw Self.invalid(m, "no nearestNeighborsIndex")
            }
            let dimensions = try index.int32(1)
            guard dimensions >= 1, dimensions <= CoreMLLimits.dimension else {
                throw Self.invalid(
                    index, "numberOfDimensions \(dimensions) is out of range 1...\(CoreMLLimits.dimension)")
            }
            let d = Int(dimensions)
            let rows = try index.messageBodies(2)
            guard rows.count <= CoreMLClassicLimits.denseValues / d else {
                throw ConversionError(
                    .limitExceeded,
                    "\(index.context): \(rows.count) samples of \(d) dimensions exceed "
                        + "\(CoreMLClassicLimits.denseValues) values")
            }
            if let distance = index.oneof([200]), distance != 200 {
                throw Self.invalid(index, "unknown distance function")
            }
            var samples: [Float] = []
            samples.reserveCapacity(rows.count * d)
            for (i, body) in rows.enumerated() {
                let values = try ProtoMessage(body, context: "\(index.context) floatSamples[\(i)]").repeatedFloats(1)
                guard values.count == d else {
                    throw Self.invalid(index, "sample \(i) has \(values.count) values for \(d) dimensions")
                }
                guard values.allSatisfy(\.isFinite) else {
                    throw Self.invalid(index, "sample \(i) has a value that is not finite")
                }
                samples += values
            }
            var k = 1
            if let parameter = try m.message(3, "numberOfNeighbors") {
                k = Int(try parameter.int64(1))
            } else if m.has(2) {
                k = Int(try m.int32(2))
            }
            guard k >= 1, k <= CoreMLLimits.dimension else {
                throw Self.invalid(m, "k = \(k) is out of range 1...\(CoreMLLimits.dimension)")
            }
            var defaultLabel: Labels
            switch m.oneof([110, 111]) {
            case 111?: defaultLabel = .int64s([try m.int64(111)])
            default: defaultLabel = .strings([try m.string(110)])
            }
            let labels =
                try Self.labels(m)
                ?? {
                    if case .int64s = defaultLabel { return .int64s([]) } else { return .strings([]) }
                }()
            guard labels.count == rows.count else {
                throw Self.invalid(m, "\(labels.count) labels for \(rows.count) samples")
            }
            switch (labels, defaultLabel) {
            case (.strings, .strings), (.int64s, .int64s): break
            case (.int64s, .strings) where !m.has(110): defaultLabel = .int64s([0])
            default: throw Self.invalid(m, "the default label and the labels are of different types")
            }
            return NearestNeighbors(
                dimensions: d, samples: samples, sampleCount: rows.count, labels: labels,
                defaultLabel: defaultLabel, k: k, inverseDistance: m.oneof([200, 210]) == 210)
        }
    }

    // MARK: Feature engineering

    func oneHotEncoder() throws -> OneHotEncoder {
        try withMessage { m in
            guard let categories = try Self.labels(m, strings: 1, ints: 2), categories.count >= 1,
                categories.count <= CoreMLClassicLimits.classes
            else {
                throw Self.invalid(m, "no categories (or more than \(CoreMLClassicLimits.classes))")
            }
            let unknown = try m.int32(11)
            guard (0...1).contains(unknown) else { throw Self.invalid(m, "unknown handleUnknown \(unknown)") }
            return OneHotEncoder(categories: categories, outputSparse: try m.bool(10), ignoreUnknown: unknown == 1)
        }
    }

    func imputer() throws -> Imputer {
        try withMessage { m in
            let imputed: Imputer.Imputed
            switch m.oneof([1, 2, 3, 4, 5, 6, 7]) {
            case 1?: imputed = .double(try m.double(1))
            case 2?: imputed = .int64(try m.int64(2))
            case 3?: imputed = .string(try m.string(3))
            case 4?: imputed = .doubles(try m.message(4, "imputedDoubleArray")!.repeatedDoubles(1))
            case 5?: imputed = .int64s(try m.message(5, "imputedInt64Array")!.repeatedInt64(1))
            case 6?, 7?: throw ConversionError(.unsupported, "\(m.context): imputing a dictionary is not converted")
            default: throw Self.invalid(m, "no imputed value")
            }
            let replaced: Imputer.Replaced
            switch m.oneof([11, 12, 13]) {
            case 12?: replaced = .int64(try m.int64(12))
            case 13?: replaced = .string(try m.string(13))
            case 11?: replaced = .double(try m.double(11))
            default:
                switch imputed {
                case .int64, .int64s: throw Self.invalid(m, "an int64 imputer needs the value it replaces")
                case .string: throw Self.invalid(m, "a string imputer needs the value it replaces")
                default: replaced = .double(.nan)
                }
            }
            return Imputer(imputed: imputed, replaced: replaced)
        }
    }

    func scaler() throws -> Scaler {
        try withMessage { m in
            let s = Scaler(shift: try m.repeatedDoubles(1), scale: try m.repeatedDoubles(2))
            try Self.requireFinite(s.shift + s.scale, "shift or scale value", m)
            return s
        }
    }

    func normalizer() throws -> Normalizer {
        try withMessage { m in
            let norm = Int(try m.int32(1))
            guard (0...2).contains(norm) else { throw Self.invalid(m, "unknown norm type \(norm)") }
            return Normalizer(norm: norm)
        }
    }

    func featureVectorizer() throws -> FeatureVectorizer {
        try withMessage { m in
            let columns = try m.messages(1, "inputList").map { column -> (name: String, width: Int) in
                (try column.string(1), try column.count(2, limit: CoreMLLimits.dimension, what: "input dimensions"))
            }
            guard !columns.isEmpty, columns.allSatisfy({ !$0.name.isEmpty && $0.width >= 1 }) else {
                throw Self.invalid(m, "every input column needs a name and at least one dimension")
            }
            guard columns.reduce(0, { $0 + $1.width }) <= CoreMLLimits.dimension else {
                throw ConversionError(.limitExceeded, "\(m.context): more than \(CoreMLLimits.dimension) features")
            }
            return FeatureVectorizer(columns: columns)
        }
    }

    func dictVectorizer() throws -> DictVectorizer {
        try withMessage { m in
            guard let keys = try Self.labels(m, strings: 1, ints: 2), keys.count >= 1,
                keys.count <= CoreMLLimits.dimension
            else {
                throw Self.invalid(m, "no keys")
            }
            return DictVectorizer(keys: keys)
        }
    }

    func categoricalMapping() throws -> CategoricalMapping {
        try withMessage { m in
            var c: CategoricalMapping
            switch m.oneof([1, 2]) {
            case 1?:
                c = CategoricalMapping(fromStrings: true)
                for entry in try m.message(1, "stringToInt64Map")!.messages(1, "map") {
                    c.stringKeys.append(try entry.string(1))
                    c.int64Values.append(try entry.int64(2))
                }
                guard Set(c.stringKeys).count == c.stringKeys.count else {
                    throw Self.invalid(m, "a key is mapped twice")
                }
            case 2?:
                c = CategoricalMapping(fromStrings: false)
                for entry in try m.message(2, "int64ToStringMap")!.messages(1, "map") {
                    c.int64Keys.append(try entry.int64(1))
                    c.stringValues.append(try entry.string(2))
                }
                guard Set(c.int64Keys).count == c.int64Keys.count else {
                    throw Self.invalid(m, "a key is mapped twice")
                }
            default:
                throw Self.invalid(m, "no mapping")
            }
            switch m.oneof([101, 102]) {
            case 101?: c.defaultString = try m.string(101)
            case 102?: c.defaultInt64 = try m.int64(102)
            default: break
            }
            return c
        }
    }

    func arrayFeatureExtractor() throws -> ArrayFeatureExtractor {
        try withMessage { m in
            let indices = try m.repeatedCounts(1, limit: CoreMLLimits.dimension, what: "extract index")
            guard !indices.isEmpty else { throw Self.invalid(m, "no indices to extract") }
            return ArrayFeatureExtractor(indices: indices)
        }
    }
}

extension CoreMLClassicModel {
    /// A classifier's labels as text in the order of its probabilities (a kNN's distinct sample labels, in order of
    /// first appearance); empty for other models.
    package func classLabels() throws -> [String] {
        guard type.isClassifier else { return [] }
        let labels = try withMessage { try Self.labels($0) }
        guard let labels else { return [] }
        return type == .kNearestNeighborsClassifier ? CoreMLToONNX.distinctLabels(labels).0.text : labels.text
    }
}
