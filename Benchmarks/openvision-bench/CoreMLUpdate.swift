import CoreML
import Foundation
import OpenVisionConverters

/// `openvision-bench coreml-update RUNS UpdatableDrawingClassifier.mlmodel DRAWING.png...`: an update of Apple's
/// UpdatableDrawingClassifier (an embedder feeding an updatable kNN) with 100 examples (the drawings in turn, each with
/// one of ten labels): the kNN part alone (`CoreMLUpdatableModel.appending`: 100 samples of 128 values into the index
/// and the updated file written), and the whole `MLUpdateTask` from its creation to its completion handler (the
/// model loaded, the 100 drawings embedded on ONNX Runtime, the index grown, the updated model loaded). Medians of RUNS
/// after one warm-up run (which converts the models into the cache).
func benchCoreMLUpdate(runs: Int, model path: String, drawings: [String]) throws {
    let url = URL(fileURLWithPath: path)
    let updatable = try CoreMLUpdatableModel(bytes: [UInt8](try Data(contentsOf: url)))
    guard case .nearestNeighbors(let knn) = updatable.part else { fail("\(path) is not an updatable kNN") }
    let count = 100
    var state: UInt64 = 1
    let samples = (0..<(count * knn.dimensions)).map { _ -> Float in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Float(state >> 40) / Float(1 << 24)
    }
    let labels = (0..<count).map { "label \($0 % 10)" }
    var append: [Double] = []
    for _ in 0...runs {
        let start = clock.now
        _ = try updatable.appending(samples: samples, stringLabels: labels, int64Labels: [])
        append.append(ms(clock.now - start))
    }
    let images = try drawings.map {
        try MLFeatureValue(
            imageAt: URL(fileURLWithPath: $0), pixelsWide: 28, pixelsHigh: 28,
            pixelFormatType: kCVPixelFormatType_OneComponent8, options: nil)
    }
    let data = try MLArrayBatchProvider(dictionary: [
        "drawing": (0..<count).map { images[$0 % images.count] }, "label": labels,
    ])
    var task: [Double] = []
    for _ in 0...runs {
        let done = DispatchSemaphore(value: 0)
        let start = clock.now
        let update = try MLUpdateTask(
            forModelAt: url, trainingData: data, configuration: nil, completionHandler: { _ in done.signal() })
        update.resume()
        done.wait()
        guard update.state == .completed else { fail("the update failed: \(String(describing: update.error))") }
        task.append(ms(clock.now - start))
    }
    emit([
        "model": url.lastPathComponent, "examples": count, "knn_append_ms": median(Array(append.dropFirst())),
        "update_task_ms": median(Array(task.dropFirst())),
    ])
}
