// swift-tools-version: 6.1
// The porting corpus (docs/porting.md): real Apple-platform files that use Vision and Core ML, built against
// OpenVision's Apple-named modules with at most UI-only edits, and run where they can be called on an image. The
// files themselves are public code this project did not write: they stay in shared/porting-corpus, and ./assemble
// lays out Corpus/<sample>/ from there with the edits of Edits/ applied (run it before building this package).
// Each sample is a target (its files and its models' generated classes, through the CoreMLModelClasses plugin);
// corpus.tsv says which files build (unchanged or ui-only) and models.tsv which model each sample gets.
// SwiftPM caches this manifest's evaluation by its text, not by corpus.tsv or Corpus/: build with
// `--manifest-cache none` (as CI does), or a cached evaluation from another layout names folders that are not there.
import Foundation
import PackageDescription

/// The rows of one of this folder's tab-separated tables, without comments.
func table(_ name: String) -> [[String]] {
    let url = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent(name)
    let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t").map(String.init) }
}

/// Samples with at least one file that builds, in corpus order.
var samples: [String] = []
for row in table("corpus.tsv") where row.count >= 3 && ["unchanged", "ui-only"].contains(row[2]) {
    let sample = String(row[0].split(separator: "/")[0])
    // Only the samples `assemble` laid out (those wholly in the corpus folders given to it).
    let laidOut = FileManager.default.fileExists(atPath: "\(Context.packageDirectory)/Corpus/\(sample)")
    if laidOut && !samples.contains(sample) { samples.append(sample) }
}
let withModels = Set(table("models.tsv").map { $0[0] })

/// The target of a sample folder: `apple-handpose` → `AppleHandpose`.
func targetName(_ sample: String) -> String {
    sample.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
}

let package = Package(
    name: "PortingCorpus",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "OpenVision", path: "../..")
    ],
    targets: samples.map { sample in
        .target(
            name: targetName(sample),
            dependencies: [.product(name: "Vision", package: "OpenVision")],
            path: "Corpus/\(sample)",
            exclude: ["LICENSE.txt"].filter {
                FileManager.default.fileExists(atPath: "\(Context.packageDirectory)/Corpus/\(sample)/\($0)")
            },
            swiftSettings: [.swiftLanguageMode(.v5)],
            plugins: withModels.contains(sample) ? [.plugin(name: "CoreMLModelClasses", package: "OpenVision")] : []
        )
    } + [
        .testTarget(
            name: "PortingCorpusTests",
            dependencies: samples.map { .target(name: targetName($0)) }
                + [.product(name: "Vision", package: "OpenVision")],
            path: "Tests/PortingCorpusTests",
            swiftSettings: [.swiftLanguageMode(.v5)]
        )
    ]
)
