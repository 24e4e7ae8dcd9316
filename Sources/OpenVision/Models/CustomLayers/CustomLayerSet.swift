internal import CNative
import Foundation
internal import OpenVisionConverters
import Synchronization

/// The custom layers of one loaded model, made by their registered classes, and the callback ONNX Runtime's
/// `CustomLayer` kernel calls (`ov_ort_session_create_custom`): phase 0 asks the layer for its output shapes, phase 1
/// evaluates it on the runtime's buffers. Owned by the model's backend, which outlives its session.
final class CustomLayerSet: Sendable {
    /// One layer: what the file says and the app's instance. Calls to an instance are serialized by its mutex.
    final class Layer: @unchecked Sendable {
        // The instance is only called with `lock` held.
        let definition: CoreMLCustomLayer
        let instance: any CustomLayer
        let lock = NSLock()

        init(definition: CoreMLCustomLayer, instance: any CustomLayer) {
            self.definition = definition
            self.instance = instance
        }
    }

    let layers: [Layer]
    /// The error a layer threw, by the thread whose run it failed (the kernel runs on the thread calling Run), so
    /// that the run throws it as a `VisionError` with the layer's error as its cause.
    private let failures = Mutex<[UInt: VisionError]>([:])

    /// Makes every layer of `definitions` (throws `unsupported` for a class not registered) and checks that each
    /// gives the output shapes the graph was converted with (`customLayer` otherwise).
    init(_ definitions: [CoreMLCustomLayer]) throws(VisionError) {
        var layers: [Layer] = []
        for definition in definitions {
            let instance = try CustomLayerRegistry.make(definition)
            let shapes = try Self.outputShapes(instance, definition, inputShapes: definition.inputShapes)
            guard shapes == definition.outputShapes else {
                throw VisionError(
                    .customLayer,
                    "custom layer '\(definition.layerName)' (\(definition.className)) gives output shapes \(shapes) "
                        + "for inputs \(definition.inputShapes), not the \(definition.outputShapes) the model was "
                        + "converted with")
            }
            layers.append(Layer(definition: definition, instance: instance))
        }
        self.layers = layers
    }

    /// Whether `definitions`' registered classes give the output shapes recorded in a converted graph (false when
    /// one is not registered or throws: loading it says why).
    static func shapesHold(_ definitions: [CoreMLCustomLayer]) -> Bool {
        definitions.allSatisfy { definition in
            guard let instance = try? CustomLayerRegistry.make(definition),
                let shapes = try? outputShapes(instance, definition, inputShapes: definition.inputShapes)
            else { return false }
            return shapes == definition.outputShapes
        }
    }

    /// `instance.outputShapes(forInputShapes:)`, checked: one shape per output of rank 1...8 (5 in rank-5
    /// networks), dimensions ≥ 0, at most 2³¹ elements each. Throws `customLayer`.
    static func outputShapes(_ instance: any CustomLayer, _ definition: CoreMLCustomLayer, inputShapes: [[Int]])
        throws(VisionError) -> [[Int]]
    {
        let what = "custom layer '\(definition.layerName)' (\(definition.className))"
        let shapes: [[Int]]
        do {
            shapes = try instance.outputShapes(forInputShapes: inputShapes)
        } catch {
            throw VisionError(
                .customLayer, "\(what): outputShapes(forInputShapes: \(inputShapes)) threw: \(error)", cause: error)
        }
        for shape in shapes {
            var count = 1
            for d in shape {
                let (p, overflow) = count.multipliedReportingOverflow(by: d)
                guard d >= 0, !overflow, p <= 1 << 31 else {
                    throw VisionError(.customLayer, "\(what): outputShapes gave \(shape), which is not a size")
                }
                count = p
            }
            guard (1...Int(OV_TENSOR_MAX_RANK)).contains(shape.count), !definition.rank5 || shape.count == 5 else {
                throw VisionError(
                    .customLayer,
                    "\(what): outputShapes gave \(shape); ranks 1...8" + (definition.rank5 ? ", 5 in this network" : "")
                )
            }
        }
        return shapes
    }

    /// The shape a layer sees for a tensor of `physical` shape: in rank-5 networks, the recorded `[Seq, Batch, C, H,
    /// W]` when it holds the same values, else `[1, N, C, H, W]` for the runtime's `[N, C, H, W]`.
    static func logical(_ physical: [Int], recorded: [Int]?, rank5: Bool) -> [Int] {
        guard rank5, physical.count == 4 else { return physical }
        if let recorded, recorded.count == 5, recorded[0] * recorded[1] == physical[0],
            Array(recorded.suffix(3)) == Array(physical.suffix(3))
        {
            return recorded
        }
        return [1] + physical
    }

