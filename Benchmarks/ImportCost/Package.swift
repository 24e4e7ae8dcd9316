// swift-tools-version: 6.1
// Two tiny clients of OpenVision's `Vision` product (by path, as a downstream package depends on it), to time what
// importing every Apple-named module costs a client's own compile against importing `Vision` alone (issue 38). One
// package, so that the dependency is built once for both; `./time-imports` times them (README.md).
import PackageDescription

let package = Package(
    name: "ImportCost",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "OpenVision", path: "../..")],
    targets: [
        .executableTarget(
            name: "ImportsAllModules", dependencies: [.product(name: "Vision", package: "OpenVision")]),
        .executableTarget(
            name: "ImportsVision", dependencies: [.product(name: "Vision", package: "OpenVision")]),
    ]
)
