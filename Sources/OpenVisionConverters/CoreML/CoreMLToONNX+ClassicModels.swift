import Foundation

// Tree ensembles, support vector machines and k-nearest neighbours (see CoreMLToONNX+Classic.swift).
extension CoreMLToONNX {
    // MARK: Tree ensembles

    /// ONNX-ML `TreeEnsembleRegressor` (operator set 3: thresholds, leaf values and base values as double tensors,
    /// summed in double, given as float) for the scores, then Core ML's post-evaluation transform in double. A
    /// classifier of one dimension gives the second class's probability (after the logistic function, when that is
    /// its transform) and picks it at 0.5 or more; of one dimension per class, its scores as shares of their sum, or
    /// their softmax; of classes − 1 dimensions with the zero-class-reference softmax, the softmax of a zero score for
    /// the first class and the others'. Its label is then the first most probable class.
    mutating func lowerTreeEnsemble(_ e: CoreMLClassicModel.TreeEnsemble, _ d: CoreMLModelDescription, _ name: String) throws {
        let what = e.labels == nil ? "treeEnsembleRegressor" : "treeEnsembleClassifier"
        let (x, width) = try inputRow(d, type: .double, name, what: what)
        guard e.maximumFeature < width else {
            throw ConversionError(.invalidValue, "\(what): a branch reads feature \(e.maximumFeature) of \(width)")
        }
        let base = e.base.isEmpty ? [Double](repeating: 0, count: e.dimensions) : e.base
        var scores: String
        if e.nodeCount == 0 {
            scores = doubles("\(name)/base", base, [1, e.dimensions])
        } else {
            let modes = ["BRANCH_LEQ", "BRANCH_LT", "BRANCH_GTE", "BRANCH_GT", "BRANCH_EQ", "BRANCH_NEQ", "LEAF"]
            var attributes: [ONNXWriter.Attribute] = [
                .init("n_targets", .int(e.dimensions)), .init("aggregate_function", .string("SUM")),
                .init("post_transform", .string("NONE")),
                .init("nodes_treeids", .ints(e.treeIds)), .init("nodes_nodeids", .ints(e.nodeIds)),
                .init("nodes_featureids", .ints(e.featureIndices)), .init("nodes_modes", .strings(e.behaviors.map { modes[Int($0)] })),
                .init("nodes_values_as_tensor", .tensor(ONNXWriter.Tensor(name: "", dims: [e.nodeCount], doubles: e.values))),
                .init("nodes_truenodeids", .ints(e.trueChildren)), .init("nodes_falsenodeids", .ints(e.falseChildren)),
                .init("nodes_missing_value_tracks_true", .ints(e.missingTracksTrue.map { $0 ? 1 : 0 })),
                .init("target_treeids", .ints(e.leafNodes.map { e.treeIds[$0] })),
                .init("target_nodeids", .ints(e.leafNodes.map { e.nodeIds[$0] })), .init("target_ids", .ints(e.leafTargets)),
                .init("target_weights_as_tensor", .tensor(ONNXWriter.Tensor(name: "", dims: [e.leafValues.count], doubles: e.leafValues))),
            ]
            if base.contains(where: { $0 != 0 }) {
                attributes.append(.init("base_values_as_tensor", .tensor(ONNXWriter.Tensor(name: "", dims: [e.dimensions], doubles: base))))
            }
            addML("TreeEnsembleRegressor", [x], ["\(name)/sums"], attributes)
            scores = cast("\(name)/sums", from: .float, to: .double, "\(name)/scores")
        }
        guard let labels = e.labels else {
            switch e.transform {
            case 0: break
            case 2: add("Sigmoid", [scores], "\(name)/logistic"); scores = "\(name)/logistic"
            case 1: add("Softmax", [scores], "\(name)/softmax", [.init("axis", .int(1))]); scores = "\(name)/softmax"
            default: throw ConversionError(.unsupported, "treeEnsembleRegressor: the zero-class-reference softmax is for classifiers")
            }
            features[try Self.onlyOutput(d, name).name] = Feature(value: scores, shape: [1, e.dimensions], type: .double)
            return
        }
        let classes = labels.count
        var probabilities: String
        var index: String?
        switch (e.dimensions, e.transform) {
        case (1, 0) where classes == 2, (1, 2) where classes == 2:
            var p1 = scores
            if e.transform == 2 { add("Sigmoid", [scores], "\(name)/p1"); p1 = "\(name)/p1" }
            probabilities = binaryProbabilities(p1, name)
            add("GreaterOrEqual", [p1, doubles("\(name)/half", [0.5], [1])], "\(name)/second")
            add("Cast", ["\(name)/second"], "\(name)/second_index", [.init("to", .int(7))])
            add("Reshape", ["\(name)/second_index", int64s("\(name)/index_shape", [1])], "\(name)/index")
            index = "\(name)/index"
        case (classes, 0):
            // Scores as shares of their sum: coremltools writes a forest's leaves as class fractions, unscaled by the
            // number of trees (a zero sum leaves the scores as they are).
            add("ReduceSum", [scores, int64s("\(name)/axis", [1])], "\(name)/sum", [.init("keepdims", .int(1))])
            add("Equal", ["\(name)/sum", doubles("\(name)/zero", [0], [1])], "\(name)/sum_is_zero")
            add("Where", ["\(name)/sum_is_zero", doubles("\(name)/one", [1], [1]), "\(name)/sum"], "\(name)/divisor")
            add("Div", [scores, "\(name)/divisor"], "\(name)/probabilities")
            probabilities = "\(name)/probabilities"
        case (classes, 1):
            add("Softmax", [scores], "\(name)/probabilities", [.init("axis", .int(1))])
            probabilities = "\(name)/probabilities"
        case (classes - 1, 3):
            add("Concat", [doubles("\(name)/reference", [0], [1, 1]), scores], "\(name)/all", [.init("axis", .int(1))])
            add("Softmax", ["\(name)/all"], "\(name)/probabilities", [.init("axis", .int(1))])
            probabilities = "\(name)/probabilities"
        default:
            let transform = ["no transform", "softmax", "logistic", "zero-class-reference softmax"][e.transform]
            throw ConversionError(.unsupported, "treeEnsembleClassifier: \(e.dimensions) prediction dimensions with \(transform) "
                                  + "for \(classes) classes")
        }
        if index == nil {
            add("ArgMax", [probabilities], "\(name)/index", [.init("axis", .int(1)), .init("keepdims", .int(0))])
            index = "\(name)/index"
        }
        try classifierOutputs(d, labels: labels, index: index!, probabilities: probabilities, name)
    }

