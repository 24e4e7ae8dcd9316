import CoreML
import Foundation

/// hollance's Swish in Swift, `x * sigmoid(x)` over the runtime's buffer (no copy).
final class BenchSwish: MLCustomLayer {
    /// Nanoseconds spent in `evaluate`, summed (one run at a time in this benchmark).
    nonisolated(unsafe) static var evaluateNanoseconds: Int64 = 0

    init(parameters: [String: Any]) throws {}
    func setWeightData(_ weights: [Data]) throws {}
    func outputShapes(forInputShapes inputShapes: [[NSNumber]]) throws -> [[NSNumber]] { inputShapes }
    func evaluate(inputs: [MLMultiArray], outputs: [MLMultiArray]) throws {
        let start = DispatchTime.now().uptimeNanoseconds
        let x = try UnsafeBufferPointer<Float>(inputs[0])
        let y = try UnsafeMutableBufferPointer<Float>(outputs[0])
        for i in 0..<x.count { y[i] = x[i] / (1 + expf(-x[i])) }
        Self.evaluateNanoseconds += Int64(DispatchTime.now().uptimeNanoseconds - start)
    }
}

/// A Swift layer that only copies its input: the cost of the bridge (ONNX Runtime's kernel → Swift, the
/// `MLMultiArray`s over its buffers, the output shapes asked) with a trivial computation.
final class BenchCopyLayer: MLCustomLayer {
    init(parameters: [String: Any]) throws {}
    func setWeightData(_ weights: [Data]) throws {}
    func outputShapes(forInputShapes inputShapes: [[NSNumber]]) throws -> [[NSNumber]] { inputShapes }
    func evaluate(inputs: [MLMultiArray], outputs: [MLMultiArray]) throws {
        memcpy(outputs[0].dataPointer, inputs[0].dataPointer, inputs[0].count * 4)
    }
}

/// `openvision-bench coreml-custom RUNS NeuralMcNeuralNet.mlmodel BUILTIN.mlmodel IDENTITY.mlmodel IMAGE.png`: the same
/// graph (conv 3×3 → Swish on 6 × 256 × 256 → global pooling → dense → softmax) with Swish as Core ML's sigmoid +
/// multiply (ONNX Sigmoid and Mul, `BUILTIN`, Benchmarks/python/make_swish_builtin.py) vs through the custom layer (a
/// Swift `MLCustomLayer`), with a Swift layer that only copies, and with no Swish at all (`IDENTITY`: a copy layer,
/// which ONNX Runtime removes). The bridge's cost per call (ONNX Runtime's kernel → Swift → `MLMultiArray`s over its
/// buffers → back, shapes asked) is the Swift Swish's time minus the time inside its `evaluate` minus the graph without
/// Swish. Per prediction (`MLModel.prediction` from one thread), 20 predictions a round, rounds alternating between the
/// four; medians of RUNS rounds after a warm-up round.
func benchCoreMLCustom(runs: Int, custom: String, builtin: String, identity: String, image: String) throws {
    let configuration = MLModelConfiguration()
    MLCustomLayerRegistry.register(BenchSwish.self, forClassName: "Swish")
    let swish = try MLModel(contentsOf: URL(fileURLWithPath: custom), configuration: configuration)
    MLCustomLayerRegistry.register(BenchCopyLayer.self, forClassName: "Swish")
    let copy = try MLModel(contentsOf: URL(fileURLWithPath: custom), configuration: configuration)
    let reference = try MLModel(contentsOf: URL(fileURLWithPath: builtin), configuration: configuration)
    let bare = try MLModel(contentsOf: URL(fileURLWithPath: identity), configuration: configuration)
    let value = try MLFeatureValue(
        imageAt: URL(fileURLWithPath: image), pixelsWide: 256, pixelsHigh: 256,
        pixelFormatType: kCVPixelFormatType_32BGRA, options: nil)
    let input = try MLDictionaryFeatureProvider(dictionary: ["image": value])
    func output(_ model: MLModel) throws -> [Double] {
        try model.prediction(from: input).featureValue(for: "output")?.multiArrayValue?.doubleValues ?? []
    }
    let a = try output(reference)
    let b = try output(swish)
    let difference = zip(a, b).map { abs($0 - $1) }.max() ?? .nan
    let perRound = 20
    var times: [String: [Double]] = [:]
    var inside: [Double] = []
    for round in 0...runs {
        for (name, model) in [("builtin", reference), ("swift_swish", swish), ("swift_copy", copy), ("no_swish", bare)]
        {
            BenchSwish.evaluateNanoseconds = 0
            let start = clock.now
            for _ in 0..<perRound { _ = try model.prediction(from: input) }
            let each = ms(clock.now - start) / Double(perRound)
            guard round > 0 else { continue }
            times[name, default: []].append(each)
            if name == "swift_swish" { inside.append(Double(BenchSwish.evaluateNanoseconds) / 1e6 / Double(perRound)) }
        }
    }
    let builtinMs = median(times["builtin"] ?? [])
    let swishMs = median(times["swift_swish"] ?? [])
    let copyMs = median(times["swift_copy"] ?? [])
    let bareMs = median(times["no_swish"] ?? [])
    let insideMs = median(inside)
    emit([
        "model": URL(fileURLWithPath: custom).lastPathComponent, "elements": 6 * 256 * 256,
        "builtin_sigmoid_mul_ms": builtinMs, "swift_swish_ms": swishMs, "swift_copy_ms": copyMs,
        "no_swish_ms": bareMs, "swift_swish_evaluate_ms": insideMs, "swift_over_builtin": swishMs / builtinMs,
        "swift_minus_builtin_ms": swishMs - builtinMs, "bridge_per_call_ms": swishMs - insideMs - bareMs,
        "builtin_sigmoid_mul_cost_ms": builtinMs - bareMs, "max_abs_difference": difference,
    ])
}
