// libFuzzer target: the Core ML class generator (Sources/OpenVisionCoreMLClasses) over the model's file name and its
// features' names, descriptions, types and NMS defaults. Built by scripts/fuzz with the converter library and the
// generator's sources. Input: fields split at 0xFF; the first is the file name, each other one feature: a control
// byte (input or output, type, optional) then its name, 0xFE, its description (UTF-8, invalid bytes replaced).
// Oracle in process: the source is written, or refused with one of the documented refusals (a feature given twice,
// a name over 1 KiB, a file name that makes no class, a type without a Swift form) — never the generator's own
// structure check (a model string that changed the code's structure), never a line break other than LF, never a
// trap. Oracle outside: with OV_FUZZ_DUMP=<folder>, each written source goes there (its class renamed apart), and
// scripts/fuzz typechecks them against the CoreML module: the compiler must accept every one.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClassGenerator(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    let fields = bytes.split(separator: 0xFF, omittingEmptySubsequences: false)
    var className = String(decoding: fields[0], as: UTF8.self)
    let dump = ProcessInfo.processInfo.environment["OV_FUZZ_DUMP"]
    if dump != nil {
        // Classes of one typecheck must differ: a prefix from the input's hash, the fuzzed name after it.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        className = "F\(String(hash, radix: 16))_" + className
    }
    let types: [(String, String?)] = [
        ("image", "RGB"), ("image", "GRAYSCALE"), ("multiArray", "FLOAT32"),
        ("multiArray", "DOUBLE"), ("multiArray", "INT32"), ("multiArray", "FLOAT16"),
        ("multiArray", "INT8"), ("double", nil), ("int64", nil), ("string", nil),
        ("dictionary", "string"), ("dictionary", "int64"), ("sequence", nil),
    ]
    var info = CoreMLModelInfo(
        converterRevision: CoreMLConverter.revision, specificationVersion: 4, modelType: "neuralNetwork",
        inputs: [], outputs: [], predictedFeatureName: "", predictedProbabilitiesName: "",
        metadata: CoreMLModelInfo.Metadata(), classLabels: [])
    for field in fields.dropFirst().prefix(24) {
        guard let control = field.first else { continue }
        let parts = field.dropFirst().split(separator: 0xFE, maxSplits: 1, omittingEmptySubsequences: false)
        let (type, detail) = types[Int(control >> 2) % types.count]
        var f = CoreMLModelInfo.Feature(name: String(decoding: parts[0], as: UTF8.self), type: type)
        if parts.count > 1 { f.shortDescription = String(decoding: parts[1], as: UTF8.self) }
        f.optional = control & 2 != 0
        switch type {
        case "image": (f.width, f.height, f.colorSpace) = (Int(control), 8, detail)
        case "multiArray": (f.shape, f.dataType) = ([1, Int(control)], detail)
        case "dictionary": f.keyType = detail
        default: break
        }
        if control & 1 == 0 { info.inputs.append(f) } else { info.outputs.append(f) }
    }
    // A detector pipeline's thresholds: the first optional double and int64 inputs, with defaults from the name's bytes.
    let optional = info.inputs.filter { $0.optional && ($0.type == "double" || $0.type == "int64") }
    if let first = optional.first {
        let seed = fields[0].reduce(UInt64(0)) { $0 &* 31 &+ UInt64($1) }
        info.nms = CoreMLModelInfo.NMS(
            iouThreshold: Double(bitPattern: seed), confidenceThreshold: 0.25, perClass: false,
            iouThresholdInput: first.name, confidenceThresholdInput: optional.last!.name,
            confidenceOutput: "confidence", coordinatesOutput: "coordinates")
    }
    do {
        let source = try CoreMLClassGenerator.source(
            className: className, info: info, modelFileName: className + ".mlmodel")
        precondition(
            !source.unicodeScalars.contains {
                $0 == "\r" || $0 == "\u{0B}" || $0 == "\u{0C}" || $0 == "\u{85}"
                    || $0 == "\u{2028}" || $0 == "\u{2029}" || $0 == "\u{0}"
            },
            "a line break or NUL from the model in the generated code")
        if let dump {
            let name = String(className.prefix(while: { $0 != "_" }))
            try? source.write(toFile: "\(dump)/\(name).swift", atomically: true, encoding: .utf8)
        }
    } catch let error as ConversionError {
        let m = error.message
        precondition(
            error.code == .unsupported
                && (m.hasSuffix(" twice") || m.contains(" bytes")
                    || m.hasSuffix("rename the model file")
                    || m.contains("generated classes take")),
            "unexpected refusal: \(m)")
    } catch {
        preconditionFailure("unexpected error: \(error)")
    }
    return 0
}
