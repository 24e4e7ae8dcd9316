import Foundation

// The recurrent layers (simpleRecurrent 400, gru 410, uniDirectionalLSTM 420, biDirectionalLSTM 430) as ONNX's RNN,
// GRU and LSTM: inputs `[Seq, Batch, I, 1, 1]` (the sequence length is the input's, 1 unless the model says more),
// optional initial states, outputs the sequence (or its last step) and the final states. Core ML clips every gate's
// pre-activation to [-50, 50] (ONNX's `clip` attribute). An LSTM's cell-state clip (`cellClipThreshold`, default 50)
// has no ONNX counterpart: states beyond it are not clipped.
extension NeuralNetworkToONNX {
    /// An RNN activation (`ActivationParams`) as ONNX's name with its alpha/beta when it takes them.
    func recurrentActivation(_ m: ProtoMessage) throws -> (String, [Float]) {
        guard let kind = m.oneof([5, 10, 30, 31, 40, 41]) else {
            throw unsupported(
                "a recurrent activation other than linear, ReLU, tanh, scaled tanh, sigmoid or hard sigmoid")
        }
        let a = try m.message(kind, "activation")!
        switch kind {
        case 5: return ("Affine", [try a.float(1), try a.float(2)])
        case 10: return ("Relu", [])
        case 30: return ("Tanh", [])
        case 31: return ("ScaledTanh", [try a.float(1), try a.float(2)])
        case 40: return ("Sigmoid", [])
        default: return ("HardSigmoid", [try a.float(1), try a.float(2)])
        }
    }

    func activationAttributes(_ activations: [(String, [Float])]) -> [ONNXWriter.Attribute] {
        var attributes: [ONNXWriter.Attribute] = [.init("activations", .strings(activations.map(\.0)))]
        let parameters = activations.filter { !$0.1.isEmpty }
        if !parameters.isEmpty {
            attributes.append(.init("activation_alpha", .floats(parameters.map { $0.1[0] })))
            attributes.append(.init("activation_beta", .floats(parameters.map { $0.1[1] })))
        }
        return attributes
    }

    /// The sequence input `[S, B, I]` of a rank-5 blob `[S, B, I, 1, 1]`.
    mutating func sequence(_ x: NNValue, inputSize: Int) throws -> (String, Int, Int) {
        guard x.shape.count == 5, x.shape[2] == inputSize, x.shape[3] == 1, x.shape[4] == 1 else {
            throw invalid("input of shape \(x.shape) (expected [Seq, Batch, \(inputSize), 1, 1])")
        }
        return (reshape(x.name, [x.shape[0], x.shape[1], inputSize]), x.shape[0], x.shape[1])
    }

    /// An optional initial state `[1, B, H, 1, 1]` as `[directions, B, H]` (directions stacked along axis 0).
    mutating func initialState(_ states: [NNValue?], batch: Int, hidden: Int) throws -> String {
        if states.allSatisfy({ $0 == nil }) { return "" }
        var parts: [String] = []
        for state in states {
            if let state {
                guard try elements(state.shape) == batch * hidden else {
                    throw invalid("initial state of shape \(state.shape)")
                }
                parts.append(reshape(state.name, [1, batch, hidden]))
            } else {
                parts.append(
                    constant(Array(repeating: 0, count: batch * hidden), dims: [1, batch, hidden], hint: "h0"))
            }
        }
        return parts.count == 1 ? parts[0] : node1("Concat", parts, [.init("axis", .int(0))])
    }

    /// Registers the outputs of a recurrent layer: `Y` `[S, D, B, H]` as the sequence `[S, B, D·H, 1, 1]` (or its last
    /// step), and each final state `[D, B, H]` as `[1, B, D·H, 1, 1]`.
    mutating func recurrentOutputs(
        _ outs: [String], blobs names: [String], seq: Int, batch: Int, hidden: Int, directions: Int,
        sequenceOutput: Bool
    ) throws {
        func rank5(_ value: String, steps: Int, output: String) -> NNValue {
            let shape = [steps, batch, directions * hidden, 1, 1]
            _ = reshape(value, physical(shape), output: output)
            return NNValue(name: output, shape: shape)
        }
        for (k, blob) in names.enumerated() where !blob.isEmpty {
            let name = outputName(blob)
            if k == 0 {
                if sequenceOutput {
                    let perStep = directions == 1 ? outs[0] : transpose(outs[0], [0, 2, 1, 3])  // [S, B, D, H]
                    blobs[blob] = rank5(perStep, steps: seq, output: name)
                } else {
                    let last = directions == 1 ? outs[1] : transpose(outs[1], [1, 0, 2])  // [B, D, H]
                    blobs[blob] = rank5(last, steps: 1, output: name)
                }
            } else {
                let state = directions == 1 ? outs[k] : transpose(outs[k], [1, 0, 2])
                blobs[blob] = rank5(state, steps: 1, output: name)
            }
        }
    }

