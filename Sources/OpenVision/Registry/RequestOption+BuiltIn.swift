import Foundation

// Every option of the request kinds, each declared once: name, help, type, bounds, and what it sets. A kind reads the
// options that set its request type's properties (`.on(\Request.property)`); adding an option to a kind is adding its
// setter here.

extension RequestOption {
    // MARK: Built-in requests

    /// `maxRectangles`: `DetectRectanglesRequest.maximumObservations`.
    public static let maxRectangles = integer(
        "maxRectangles",
        help: "Most rectangles 'rectangles' reports (0 = no limit; default 16 for still images, 1 in video "
            + "and live as Vision's).",
        range: 0...1000, sets: [.on(\DetectRectanglesRequest.maximumObservations)])

    /// `languages`: `RecognizeTextRequest.recognitionLanguages`; comma- or plus-separated codes.
    public static let languages = list(
        "languages", help: "Text recognition languages, comma-separated (e.g. en-US,de or eng+deu).",
        valueDescription: "1 to 16 language codes (letters, digits, - or _), separated by , or +", count: 1...16,
        separators: [",", "+"],
        item: { code in
            code.count <= 32
                && code.unicodeScalars.allSatisfy {
                    CharacterSet.alphanumerics.contains($0) && $0.isASCII || $0 == "-" || $0 == "_"
                } ? code : nil
        }, sets: [.on(\RecognizeTextRequest.recognitionLanguages)])

    /// `recognitionLevel`: `RecognizeTextRequest.recognitionLevel`.
    public static let recognitionLevel = choice(
        "recognitionLevel",
        help: "Text recognition level: fast (Tesseract, the default) or accurate (PP-OCRv4 on ONNX "
            + "Runtime: photos, rotated text; en-US and zh-Hans).",
        values: RecognizeTextRequest.RecognitionLevel.allCases.map { ($0.rawValue, $0) },
        sets: [.on(\RecognizeTextRequest.recognitionLevel)])

    /// `textOrientation`: `RecognizeTextRequest.automaticallyDetectsOrientation` (`auto` true, `up` false).
    public static let textOrientation = choice(
        "textOrientation",
        help: "Text pages: auto (the default) finds a page turned 90, 180 or 270 degrees and reads it "
            + "upright; up reads the page as given.",
        values: [("auto", true), ("up", false)], sets: [.on(\RecognizeTextRequest.automaticallyDetectsOrientation)])

    /// `faceRevision`: the face detector of `faces` (`DetectFaceRectanglesRequest.revision`).
    public static let faceRevision = choice(
        "faceRevision",
        help: "Face detector for 'faces': hog (dlib), blazeface-short or blazeface-full (MediaPipe "
            + "BlazeFace; default \(DetectFaceRectanglesRequest.Revision.defaultRevision)).",
        values: DetectFaceRectanglesRequest.Revision.allCases.map { ($0.description, $0) },
        parse: { DetectFaceRectanglesRequest.Revision(name: $0) }, sets: [.on(\DetectFaceRectanglesRequest.revision)])

    /// `faceLandmarksRevision`: the points of `landmarks`: `mesh76` / `mesh65` (the face mesh, revision 3, in Vision's
    /// constellations) or `dlib68` (dlib, revision 2).
    public static let faceLandmarksRevision = choice(
        "faceLandmarksRevision",
        help: "Face landmarks for 'landmarks': mesh76 (the default, as Vision's revision 3: "
            + "MediaPipe's face mesh and iris in Vision's 76-point constellation), mesh65 (its 65-point constellation) or "
            + "dlib68 (dlib's 68 points on HOG faces).",
        values: [("mesh76", FaceLandmarks2D.Constellation.points76), ("mesh65", .points65), ("dlib68", .points68)],
        sets: [
            .on(DetectFaceLandmarksRequest.self) { request, constellation in
                if constellation == .points68 {
                    request.revision = .dlib
                } else {
                    request.revision = .faceMesh
                    request.constellation = constellation
                }
            }
        ])

    /// `maxHands`: `DetectHumanHandPoseRequest.maximumHandCount`.
    public static let maxHands = integer(
        "maxHands", help: "Most hands 'handpose' reports (default 2).", range: 0...100,
        sets: [.on(\DetectHumanHandPoseRequest.maximumHandCount)])

    /// `bodyHands`: `DetectHumanBodyPoseRequest.detectsHands`.
    public static let bodyHands = choice(
        "bodyHands",
        help: "Hands on body poses for 'bodypose' (DetectHumanBodyPoseRequest.detectsHands): on reads each "
            + "person's hands from the regions their wrists give, off (the default) does not.",
        values: [("on", true), ("off", false)], sets: [.on(\DetectHumanBodyPoseRequest.detectsHands)])

