import Foundation
import OpenVision

/// `openvision-bench tflite RUNS MODEL.tflite...`: per model, the first load (conversion + ONNX Runtime
/// session; the cache of converted models is bypassed by a private XDG_CACHE_HOME set by scripts/bench),
/// a second load (from the cache), and the median ms of `VisionModel.prediction` on a fixed random NHWC
/// input with 2 threads, after 3 warm-up runs.
func benchTFLite(runs: Int, models: [String]) throws {
    for path in models {
        let url = URL(fileURLWithPath: path)
        var configuration = VisionModel.Configuration()
        configuration.threads = 2
        var start = clock.now
        let model = try VisionModel(contentsOf: url, configuration: configuration)
        let firstLoad = ms(clock.now - start)
        start = clock.now
        _ = try VisionModel(contentsOf: url, configuration: configuration)
        let cachedLoad = ms(clock.now - start)
        let input = model.modelDescription.inputs[0]
        let shape = input.shape.map { $0 ?? 1 }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let scalars = (0..<shape.reduce(1, *)).map { _ -> Float in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(state >> 40) / Float(1 << 24)
        }
        let tensor = Tensor(name: input.name, shape: shape, scalars: scalars)
        for _ in 0..<3 { _ = try model.prediction(from: [tensor]) }
        var times: [Double] = []
        for _ in 0..<runs {
            start = clock.now
            _ = try model.prediction(from: [tensor])
            times.append(ms(clock.now - start))
        }
        emit([
            "model": url.deletingPathExtension().lastPathComponent, "ours_ms": median(times),
            "first_load_ms": firstLoad, "cached_load_ms": cachedLoad,
        ])
    }
}
