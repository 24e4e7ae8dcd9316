import Foundation

// The one table of request kinds. A kind is one entry: its name, summary, report key, measured memory, and how its
// request is made; the options it reads come from their declarations (RequestOption+BuiltIn.swift).
//
// `bytesPerPixel`: the growth of `openvision analyze IMAGE --requests KIND`'s peak RSS between a 2000 × 2000 and a
// 4000 × 4000 PNG of dog.jpg (scaled), divided by the 12 million pixels between them, a quarter added for other images
// and rounded up (at least 2); reproduce with `/usr/bin/time -f %M`. Measured: barcodes 4.3, rectangles 1.4, text 5.7
// (half added: documents hold more; with orientation detection on, a page turned 90° measures 4.6 at .fast and 4.0 at
// .accurate, dog.jpg 4.1 at both), contours 1.0, horizon 1.2, saliency 1.2, objectness 1.4, textrects 1.9, document
// 1.3, animals 3.5, humans 3.6, handpose 4.0, bodypose 3.5, personmask 52.3 (its guided filter's float planes), faces
// 30.9 (dlib's HOG with one up-sampling: the image twice as large and its pyramid's features; 1000 × 1000 to
// 2000 × 2000, dlib takes minutes beyond), landmarks the same detector (the shape predictor's cost is per face),
// featureprint as a model resized to its input (classify: 8.1), bodypose3d 3.8, personinstances 15.7 (on person.jpg
// scaled the same way: with nobody found it makes no mask, 3.6 on dog.jpg), foreground 17.1 (dog.jpg; person.jpg
// 16.4: `openvision-bench foreground 0`), facequality 7.0 and aesthetics 5.9 (astronaut.png scaled the same way, so
// that a face is found); the model requests as `openvision detect`
// (Yolo-Fastest 1.1) 7.0 and `openvision classify` (EfficientNet-Lite0) 8.1, a quarter added. The sequence kinds never
// run on a still image: the largest rate.

