import Foundation

/// The trained tail of an updatable neural network: its updatable `innerProduct` layers and the layers between them
/// and the loss, in forward order, with the loss and optimizer of its `updateParams` (NeuralNetwork.proto
/// `NetworkUpdateParameters`). Runs forward and backward in double precision on the values the network's earlier part
/// gives (computed by ONNX Runtime). The rules, as docs/coreml.md "Updatable models" states them: the gradient of a
/// mini-batch is the mean of its examples'; categorical cross-entropy is −log p[target] on a softmax output (gradient
/// p − onehot at the softmax's input); mean squared error is the mean of (y − t)² over an example's values; SGD with
/// momentum μ: v = μv + g, w −= lr·v; Adam: bias-corrected moments, w −= lr·m̂ / (√v̂ + ε).
package struct CoreMLTrainableNetwork: Sendable {
    /// One layer of the tail.
    package struct Layer: Sendable {
        /// The layer's name in the file.
        package var name: String
        /// Its position among the network's layers.
        package var index: Int
        /// What it computes.
        package var kind: Kind
    }

    /// The layer kinds the tail may hold.
    package enum Kind: Sendable {
        case innerProduct(InnerProduct)
        case relu, sigmoid, tanh, softmax
    }

    /// An `innerProduct` layer: `weights` [outputs × inputs] row-major, `bias` [outputs] (empty without bias).
    package struct InnerProduct: Sendable {
        package var inputs: Int
        package var outputs: Int
        package var hasBias: Bool
        package var isUpdatable: Bool
        package var weights: [Double]
        package var bias: [Double]
    }

    /// `LossLayer`.
    package enum Loss: Sendable, Equatable {
        case categoricalCrossEntropy
        case meanSquaredError
    }

    /// `Optimizer`.
    package enum Optimizer: Sendable, Equatable {
        case sgd(learningRate: Double, momentum: Double)
        case adam(learningRate: Double, beta1: Double, beta2: Double, epsilon: Double)
    }

    /// The tail's layers, in forward order (the first is an updatable innerProduct).
    package var layers: [Layer]
    package var loss: Loss
    package var optimizer: Optimizer
    /// Examples per mini-batch (`miniBatchSize`).
    package var miniBatchSize: Int
    /// Passes over the training data (`epochs`).
    package var epochs: Int
    /// Whether the examples are shuffled before each epoch (`shuffle`), with `seed`.
    package var shuffle: Bool
    package var seed: UInt64
    /// A classifier's labels (a cross-entropy target given as a label is its index here); empty otherwise.
    package var classLabels: [String]
    /// Values the tail gives (its last layer's outputs).
    package var outputCount: Int

    /// Optimizer state per parameter (updatable layers' weights, then bias): velocity or first moment, second moment.
    private var first: [[Double]] = []
    private var second: [[Double]] = []
    private var steps = 0

    package init(
        layers: [Layer], loss: Loss, optimizer: Optimizer, miniBatchSize: Int, epochs: Int, shuffle: Bool,
        seed: UInt64, classLabels: [String], outputCount: Int
    ) {
        self.layers = layers
        self.loss = loss
        self.optimizer = optimizer
        self.miniBatchSize = miniBatchSize
        self.epochs = epochs
        self.shuffle = shuffle
        self.seed = seed
        self.classLabels = classLabels
        self.outputCount = outputCount
    }

    /// Each layer's output for input `x` (element 0 is `x`).
    package func activations(_ x: [Double]) -> [[Double]] {
        var values = [x]
        values.reserveCapacity(layers.count + 1)
        for layer in layers {
            let v = values[values.count - 1]
            switch layer.kind {
            case .innerProduct(let p):
                var y = p.hasBias ? p.bias : [Double](repeating: 0, count: p.outputs)
                for o in 0..<p.outputs {
                    var sum = 0.0
                    let row = o * p.inputs
                    for i in 0..<p.inputs { sum += p.weights[row + i] * v[i] }
                    y[o] += sum
                }
                values.append(y)
            case .relu: values.append(v.map { max($0, 0) })
            case .sigmoid: values.append(v.map { 1 / (1 + exp(-$0)) })
            case .tanh: values.append(v.map { Foundation.tanh($0) })
            case .softmax:
                let top = v.max() ?? 0
                let e = v.map { exp($0 - top) }
                let total = e.reduce(0, +)
                values.append(e.map { $0 / total })
            }
        }
        return values
    }

    /// The tail's outputs for input `x`.
    package func forward(_ x: [Double]) -> [Double] { activations(x).last ?? x }

    /// One optimizer step on a mini-batch of (input, target) pairs — a cross-entropy target is one-hot, a squared
    /// error target the expected values — and the batch's mean loss before the step.
    package mutating func step(_ batch: [(input: [Double], target: [Double])]) -> Double {
        var gradients = layers.map { layer -> (weights: [Double], bias: [Double]) in
            guard case .innerProduct(let p) = layer.kind, p.isUpdatable else { return ([], []) }
            return ([Double](repeating: 0, count: p.weights.count), [Double](repeating: 0, count: p.bias.count))
        }
        var totalLoss = 0.0
        for (x, target) in batch {
            let a = activations(x)
            let y = a[a.count - 1]
            var g: [Double]
            var k = layers.count - 1
            switch loss {
            case .categoricalCrossEntropy:
                // The tail ends with the softmax: the gradient at its input is p − onehot.
                let t = target.firstIndex(of: 1) ?? 0
                totalLoss += -log(max(y[t], Double.leastNormalMagnitude))
                g = zip(y, target).map { $0 - $1 }
                k -= 1
            case .meanSquaredError:
                let n = Double(max(y.count, 1))
                totalLoss += zip(y, target).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) } / n
                g = zip(y, target).map { 2 * ($0 - $1) / n }
            }
            while k >= 0 {
                let input = a[k]
                let output = a[k + 1]
                switch layers[k].kind {
                case .innerProduct(let p):
                    if p.isUpdatable {
                        for o in 0..<p.outputs where g[o] != 0 {
                            let row = o * p.inputs
                            for i in 0..<p.inputs { gradients[k].weights[row + i] += g[o] * input[i] }
                        }
                        if p.hasBias { for o in 0..<p.outputs { gradients[k].bias[o] += g[o] } }
                    }
                    if k > 0 {
                        var back = [Double](repeating: 0, count: p.inputs)
                        for o in 0..<p.outputs where g[o] != 0 {
                            let row = o * p.inputs
                            for i in 0..<p.inputs { back[i] += p.weights[row + i] * g[o] }
                        }
                        g = back
                    }
                case .relu: g = zip(g, input).map { $1 > 0 ? $0 : 0 }
                case .sigmoid: g = zip(g, output).map { $0 * $1 * (1 - $1) }
                case .tanh: g = zip(g, output).map { $0 * (1 - $1 * $1) }
                case .softmax:
                    let dot = zip(g, output).reduce(0) { $0 + $1.0 * $1.1 }
                    g = zip(g, output).map { $1 * ($0 - dot) }
                }
                k -= 1
            }
        }
        apply(gradients, scale: 1 / Double(max(batch.count, 1)))
        return totalLoss / Double(max(batch.count, 1))
    }

    private mutating func apply(_ gradients: [(weights: [Double], bias: [Double])], scale: Double) {
        steps += 1
        var slot = 0
        for k in layers.indices {
            guard case .innerProduct(var p) = layers[k].kind, p.isUpdatable else { continue }
            update(&p.weights, gradients[k].weights, scale: scale, slot: slot)
            slot += 1
            if p.hasBias {
                update(&p.bias, gradients[k].bias, scale: scale, slot: slot)
                slot += 1
            }
            layers[k].kind = .innerProduct(p)
        }
    }

    private mutating func update(_ values: inout [Double], _ gradient: [Double], scale: Double, slot: Int) {
        while first.count <= slot {
            first.append([Double](repeating: 0, count: values.count))
            second.append([Double](repeating: 0, count: values.count))
        }
        switch optimizer {
        case .sgd(let lr, let momentum):
            for i in values.indices {
                first[slot][i] = momentum * first[slot][i] + gradient[i] * scale
                values[i] -= lr * first[slot][i]
            }
        case .adam(let lr, let beta1, let beta2, let epsilon):
            let c1 = 1 - pow(beta1, Double(steps))
            let c2 = 1 - pow(beta2, Double(steps))
            for i in values.indices {
                let g = gradient[i] * scale
                first[slot][i] = beta1 * first[slot][i] + (1 - beta1) * g
                second[slot][i] = beta2 * second[slot][i] + (1 - beta2) * g * g
                values[i] -= lr * (first[slot][i] / c1) / ((second[slot][i] / c2).squareRoot() + epsilon)
            }
        }
    }

    /// The order of `count` examples in epoch `epoch`: as given, or (with `shuffle`) a Fisher–Yates permutation
    /// drawn from SplitMix64 seeded with `seed` + `epoch`.
    package func order(count: Int, epoch: Int) -> [Int] {
        var order = Array(0..<count)
        guard shuffle, count > 1 else { return order }
        var state = seed &+ UInt64(epoch) &* 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        for i in stride(from: count - 1, to: 0, by: -1) {
            order.swapAt(i, Int(next() % UInt64(i + 1)))
        }
        return order
    }
}