    /// `SimpleRecurrentLayerParams`: 1 inputVectorSize, 2 outputVectorSize, 10 activation, 15 sequenceOutput,
    /// 20 hasBiasVector, 30 weightMatrix, 31 recursionMatrix, 32 biasVector, 100 reverseInput. Inputs x[, h0];
    /// outputs y[, h].
    mutating func simpleRecurrent(_ p: ProtoMessage, _ inputs: [NNValue], _ outputs: [String]) throws {
        let d = CoreMLLimits.dimension
        let i = try p.count(1, limit: d, what: "inputVectorSize")
        let h = try p.count(2, limit: d, what: "outputVectorSize")
        guard i > 0, h > 0, (1...2).contains(inputs.count), (1...2).contains(outputs.count) else {
            throw invalid("sizes \(i), \(h) or inputs/outputs")
        }
        let (x, seq, batch) = try sequence(inputs[0], inputSize: i)
        let w = constant(
            try weights(p, 30, count: try elements([h, i]), what: "weightMatrix"), dims: [1, h, i], hint: "W")
        let r = constant(
            try weights(p, 31, count: try elements([h, h]), what: "recursionMatrix"), dims: [1, h, h], hint: "R")
        let bias = try p.bool(20) ? try weights(p, 32, count: h, what: "biasVector") : Array(repeating: 0, count: h)
        let b = constant(bias + Array(repeating: 0, count: h), dims: [1, 2 * h], hint: "B")
        guard let activation = try p.message(10, "activation") else { throw invalid("no activation") }
        let h0 = try initialState([inputs.count > 1 ? inputs[1] : nil], batch: batch, hidden: h)
        let outs = node(
            "RNN", [x, w, r, b, "", h0], count: 2,
            [
                .init("hidden_size", .int(h)), .init("clip", .float(50)),
                .init("direction", .string(try p.bool(100) ? "reverse" : "forward")),
            ] + activationAttributes([try recurrentActivation(activation)]))
        try recurrentOutputs(
            outs, blobs: outputs, seq: seq, batch: batch, hidden: h, directions: 1, sequenceOutput: try p.bool(15))
    }

    /// `GRULayerParams`: 1 inputVectorSize, 2 outputVectorSize, 10 activations [f, g], 15 sequenceOutput,
    /// 20 hasBiasVectors, 30/31/32 update/reset/output gate weights, 50/51/52 their recursion matrices, 70/71/72 their
    /// biases, 100 reverseInput. Core ML's output gate takes R_o (y ⊙ r): ONNX's linear_before_reset = 0.
    mutating func gru(_ p: ProtoMessage, _ inputs: [NNValue], _ outputs: [String]) throws {
        let d = CoreMLLimits.dimension
        let i = try p.count(1, limit: d, what: "inputVectorSize")
        let h = try p.count(2, limit: d, what: "outputVectorSize")
        guard i > 0, h > 0, (1...2).contains(inputs.count), (1...2).contains(outputs.count) else {
            throw invalid("sizes \(i), \(h) or inputs/outputs")
        }
        let (x, seq, batch) = try sequence(inputs[0], inputSize: i)
        var w: [Float] = []
        var r: [Float] = []
        var bias: [Float] = []
        for (field, name) in [(30, "update"), (31, "reset"), (32, "output")] {
            w += try weights(p, field, count: try elements([h, i]), what: "\(name)GateWeightMatrix")
            r += try weights(p, field + 20, count: try elements([h, h]), what: "\(name)GateRecursionMatrix")
            bias +=
                try p.bool(20)
                ? try weights(p, field + 40, count: h, what: "\(name)GateBiasVector") : Array(repeating: 0, count: h)
        }
        let activations = try p.messages(10, "activations")
        let f = activations.count > 0 ? try recurrentActivation(activations[0]) : ("Sigmoid", [])
        let g = activations.count > 1 ? try recurrentActivation(activations[1]) : ("Tanh", [])
        let h0 = try initialState([inputs.count > 1 ? inputs[1] : nil], batch: batch, hidden: h)
        let outs = node(
            "GRU",
            [
                x, constant(w, dims: [1, 3 * h, i], hint: "W"), constant(r, dims: [1, 3 * h, h], hint: "R"),
                constant(bias + Array(repeating: 0, count: 3 * h), dims: [1, 6 * h], hint: "B"), "", h0,
            ], count: 2,
            [
                .init("hidden_size", .int(h)), .init("clip", .float(50)), .init("linear_before_reset", .int(0)),
                .init("direction", .string(try p.bool(100) ? "reverse" : "forward")),
            ] + activationAttributes([f, g]))
        try recurrentOutputs(
            outs, blobs: outputs, seq: seq, batch: batch, hidden: h, directions: 1, sequenceOutput: try p.bool(15))
    }

