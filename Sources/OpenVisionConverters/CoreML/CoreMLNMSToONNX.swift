import Foundation

/// Core ML's `NonMaximumSuppression` model (NonMaximumSuppression.proto) as ONNX nodes: boxes
/// `[N, 4]` (centre x, centre y, width, height) and confidences `[N, C]` in; the surviving rows of both out,
/// `[M, 4]` and `[M, C]`, most confident first.
///
/// Scores at or below the confidence threshold are dropped; a box is suppressed by a kept box of higher score
/// whose IoU with it exceeds the IoU threshold (PickTop). Without `perClass` a box's score is its highest
/// confidence and boxes of all labels suppress each other; its row keeps all confidences. With `perClass`
/// suppression runs within each label, every class whose confidence passes the threshold counting as a
/// prediction of that label (as the source detectors' per-class NMS does; the proto's "argmax" reading would
/// drop an object whose box a stronger object of another label covers, e.g. a cat under a dog): a box is
/// kept if it survives for any label, with the confidences of the labels it survived for and 0 for the
/// others. Rows come out most confident first. ONNX's `NonMaxSuppression` (center_point_box = 1) does the
/// suppression; the thresholds are graph values, so a pipeline's optional `iouThreshold` /
/// `confidenceThreshold` inputs (initializers holding the defaults) can be overridden at run time.
struct CoreMLNMSToONNX {
    let prefix: String
    var graph: ONNXWriter.Graph
    /// The number of classes (confidence columns).
    private(set) var classCount = 0

    init(prefix: String, graph: ONNXWriter.Graph) {
        self.prefix = prefix
        self.graph = graph
    }

    private mutating func add(
        _ op: String, _ inputs: [String], _ name: String, _ attributes: [ONNXWriter.Attribute] = []
    ) -> String {
        let output = prefix + name
        graph.nodes.append(
            ONNXWriter.Node(
                opType: op, name: output + "/" + op, inputs: inputs, outputs: [output], attributes: attributes))
        return output
    }

    private mutating func int64s(_ name: String, _ values: [Int], scalar: Bool = false) -> String {
        graph.initializers.append(
            ONNXWriter.Tensor(name: prefix + name, dims: scalar ? [] : [values.count], int64s: values.map(Int64.init)))
        return prefix + name
    }

    /// Appends the suppression; returns the ONNX names of the kept confidences and coordinates.
    mutating func lower(
        confidence: String, confidenceShape: [Int]?, coordinates: String, classCount: Int?,
        iouThreshold: String, confidenceThreshold: String, perClass: Bool
    ) throws -> (String, String) {
        guard let c = classCount ?? confidenceShape?.last, c > 0 else {
            throw ConversionError(
                .invalidValue,
                "non-maximum suppression: the number of classes is not known (no labels, no confidence shape)")
        }
        self.classCount = c
        let conf = add("Reshape", [confidence, int64s("conf_shape", [-1, c])], "confidence_rows")
        let coords = add("Reshape", [coordinates, int64s("coord_shape", [-1, 4])], "coordinate_rows")
        let boxes = add("Unsqueeze", [coords, int64s("batch_axis", [0])], "boxes")
        let iou = add(
            "Cast", [add("Reshape", [iouThreshold, int64s("one", [1])], "iou_1")], "iou", [.init("to", .int(1))])
        let threshold = add(
            "Cast", [add("Reshape", [confidenceThreshold, prefix + "one"], "threshold_1")], "threshold",
            [.init("to", .int(1))])
        let maxBoxes = int64s("max_boxes", [Int(Int32.max)])
        let nmsAttributes: [ONNXWriter.Attribute] = [.init("center_point_box", .int(1))]
        let rows: String
        let rowScores: String
        let source: String
        if perClass {
            // Every class column is a prediction of that label; suppression runs per column. A row is kept
            // with the confidences of the labels it survived for (the others 0).
            let scores = add(
                "Unsqueeze",
                [add("Transpose", [conf], "per_class", [.init("perm", .ints([1, 0]))]), int64s("axis0", [0])], "scores")
            let selected = add(
                "NonMaxSuppression", [boxes, scores, maxBoxes, iou, threshold], "selected", nmsAttributes)
            let pairs = add(
                "Gather", [selected, int64s("box_class_columns", [2, 1])], "pairs", [.init("axis", .int(1))])
            let count = add(
                "Slice", [add("Shape", [selected], "selected_shape"), int64s("zero", [0]), prefix + "one"],
                "selected_count")
            graph.nodes.append(
                ONNXWriter.Node(
                    opType: "ConstantOfShape", name: prefix + "ones/ConstantOfShape", inputs: [count],
                    outputs: [prefix + "ones"],
                    attributes: [.init("value", .tensor(ONNXWriter.Tensor(name: "one", dims: [1], floats: [1])))]))
            let zero = prefix + "zero_f"
            graph.initializers.append(ONNXWriter.Tensor(name: zero, dims: [], floats: [0]))
            let zeros = add("Mul", [conf, zero], "zeros")
            let mask = add("ScatterND", [zeros, pairs, prefix + "ones"], "kept_mask")
            source = add("Mul", [conf, mask], "kept_confidence")
            let keptRow = add(
                "Greater",
                [
                    add("ReduceMax", [mask], "row_kept", [.init("axes", .ints([1])), .init("keepdims", .int(0))]),
                    zero,
                ], "row_is_kept")
            rows = add("Reshape", [add("NonZero", [keptRow], "kept_rows_2d"), int64s("flat", [-1])], "rows")
            let best = add("ReduceMax", [source], "best", [.init("axes", .ints([1])), .init("keepdims", .int(0))])
            rowScores = add("Gather", [best, rows], "row_scores", [.init("axis", .int(0))])
        } else {
            // One score per box, its highest confidence; suppression across labels; rows keep all confidences.
            let best = add("ReduceMax", [conf], "best", [.init("axes", .ints([1])), .init("keepdims", .int(0))])
            let scores = add("Unsqueeze", [best, int64s("axes01", [0, 1])], "scores")
            let selected = add(
                "NonMaxSuppression", [boxes, scores, maxBoxes, iou, threshold], "selected", nmsAttributes)
            rows = add("Gather", [selected, int64s("box_column", [2], scalar: true)], "rows", [.init("axis", .int(1))])
            rowScores = add("Gather", [best, rows], "row_scores", [.init("axis", .int(0))])
            source = conf
        }
        let k = add("Shape", [rowScores], "count")
        let order = prefix + "order"
        graph.nodes.append(
            ONNXWriter.Node(
                opType: "TopK", name: order + "/TopK", inputs: [rowScores, k],
                outputs: [prefix + "sorted_scores", order],
                attributes: [.init("axis", .int(0)), .init("largest", .int(1)), .init("sorted", .int(1))]))
        let kept = add("Gather", [rows, order], "kept", [.init("axis", .int(0))])
        let outConfidence = add("Gather", [source, kept], "confidence", [.init("axis", .int(0))])
        let outCoordinates = add("Gather", [coords, kept], "coordinates", [.init("axis", .int(0))])
        return (outConfidence, outCoordinates)
    }
}
