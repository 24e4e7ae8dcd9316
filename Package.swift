// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "OpenVision",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "OpenVision", targets: ["OpenVision"]),
        .library(name: "OpenVisionConverters", targets: ["OpenVisionConverters"]),
        .executable(name: "openvision", targets: ["openvision"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // The job queue (OpenVisionJobs): PostgreSQL's wire protocol, and the logger its API takes.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // pkg-config carriers: compile and link flags only, no code. openvision-opencv.pc is
        // written by scripts/setup: opencv4's flags with only the modules we link (imgcodecs and
        // videoio are loaded on first use; see Sources/CNative/ov_lazy.hpp).
        .systemLibrary(name: "COpenCV", path: "Sources/COpenCV", pkgConfig: "openvision-opencv",
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
                .linkedLibrary("dlib"), .linkedLibrary("blas"), .linkedLibrary("lapack"),
                // libjpeg62-turbo (the one OpenCV's imgcodecs uses): JPEGs are decoded with their warnings.
                .linkedLibrary("jpeg"),
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
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The live viewer: MJPEG preview + Server-Sent Events overlays over HTTP (SwiftNIO).
        .target(
            name: "OpenVisionServer",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
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
            dependencies: ["OpenVision", "OpenVisionConverters", "OpenVisionServer", "OpenVisionJobs",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "openvision-bench",
            // OpenVisionTestSupport: the warped-page scenes of the document tests (make-document-set).
            dependencies: ["OpenVision", "OpenVisionTestSupport"],
            path: "Benchmarks/openvision-bench",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "OpenVisionServerTests",
            dependencies: ["OpenVisionServer"],
            exclude: ["Resources"],  // small JPEG frames the tests read by path
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Paths to ../shared and image builders, shared by the library and CLI tests.
        .target(
            name: "OpenVisionTestSupport",
            dependencies: ["OpenVision"],
            path: "Tests/OpenVisionTestSupport",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "OpenVisionConvertersTests",
            dependencies: ["OpenVisionConverters"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "OpenVisionTests",
            dependencies: ["OpenVision", "OpenVisionConverters", "OpenVisionServer", "OpenVisionTestSupport"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The raw C layer called directly: builds, links, one call per library.
        .testTarget(
            name: "CNativeTests",
            dependencies: ["CNative", "CZXing"],
            swiftSettings: [.swiftLanguageMode(.v6)]
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