    /// `symbologies`: `DetectBarcodesRequest.symbologies`.
    public static let symbologies = list(
        "symbologies",
        help: "Barcode symbologies 'barcodes' reads, comma-separated (default all; fewer is faster): "
            + BarcodeSymbology.allCases.map(\.rawValue).joined(separator: ", ") + ".",
        valueDescription: "1 or more of " + BarcodeSymbology.allCases.map(\.rawValue).joined(separator: ", ")
            + ", comma-separated", count: 1...BarcodeSymbology.allCases.count,
        item: { name in BarcodeSymbology.allCases.first { $0.rawValue.lowercased() == name.lowercased() }?.rawValue },
        allowedValues: BarcodeSymbology.allCases.map(\.rawValue),
        sets: [
            .on(DetectBarcodesRequest.self) { request, names in
                request.symbologies = names.compactMap(BarcodeSymbology.init(rawValue:))
            }
        ])

    /// `tryHarder`: `DetectBarcodesRequest.tryHarder`.
    public static let tryHarder = onOff(
        "tryHarder",
        help: "Barcodes: on (the default) spends more time on small, blurred and rotated codes; off is faster.",
        sets: [.on(\DetectBarcodesRequest.tryHarder)])

    /// `minimumAspectRatio`: `DetectRectanglesRequest.minimumAspectRatio`.
    public static let minimumAspectRatio = number(
        "minimumAspectRatio",
        help: "Rectangles: the smallest aspect ratio (shorter side / longer side) accepted (default 0.5).",
        range: 0...1, sets: [.on(\DetectRectanglesRequest.minimumAspectRatio)])

    /// `maximumAspectRatio`: `DetectRectanglesRequest.maximumAspectRatio`.
    public static let maximumAspectRatio = number(
        "maximumAspectRatio", help: "Rectangles: the largest aspect ratio accepted (default 1).",
        range: 0...1, sets: [.on(\DetectRectanglesRequest.maximumAspectRatio)])

    /// `quadratureTolerance`: `DetectRectanglesRequest.quadratureTolerance`.
    public static let quadratureTolerance = number(
        "quadratureTolerance", help: "Rectangles: how far, in degrees, each corner may be from 90 (default 30).",
        range: 0...45, sets: [.on(\DetectRectanglesRequest.quadratureTolerance)])

    /// `minimumSize`: `DetectRectanglesRequest.minimumSize`.
    public static let minimumSize = number(
        "minimumSize",
        help: "Rectangles: the smallest shorter side accepted, as a fraction of the image's (default 0.2).",
        range: 0...1, sets: [.on(\DetectRectanglesRequest.minimumSize)])

    /// `minimumConfidence`: `DetectRectanglesRequest.minimumConfidence`,
    /// `DetectFaceRectanglesRequest.minimumConfidence`.
    public static let minimumConfidence = number(
        "minimumConfidence",
        help: "Rectangles and faces: observations less confident are dropped (default 0: the "
            + "detectors' own thresholds).",
        range: 0...1,
        sets: [.on(\DetectRectanglesRequest.minimumConfidence), .on(\DetectFaceRectanglesRequest.minimumConfidence)])

    /// `upsampling`: `DetectFaceRectanglesRequest.upsampling`, `DetectFaceLandmarksRequest.upsampling` (dlib's HOG).
    public static let upsampling = integer(
        "upsampling",
        help: "HOG faces (faces with hog, landmarks with dlib68): 1 (the default) finds faces of about 40 px, "
            + "0 only of about 80 px and up, about 4 times faster on large images.",
        range: 0...1, sets: [.on(\DetectFaceRectanglesRequest.upsampling), .on(\DetectFaceLandmarksRequest.upsampling)])

    /// `estimatesPrecision`: `DetectFaceLandmarksRequest.estimatesPrecision`.
    public static let estimatesPrecision = onOff(
        "estimatesPrecision",
        help: "Face mesh landmarks: on (the default) estimates each point's precision (one more mesh "
            + "run per face); off skips it.",
        sets: [.on(\DetectFaceLandmarksRequest.estimatesPrecision)])

    /// `minimumTextHeight`: `RecognizeTextRequest.minimumTextHeight`.
    public static let minimumTextHeight = number(
        "minimumTextHeight",
        help: "Text: lines shorter than this fraction of the image height are dropped (default 0).",
        range: 0...1, sets: [.on(\RecognizeTextRequest.minimumTextHeight)])

