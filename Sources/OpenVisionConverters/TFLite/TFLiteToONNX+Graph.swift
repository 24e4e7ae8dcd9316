import Foundation

/// Graph helpers: layouts (NHWC ↔ NCHW), elementwise operators with broadcasting, fused activations and
/// initializers.
extension TFLiteToONNX {
    /// The NCHW axis of NHWC axis i, and the NHWC axis of NCHW axis i.
    static let nchwAxis = [0, 2, 3, 1]
    static let nhwcAxis = [0, 3, 1, 2]

    /// An elementwise operation (ONNX broadcasting) with a fused activation, computed in NCHW
    /// when a 4-D input already is NCHW and every constant operand is a scalar or a per-channel
    /// vector ([..., C] with leading 1s), so that chains of convolutions stay NCHW.
    mutating func elementwise(
        _ onnx: String, _ tensors: [Int], extra: [String] = [], out: Int,
        activation: Int8 = 0, attributes: [ONNXWriter.Attribute] = []
    ) throws {
        var useNCHW = model.tensors[out].shape.count == 4 && tensors.contains { nchwOf[$0] != nil }
        if useNCHW {
            for t in tensors {
                let shape = model.tensors[t].shape
                if let c = try constant(t) {
                    if !(c.count == 1 || shape.dropLast().allSatisfy({ $0 == 1 })) { useNCHW = false }
                } else if shape.count != 4 {
                    useNCHW = false
                }
            }
        }
        var inputs: [String] = []
        for t in tensors {
            if !useNCHW {
                inputs.append(try value(t))
            } else if let c = try constant(t) {
                if let cached = nchwOf[t] {
                    inputs.append(cached)
                    continue
                }
                let name = "\(names[t])::nchw"
                let dims = c.count == 1 ? [] : [1, c.count, 1, 1]
                if let floats = c.floats {
                    graph.initializers.append(ONNXWriter.Tensor(name: name, dims: dims, floats: floats))
                } else {
                    graph.initializers.append(ONNXWriter.Tensor(name: name, dims: dims, int64s: c.ints ?? []))
                }
                nchwOf[t] = name
                inputs.append(name)
            } else {
                inputs.append(try toNCHW(t))
            }
        }
        try finish(activation, out: out, nchwResult: useNCHW, onnx, inputs + extra, attributes)
    }

    /// The ONNX value of tensor `t`: produced by an earlier node, a graph input, or a constant
    /// written as an initializer on first use.
    mutating func value(_ t: Int) throws -> String {
        if pendingNHWC.contains(t), let source = nchwOf[t] {
            pendingNHWC.remove(t)
            add("Transpose", [source], names[t], [.init("perm", .ints([0, 2, 3, 1]))])
        }
        if produced.contains(t) { return names[t] }
        if let c = try constant(t) {
            if let floats = c.floats {
                graph.initializers.append(ONNXWriter.Tensor(name: names[t], dims: c.shape, floats: floats))
            } else {
                graph.initializers.append(ONNXWriter.Tensor(name: names[t], dims: c.shape, int64s: c.ints ?? []))
            }
            produced.insert(t)
            return names[t]
        }
        throw ConversionError(
            .syntax, "operator \(operatorIndex) reads tensor '\(model.tensors[t].name)', which nothing computes")
    }

    /// Tensor `t` (NHWC) as NCHW, one Transpose per tensor.
    mutating func toNCHW(_ t: Int) throws -> String {
        if let cached = nchwOf[t] { return cached }
        let name = try value(t)
        let result = add("Transpose", [name], "\(name)::nchw", [.init("perm", .ints([0, 3, 1, 2]))])
        nchwOf[t] = result
        return result
    }

    /// Runs `body` writing its result, then the fused activation, then (for NCHW results) the
    /// Transpose back to NHWC, so that the last node writes the output tensor's name.
    mutating func finish(
        _ activation: Int8, out: Int, nchwResult: Bool, _ op: String, _ inputs: [String],
        _ attributes: [ONNXWriter.Attribute] = []
    ) throws {
        let target = names[out]
        let needsMore = activation != 0 || nchwResult
        let first = needsMore ? "\(target)::op" : target
        add(op, inputs, first, attributes)
        var value = first
        if activation != 0 {
            let activated = nchwResult ? "\(target)::act" : target
            switch activation {
            case 1: add("Relu", [value], activated)
            case 2: add("Clip", [value, scalar(-1), scalar(1)], activated)
            case 3: add("Clip", [value, scalar(0), scalar(6)], activated)
            case 4: add("Tanh", [value], activated)
            default:
                throw ConversionError(.unsupported, "operator \(operatorIndex) has the fused activation \(activation)")
            }
            value = activated
        }
        if nchwResult {
            // The NHWC Transpose is written when a consumer needs it (`value`).
            nchwOf[out] = value
            pendingNHWC.insert(out)
        }
    }

    @discardableResult
    mutating func add(
        _ op: String, _ inputs: [String], _ output: String,
        _ attributes: [ONNXWriter.Attribute] = []
    ) -> String {
        graph.nodes.append(
            ONNXWriter.Node(opType: op, name: output, inputs: inputs, outputs: [output], attributes: attributes))
        return output
    }

    mutating func floatInitializer(_ name: String, _ dims: [Int], _ values: [Float]) -> String {
        graph.initializers.append(ONNXWriter.Tensor(name: name, dims: dims, floats: values))
        return name
    }

    mutating func int64Initializer(_ name: String, _ values: [Int64]) -> String {
        graph.initializers.append(ONNXWriter.Tensor(name: name, dims: [values.count], int64s: values))
        return name
    }

    /// A float scalar initializer, shared by value.
    mutating func scalar(_ value: Float) -> String {
        if let name = scalars[value] { return name }
        let name = "::scalar\(scalars.count)"
        graph.initializers.append(ONNXWriter.Tensor(name: name, dims: [], floats: [value]))
        scalars[value] = name
        return name
    }

    /// TensorFlow's SAME padding: (before, after), the odd pixel after.
    static func samePadding(_ input: Int, _ kernel: Int, _ stride: Int, _ dilation: Int) -> (Int, Int) {
        let output = (input + stride - 1) / stride
        let effective = (kernel - 1) * dilation + 1
        let total = max((output - 1) * stride + effective - input, 0)
        return (total / 2, total - total / 2)
    }
}
