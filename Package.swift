// swift-tools-version: 6.1
import PackageDescription

// Apple's modules, built on Linux only (Sources/Apple; see docs/porting.md), all in the `Vision` product.
let appleModules = [
    "Vision", "CoreML", "CoreGraphics", "CoreVideo", "CoreMedia", "ImageIO", "CoreImage", "simd",
    "Accelerate", "VideoToolbox", "AVFoundation", "DataDetection", "UniformTypeIdentifiers", "_Testing_CoreGraphics",
    "_Testing_CoreImage",
]

let package = Package(
    name: "OpenVision",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "OpenVision", targets: ["OpenVision"]),
        .library(name: "OpenVisionConverters", targets: ["OpenVisionConverters"]),
        // Apple's API for code written against it (VN* classes, MLModel) and the Apple modules such code imports
        // (Sources/Apple): one product, so a package that depends on it can `import Vision`, `import CoreGraphics`,
        // `import simd`, … as an app does on Apple platforms.
        .library(name: "Vision", targets: appleModules),
        .executable(name: "openvision", targets: ["openvision"]),
        // Xcode's generated model classes (`MobileNet(configuration:)`, …) for the .mlmodel/.mlpackage files of a target
        // that uses the Vision product; the models are bundled compiled.
        .plugin(name: "CoreMLModelClasses", targets: ["CoreMLModelClasses"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // `openvision serve` (OpenVisionAPI): Hummingbird 2 without its swift-configuration trait,
        // Prometheus metrics, graceful shutdown.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // The job queue (OpenVisionJobs): PostgreSQL's wire protocol, and the logger its API takes.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // `swift package generate-documentation --target OpenVision`: the DocC catalog (.ci/run: no warnings).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // pkg-config carriers: compile and link flags only, no code. openvision-opencv.pc is
        // written by scripts/setup: opencv4's flags with only the modules we link (imgcodecs and
        // videoio are loaded on first use; see Sources/CNative/ov_lazy.hpp).
        .systemLibrary(
            name: "COpenCV", path: "Sources/COpenCV", pkgConfig: "openvision-opencv",
            providers: [.apt(["libopencv-dev"])]),
        // zxing-cpp 3.1.1's own C API (built by scripts/setup into /usr/local).
        .systemLibrary(name: "CZXing", path: "Sources/CZXing", pkgConfig: "zxing"),
        // The only C++: OpenCV, dlib and Tesseract behind a pure C header (ov_native.h).
        .target(
            name: "CNative",
            dependencies: ["COpenCV"],
            path: "Sources/CNative",
            linkerSettings: [
                // OpenCV contrib's saliency module (ov_saliency.cpp) needs only core and imgproc, so
                // linking it adds one small library at start-up. Named here rather than in
                // openvision-opencv.pc, which every checkout on a machine shares.
                .linkedLibrary("opencv_saliency"),
                // The motion requests (ov_registration.cpp, ov_optical_flow.cpp): video (DIS optical flow,
                // pyramidal Lucas-Kanade), calib3d (findHomography) and features2d (ORB); with flann behind
                // them, four small libraries at start-up.
                .linkedLibrary("opencv_video"), .linkedLibrary("opencv_calib3d"), .linkedLibrary("opencv_features2d"),
                // Contrib's tracking module: the CSRT and KCF trackers of TrackObjectRequest (ov_object_tracker.cpp).
                .linkedLibrary("opencv_tracking"),
                .linkedLibrary("dlib"), .linkedLibrary("blas"), .linkedLibrary("lapack"),
                // libjpeg62-turbo (the one OpenCV's imgcodecs uses): JPEGs are decoded with their warnings.
                .linkedLibrary("jpeg"),
                // libdeflate (Debian's libdeflate0): the image data of common PNGs (ov_png.cpp), 13x faster than zlib.
                .linkedLibrary("deflate"),
                // zlib (zlib1g, which libpng needs anyway): the streaming size check of large PNGs' data (ov_png.cpp).
                .linkedLibrary("z"),
                // libpng16 (the one OpenCV's imgcodecs uses): the other PNGs, with their warnings (ov_libpng.cpp).
                .linkedLibrary("png16"),
                .linkedLibrary("stdc++"), .linkedLibrary("m"),
            ]
        ),
        // Pure-Swift model converters (Darknet → ONNX) and the ONNX protobuf reader and writer:
        // no C module, no OpenVision; fuzzed by scripts/fuzz.
        .target(
            name: "OpenVisionConverters",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "OpenVision",
            dependencies: ["CNative", "CZXing", "OpenVisionConverters"],
            // The default detector's Darknet files (public domain, sha256 in SHA256SUMS, checked by
            // scripts/setup) are not bundled as such: DefaultDetectorPlugin converts them to the ONNX resource.
            exclude: ["DefaultDetector"],
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: ["DefaultDetectorPlugin"]
        ),
        // Build-time Darknet → ONNX conversion of the default detector (our converter, no OpenVision).
        .executableTarget(
            name: "openvision-darknet2onnx",
            dependencies: ["OpenVisionConverters"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .plugin(name: "DefaultDetectorPlugin", capability: .buildTool(), dependencies: ["openvision-darknet2onnx"]),
        // Xcode's model classes as Swift source for a Core ML model's description (CoreMLClassGenerator): every string
        // from the model file escaped for where it lands in the generated code. No OpenVision.
        .target(
            name: "OpenVisionCoreMLClasses",
            dependencies: ["OpenVisionConverters"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The generator behind CoreMLModelClasses: Xcode's model classes and the compiled .mlmodelc of a Core ML file.
        .executableTarget(
            name: "openvision-coreml-classes",
            dependencies: ["OpenVisionConverters", "OpenVisionCoreMLClasses"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .plugin(name: "CoreMLModelClasses", capability: .buildTool(), dependencies: ["openvision-coreml-classes"]),
        // Apple's modules (Sources/Apple): `Vision` and `CoreML` with their VN*/ML* classes, and the Core Graphics,
        // Core Video, Core Media, ImageIO, simd and Accelerate names code around them uses — thin layers over
        // OpenVision (Swift 5 language mode, as the code written against them), each importing only those below it.
        // Not built on Apple platforms, which have the real ones.
        // What Swift Testing imports with Testing and CoreGraphics (see CrossImport.swift there); CoreGraphics
        // depends on it so that it is built for every client.
        .target(
            name: "_Testing_CoreGraphics",
            path: "Sources/Apple/_Testing_CoreGraphics",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .target(
            name: "CoreGraphics",
            dependencies: [
                .target(name: "OpenVision", condition: .when(platforms: [.linux])),
                .target(name: "_Testing_CoreGraphics", condition: .when(platforms: [.linux])),
            ],
            path: "Sources/Apple/CoreGraphics",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .target(
            name: "ImageIO",
            dependencies: [
                .target(name: "OpenVision", condition: .when(platforms: [.linux])),
                .target(name: "CoreGraphics", condition: .when(platforms: [.linux])),
            ],
            path: "Sources/Apple/ImageIO",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .target(
            name: "CoreVideo",
            dependencies: [
                .target(name: "OpenVision", condition: .when(platforms: [.linux])),
                .target(name: "CoreGraphics", condition: .when(platforms: [.linux])),
            ],
            path: "Sources/Apple/CoreVideo",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .target(
            name: "CoreMedia",
            dependencies: [
                .target(name: "OpenVision", condition: .when(platforms: [.linux])),
                .target(name: "CoreVideo", condition: .when(platforms: [.linux])),
            ],
            path: "Sources/Apple/CoreMedia",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // Core Image: CIImage, CIFilter, CIContext over OpenVision's lazy ImageRecipe. CCoreImageFilterBuiltins only
        // carries a module map, so that `import CoreImage.CIFilterBuiltins` resolves (see its module.modulemap).
        .systemLibrary(name: "CCoreImageFilterBuiltins", path: "Sources/Apple/CCoreImageFilterBuiltins"),
        // What Swift Testing imports with Testing and CoreImage (see CrossImport.swift there).
        .target(
            name: "_Testing_CoreImage",
            path: "Sources/Apple/_Testing_CoreImage",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .target(
            name: "CoreImage",
            dependencies: [
                .target(name: "OpenVision", condition: .when(platforms: [.linux])),
                .target(name: "CoreGraphics", condition: .when(platforms: [.linux])),
                .target(name: "CoreVideo", condition: .when(platforms: [.linux])),
                .target(name: "ImageIO", condition: .when(platforms: [.linux])),
                .target(name: "CCoreImageFilterBuiltins", condition: .when(platforms: [.linux])),
                .target(name: "_Testing_CoreImage", condition: .when(platforms: [.linux])),
            ],
            path: "Sources/Apple/CoreImage",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // VideoToolbox's pixel-buffer-to-CGImage call (VTCreateCGImageFromCVPixelBuffer); no codecs.
        .target(
            name: "VideoToolbox",
            dependencies: [
                .target(name: "OpenVision", condition: .when(platforms: [.linux])),
                .target(name: "CoreGraphics", condition: .when(platforms: [.linux])),
                .target(name: "CoreVideo", condition: .when(platforms: [.linux])),
            ],
            path: "Sources/Apple/VideoToolbox",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // simd's names on Swift's own SIMD types: no dependency.
        .target(
            name: "simd",
            path: "Sources/Apple/simd",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // vDSP and vForce over Swift SIMD loops, BLAS (Debian's libblas, which CNative links already) and glibc's
        // vector math library (libmvec): CAccelerate carries their C declarations.
        .systemLibrary(name: "CAccelerate", path: "Sources/Apple/CAccelerate"),
        .target(
            name: "Accelerate",
            dependencies: [
                .target(name: "CAccelerate", condition: .when(platforms: [.linux])),
                // vImage's pixel-buffer and CGImage types: Apple's Accelerate brings CoreVideo and CoreGraphics.
                .target(name: "CoreGraphics", condition: .when(platforms: [.linux])),
                .target(name: "CoreVideo", condition: .when(platforms: [.linux])),
            ],
            path: "Sources/Apple/Accelerate",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .target(
            name: "CoreML",
            dependencies: [
                .target(name: "OpenVision", condition: .when(platforms: [.linux])),
                .target(name: "CoreGraphics", condition: .when(platforms: [.linux])),
                .target(name: "CoreVideo", condition: .when(platforms: [.linux])),
                .target(name: "ImageIO", condition: .when(platforms: [.linux])),
                // CoreMLModelInfo: a Core ML file's own description (MLModelDescription, image outputs).
                .target(name: "OpenVisionConverters", condition: .when(platforms: [.linux])),
            ],
            path: "Sources/Apple/CoreML",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .target(
            name: "Vision",
            dependencies: [
                .target(name: "OpenVision", condition: .when(platforms: [.linux])),
                .target(name: "CoreML", condition: .when(platforms: [.linux])),
                .target(name: "CoreGraphics", condition: .when(platforms: [.linux])),
                .target(name: "CoreVideo", condition: .when(platforms: [.linux])),
                .target(name: "CoreMedia", condition: .when(platforms: [.linux])),
                .target(name: "ImageIO", condition: .when(platforms: [.linux])),
                .target(name: "CoreImage", condition: .when(platforms: [.linux])),
                .target(name: "simd", condition: .when(platforms: [.linux])),
                .target(name: "OpenVisionConverters", condition: .when(platforms: [.linux])),
            ],
            path: "Sources/Apple/Vision",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // Apple's DataDetection module name (iOS 26 `DataDetector`, which Vision's documents use): OpenVision's detector.
        .target(
            name: "DataDetection",
            dependencies: [.target(name: "OpenVision", condition: .when(platforms: [.linux]))],
            path: "Sources/Apple/DataDetection",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // Uniform Type Identifiers' declared types (UTType): a table, no dependency.
        .target(
            name: "UniformTypeIdentifiers",
            path: "Sources/Apple/UniformTypeIdentifiers",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // AVFoundation's capture data path (a video data output and its sample-buffer delegate), fed by
        // CaptureDelegateBridge from LiveAnalyzer: capture code as written runs on a camera, a file or a stream; and
        // AVAssetReader, which reads a video file's frames as sample buffers (OpenVision's VideoCapture).
        .target(
            name: "AVFoundation",
            dependencies: [
                .target(name: "OpenVision", condition: .when(platforms: [.linux])),
                .target(name: "CoreMedia", condition: .when(platforms: [.linux])),
                .target(name: "ImageIO", condition: .when(platforms: [.linux])),
            ],
            path: "Sources/Apple/AVFoundation",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // The HTTP plumbing the live viewer and the analysis API share: the Host-header (DNS-rebinding) check and the
        // refusal of connections past the limit.
        .target(
            name: "OpenVisionNetworking",
            dependencies: [.product(name: "NIOCore", package: "swift-nio")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The live viewer: MJPEG preview + Server-Sent Events overlays over HTTP (SwiftNIO).
        .target(
            name: "OpenVisionViewer",
            dependencies: [
                "OpenVisionNetworking",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // `openvision serve`: the HTTP analysis API (Hummingbird 2), kept apart so OpenVision has no server deps.
        .target(
            name: "OpenVisionAPI",
            dependencies: [
                "OpenVision",
                // HostHeader and ConnectionRefusalHandler: the same checks as the live viewer's.
                "OpenVisionNetworking",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Jobs and workers on PostgreSQL (`openvision jobs`, `openvision worker`): the schema, the
        // lease-based claim, results and streams. No OpenVision: what a job runs is the caller's closure.
        .target(
            name: "OpenVisionJobs",
            dependencies: [
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "openvision",
            dependencies: [
                "OpenVision", "OpenVisionConverters", "OpenVisionViewer", "OpenVisionAPI", "OpenVisionJobs",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "openvision-bench",
            // OpenVisionFixtures: the tests' synthetic scenes (document pages, OCR, moving patch, camera move);
            // OpenVisionConverters: the Core ML converter timed alone (coreml-convert).
            // CoreVideo: the pixel-buffer access measurement (pixelbuffer); CoreImage: coreimage; CoreML: MLUpdateTask
            // (coreml-update).
            dependencies: [
                "OpenVision", "OpenVisionFixtures", "Vision", "CoreVideo", "CoreImage",
                "OpenVisionConverters", "CoreML",
            ],
            path: "Benchmarks/openvision-bench",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "OpenVisionViewerTests",
            dependencies: ["OpenVisionViewer", "OpenVisionTestSupport"],  // OpenVisionTestSupport: RawHTTPClient
            exclude: ["Resources"],  // small JPEG frames the tests read by path
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // `openvision serve` over real HTTP clients (raw sockets, URLSession, curl, schemathesis).
        .testTarget(
            name: "OpenVisionAPITests",
            dependencies: ["OpenVisionAPI", "OpenVision", "OpenVisionTestSupport", "openvision"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Paths to ../shared, image builders and the synthetic scenes, shared by the tests and the bench.
        .target(
            name: "OpenVisionFixtures",
            dependencies: ["OpenVision"],
            path: "Tests/OpenVisionFixtures",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // What the test targets share beyond the fixtures: the CLI and viewer processes, raw HTTP, references.
        .target(
            name: "OpenVisionTestSupport",
            dependencies: ["OpenVision", "OpenVisionFixtures"],
            path: "Tests/OpenVisionTestSupport",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "OpenVisionConvertersTests",
            dependencies: ["OpenVisionConverters"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The generated model classes: Xcode's names and signatures, and hostile feature names and descriptions
        // typechecked against the CoreML module (CoreML: built for that typecheck).
        .testTarget(
            name: "OpenVisionCoreMLClassesTests",
            dependencies: ["OpenVisionCoreMLClasses", "OpenVisionConverters", "CoreML", "openvision-coreml-classes"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "OpenVisionTests",
            dependencies: ["OpenVision", "OpenVisionConverters", "OpenVisionViewer", "OpenVisionTestSupport"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The raw C layer called directly: builds, links, one call per library.
        .testTarget(
            name: "CNativeTests",
            dependencies: ["CNative", "CZXing"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The seeds' Vision / Core ML code compiled against the compatibility modules (Swift 5 mode, as written).
        .testTarget(
            name: "VisionCompatTests",
            dependencies: ["Vision", "CoreML", "AVFoundation", "DataDetection", "OpenVisionTestSupport"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // Apple's Core Graphics, Core Video, Core Media, ImageIO, simd and Accelerate modules against hand-computed
        // values, plain loops and OpenVision's own operations (Swift 5 mode, as the code written against them).
        .testTarget(
            name: "AppleModulesTests",
            dependencies: [
                "CoreGraphics", "CoreVideo", "CoreMedia", "ImageIO", "CoreImage", "simd", "Accelerate", "VideoToolbox",
                "UniformTypeIdentifiers", "OpenVision", "OpenVisionTestSupport",
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // The job queue against a private PostgreSQL cluster the tests start (skipped when absent),
        // and a fleet of real `openvision worker` processes.
        .testTarget(
            name: "OpenVisionJobsTests",
            dependencies: ["OpenVisionJobs", "OpenVisionTestSupport", "openvision"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Runs the built `openvision` binary as a user would.
        .testTarget(
            name: "OpenVisionCLITests",
            dependencies: ["OpenVision", "OpenVisionTestSupport", "openvision"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ],
    cxxLanguageStandard: .cxx17
)
