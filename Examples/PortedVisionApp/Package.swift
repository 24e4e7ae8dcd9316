// swift-tools-version: 6.1
// An iOS developer's Vision + Core ML code, unchanged, on Linux: the target imports only `Vision` and `CoreML`
// (OpenVision's `Vision` product) and its .mlmodel files become Xcode's generated classes through OpenVision's
// `CoreMLModelClasses` plugin, the models bundled compiled as the target's resources.
import PackageDescription

let package = Package(
    name: "PortedVisionApp",
    platforms: [.macOS(.v15)],
    dependencies: [
        // In your own package: .package(url: "https://github.com/<owner>/OpenVision", from: "<version>")
        .package(name: "OpenVision", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "ported-vision-app",
            dependencies: [.product(name: "Vision", package: "OpenVision")],
            // MobileNet.mlmodel, MobileNetProgram.mlpackage and YoloFastestPipeline.mlmodel are links to ../shared/models/coreml,
            // MarsHabitatPricer.mlmodel to ../shared/models/coreml-wild (not copied).
            swiftSettings: [.swiftLanguageMode(.v5)],
            plugins: [.plugin(name: "CoreMLModelClasses", package: "OpenVision")]
        )
    ]
)
