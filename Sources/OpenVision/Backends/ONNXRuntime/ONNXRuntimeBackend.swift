internal import CNative
import Foundation

/// Runs ONNX models with ONNX Runtime, loaded at run time from the library of the PyPI
/// `onnxruntime` wheel: `OPENVISION_ORT_LIBRARY`, else where scripts/setup installs it
/// (`/usr/local/lib/openvision/libonnxruntime.so`).
final class ONNXRuntimeBackend: InferenceBackend, @unchecked Sendable {
    // The session is immutable after creation; ORT allows concurrent Run calls on one session.
    let session: OpaquePointer
    let name: String
    let inputs: [TensorDescription]
    let outputs: [TensorDescription]
    /// Names of the initializers callers may override (graph inputs with defaults; not among `inputs`).
    let overridableInputs: Set<String>
    /// The graph's Core ML custom layers, called by the session's `CustomLayer` kernels (kept alive with it).
    let customLayers: CustomLayerSet?

    /// Where scripts/setup installs the library.
    static let installedLibrary = "/usr/local/lib/openvision/libonnxruntime.so"

    /// The library path in use: the environment variable, else the installed one.
    static var libraryPath: String {
        ProcessInfo.processInfo.environment["OPENVISION_ORT_LIBRARY"] ?? installedLibrary
    }

    /// True when the ONNX Runtime library can be loaded.
    static var isAvailable: Bool { (try? load()) != nil }

    /// Loads the library once; throws `unsupported` naming the path and the fix.
    static func load() throws(VisionError) {
        let path = libraryPath
        let status = ov_ort_load(path)
        if status != OV_OK {
            var error = NativeError.error(for: status)
            error.code = .unsupported
            if !FileManager.default.fileExists(atPath: path) {
                error.message =
                    "ONNX Runtime is not installed (no library at \(path)); run scripts/setup or set OPENVISION_ORT_LIBRARY"
            }
            throw error
        }
    }

    /// Opens a checked ONNX file (`ModelFileChecks.check`).
    init(_ file: ModelFileChecks.RuntimeFile, threads: Int, optimize: Bool) throws(VisionError) {
        guard file.isONNX else {
            throw VisionError(.unsupported, "ONNX Runtime reads only ONNX files, not \(file.model.lastPathComponent)")
        }
        let path = file.model.path
        try Self.load()
        var options = ov_ort_options(
            intra_op_threads: Int32(max(0, threads)), inter_op_threads: 1,
            graph_optimization_level: optimize ? 99 : 0)
        var handle: OpaquePointer?
        var layers: CustomLayerSet?
        if !file.customLayers.isEmpty { layers = try CustomLayerSet(file.customLayers) }
        customLayers = layers
        let status =
            if let layers {
                ov_ort_session_create_custom(
                    path, &options, CustomLayerSet.callback, Unmanaged.passUnretained(layers).toOpaque(), &handle)
            } else {
                ov_ort_session_create(path, &options, &handle)
            }
        guard status == OV_OK, let handle else {
            throw NativeError.error(for: status, context: "ONNX Runtime cannot load \(path)")
        }
        session = handle
        name = "onnxruntime " + String(cString: ov_ort_version())
        func describe(_ count: Int32, _ info: (Int32, UnsafeMutablePointer<ov_tensor_info>) -> ov_status)
            -> [TensorDescription]
        {
            (0..<count).map { i in
                var t = ov_tensor_info()
                guard info(i, &t) == OV_OK else { return TensorDescription(name: "?", shape: []) }
                let name = stringFromCCharArray(t.name)
                let dims = withUnsafeBytes(of: t.shape) { Array($0.bindMemory(to: Int64.self)) }
                let shape = (0..<Int(max(0, min(t.rank, 8)))).map { dims[$0] < 0 ? nil : Int(dims[$0]) }
                return TensorDescription(name: name, shape: shape, elementType: Self.typeName(t.element_type))
            }
        }
        inputs = describe(ov_ort_input_count(handle)) { ov_ort_input_info(handle, $0, $1) }
        outputs = describe(ov_ort_output_count(handle)) { ov_ort_output_info(handle, $0, $1) }
        overridableInputs = Set(
            describe(ov_ort_overridable_count(handle)) { ov_ort_overridable_info(handle, $0, $1) }.map(\.name))
    }

    deinit { ov_ort_session_free(session) }

    static func typeName(_ type: Int32) -> String {
        switch type {
        case 1: "float32"
        case 2: "uint8"
        case 3: "int8"
        case 6: "int32"
        case 7: "int64"
        case 8: "string"
        case 9: "bool"
        case 10: "float16"
        case 11: "float64"
        case 12: "uint32"
        case 13: "uint64"
        case 16: "bfloat16"
        case 0: "non-tensor"
        default: "type\(type)"
        }
    }

    func metadata(_ key: String) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard ov_ort_metadata(session, key, &value) == OV_OK, let value else { return nil }
        defer { ov_free(value) }
        return String(cString: value)
    }

    func run(_ inputs: [Tensor]) throws(VisionError) -> [Tensor] {
        try run(inputs, overriding: [:])
    }

    /// Runs the model, replacing the overridable initializers named in `overrides` (one value each); a name the
    /// model does not have is `invalidArgument`.
    func run(_ inputs: [Tensor], overriding overrides: [String: Float]) throws(VisionError) -> [Tensor] {
        if let unknown = overrides.keys.sorted().first(where: { !overridableInputs.contains($0) }) {
            throw VisionError(.invalidArgument, "the model has no overridable input '\(unknown)'")
        }
        let overrideNames = Array(overrides.keys)
        let overrideValues = overrideNames.map { overrides[$0]! }
        var out: OpaquePointer?
        let status = NativeTensors.withInputs(inputs) { data, shapes, ranks in
            withCStrings(overrideNames) { names in
                overrideValues.withUnsafeBufferPointer { values in
                    ov_ort_run_overriding(
                        session, Int32(inputs.count), data, shapes, ranks, Int32(names.count), names.baseAddress,
                        values.baseAddress, &out)
                }
            }
        }
        if status != OV_OK, let failure = customLayers?.takeFailure() { throw failure }
        try NativeError.check(status, "ONNX Runtime run")
        return NativeTensors.take(out)
    }
}

/// Calls `body` with C strings of `strings`, valid during the call.
func withCStrings<R>(_ strings: [String], _ body: (UnsafeBufferPointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    return copies.map { UnsafePointer($0) }.withUnsafeBufferPointer(body)
}

/// Calls `body` with stable base pointers of each array (nested `withUnsafeBufferPointer`).
func withPointers<R>(_ arrays: [[Float]], _ body: ([UnsafePointer<Float>?]) -> R) -> R {
    func recurse(_ index: Int, _ collected: [UnsafePointer<Float>?]) -> R {
        guard index < arrays.count else { return body(collected) }
        return arrays[index].withUnsafeBufferPointer { recurse(index + 1, collected + [$0.baseAddress]) }
    }
    return recurse(0, [])
}
