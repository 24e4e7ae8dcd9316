internal import CNative
import Foundation
internal import OpenVisionConverters
import Synchronization

/// `BackendChoice.automatic` for an ONNX graph (a `.onnx` file, or a TFLite or Core ML model converted to one): ONNX
/// Runtime or OpenVINO, whichever ran this graph faster on this machine, decided once by a short timed warm-up and
/// kept in the user's cache (issue 35).
///
/// The first load runs both runtimes on the same deterministic input (values in [-1, 1); a dynamic dimension is 1 when
/// it is the first, else 320): twice each untimed (the first compared), then alternating rounds (3 to 9, about 0.4 s), and takes the median of
/// each. OpenVINO is chosen only when every output is within `tolerance` of ONNX Runtime's (max |Δ| ≤ 1e-4 × the
/// output's max |x|) and its median is below `margin` × ONNX Runtime's; otherwise ONNX Runtime stays. A graph OpenVINO
/// refuses (EfficientNet-Lite0's zero-beta HardSigmoid) stays on ONNX Runtime too, with one warning.
///
/// The choice is kept beside the converted models (`ConvertedModelCache`'s folders and rules: a private 0700 folder
/// `openvision/runtime` in the user's cache, atomic writes, files of this user only), in a record (`Entry`) keyed by
/// the graph's SHA-256, ONNX Runtime's version, the installed OpenVINO library (its VERSION file, path, size and
/// modification time: read without loading it), the thread setting and the machine (CPU model and core count). The
/// record is checked before use (its own SHA-256, then every key field); one that does not check out is measured again
/// and replaced. A later load that finds a choice of ONNX Runtime never loads OpenVINO.
///
/// Without OpenVINO (no library, or one that does not load) ONNX Runtime serves, with one warning per process on
/// stderr. `OPENVISION_BACKEND` (`onnxruntime`, `openvino`, `opencv`, `auto`) replaces `.automatic` for every model of
/// the process (the built-in models included); a configuration naming a backend skips the choice entirely.
enum RuntimeChoice {
    /// Outputs agree when, for every output, max |Δ| ≤ `tolerance` × max |x| of ONNX Runtime's output.
    static let tolerance: Float = 1e-4
    /// OpenVINO is chosen when its median time is below `margin` × ONNX Runtime's (ties and noise keep ONNX Runtime).
    static let margin = 0.95
    /// The size of a dynamic dimension other than the first (batch, 1) in the warm-up input.
    static let dynamicSide = 320

    /// Which runtime serves a graph, and why.
    struct Decision: Sendable, Equatable {
        /// The runtime chosen.
        enum Runtime: String, Sendable {
            /// ONNX Runtime.
            case onnxRuntime = "onnxruntime"
            /// OpenVINO.
            case openVINO = "openvino"
        }
        /// The runtime chosen.
        var runtime: Runtime
        /// ONNX Runtime's median milliseconds per run in the warm-up (nil when not timed).
        var onnxRuntimeMilliseconds: Double?
        /// OpenVINO's median milliseconds per run in the warm-up (nil when not timed).
        var openVINOMilliseconds: Double?
        /// One line: "faster", "slower", "outputs differ (…)", "refused by OpenVINO: …", "warm-up failed: …".
        var reason: String
        /// True when read from the cache (no warm-up ran in this load).
        var cached = false
    }

    /// The first input's shape for the warm-up of the models loaded in this task, when its dynamic dimensions need
    /// other sizes than `dynamicSide` (PP-OCR's recogniser takes 48 rows).
    @TaskLocal static var warmUpShape: [Int]?

    /// Tests: the cache home (instead of `$XDG_CACHE_HOME` / `~/.cache`) and the temporary folder.
    @TaskLocal static var cacheHome: URL?
    @TaskLocal static var temporaryFolder: URL?

    /// Whether the warning of a fallback to ONNX Runtime was written in this process.
    private static let warned = Atomic<Bool>(false)