extension RequestKind {
    /// Every kind, in help order.
    public static let allCases: [RequestKind] = [
        RequestKind("barcodes", "barcodes and their payloads (zxing-cpp)", reportKey: "barcodes", bytesPerPixel: 6) {
            _ in
            DetectBarcodesRequest()
        },
        RequestKind("rectangles", "rectangles and their corners", reportKey: "rectangles", bytesPerPixel: 2) { _ in
            DetectRectanglesRequest()
        },
        RequestKind(
            "faces", "face boxes (dlib HOG, or BlazeFace with faceRevision)", reportKey: "faces", bytesPerPixel: 39
        ) { _ in
            DetectFaceRectanglesRequest()
        },
        RequestKind(
            "landmarks",
            "faces with Vision's 76 landmarks (MediaPipe face mesh and iris; dlib's 68 with "
                + "faceLandmarksRevision), standing in for 'faces' when both are asked", reportKey: "faces",
            bytesPerPixel: 39,
            supersedes: ["faces"]
        ) { _ in
            DetectFaceLandmarksRequest()
        },
        RequestKind("text", "recognised text lines and words", reportKey: "text", bytesPerPixel: 9) { _ in
            RecognizeTextRequest()
        },
        RequestKind("contours", "contours, as a tree", reportKey: "contours", bytesPerPixel: 2) { _ in
            DetectContoursRequest()
        },
        RequestKind("horizon", "the horizon's angle", reportKey: "horizon", bytesPerPixel: 2) { _ in
            DetectHorizonRequest()
        },
        RequestKind(
            "saliency", "attention-based saliency, a heat map and salient boxes", reportKey: "saliency",
            bytesPerPixel: 2
        ) { _ in
            GenerateAttentionBasedSaliencyImageRequest()
        },
        RequestKind(
            "objectness", "objectness-based saliency, a heat map and object boxes", reportKey: "objectness",
            bytesPerPixel: 2
        ) { _ in
            GenerateObjectnessBasedSaliencyImageRequest()
        },
        RequestKind(
            "textrects", "text regions and character boxes, without reading", reportKey: "textRectangles",
            bytesPerPixel: 3
        ) { _ in
            var request = DetectTextRectanglesRequest()
            request.reportCharacterBoxes = true
            return request
        },
        RequestKind("document", "a document's corners", reportKey: "document", bytesPerPixel: 2) { _ in
            DetectDocumentSegmentationRequest()
        },
        RequestKind(
            "documents",
            "a page's structure: title, paragraphs, lists, tables with their cells (PP-OCRv4, "
                + "PP-Layout, SLANet-plus)", reportKey: "documents", bytesPerPixel: 12
        ) { _ in
            RecognizeDocumentsRequest()
        },
        RequestKind("animals", "cats and dogs (the built-in detector)", reportKey: "animals", bytesPerPixel: 5) { _ in
            RecognizeAnimalsRequest()
        },
        RequestKind(
            "humans", "people's boxes, upper body (the built-in detector)", reportKey: "humans", bytesPerPixel: 5
        ) { _ in
            DetectHumanRectanglesRequest()
        },
        RequestKind("handpose", "hands and their 21 joints (MediaPipe)", reportKey: "hands", bytesPerPixel: 6) { _ in
            DetectHumanHandPoseRequest()
        },
        RequestKind(
            "bodypose", "body poses, 19 joints and 33 landmarks per person, with bodyHands their hands (MediaPipe)",
            reportKey: "bodyPoses", bytesPerPixel: 5
        ) { _ in
            DetectHumanBodyPoseRequest()
        },
        RequestKind(
            "personmask", "the person segmentation mask (MediaPipe)", reportKey: "personMask", bytesPerPixel: 66
        ) { _ in
            GeneratePersonSegmentationRequest()
        },
        RequestKind(
            "bodypose3d",
            "3D body poses, Vision's 17 joints in metres relative to the hips, and the camera "
                + "(MediaPipe world landmarks)", reportKey: "bodyPoses3D", bytesPerPixel: 5
        ) { _ in
            DetectHumanBodyPose3DRequest()
        },
        RequestKind(
            "personinstances",
            "a mask telling up to 4 people apart, 0 background and 1…n per person (MediaPipe "
                + "pose segmentation)", reportKey: "personInstances", bytesPerPixel: 20
        ) { _ in
            GeneratePersonInstanceMaskRequest()
        },
        RequestKind(
            "foreground",
            "the salient objects' instance mask, 0 background and 1…n per object (U²-Netp, split by "
                + "the built-in detector and person masks)", reportKey: "foregroundInstances", bytesPerPixel: 22
        ) { _ in
            GenerateForegroundInstanceMaskRequest()
        },
        RequestKind(
            "facequality",
            "faces with their capture quality, 0...1 (sharpness, noise, exposure, size, head pose and open eyes; "
                + "MediaPipe's face mesh), standing in for 'faces' and 'landmarks' when asked with them",
            reportKey: "faces", bytesPerPixel: 9, supersedes: ["faces", "landmarks"]
        ) { _ in
            DetectFaceCaptureQualityRequest()
        },
        RequestKind(
            "aesthetics",
            "the image's aesthetics score, -1...1 (sharpness, noise, exposure, JPEG blocks, colour), and whether it "
                + "is a utility image (documents, screenshots, receipts, whiteboards)", reportKey: "aesthetics",
            bytesPerPixel: 8
        ) { _ in
            CalculateImageAestheticsScoresRequest()
        },
        RequestKind(
            "featureprint", "a feature print, 1280 numbers to compare images by (the default classifier's features)",
            reportKey: "featurePrint", bytesPerPixel: 11
        ) { _ in
            GenerateImageFeaturePrintRequest()
        },
        RequestKind(
            "detect",
            "objects and their labels (a YOLO/SSD/Core ML detector: the built-in COCO-80 one, or the "
                + "model given)", reportKey: "objects", bytesPerPixel: 11, defaultModel: .builtInDetector
        ) { model in
            DetectObjectsRequest(model: model)
        },
        RequestKind(
            "classify", "the image's classes (EfficientNet-Lite0, ImageNet-1k, or the model given)",
            reportKey: "classifications", bytesPerPixel: 11, defaultModel: .named(DefaultModels.classifierName)
        ) { model in
            ClassifyImageRequest(model: model)
        },
        RequestKind(
            "model", "a model's raw outputs, by name (the model given)", reportKey: "outputs", bytesPerPixel: 11,
            defaultModel: .required
        ) { model throws(VisionError) in
            guard let model else {
                throw VisionError(.invalidArgument, "'model' runs a model of yours: give one (model)")
            }
            return RunModelRequest(model: model)
        },
        RequestKind(
            "flow", "dense optical flow from the previous frame", reportKey: "opticalFlow", bytesPerPixel: 66,
            pairCommand: "openvision flow A B"
        ) { _ in
            TrackOpticalFlowRequest()
        },
        RequestKind(
            "registration", "the translation aligning each frame with the previous one", reportKey: "translation",
            bytesPerPixel: 66, pairCommand: "openvision register A B"
        ) { _ in
            TrackTranslationalImageRegistrationRequest()
        },
        RequestKind(
            "homography", "the homography aligning each frame with the previous one", reportKey: "homography",
            bytesPerPixel: 66, pairCommand: "openvision register A B"
        ) { _ in
            TrackHomographicImageRegistrationRequest()
        },
        RequestKind("trajectories", "objects moving along parabolas", reportKey: "trajectories", bytesPerPixel: 66) {
            _ in
            DetectTrajectoriesRequest(trajectoryLength: 10)
        },
    ]

    /// What `openvision analyze`, `POST /v1/analyze` and image jobs run when no requests are named.
    public static let stillDefaults = allCases.filter {
        ["barcodes", "rectangles", "faces", "landmarks", "text"].contains($0.name)
    }

    /// What `openvision video` and `live` (and stream jobs) run when neither requests nor a detector are named.
    public static let liveDefaults = allCases.filter { ["barcodes", "faces"].contains($0.name) }
}