    /// `contrastAdjustment`: `DetectContoursRequest.contrastAdjustment`.
    public static let contrastAdjustment = number(
        "contrastAdjustment", help: "Contours: the contrast boost before tracing (default 2).",
        range: 0...3, sets: [.on(\DetectContoursRequest.contrastAdjustment)])

    /// `contrastPivot`: `DetectContoursRequest.contrastPivot`.
    public static let contrastPivot = number(
        "contrastPivot", help: "Contours: the brightness the contrast boost pivots on (default 0.5).",
        range: 0...1, sets: [.on(DetectContoursRequest.self) { $0.contrastPivot = $1 }])

    /// `darkOnLight`: `DetectContoursRequest.detectsDarkOnLight`.
    public static let darkOnLight = onOff(
        "darkOnLight", help: "Contours: on (the default) traces dark shapes on a light ground, off light on dark.",
        sets: [.on(\DetectContoursRequest.detectsDarkOnLight)])

    /// `maximumImageDimension`: `DetectContoursRequest.maximumImageDimension`.
    public static let maximumImageDimension = integer(
        "maximumImageDimension", help: "Contours: the longest side the image is traced at (default 512).",
        range: 64...8192, sets: [.on(\DetectContoursRequest.maximumImageDimension)])

    /// `upperBodyOnly`: `DetectHumanRectanglesRequest.upperBodyOnly`.
    public static let upperBodyOnly = onOff(
        "upperBodyOnly", help: "Humans: on (the default, as Vision) boxes head and torso, off the whole figure.",
        sets: [.on(\DetectHumanRectanglesRequest.upperBodyOnly)])

    /// `handModelComplexity`: `DetectHumanHandPoseRequest.modelComplexity`.
    public static let handModelComplexity = choice(
        "handModelComplexity", help: "Hand pose: the landmark model, full (the default) or lite (faster, coarser).",
        values: DetectHumanHandPoseRequest.ModelComplexity.allCases.map { ($0.rawValue, $0) },
        sets: [.on(\DetectHumanHandPoseRequest.modelComplexity)])

    /// `minimumPalmConfidence`: `DetectHumanHandPoseRequest.minimumPalmConfidence`.
    public static let minimumPalmConfidence = number(
        "minimumPalmConfidence", help: "Hand pose: the palm detector's threshold (default 0.5).",
        range: 0...1, sets: [.on(\DetectHumanHandPoseRequest.minimumPalmConfidence)])

    /// `minimumHandConfidence`: `DetectHumanHandPoseRequest.minimumHandConfidence`.
    public static let minimumHandConfidence = number(
        "minimumHandConfidence", help: "Hand pose: the landmark model's hand-presence threshold (default 0.5).",
        range: 0...1, sets: [.on(\DetectHumanHandPoseRequest.minimumHandConfidence)])

    /// `chiralityMargin`: `DetectHumanHandPoseRequest.chiralityMargin`.
    public static let chiralityMargin = number(
        "chiralityMargin",
        help: "Hand pose: left or right only when the model is this much surer than 0.5 (default 0).",
        range: 0...0.5, sets: [.on(\DetectHumanHandPoseRequest.chiralityMargin)])

    /// `maxBodies`: `DetectHumanBodyPoseRequest.maximumBodyCount`, `DetectHumanBodyPose3DRequest.maximumBodyCount`.
    public static let maxBodies = integer(
        "maxBodies",
        help: "Body poses: the most people read (bodypose default 4, bodypose3d 1; each one more model run).",
        range: 1...16,
        sets: [.on(\DetectHumanBodyPoseRequest.maximumBodyCount), .on(\DetectHumanBodyPose3DRequest.maximumBodyCount)])

    /// `qualityLevel`: `GeneratePersonSegmentationRequest.qualityLevel`.
    public static let qualityLevel = choice(
        "qualityLevel", help: "Person mask: fast, balanced or accurate (the default), as Vision's quality levels.",
        values: GeneratePersonSegmentationRequest.QualityLevel.allCases.map { ($0.rawValue, $0) },
        sets: [.on(\GeneratePersonSegmentationRequest.qualityLevel)])

    /// `outputPixelFormat`: `GeneratePersonSegmentationRequest.outputPixelFormat`.
    public static let outputPixelFormat = choice(
        "outputPixelFormat",
        help: "Person mask: oneComponent8 (the default, values in steps of 1/255) or "
            + "oneComponent32Float (the model's values).",
        values: GeneratePersonSegmentationRequest.OutputPixelFormat.allCases.map { ($0.rawValue, $0) },
        sets: [.on(\GeneratePersonSegmentationRequest.outputPixelFormat)])

