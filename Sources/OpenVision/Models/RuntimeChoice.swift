internal import CNative
import Foundation
internal import OpenVisionConverters
import Synchronization

/// `BackendChoice.automatic` for an ONNX graph (a `.onnx` file, or a TFLite or Core ML model converted to one): ONNX
/// Runtime or OpenVINO, whichever ran this graph faster on this machine, decided once by a short timed warm-up and
/// kept in the user's cache (issue 35).
///
/// A graph whose inputs a caller may set per run (graph inputs with defaults: a Core ML pipeline's NMS thresholds)
/// stays on ONNX Runtime without a warm-up: OpenVINO's ONNX frontend folds those inputs into constants.
///
/// Otherwise the first load runs both runtimes on deterministic inputs (values in [-1, 1)) at every warm-up size
/// (`warmUpSizes`: what the caller feeds, from `warmUpShapes`; else, for a graph with dynamic dimensions, three sizes)
/// and compares every output; then, at the first size, twice each untimed, and alternating timed rounds (3 to 15,
/// about 0.5 s). OpenVINO is chosen only when every output at every size is within `tolerance` of ONNX Runtime's (max
/// |Δ| ≤ 1e-4 × the output's max |x|) and the median of its per-round time ratio to ONNX Runtime is below `margin`
/// (a ratio within each round holds better than two medians on a loaded machine); otherwise ONNX Runtime stays. A
/// graph OpenVINO refuses (EfficientNet-Lite0's zero-beta HardSigmoid) stays on ONNX Runtime too, with one warning.
///
/// The choice is kept beside the converted models (`ConvertedModelCache`'s folders and rules: a private 0700 folder
/// `openvision/runtime` in the user's cache, atomic writes, files of this user only), in a record (`Entry`) keyed by
/// the graph's SHA-256, ONNX Runtime's version, the installed OpenVINO library (its VERSION file, path, size and
/// modification time: read without loading it), the thread setting, the machine (CPU model and core count) and the
/// method (`method`, ONNX Runtime's graph optimisation and the warm-up sizes). The record is checked before use (its
/// version, its own SHA-256, then every key field); one that does not check out is measured again and replaced. A
/// later load that finds a choice of ONNX Runtime never loads OpenVINO.
///
/// Without OpenVINO (no library, or one that does not load) ONNX Runtime serves, with one warning per process on
/// stderr. `OPENVISION_BACKEND` (`onnxruntime`, `openvino`, `opencv`, `auto`) replaces `.automatic` for every model of
/// the process (the built-in models included); a configuration naming a backend skips the choice entirely.
enum RuntimeChoice {
    /// Outputs agree when, for every output, max |Δ| ≤ `tolerance` × max |x| of ONNX Runtime's output.
    static let tolerance: Float = 1e-4
    /// OpenVINO is chosen when its median per-round time ratio to ONNX Runtime is below `margin` (ties and noise keep
    /// ONNX Runtime).
    static let margin = 0.95
    /// The version of how a choice is made, part of every record's key: records of another version (version 1 compared
    /// one size only and let graphs with per-run inputs onto OpenVINO) are measured again.
    static let method = 2
    /// Without `warmUpShapes`, a graph with dynamic dimensions is compared at these sizes (the first dimension, else
    /// every dynamic dimension): the first is timed.
    static let dynamicSizes: [(first: Int, side: Int)] = [(1, 320), (2, 192), (1, 128)]
    /// A graph whose outputs at a warm-up size hold more values than this (64 MB of float32) stays on ONNX Runtime
    /// untimed: the warm-up's copies and comparisons would take longer than the choice can win back.
    static let maximumOutputValues = 16 << 20

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
        /// One line: "faster", "not faster", "outputs differ at …", "refused by OpenVINO", "inputs set per run …",
        /// "warm-up failed: …".
        var reason: String
        /// True when read from the cache (no warm-up ran in this load).
        var cached = false
    }

    /// The first input's shapes for the warm-up of the models loaded in this task, as their caller feeds them (PP-OCR's
    /// recogniser: 48 rows, batches of 1 to 6, widths from 320 up): outputs are compared at each, and timed at the
    /// first. A shape whose rank or static dimensions do not fit the graph is left out.
    @TaskLocal static var warmUpShapes: [[Int]]?

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

    /// The key field naming how the choice is made: `method`, ONNX Runtime's graph optimisation, and the warm-up
    /// shapes when the caller gave them ("2 optimized", "2 plain 1x3x48x320 6x3x48x320").
    static func methodField(optimize: Bool, shapes: [[Int]]?) -> String {
        let sizes = (shapes ?? []).map { $0.map(String.init).joined(separator: "x") }
        return (["\(method)", optimize ? "optimized" : "plain"] + sizes).joined(separator: " ")
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
        let shapes = warmUpShapes
        let key = Key(
            onnxRuntime: String(cString: ov_ort_version()), openVINO: openVINO, threads: threads, machine: machine,
            method: methodField(optimize: optimize, shapes: shapes))
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
        if !reference.overridableInputs.isEmpty {
            // OpenVINO would run them at the model's defaults whatever the caller sets (its ONNX frontend makes them
            // constants), so it is not asked.
            let names = reference.overridableInputs.sorted().joined(separator: ", ")
            let decision = Decision(
                runtime: .onnxRuntime, reason: "inputs set per run (\(names)), which OpenVINO makes constants")
            store.save(decision, for: file.model, key: key)
            return (reference, decision)
        }
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
            decision = measure(reference: reference, candidate: candidate, shapes: shapes)
        } else {
            decision = Decision(runtime: .onnxRuntime, reason: "refused by OpenVINO")
        }
        store.save(decision, for: file.model, key: key)
        return decision.runtime == .openVINO ? (candidate!, decision) : (reference, decision)
    }

    /// Runs both backends on the same deterministic inputs at every warm-up size (`warmUpSizes`), compared; then, at
    /// the first, alternating timed rounds. OpenVINO (`candidate`) wins when the outputs agree at every size and the
    /// median of its per-round time ratio is below `margin`. A size ONNX Runtime refuses (other than the first) is
    /// left out: the graph does not take it.
    static func measure(reference: any InferenceBackend, candidate: any InferenceBackend, shapes: [[Int]]? = nil)
        -> Decision
    {
        let sizes: [[Tensor]]
        switch warmUpSizes(reference.inputs, firstShapes: shapes) {
        case .success(let tensors): sizes = tensors
        case .failure(let error): return Decision(runtime: .onnxRuntime, reason: error.message)
        }
        for (index, inputs) in sizes.enumerated() {
            let size = inputs.map { $0.shape.map(String.init).joined(separator: "x") }.joined(separator: ", ")
            let expected: [Tensor]
            do throws(VisionError) {
                expected = try reference.run(inputs)
            } catch {
                if index > 0 { continue }
                return Decision(runtime: .onnxRuntime, reason: "warm-up failed: \(error.message)")
            }
            // A graph whose answer is this large (a 336 MB constant) would spend seconds copying it in every run.
            let values = expected.reduce(0) { $0 + $1.scalars.count }
            guard values <= maximumOutputValues else {
                return Decision(
                    runtime: .onnxRuntime, reason: "outputs too large to time (\(values) values at \(size))")
            }
            let got: [Tensor]
            do throws(VisionError) {
                got = try candidate.run(inputs)
            } catch {
                return Decision(runtime: .onnxRuntime, reason: "warm-up failed at \(size): \(error.message)")
            }
            if let difference = disagreement(expected, got) {
                return Decision(runtime: .onnxRuntime, reason: "outputs differ at \(size) (\(difference))")
            }
        }
        let inputs = sizes[0]
        let backends = [reference, candidate]
        // A second untimed run each: OpenVINO's first runs still allocate.
        for backend in backends where (try? backend.run(inputs)) == nil {
            return Decision(runtime: .onnxRuntime, reason: "warm-up failed: a run threw")
        }
        var times: ([Double], [Double]) = ([], [])
        var ratios: [Double] = []
        let start = DispatchTime.now().uptimeNanoseconds
        for round in 0..<15 {
            if round >= 3, Double(DispatchTime.now().uptimeNanoseconds - start) > 0.5e9 { break }
            var pair = [0.0, 0.0]
            // Alternating which runs first, so neither always follows the other's cache traffic.
            for index in round % 2 == 0 ? [0, 1] : [1, 0] {
                let t0 = DispatchTime.now().uptimeNanoseconds
                guard (try? backends[index].run(inputs)) != nil else {
                    return Decision(runtime: .onnxRuntime, reason: "warm-up failed: a timed run threw")
                }
                pair[index] = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
            }
            times.0.append(pair[0])
            times.1.append(pair[1])
            ratios.append(pair[1] / max(pair[0], 1e-6))
        }
        let faster = median(ratios) < margin
        return Decision(
            runtime: faster ? .openVINO : .onnxRuntime, onnxRuntimeMilliseconds: median(times.0),
            openVINOMilliseconds: median(times.1), reason: faster ? "faster" : "not faster")
    }

    /// The warm-up inputs, one set per size: one float tensor per input, values in [-1, 1). With `firstShapes`, a set
    /// for each shape that fits the first input (its rank, its static dimensions), the other inputs' dynamic
    /// dimensions as in the first of `dynamicSizes`; without, one set when no input has a dynamic dimension, else one
    /// per `dynamicSizes` entry.
    static func warmUpSizes(_ inputs: [TensorDescription], firstShapes: [[Int]]? = nil) -> Result<
        [[Tensor]], VisionError
    > {
        for input in inputs where input.elementType != "float32" {
            return .failure(VisionError(.unsupported, "input '\(input.name)' is \(input.elementType), not float32"))
        }
        func fixed(_ input: TensorDescription, _ size: (first: Int, side: Int)) -> [Int] {
            input.shape.enumerated().map { $0.element ?? ($0.offset == 0 ? size.first : size.side) }
        }
        var shapeSets: [[[Int]]] = []
        if let firstShapes, let first = inputs.first {
            for shape in firstShapes
            where shape.count == first.shape.count && zip(first.shape, shape).allSatisfy({ $0 == nil || $0 == $1 }) {
                shapeSets.append([shape] + inputs.dropFirst().map { fixed($0, dynamicSizes[0]) })
            }
        }
        if shapeSets.isEmpty {
            let dynamic = inputs.contains { $0.shape.contains(nil) }
            for size in dynamic ? dynamicSizes : [dynamicSizes[0]] { shapeSets.append(inputs.map { fixed($0, size) }) }
        }
        var sets: [[Tensor]] = []
        for shapes in shapeSets {
            var tensors: [Tensor] = []
            for (input, shape) in zip(inputs, shapes) {
                let count = shape.reduce(1, *)
                guard shape.allSatisfy({ $0 > 0 }), count <= 64 << 20 else {
                    return .failure(VisionError(.unsupported, "input '\(input.name)' \(shape) is too large to time"))
                }
                let scalars = (0..<count).map { (i: Int) -> Float in Float((i &* 2_654_435_761) % 2000) / 1000 - 1 }
                tensors.append(Tensor(name: input.name, shape: shape, scalars: scalars))
            }
            sets.append(tensors)
        }
        return .success(sets)
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
        /// How the choice was made (`methodField`).
        var method: String

        /// The key of these values, each cut to one line of printable ASCII (at most 300 characters), as recorded.
        init(onnxRuntime: String, openVINO: String, threads: Int, machine: String, method: String) {
            func field(_ text: String) -> String {
                String(text.unicodeScalars.prefix(300).map { (0x20..<0x7F).contains($0.value) ? Character($0) : "?" })
            }
            self.onnxRuntime = field(onnxRuntime)
            self.openVINO = field(openVINO)
            self.threads = max(0, threads)
            self.machine = field(machine)
            self.method = field(method)
        }

        /// 16 hex digits naming the key in file names.
        var tag: String {
            String(
                SHA256.hex(Array("\(onnxRuntime)\u{0}\(openVINO)\u{0}\(threads)\u{0}\(machine)\u{0}\(method)".utf8))
                    .prefix(16))
        }
    }
}
