import Foundation

// Tree ensembles, support vector machines and k-nearest neighbours (see CoreMLToONNX+Classic.swift).
extension CoreMLToONNX {
    // MARK: Tree ensembles

    /// ONNX-ML tree ensembles (operator set 3: thresholds, leaf values and base values as double tensors, summed in
    /// double, given as float). A regressor is `TreeEnsembleRegressor` with Core ML's transform after it. A classifier is
    /// `TreeEnsembleClassifier` with ONNX's transform of the same name: of one dimension it gives the second class's
    /// probability (after the logistic function when that is its transform); of one dimension per class, its scores
    /// as shares of their sum (ONNX-ML `Normalizer` L1: coremltools writes a forest's leaves as class fractions,
    /// unscaled by the number of trees), or their softmax. Of classes − 1 dimensions with the zero-class-reference
    /// softmax (ONNX's `SOFTMAX_ZERO` is another function) the scores of `TreeEnsembleRegressor` get a zero score for
    /// the first class and a softmax. The label is the most probable class, the first on a tie (ONNX Runtime's, except for
    /// two classes with the logistic function and no negative leaf, where its choice goes by the score before the
    /// function: `ArgMax` there).
    mutating func lowerTreeEnsemble(_ e: CoreMLClassicModel.TreeEnsemble, _ d: CoreMLModelDescription, _ name: String)
        throws
    {
        let what = e.labels == nil ? "treeEnsembleRegressor" : "treeEnsembleClassifier"
        let (x, width) = try inputRow(d, type: nil, name, what: what)
        guard e.maximumFeature < width else {
            throw ConversionError(.invalidValue, "\(what): a branch reads feature \(e.maximumFeature) of \(width)")
        }
        let base = e.base.isEmpty ? [Double](repeating: 0, count: e.dimensions) : e.base
        let modes = ["BRANCH_LEQ", "BRANCH_LT", "BRANCH_GTE", "BRANCH_GT", "BRANCH_EQ", "BRANCH_NEQ", "LEAF"]
        func attributes(_ prefix: String, transform: String) -> [ONNXWriter.Attribute] {
            var a: [ONNXWriter.Attribute] = [
                .init("post_transform", .string(transform)),
                .init("nodes_treeids", .ints(e.treeIds)), .init("nodes_nodeids", .ints(e.nodeIds)),
                .init("nodes_featureids", .ints(e.featureIndices)),
                .init("nodes_modes", .strings(e.behaviors.map { modes[Int($0)] })),
                .init(
                    "nodes_values_as_tensor",
                    .tensor(ONNXWriter.Tensor(name: "", dims: [e.nodeCount], doubles: e.values))),
                .init("nodes_truenodeids", .ints(e.trueChildren)), .init("nodes_falsenodeids", .ints(e.falseChildren)),
                .init("nodes_missing_value_tracks_true", .ints(e.missingTracksTrue.map { $0 ? 1 : 0 })),
                .init("\(prefix)_treeids", .ints(e.leafNodes.map { e.treeIds[$0] })),
                .init("\(prefix)_nodeids", .ints(e.leafNodes.map { e.nodeIds[$0] })),
                .init("\(prefix)_ids", .ints(e.leafTargets)),
                .init(
                    "\(prefix)_weights_as_tensor",
                    .tensor(ONNXWriter.Tensor(name: "", dims: [e.leafValues.count], doubles: e.leafValues))),
            ]
            if base.contains(where: { $0 != 0 }) {
                a.append(
                    .init(
                        "base_values_as_tensor",
                        .tensor(ONNXWriter.Tensor(name: "", dims: [e.dimensions], doubles: base))))
            }
            return a
        }
        /// The summed scores, `[1, dimensions]` float.
        func regressor() -> String {
            guard e.nodeCount > 0 else { return floats("\(name)/base", base.map { Float($0) }, [1, e.dimensions]) }
            addML(
                "TreeEnsembleRegressor", [x], ["\(name)/sums"],
                attributes("target", transform: "NONE") + [
                    .init("n_targets", .int(e.dimensions)), .init("aggregate_function", .string("SUM")),
                ])
            return "\(name)/sums"
        }
        guard let labels = e.labels else {
            var scores = regressor()
            switch e.transform {
            case 0: break
            case 2:
                add("Sigmoid", [scores], "\(name)/logistic")
                scores = "\(name)/logistic"
            case 1:
                add("Softmax", [scores], "\(name)/softmax", [.init("axis", .int(1))])
                scores = "\(name)/softmax"
            default:
                throw ConversionError(
                    .unsupported, "treeEnsembleRegressor: the zero-class-reference softmax is for classifiers")
            }
            features[try Self.onlyOutput(d, name).name] = Feature(
                value: scores, shape: [1, e.dimensions], type: .float)
            return
        }
        let classes = labels.count
        let binary =
            e.dimensions == 1 && classes == 2
            && (e.transform == 2 || e.transform == 0 && e.leafValues.allSatisfy { $0 >= 0 })
        if e.nodeCount > 0 && (binary || e.dimensions == classes && (e.transform == 0 || e.transform == 1)) {
            let transform = ["NONE", "SOFTMAX", "LOGISTIC"][e.transform]
            addML(
                "TreeEnsembleClassifier", [x], ["\(name)/onnx_label", "\(name)/scores"],
                attributes("class", transform: transform) + [Self.labelAttribute(labels, ints: "classlabels_int64s")])
            var probabilities = "\(name)/scores"
            if !binary && e.transform == 0 {
                addML("Normalizer", [probabilities], ["\(name)/probabilities"], [.init("norm", .string("L1"))])
                probabilities = "\(name)/probabilities"
            }
            var label = "\(name)/onnx_label"
            if binary && e.transform == 2 && e.leafValues.allSatisfy({ $0 >= 0 }) {
                // ONNX Runtime labels two classes by the score before the logistic function when no leaf is negative
                // (score > 0.5): the most probable class instead.
                add("ArgMax", [probabilities], "\(name)/index", [.init("axis", .int(1)), .init("keepdims", .int(0))])
                label = self.label(labels, index: "\(name)/index", name)
            }
            try classifierOutputs(d, labels: labels, label: label, probabilities: probabilities, name)
            return
        }
        let scores = regressor()
        let probabilities: String
        switch (e.dimensions, e.transform) {
        case (classes - 1, 3):
            add("Concat", [floats("\(name)/reference", [0], [1, 1]), scores], "\(name)/all", [.init("axis", .int(1))])
            add("Softmax", ["\(name)/all"], "\(name)/probabilities", [.init("axis", .int(1))])
            probabilities = "\(name)/probabilities"
        case (1, 0) where classes == 2:
            probabilities = binaryProbabilities(scores, type: .float, name)
        case (classes, 0), (classes, 1):
            // No nodes: the base values.
            probabilities = scores
        default:
            let transform = ["no transform", "softmax", "logistic", "zero-class-reference softmax"][e.transform]
            throw ConversionError(
                .unsupported,
                "treeEnsembleClassifier: \(e.dimensions) prediction dimensions with \(transform) "
                    + "for \(classes) classes")
        }
        add("ArgMax", [probabilities], "\(name)/index", [.init("axis", .int(1)), .init("keepdims", .int(0))])
        try classifierOutputs(
            d, labels: labels, label: label(labels, index: "\(name)/index", name), probabilities: probabilities, name)
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
            throw ConversionError(
                .invalidValue, "\(what): support vectors of \(svm.features) values for \(width) input values")
        }
        var attributes: [ONNXWriter.Attribute] = [
            .init("kernel_type", .string(svm.kernel)),
            .init("kernel_params", .floats(svm.kernelParameters.map { Float($0) })),
            .init("support_vectors", .floats(vectors.map { Float($0) })),
            .init("coefficients", .floats(svm.coefficients.flatMap { $0 }.map { Float($0) })),
            .init("rho", .floats(svm.rho.map { Float(-$0) })),
        ]
        guard let labels = svm.labels else {
            attributes.append(.init("n_supports", .int(svm.vectors)))
            addML("SVMRegressor", [x], ["\(name)/value"], attributes)
            features[try Self.onlyOutput(d, name).name] = Feature(value: "\(name)/value", shape: [1, 1], type: .float)
            return
        }
        attributes.append(.init("vectors_per_class", .ints(svm.vectorsPerClass)))
        attributes.append(Self.labelAttribute(labels, ints: "classlabels_ints"))
        if !svm.probA.isEmpty {
            attributes.append(.init("prob_a", .floats(svm.probA.map { Float($0) })))
            attributes.append(.init("prob_b", .floats(svm.probB.map { Float($0) })))
        }
        addML("SVMClassifier", [x], ["\(name)/label", "\(name)/scores"], attributes)
        try classifierOutputs(
            d, labels: labels, label: "\(name)/label", probabilities: svm.probA.isEmpty ? nil : "\(name)/scores", name)
    }

    // MARK: Nearest neighbours

    /// The k nearest samples by squared Euclidean distance (`ReduceSumSquare` of the differences, `TopK`, k at most the
    /// samples), each voting for its label with weight 1 or 1 / distance (an exact match: 1 / the smallest normal
    /// float); the label is the first of the labels (in order of first appearance among the samples) with the most
    /// weight, the probabilities each label's share of it. An empty index gives its default label and no probabilities.
    mutating func lowerNearestNeighbors(
        _ knn: CoreMLClassicModel.NearestNeighbors, _ d: CoreMLModelDescription, _ name: String
    ) throws {
        let (x, width) = try inputRow(d, type: .float, name, what: "kNearestNeighborsClassifier")
        guard width == knn.dimensions else {
            throw ConversionError(
                .invalidValue,
                "kNearestNeighborsClassifier: \(knn.dimensions)-dimensional samples for \(width) "
                    + "input values")
        }
        let (classes, sampleClass) = Self.distinctLabels(knn.labels)
        guard knn.sampleCount > 0 else {
            try classifierOutputs(
                d, labels: knn.defaultLabel, label: labelTensor(knn.defaultLabel, "\(name)/default_label"),
                probabilities: floats("\(name)/no_probabilities", [], [1, 0]), classes: 0, name)
            return
        }
        let k = min(knn.k, knn.sampleCount)
        add(
            "Sub", [x, floats("\(name)/samples", knn.samples, [knn.sampleCount, knn.dimensions])], "\(name)/differences"
        )
        add(
            "ReduceSumSquare", ["\(name)/differences"], "\(name)/distances",
            [.init("axes", .ints([1])), .init("keepdims", .int(0))])
        graph.nodes.append(
            ONNXWriter.Node(
                opType: "TopK", name: "\(name)/nearest/TopK", inputs: ["\(name)/distances", int64s("\(name)/k", [k])],
                outputs: ["\(name)/nearest_distances", "\(name)/nearest"],
                attributes: [.init("largest", .int(0)), .init("sorted", .int(1))]))
        add(
            "Gather", [int64s("\(name)/sample_classes", sampleClass), "\(name)/nearest"], "\(name)/nearest_classes",
            [.init("axis", .int(0))])
        let weights: String
        if knn.inverseDistance {
            add(
                "Max", ["\(name)/nearest_distances", floats("\(name)/epsilon", [Float.leastNormalMagnitude], [1])],
                "\(name)/clamped")
            add("Reciprocal", ["\(name)/clamped"], "\(name)/weights")
            weights = "\(name)/weights"
        } else {
            weights = floats("\(name)/uniform", [Float](repeating: 1, count: k), [k])
        }
        add(
            "ScatterElements",
            [
                floats("\(name)/no_votes", [Float](repeating: 0, count: classes.count), [classes.count]),
                "\(name)/nearest_classes", weights,
            ], "\(name)/votes",
            [.init("axis", .int(0)), .init("reduction", .string("add"))])
        add("ArgMax", ["\(name)/votes"], "\(name)/index", [.init("axis", .int(0)), .init("keepdims", .int(1))])
        add("ReduceSum", ["\(name)/votes", int64s("\(name)/axis", [0])], "\(name)/total", [.init("keepdims", .int(1))])
        add("Div", ["\(name)/votes", "\(name)/total"], "\(name)/shares")
        add("Reshape", ["\(name)/shares", int64s("\(name)/row", [1, classes.count])], "\(name)/probabilities")
        try classifierOutputs(
            d, labels: classes, label: label(classes, index: "\(name)/index", name),
            probabilities: "\(name)/probabilities", name)
    }

    /// The distinct labels of `labels` in order of first appearance, and each sample's index among them.
    static func distinctLabels(_ labels: CoreMLClassicModel.Labels) -> (CoreMLClassicModel.Labels, [Int]) {
        func distinct<T: Hashable>(_ values: [T]) -> ([T], [Int]) {
            var order: [T] = []
            var index: [T: Int] = [:]
            let classes = values.map { v -> Int in
                if let i = index[v] { return i }
                index[v] = order.count
                order.append(v)
                return order.count - 1
            }
            return (order, classes)
        }
        switch labels {
        case .strings(let s):
            let (o, c) = distinct(s)
            return (.strings(o), c)
        case .int64s(let i):
            let (o, c) = distinct(i)
            return (.int64s(o), c)
        }
    }
}