    /// `flowAccuracy`: `TrackOpticalFlowRequest.computationAccuracy`.
    public static let flowAccuracy = choice(
        "flowAccuracy",
        help: "Optical flow: low, medium (the default), high or veryHigh, as Vision's computation accuracy.",
        values: GenerateOpticalFlowRequest.ComputationAccuracy.allCases.map { ($0.rawValue, $0) },
        sets: [.on(\TrackOpticalFlowRequest.computationAccuracy)])

    /// `trajectoryLength`: `DetectTrajectoriesRequest.trajectoryLength`.
    public static let trajectoryLength = integer(
        "trajectoryLength", help: "Trajectories: the points a trajectory needs before it is reported (default 10).",
        range: 5...100, sets: [.on(\DetectTrajectoriesRequest.trajectoryLength)])

    /// `objectMinimumNormalizedRadius`: `DetectTrajectoriesRequest.objectMinimumNormalizedRadius`.
    public static let objectMinimumNormalizedRadius = number(
        "objectMinimumNormalizedRadius",
        help: "Trajectories: the smallest object radius tracked, a fraction of the image "
            + "width (default 0).",
        range: 0...1, sets: [.on(\DetectTrajectoriesRequest.objectMinimumNormalizedRadius)])

    /// `objectMaximumNormalizedRadius`: `DetectTrajectoriesRequest.objectMaximumNormalizedRadius`.
    public static let objectMaximumNormalizedRadius = number(
        "objectMaximumNormalizedRadius", help: "Trajectories: the largest object radius tracked (default 1).",
        range: 0...1, sets: [.on(\DetectTrajectoriesRequest.objectMaximumNormalizedRadius)])

    /// `frameAnalysisSpacing`: `DetectTrajectoriesRequest.frameAnalysisSpacing`, in seconds.
    public static let frameAnalysisSpacing = number(
        "frameAnalysisSpacing",
        help: "Trajectories: the least time between analysed frames in seconds (default 0: every "
            + "frame).",
        range: 0...60,
        sets: [
            .on(DetectTrajectoriesRequest.self) {
                $0.frameAnalysisSpacing = .milliseconds(Int64(($1 * 1000).rounded()))
            }
        ])

    /// `on` / `off`, set as true / false.
    private static func onOff(_ name: String, help: String, sets setters: [Setter<Bool>]) -> RequestOption {
        choice(name, help: help, values: [("on", true), ("off", false)], sets: setters)
    }

    // MARK: Model requests

    /// `model`: the model `detect`, `classify` and `model` run.
    public static let model = text(
        "model",
        help: "Model: a path, or a file name in the model search path (ONNX, TFLite, Core ML, Darknet .cfg with "
            + "its .weights beside it; detect: default the built-in COCO-80 detector, Yolo-Fastest-1.1-XL; classify: "
            + "efficientnet-lite0.onnx).",
        maximumLength: 4096, role: .model)

    /// `confidence`: `DetectObjectsRequest.confidenceThreshold`.
    public static let confidence = number(
        "confidence",
        help: "Minimum detection confidence of detect, animals and humans (default: a Core ML detector "
            + "pipeline's own threshold, else 0.25).",
        range: 0...1,
        sets: [
            .on(\DetectObjectsRequest.confidenceThreshold),
            .on(\RecognizeAnimalsRequest.confidenceThreshold),
            .on(\DetectHumanRectanglesRequest.confidenceThreshold),
        ])

    /// `iou`: `DetectObjectsRequest.iouThreshold`.
    public static let iou = number(
        "iou", help: "Non-maximum suppression IoU threshold (default: a Core ML detector pipeline's own, else 0.45).",
        range: 0...1, sets: [.on(\DetectObjectsRequest.iouThreshold)])

    /// `classes`: `DetectObjectsRequest.allowedLabels`.
    public static let classes = list(
        "classes", help: "Only these labels (or class indices), comma-separated.",
        valueDescription: "1 to 10000 labels, comma-separated", count: 1...10_000, item: { $0.count <= 256 ? $0 : nil },
        sets: [.on(DetectObjectsRequest.self) { request, labels in request.allowedLabels = Set(labels) }])

    /// `top`: `ClassifyImageRequest.maximumObservations`.
    public static let top = integer(
        "top", help: "How many labels per image, most confident first (default 5; 0 = all).", range: 0...1000,
        sets: [.on(\ClassifyImageRequest.maximumObservations)])

