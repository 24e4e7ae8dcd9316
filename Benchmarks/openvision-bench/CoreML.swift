import Foundation
import OpenVision
import OpenVisionConverters

/// `openvision-bench coreml RUNS MODEL.mlmodel REFERENCE.onnx`: a Core ML model against the ONNX file of the same
/// network on ONNX Runtime with the same threads (2): the first load (conversion + session; scripts/bench sets a
/// private XDG_CACHE_HOME so it converts), the cached load, the ONNX file's load, the conversion alone
/// (`compileCoreMLModel`, which also writes the .mlmodelc), and the median ms of `VisionModel.prediction` on one
/// fixed input, the two models alternating run by run after 3 warm-up runs each.
func benchCoreML(runs: Int, model path: String, reference: String) throws {
    var configuration = VisionModel.Configuration()
    configuration.threads = 2
    let url = URL(fileURLWithPath: path)
    var start = clock.now
    let coreML = try VisionModel(contentsOf: url, configuration: configuration)
    let firstLoad = ms(clock.now - start)
    var cachedLoads: [Double] = []
    var onnxLoads: [Double] = []
    var compiles: [Double] = []
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ov-bench-compile-\(UUID())")
    defer { try? FileManager.default.removeItem(at: folder) }
    var onnx: VisionModel?
    // Loads alternate, the order swapped each round; conversions after them (they write 18 MB).
    for round in 0..<max(4, runs / 2) {
        for first in [round % 2 == 0, round % 2 != 0] {
            start = clock.now
            if first {
                _ = try VisionModel(contentsOf: url, configuration: configuration)
                cachedLoads.append(ms(clock.now - start))
            } else {
                onnx = try VisionModel(contentsOf: URL(fileURLWithPath: reference), configuration: configuration)
                onnxLoads.append(ms(clock.now - start))
            }
        }
    }
    for _ in 0..<3 {
        start = clock.now
        _ = try VisionModel.compileCoreMLModel(at: url, to: folder, replacing: true)
        compiles.append(ms(clock.now - start))
    }
    let input = coreML.modelDescription.inputs[0]
    let shape = input.shape.map { $0 ?? 1 }
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    let scalars = (0..<shape.reduce(1, *)).map { _ -> Float in
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Float(state >> 40) / Float(1 << 24) * 2 - 1
    }
    let tensor = Tensor(name: input.name, shape: shape, scalars: scalars)
    let referenceInput = try onnx.map { model in
        Tensor(name: model.modelDescription.inputs[0].name, shape: shape, scalars: scalars)
    }!
    for _ in 0..<3 {
        _ = try coreML.prediction(from: [tensor])
        _ = try onnx!.prediction(from: [referenceInput])
    }
    var ours: [Double] = []
    var theirs: [Double] = []
    for _ in 0..<runs {
        start = clock.now
        _ = try coreML.prediction(from: [tensor])
        ours.append(ms(clock.now - start))
        start = clock.now
        _ = try onnx!.prediction(from: [referenceInput])
        theirs.append(ms(clock.now - start))
    }
    emit([
        "model": url.lastPathComponent, "reference": URL(fileURLWithPath: reference).lastPathComponent,
        "coreml_ms": median(ours), "onnx_ms": median(theirs), "ratio": median(ours) / median(theirs),
        "first_load_ms": firstLoad, "cached_load_ms": median(cachedLoads), "onnx_load_ms": median(onnxLoads),
        "convert_ms": median(compiles),
    ])
}

/// `openvision-bench coreml-convert RUNS MODEL...`: the median ms of converting each Core ML model in process
/// (`CoreMLConverter.onnxData`: read, convert, serialize; as the peer's convert_coreml + SerializeToString), for the
/// side-by-side with onnxmltools.
func benchCoreMLConversion(runs: Int, models: [String]) {
    for path in models {
        let url = URL(fileURLWithPath: path)
        var times: [Double] = []
        var failure: String?
        for _ in 0..<runs {
            let start = clock.now
            do {
                _ = try CoreMLConverter.onnxData(contentsOf: url)
            } catch {
                failure = "\(error)"
                break
            }
            times.append(ms(clock.now - start))
        }
        var row: [String: Any] = ["model": url.lastPathComponent, "converts": failure == nil]
        if let failure { row["error"] = failure } else { row["convert_ms"] = median(times) }
        emit(row)
    }
}
