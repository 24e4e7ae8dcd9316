// swift-tools-version: 6.1
// A downstream package: depends on OpenVision by path, as your package would by URL and version.
import PackageDescription

let package = Package(
    name: "ClassifyPhoto",
    platforms: [.macOS(.v15)],
    dependencies: [
        // In your own package: .package(url: "https://github.com/<owner>/OpenVision", from: "<version>")
        .package(name: "OpenVision", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "classify-photo",
            dependencies: [.product(name: "OpenVision", package: "OpenVision")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