    /// `taxonomy`: `ClassifyImageRequest.taxonomy`.
    public static let taxonomy = choice(
        "taxonomy",
        help: "Labels of classify: model (the model's own, the default) or apple (Apple Vision's 1,303 identifiers, "
            + "hierarchical, for ImageNet-1k classifiers: 'dog' sums every dog breed).",
        values: ClassificationTaxonomy.allCases.map { ($0.rawValue, $0) },
        parse: { ClassificationTaxonomy(rawValue: $0) }, sets: [.on(\ClassifyImageRequest.taxonomy)])

    /// `cropAndScale`: how images fit a model's input (`imageCropAndScaleOption`).
    public static let cropAndScale = choice(
        "cropAndScale",
        help: "How images fit the model's input: scaleFit (letterbox), scaleFill (stretch) or centerCrop "
            + "(default: the model's; detect: stretch for Darknet, letterbox otherwise; classify: centerCrop).",
        values: ImageCropAndScaleOption.allCases.map { ($0.rawValue, $0) },
        parse: { ImageCropAndScaleOption(rawValue: $0) },
        sets: [
            .on(\DetectObjectsRequest.imageCropAndScaleOption), .on(\ClassifyImageRequest.imageCropAndScaleOption),
            .on(\RunModelRequest.imageCropAndScaleOption),
            .on(\GenerateImageFeaturePrintRequest.imageCropAndScaleOption),
        ])

    /// `backend`: `VisionModel.Configuration.backend`.
    public static let backend = choice(
        "backend",
        help: "Inference backend: automatic (or auto: ONNX Runtime or OpenVINO, whichever ran the model faster here "
            + "with the same outputs, measured once and cached; OpenCV DNN without ONNX Runtime), onnxRuntime, "
            + "openVINO (fp32 on the CPU), openCV; any case.",
        values: BackendChoice.allCases.map { ($0.rawValue, $0) }, parse: { BackendChoice(spelling: $0) },
        role: .modelLoading, configure: { $1.backend = $0 })

    /// `threads`: `VisionModel.Configuration.threads`.
    public static let threads = integer(
        "threads", help: "Inference threads (0 = all cores).", range: 0...1024, role: .modelLoading,
        configure: { $1.threads = $0 })

    /// `pixelScale`: `VisionModel.Configuration.pixelScale`.
    public static let pixelScale = number(
        "pixelScale",
        help: "Input normalisation (pixel × scale − mean) / std: the pixel multiplier (default the model's, "
            + "usually 1/255).",
        range: -1e6...1e6, role: .modelLoading, configure: { $1.pixelScale = $0 })

    /// `pixelMean`: `VisionModel.Configuration.pixelMean`.
    public static let pixelMean = floats(
        "pixelMean",
        help: "Per-channel mean after scaling: one number or R,G,B (UltraFace: --pixel-scale 1 --pixel-mean 127 "
            + "--pixel-std 128)."
    ) { $1.pixelMean = $0 }

    /// `pixelStd`: `VisionModel.Configuration.pixelStd`.
    public static let pixelStd = floats("pixelStd", help: "Per-channel divisor: one number or R,G,B.") {
        $1.pixelStd = $0
    }

    /// One number or three (R, G, B), comma-separated, for the model's configuration.
    private static func floats(
        _ name: String, help: String,
        configure: @escaping @Sendable ([Float], inout VisionModel.Configuration) -> Void
    ) -> RequestOption {
        list(
            name, help: help, valueDescription: "one number or three, comma-separated (R,G,B)", count: 1...3,
            counts: [1, 3],
            item: { text in Float(text).flatMap { $0.isFinite ? text : nil } }, role: .modelLoading,
            configure: { names, configuration in configure(names.compactMap(Float.init), &configuration) })
    }

    /// Every option, in help order.
    public static let all: [RequestOption] = [
        maxRectangles, languages, recognitionLevel, textOrientation, faceRevision, faceLandmarksRevision, maxHands,
        bodyHands,
        symbologies, tryHarder, minimumAspectRatio, maximumAspectRatio, quadratureTolerance, minimumSize,
        minimumConfidence, upsampling, estimatesPrecision, minimumTextHeight, contrastAdjustment, contrastPivot,
        darkOnLight, maximumImageDimension, upperBodyOnly, handModelComplexity, minimumPalmConfidence,
        minimumHandConfidence, chiralityMargin, maxBodies, qualityLevel, outputPixelFormat, flowAccuracy,
        trajectoryLength,
        objectMinimumNormalizedRadius, objectMaximumNormalizedRadius, frameAnalysisSpacing,
        model, confidence, iou, classes, top, taxonomy, cropAndScale, backend, threads, pixelScale, pixelMean, pixelStd,
    ]
}