    // MARK: Support vector machines

    /// ONNX-ML `SVMRegressor` / `SVMClassifier` (float, as ONNX defines them; libsvm's decision values, ONNX's rho
    /// the negated Core ML one). A classifier's label is the one ONNX Runtime picks (libsvm's vote, or with probA and
    /// probB the most probable class of libsvm's pairwise-coupled probabilities), its probabilities those
    /// probabilities; a classifier without probA/probB gives no probabilities.
    mutating func lowerSVM(_ svm: CoreMLClassicModel.SVM, _ d: CoreMLModelDescription, _ name: String) throws {
        let what = svm.labels == nil ? "supportVectorRegressor" : "supportVectorClassifier"
        let (x, width) = try inputRow(d, type: .float, name, what: what)
        var vectors = svm.supportVectors
        if svm.features < width, svm.vectors > 0 {
            // Sparse vectors reach their largest index; the input may be wider.
            vectors = [Double](repeating: 0, count: svm.vectors * width)
            for r in 0..<svm.vectors {
                for c in 0..<svm.features { vectors[r * width + c] = svm.supportVectors[r * svm.features + c] }
            }
        } else if svm.features > width {
            throw ConversionError(.invalidValue, "\(what): support vectors of \(svm.features) values for \(width) input values")
        }
        var attributes: [ONNXWriter.Attribute] = [
            .init("kernel_type", .string(svm.kernel)), .init("kernel_params", .floats(svm.kernelParameters.map { Float($0) })),
            .init("support_vectors", .floats(vectors.map { Float($0) })),
            .init("coefficients", .floats(svm.coefficients.flatMap { $0 }.map { Float($0) })),
            .init("rho", .floats(svm.rho.map { Float(-$0) })),
        ]
        guard let labels = svm.labels else {
            attributes.append(.init("n_supports", .int(svm.vectors)))
            addML("SVMRegressor", [x], ["\(name)/value"], attributes)
            let y = cast("\(name)/value", from: .float, to: .double, "\(name)/y")
            features[try Self.onlyOutput(d, name).name] = Feature(value: y, shape: [1, 1], type: .double)
            return
        }
        attributes.append(.init("vectors_per_class", .ints(svm.vectorsPerClass)))
        attributes.append(.init("classlabels_ints", .ints(Array(0..<labels.count))))
        if !svm.probA.isEmpty {
            attributes.append(.init("prob_a", .floats(svm.probA.map { Float($0) })))
            attributes.append(.init("prob_b", .floats(svm.probB.map { Float($0) })))
        }
        addML("SVMClassifier", [x], ["\(name)/index", "\(name)/scores"], attributes)
        var probabilities: String?
        if !svm.probA.isEmpty { probabilities = cast("\(name)/scores", from: .float, to: .double, "\(name)/probabilities") }
        try classifierOutputs(d, labels: labels, index: "\(name)/index", probabilities: probabilities, name)
    }

