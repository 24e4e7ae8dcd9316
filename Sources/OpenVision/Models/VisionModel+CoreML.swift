import Foundation
internal import OpenVisionConverters

extension VisionModel {
    /// A Core ML model's first image input as OpenVision's preprocessing: its size and colour order, and
    /// `scale × pixel + bias` as `(pixel × scale − mean) / std` with `mean = −bias`, `std = 1`.
    static func preprocessing(coreML: CoreMLModelInfo, default fallback: ModelPreprocessing) -> ModelPreprocessing {
        guard let feature = coreML.inputs.first(where: { $0.type == "image" }),
            let image = coreML.imageInputs[feature.name]
        else {
            return fallback
        }
        var p = ModelPreprocessing(width: image.width, height: image.height)
        p.layout = .nchw
        p.colorOrder = image.colorOrder == "bgr" ? .bgr : .rgb
        p.scale = image.scale
        p.mean = image.bias.count == 3 ? image.bias.map { -$0 } : Array(repeating: -(image.bias.first ?? 0), count: 3)
        p.std = [1, 1, 1]
        // Vision crops classifiers' images to the centre; detectors (NMS pipelines) see the whole image.
        p.cropAndScale = coreML.nms != nil ? .scaleFill : .centerCrop
        p.padValue = 0
        return p
    }

    /// Compiles a Core ML model (`.mlmodel` or `.mlpackage`) into an `.mlmodelc` folder that loads without
    /// conversion, as `MLModel.compileModel(at:)` does; returns its URL. The folder is OpenVision's own layout
    /// (docs/coreml.md): `model.onnx` (the converted graph) and `coreml.json` (the model's description). It is
    /// written in `folder` (default: a new folder in the temporary directory), named after the model: built beside
    /// it under a temporary name and renamed into place, so it is complete or absent. It never writes over or into
    /// the model itself (`invalidArgument`: compiling Xcode's `X.mlmodelc` into its own folder would replace it), and
    /// an existing `NAME.mlmodelc` is an `ioError` unless `replacing` (also when another compilation wrote it
    /// meanwhile). Throws as `init(contentsOf:)` for models that do not convert, `ioError` when the folder cannot
    /// be written.
    public static func compileCoreMLModel(at url: URL, to folder: URL? = nil, replacing: Bool = false)
        throws(VisionError) -> URL
    {
        switch FileStatus.of(url.path, what: "Core ML model") {
        case .unreachable(let error): throw error
        case .other: throw VisionError(.ioError, "\(url.path) is not a regular file or folder")
        case .file, .directory: break
        }
        let parent =
            folder
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("openvision-compiled-\(UUID().uuidString)")
        let target = parent.appendingPathComponent(url.deletingPathExtension().lastPathComponent + ".mlmodelc")
        do {
            try ModelOutput.refuseOverwriting(input: url, with: target)
        } catch {
            throw VisionError(
                .invalidArgument,
                "\(target.path) would replace the model being compiled, "
                    + "\(url.lastPathComponent); compile it into another folder", cause: error)
        }
        do {
            try ModelOutput.refuseExisting(target, replacing: replacing)
        } catch {
            throw VisionError(.ioError, (error as? ConversionError)?.message ?? "\(error)", cause: error)
        }
        let conversion: CoreMLConverter.Conversion
        do {
            conversion = try CoreMLCustomLayer.$shapes.withValue(CustomLayerRegistry.shapes) {
                try CoreMLConverter.conversion(contentsOf: url)
            }
        } catch let error as ConversionError {
            throw VisionError(
                error.code == .io ? .ioError : error.code == .unsupported ? .unsupported : .invalidModel,
                "\(url.lastPathComponent): \(error.message)", cause: error)
        } catch let error as VisionError {
            throw VisionError(error.code, "\(url.lastPathComponent): \(error.message)", cause: error.cause)
        } catch {
            throw VisionError(.internalError, "compiling \(url.lastPathComponent): \(error)")
        }
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
            try CoreMLConverter.writeCompiledFolder(conversion, to: target, replacing: replacing)
        } catch let error as ConversionError {
            throw VisionError(.ioError, error.message, cause: error)
        } catch {
            throw VisionError(.ioError, "cannot write \(target.path): \(error.localizedDescription)")
        }
        return target
    }
}