    /// `UniDirectionalLSTMLayerParams` (1 inputVectorSize, 2 outputVectorSize, 10 activations [f, g, h], 15 params,
    /// 20 weightParams, 100 reverseInput) and `BiDirectionalLSTMLayerParams` (10/11 forward/backward activations, 15
    /// params, 20 two weightParams). `LSTMParams`: 10 sequenceOutput, 20 hasBiasVectors, 30 forgetBias, 40
    /// hasPeepholeVectors, 50 coupledInputAndForgetGate, 60 cellClipThreshold. `LSTMWeightParams`: W 1-4, R 20-23,
    /// b 40-43 (input, forget, block input z, output), peepholes 60-62 (input, forget, output). Inputs x[, h0, c0
    /// (, h0 backward, c0 backward)]; outputs y[, h, c].
    mutating func lstm(_ p: ProtoMessage, _ inputs: [NNValue], _ outputs: [String], bidirectional: Bool) throws {
        let d = CoreMLLimits.dimension
        let i = try p.count(1, limit: d, what: "inputVectorSize")
        let h = try p.count(2, limit: d, what: "outputVectorSize")
        let directions = bidirectional ? 2 : 1
        guard i > 0, h > 0, (1...(1 + 2 * directions)).contains(inputs.count), (1...3).contains(outputs.count) else {
            throw invalid("sizes \(i), \(h), \(inputs.count) inputs, \(outputs.count) outputs")
        }
        let (x, seq, batch) = try sequence(inputs[0], inputSize: i)
        let params = try p.message(15, "params")
        let hasBias = try params?.bool(20) ?? false
        let forgetBias = try params?.bool(30) ?? false
        let peepholes = try params?.bool(40) ?? false
        let coupled = try params?.bool(50) ?? false
        let weightSets = try p.messages(20, "weightParams")
        guard weightSets.count == directions else {
            throw invalid("\(weightSets.count) weight sets for \(directions) direction(s)")
        }
        var w: [Float] = []
        var r: [Float] = []
        var b: [Float] = []
        var peep: [Float] = []
        for set in weightSets {
            // ONNX's gate order is input, output, forget, cell (z).
            for (wf, name) in [(1, "inputGate"), (4, "outputGate"), (2, "forgetGate"), (3, "blockInput")] {
                w += try weights(set, wf, count: try elements([h, i]), what: "\(name)WeightMatrix")
                r += try weights(set, wf + 19, count: try elements([h, h]), what: "\(name)RecursionMatrix")
                var bias =
                    hasBias
                    ? try weights(set, wf + 39, count: h, what: "\(name)BiasVector") : Array(repeating: 0, count: h)
                if forgetBias && wf == 2 { bias = bias.map { $0 + 1 } }
                b += bias
            }
            b += Array(repeating: 0, count: 4 * h)
            if peepholes {
                for (pf, name) in [(60, "inputGate"), (62, "outputGate"), (61, "forgetGate")] {
                    peep += try weights(set, pf, count: h, what: "\(name)PeepholeVector")
                }
            }
        }
        let activations = try p.messages(10, "activations")
        var functions: [(String, [Float])] = [("Sigmoid", []), ("Tanh", []), ("Tanh", [])]
        for (k, a) in activations.prefix(3).enumerated() { functions[k] = try recurrentActivation(a) }
        let state: (Int) -> NNValue? = { k in k < inputs.count ? inputs[k] : nil }
        let h0 = try initialState(bidirectional ? [state(1), state(3)] : [state(1)], batch: batch, hidden: h)
        let c0 = try initialState(bidirectional ? [state(2), state(4)] : [state(2)], batch: batch, hidden: h)
        var lstmInputs = [
            x, constant(w, dims: [directions, 4 * h, i], hint: "W"),
            constant(r, dims: [directions, 4 * h, h], hint: "R"),
            constant(b, dims: [directions, 8 * h], hint: "B"), "", h0, c0,
        ]
        if peepholes { lstmInputs.append(constant(peep, dims: [directions, 3 * h], hint: "P")) }
        let direction = bidirectional ? "bidirectional" : try p.bool(100) ? "reverse" : "forward"
        let outs = node(
            "LSTM", lstmInputs, count: 3,
            [
                .init("hidden_size", .int(h)), .init("clip", .float(50)), .init("input_forget", .int(coupled ? 1 : 0)),
                .init("direction", .string(direction)),
            ] + activationAttributes(Array(repeating: functions, count: directions).flatMap { $0 }))
        try recurrentOutputs(
            outs, blobs: outputs, seq: seq, batch: batch, hidden: h, directions: directions,
            sequenceOutput: try params?.bool(10) ?? false)
    }
}
