import Foundation
import OpenVision

/// `openvision-bench runtimes ROUNDS THREADS MODEL[@DIMS]...`: per model, ONNX Runtime against OpenVINO on the same
/// fixed random input (uniform in [0, 1)), both loaded with `threads` THREADS. Each of ROUNDS rounds runs ONNX
/// Runtime 5 times then OpenVINO 5 times (after 3 warm-up runs each), so load changes hit both alike; the row has
/// both medians (ms per `VisionModel.prediction`), their ratio, and the largest output difference, absolute and
/// relative to the largest |value| of ONNX Runtime's output it occurs in. DIMS gives dynamic dimensions, e.g.
/// `ch_PP-OCRv4_det_infer.onnx@1x3x640x640` (default: 1 for each).
func benchRuntimes(rounds: Int, threads: Int, models: [String]) throws {
    for argument in models {
        let parts = argument.split(separator: "@", maxSplits: 1).map(String.init)
        let url = URL(fileURLWithPath: parts[0])
        var configuration = VisionModel.Configuration()
        configuration.threads = threads
        configuration.backend = .onnxRuntime
        let ort = try VisionModel(contentsOf: url, configuration: configuration)
        configuration.backend = .openVINO
        var start = clock.now
        let vino = try VisionModel(contentsOf: url, configuration: configuration)
        let vinoLoad = ms(clock.now - start)
        let input = ort.modelDescription.inputs[0]
        let given = parts.count > 1 ? parts[1].split(separator: "x").compactMap { Int($0) } : []
        let shape = given.count == input.shape.count ? given : input.shape.map { $0 ?? 1 }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let scalars = (0..<shape.reduce(1, *)).map { _ -> Float in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(state >> 40) / Float(1 << 24)
        }
        let tensors = [Tensor(name: input.name, shape: shape, scalars: scalars)]
        for _ in 0..<3 {
            _ = try ort.prediction(from: tensors)
            _ = try vino.prediction(from: tensors)
        }
        var ortTimes: [Double] = []
        var vinoTimes: [Double] = []
        for _ in 0..<rounds {
            for _ in 0..<5 {
                start = clock.now
                _ = try ort.prediction(from: tensors)
                ortTimes.append(ms(clock.now - start))
            }
            for _ in 0..<5 {
                start = clock.now
                _ = try vino.prediction(from: tensors)
                vinoTimes.append(ms(clock.now - start))
            }
        }
        let a = try ort.prediction(from: tensors)
        let b = try vino.prediction(from: tensors)
        var maxAbs: Float = 0
        var maxRelative: Float = 0
        for (x, y) in zip(a, b) where x.scalars.count == y.scalars.count {
            let scale = max(x.scalars.map(abs).max() ?? 0, .leastNormalMagnitude)
            let difference = zip(x.scalars, y.scalars).map { abs($0 - $1) }.max() ?? 0
            maxAbs = max(maxAbs, difference)
            maxRelative = max(maxRelative, difference / scale)
        }
        emit([
            "model": url.lastPathComponent, "threads": threads, "shape": shape.map(String.init).joined(separator: "x"),
            "onnxruntime_ms": median(ortTimes), "openvino_ms": median(vinoTimes),
            "openvino_over_onnxruntime": median(vinoTimes) / median(ortTimes),
            "max_abs_difference": Double(maxAbs), "max_relative_difference": Double(maxRelative),
            "same_output_shapes": a.map(\.shape) == b.map(\.shape), "openvino_load_ms": vinoLoad,
            "runtimes": "\(ort.modelDescription.backend) / \(vino.modelDescription.backend)",
        ])
    }
}