    // MARK: Nearest neighbours

    /// The k nearest samples by squared Euclidean distance (`ReduceSumSquare` of the differences, `TopK`, k at most the
    /// samples), each voting for its label with weight 1 or 1 / distance (an exact match: 1 / the smallest normal
    /// float); the label is the first of the labels (in order of first appearance among the samples) with the most
    /// weight, the probabilities each label's share of it. An empty index gives its default label and no probabilities.
    mutating func lowerNearestNeighbors(_ knn: CoreMLClassicModel.NearestNeighbors, _ d: CoreMLModelDescription, _ name: String) throws {
        let (x, width) = try inputRow(d, type: .float, name, what: "kNearestNeighborsClassifier")
        guard width == knn.dimensions else {
            throw ConversionError(.invalidValue, "kNearestNeighborsClassifier: \(knn.dimensions)-dimensional samples for \(width) "
                                  + "input values")
        }
        let (classes, sampleClass) = Self.distinctLabels(knn.labels)
        guard knn.sampleCount > 0 else {
            let index = int64s("\(name)/default_index", [0])
            try classifierOutputs(d, labels: knn.defaultLabel, index: index,
                                  probabilities: doubles("\(name)/no_probabilities", [], [1, 0]), classes: 0, name)
            return
        }
        let k = min(knn.k, knn.sampleCount)
        add("Sub", [x, floats("\(name)/samples", knn.samples, [knn.sampleCount, knn.dimensions])], "\(name)/differences")
        add("ReduceSumSquare", ["\(name)/differences"], "\(name)/distances", [.init("axes", .ints([1])), .init("keepdims", .int(0))])
        graph.nodes.append(ONNXWriter.Node(opType: "TopK", name: "\(name)/nearest/TopK", inputs: ["\(name)/distances", int64s("\(name)/k", [k])],
                                           outputs: ["\(name)/nearest_distances", "\(name)/nearest"],
                                           attributes: [.init("largest", .int(0)), .init("sorted", .int(1))]))
        add("Gather", [int64s("\(name)/sample_classes", sampleClass), "\(name)/nearest"], "\(name)/nearest_classes",
            [.init("axis", .int(0))])
        let weights: String
        if knn.inverseDistance {
            add("Max", ["\(name)/nearest_distances", floats("\(name)/epsilon", [Float.leastNormalMagnitude], [1])], "\(name)/clamped")
            add("Reciprocal", ["\(name)/clamped"], "\(name)/weights")
            weights = "\(name)/weights"
        } else {
            weights = floats("\(name)/uniform", [Float](repeating: 1, count: k), [k])
        }
        add("ScatterElements", [floats("\(name)/no_votes", [Float](repeating: 0, count: classes.count), [classes.count]),
                                "\(name)/nearest_classes", weights], "\(name)/votes",
            [.init("axis", .int(0)), .init("reduction", .string("add"))])
        add("ArgMax", ["\(name)/votes"], "\(name)/index", [.init("axis", .int(0)), .init("keepdims", .int(1))])
        add("ReduceSum", ["\(name)/votes", int64s("\(name)/axis", [0])], "\(name)/total", [.init("keepdims", .int(1))])
        add("Div", ["\(name)/votes", "\(name)/total"], "\(name)/shares")
        add("Reshape", ["\(name)/shares", int64s("\(name)/row", [1, classes.count])], "\(name)/shares_row")
        let probabilities = cast("\(name)/shares_row", from: .float, to: .double, "\(name)/probabilities")
        try classifierOutputs(d, labels: classes, index: "\(name)/index", probabilities: probabilities, name)
    }

    /// The distinct labels of `labels` in order of first appearance, and each sample's index among them.
    static func distinctLabels(_ labels: CoreMLClassicModel.Labels) -> (CoreMLClassicModel.Labels, [Int]) {
        func distinct<T: Hashable>(_ values: [T]) -> ([T], [Int]) {
            var order: [T] = [], index: [T: Int] = [:]
            let classes = values.map { v -> Int in
                if let i = index[v] { return i }
                index[v] = order.count
                order.append(v)
                return order.count - 1
            }
            return (order, classes)
        }
        switch labels {
        case .strings(let s): let (o, c) = distinct(s); return (.strings(o), c)
        case .int64s(let i): let (o, c) = distinct(i); return (.int64s(o), c)
        }
    }
}