    /// The runtime's shape for a layer's `shape` (rank 5 → `[Seq × Batch, C, H, W]`).
    static func physical(_ shape: [Int], rank5: Bool) -> [Int] {
        guard rank5, shape.count == 5 else { return shape }
        return [shape[0] * shape[1], shape[2], shape[3], shape[4]]
    }

    static var threadKey: UInt { UInt(pthread_self()) }

    /// The error a layer threw in the current thread's run, if any (taken: asked once).
    func takeFailure() -> VisionError? { failures.withLock { $0.removeValue(forKey: Self.threadKey) } }

    /// One kernel call (see `ov_ort_custom_layer_fn`).
    func call(
        _ index: Int, phase: Int32, _ inputs: UnsafeBufferPointer<ov_custom_tensor>,
        _ outputs: UnsafeMutableBufferPointer<ov_custom_tensor>
    ) throws(VisionError) {
        guard layers.indices.contains(index) else {
            throw VisionError(
                .invalidModel, "custom layer node \(index) has no layer (the graph lists \(layers.count))")
        }
        let layer = layers[index]
        let d = layer.definition
        func shape(_ t: ov_custom_tensor) -> [Int] {
            withUnsafeBytes(of: t.shape) { raw in
                (0..<Int(t.rank)).map { Int(raw.load(fromByteOffset: $0 * 8, as: Int64.self)) }
            }
        }
        let inputShapes = inputs.enumerated().map { i, t in
            Self.logical(shape(t), recorded: i < d.inputShapes.count ? d.inputShapes[i] : nil, rank5: d.rank5)
        }
        layer.lock.lock()
        defer { layer.lock.unlock() }
        let instance = layer.instance
        if phase == 0 {
            let shapes = try Self.outputShapes(instance, d, inputShapes: inputShapes)
            guard shapes.count == outputs.count else {
                throw VisionError(
                    .customLayer,
                    "custom layer '\(d.layerName)' (\(d.className)): outputShapes gave \(shapes.count) shapes for "
                        + "its \(outputs.count) outputs")
            }
            for (j, logicalShape) in shapes.enumerated() {
                let dims = Self.physical(logicalShape, rank5: d.rank5)
                outputs[j].rank = Int32(dims.count)
                withUnsafeMutableBytes(of: &outputs[j].shape) { raw in
                    for (k, v) in dims.enumerated() {
                        raw.storeBytes(of: Int64(v), toByteOffset: k * 8, as: Int64.self)
                    }
                }
            }
            return
        }
        func tensor(_ t: ov_custom_tensor, _ logicalShape: [Int]) -> CustomLayerTensor {
            CustomLayerTensor(shape: logicalShape, count: shape(t).reduce(1, *), baseAddress: t.data)
        }
        let ins = zip(inputs, inputShapes).map { tensor($0, $1) }
        let outs = outputs.enumerated().map { j, t in
            tensor(
                t, Self.logical(shape(t), recorded: j < d.outputShapes.count ? d.outputShapes[j] : nil, rank5: d.rank5))
        }
        do {
            try instance.evaluate(inputs: ins, outputs: outs)
        } catch {
            throw VisionError(
                .customLayer,
                "custom layer '\(d.layerName)' (\(d.className)): evaluate(inputs:outputs:) threw: \(error)",
                cause: error)
        }
    }

    /// The C callback: `context` is an unretained `CustomLayerSet`.
    static let callback: ov_ort_custom_layer_fn = {
        context, index, phase, inputs, inputCount, outputs, outputCount,
        message, capacity in
        guard let context else { return 1 }
        let set = Unmanaged<CustomLayerSet>.fromOpaque(context).takeUnretainedValue()
        do {
            try set.call(
                Int(index), phase: phase, UnsafeBufferPointer(start: inputs, count: inputCount),
                UnsafeMutableBufferPointer(start: outputs, count: outputCount))
            return 0
        } catch {
            let error = error as? VisionError ?? VisionError(.customLayer, "\(error)")
            set.failures.withLock { $0[threadKey] = error }
            if let message, capacity > 0 {
                let bytes = Array(error.message.utf8.prefix(capacity - 1))
                bytes.withUnsafeBufferPointer { b in
                    message.withMemoryRebound(to: UInt8.self, capacity: capacity) { m in
                        if let base = b.baseAddress { m.update(from: base, count: bytes.count) }
                        m[bytes.count] = 0
                    }
                }
            }
            return 1
        }
    }
}