    /// `OPENVISION_BACKEND`'s choice, nil when unset or empty; `invalidArgument` for a value that names no backend.
    static func environmentChoice(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(VisionError) -> BackendChoice?
    {
        guard let text = environment["OPENVISION_BACKEND"], !text.isEmpty else { return nil }
        guard let choice = BackendChoice(spelling: text) else {
            throw VisionError(
                .invalidArgument,
                "OPENVISION_BACKEND '\(text)' names no backend; use auto, onnxruntime, openvino or opencv")
        }
        return choice
    }

    /// Writes `message` to stderr as the process's one runtime fallback warning (later ones are dropped).
    static func warnOnce(_ message: String) {
        guard warned.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
        FileHandle.standardError.write(Data("openvision: warning: \(message)\n".utf8))
    }

    /// The backend `.automatic` gives the checked ONNX `file` (no custom layers; ONNX Runtime installed), and the
    /// decision. Throws what ONNX Runtime throws for the file (OpenVINO's failures fall back to it).
    static func open(_ file: ModelFileChecks.RuntimeFile, threads: Int, optimize: Bool) throws(VisionError)
        -> (any InferenceBackend, Decision)
    {
        func onnxRuntime() throws(VisionError) -> ONNXRuntimeBackend {
            try ONNXRuntimeBackend(file, threads: threads, optimize: optimize)
        }
        let library = OpenVINOBackend.libraryPath
        guard let openVINO = libraryIdentity(library) else {
            warnOnce("OpenVINO is not installed (no library at \(library)); models run on ONNX Runtime")
            return (try onnxRuntime(), Decision(runtime: .onnxRuntime, reason: "OpenVINO is not installed"))
        }
        try ONNXRuntimeBackend.load()
        let key = Key(
            onnxRuntime: String(cString: ov_ort_version()), openVINO: openVINO, threads: threads, machine: machine)
        let store = Store(home: cacheHome, temporary: temporaryFolder)
        if let entry = store.lookup(file.model, key: key) {
            var decision = entry.decision
            decision.cached = true
            guard decision.runtime == .openVINO else { return (try onnxRuntime(), decision) }
            do throws(VisionError) {
                return (try OpenVINOBackend(file, threads: threads), decision)
            } catch {
                warnOnce("OpenVINO failed on \(file.model.lastPathComponent) (\(error.message)); using ONNX Runtime")
                return (try onnxRuntime(), Decision(runtime: .onnxRuntime, reason: "OpenVINO failed: \(error.message)"))
            }
        }
        let reference = try onnxRuntime()
        do throws(VisionError) {
            try OpenVINOBackend.load()
        } catch {
            // Not cached: the library may be repaired; each process says it once.
            warnOnce("OpenVINO does not load (\(error.message)); models run on ONNX Runtime")
            return (reference, Decision(runtime: .onnxRuntime, reason: "OpenVINO does not load"))
        }
        let decision: Decision
        var candidate: OpenVINOBackend?
        do throws(VisionError) {
            candidate = try OpenVINOBackend(file, threads: threads)
        } catch {
            warnOnce("OpenVINO refused \(file.model.lastPathComponent) (\(error.message)); it runs on ONNX Runtime")
        }
        if let candidate {
            decision = measure(reference: reference, candidate: candidate)
        } else {
            decision = Decision(runtime: .onnxRuntime, reason: "refused by OpenVINO")
        }
        store.save(decision, for: file.model, key: key)
        return decision.runtime == .openVINO ? (candidate!, decision) : (reference, decision)
    }

    /// Runs both backends on the same deterministic input: once each, compared; then alternating timed rounds.
    /// OpenVINO (`candidate`) wins when the outputs agree and its median is below `margin` × ONNX Runtime's.
    static func measure(reference: any InferenceBackend, candidate: any InferenceBackend) -> Decision {
        let inputs: [Tensor]
        switch warmUpInputs(reference.inputs, firstShape: warmUpShape) {
        case .success(let tensors): inputs = tensors
        case .failure(let error): return Decision(runtime: .onnxRuntime, reason: error.message)
        }
        let expected: [Tensor]
        let got: [Tensor]
        do throws(VisionError) {
            expected = try reference.run(inputs)
            got = try candidate.run(inputs)
            // A second untimed run each: OpenVINO's first runs still allocate.
            _ = try reference.run(inputs)
            _ = try candidate.run(inputs)
        } catch {
            return Decision(runtime: .onnxRuntime, reason: "warm-up failed: \(error.message)")
        }
        if let difference = disagreement(expected, got) {
            return Decision(runtime: .onnxRuntime, reason: "outputs differ (\(difference))")
        }
        var times: ([Double], [Double]) = ([], [])
        let start = DispatchTime.now().uptimeNanoseconds
        for round in 0..<9 {
            if round >= 3, Double(DispatchTime.now().uptimeNanoseconds - start) > 0.4e9 { break }
            for (index, backend) in [reference, candidate].enumerated() {
                let t0 = DispatchTime.now().uptimeNanoseconds
                guard (try? backend.run(inputs)) != nil else {
                    return Decision(runtime: .onnxRuntime, reason: "warm-up failed: a timed run threw")
                }
                let ms = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
                if index == 0 { times.0.append(ms) } else { times.1.append(ms) }
            }
        }
        let (ort, vino) = (median(times.0), median(times.1))
        let faster = vino < margin * ort
        return Decision(
            runtime: faster ? .openVINO : .onnxRuntime, onnxRuntimeMilliseconds: ort, openVINOMilliseconds: vino,
            reason: faster ? "faster" : "not faster")
    }

    /// The warm-up input: one float tensor per input, dynamic dimensions fixed (`dynamicSide`), values in [-1, 1).
    /// `firstShape` replaces the first input's when it has its rank and keeps its static dimensions.
    static func warmUpInputs(_ inputs: [TensorDescription], firstShape: [Int]? = nil) -> Result<[Tensor], VisionError> {
        var tensors: [Tensor] = []
        for (index, input) in inputs.enumerated() {
            guard input.elementType == "float32" else {
                return .failure(VisionError(.unsupported, "input '\(input.name)' is \(input.elementType), not float32"))
            }
            var shape = input.shape.enumerated().map { $0.element ?? ($0.offset == 0 ? 1 : dynamicSide) }
            if index == 0, let firstShape, firstShape.count == shape.count,
                zip(input.shape, firstShape).allSatisfy({ $0 == nil || $0 == $1 })
            {
                shape = firstShape
            }
            let count = shape.reduce(1, *)
            guard shape.allSatisfy({ $0 > 0 }), count <= 64 << 20 else {
                return .failure(VisionError(.unsupported, "input '\(input.name)' \(shape) is too large to time"))
            }
            let scalars = (0..<count).map { (i: Int) -> Float in Float((i &* 2_654_435_761) % 2000) / 1000 - 1 }
            tensors.append(Tensor(name: input.name, shape: shape, scalars: scalars))
        }
        return .success(tensors)
    }

    /// Nil when `got` matches `expected` (names, shapes, every value within `tolerance` relative to the output's
    /// largest |x|, finite where the reference is); else what differs, in a few words.
    static func disagreement(_ expected: [Tensor], _ got: [Tensor]) -> String? {
        guard expected.count == got.count else { return "\(got.count) outputs, not \(expected.count)" }
        for (a, b) in zip(expected, got) {
            guard a.shape == b.shape, a.scalars.count == b.scalars.count else {
                return "'\(a.name)' is \(b.shape), not \(a.shape)"
            }
            var scale: Float = 0
            var difference: Float = 0
            for (x, y) in zip(a.scalars, b.scalars) {
                if x.isNaN != y.isNaN || x.isInfinite != y.isInfinite || (x.isInfinite && x != y) {
                    return "'\(a.name)': \(y) where ONNX Runtime gives \(x)"
                }
                guard x.isFinite else { continue }
                scale = max(scale, abs(x))
                difference = max(difference, abs(x - y))
            }
            if difference > tolerance * scale {
                return "'\(a.name)': max |diff| \(difference), max |x| \(scale)"
            }
        }
        return nil
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .infinity }
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// The installed OpenVINO library as a key, read without loading it: its VERSION file (beside it, as scripts/setup
    /// writes), the resolved path, size and modification time; nil when no file is there.
    static func libraryIdentity(_ path: String) -> String? {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: resolved.path),
            (attributes[.type] as? FileAttributeType) == .typeRegular
        else { return nil }
        let size = (attributes[.size] as? Int) ?? 0
        let modified = Int((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)
        let version =
            (try? String(
                contentsOf: resolved.deletingLastPathComponent().appendingPathComponent("VERSION"), encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines).prefix(32) ?? "unknown"
        return "\(version) \(resolved.path) \(size) \(modified)"
    }

    /// "Intel(R) Xeon(R) … x 2": the CPU model (the first `model name` of /proc/cpuinfo) and the cores this process may
    /// use.
    static let machine: String = {
        let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model =
            info.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
        return "\(model) x \(ProcessInfo.processInfo.activeProcessorCount)"
    }()

    /// What a choice depends on besides the graph.
    struct Key: Sendable, Equatable {
        var onnxRuntime: String
        var openVINO: String
        var threads: Int
        var machine: String

        /// The key of these values, each cut to one line of printable ASCII (at most 300 characters), as recorded.
        init(onnxRuntime: String, openVINO: String, threads: Int, machine: String) {
            func field(_ text: String) -> String {
                String(text.unicodeScalars.prefix(300).map { (0x20..<0x7F).contains($0.value) ? Character($0) : "?" })
            }
            self.onnxRuntime = field(onnxRuntime)
            self.openVINO = field(openVINO)
            self.threads = max(0, threads)
            self.machine = field(machine)
        }

        /// 16 hex digits naming the key in file names.
        var tag: String {
            String(SHA256.hex(Array("\(onnxRuntime)\u{0}\(openVINO)\u{0}\(threads)\u{0}\(machine)".utf8)).prefix(16))
        }
    }
}
