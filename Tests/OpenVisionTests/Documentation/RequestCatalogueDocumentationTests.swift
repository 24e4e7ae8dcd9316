import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// The DocC article "The request catalogue" lists the registry as it is: one row per `RequestKind`, with the Swift
/// type its descriptor builds, its name and its report key, in declaration order, and no other row.
@Suite struct RequestCatalogueDocumentationTests {
    static let article = Fixtures.packageRoot
        .appendingPathComponent("Sources/OpenVision/OpenVision.docc/RequestCatalogue.md")

    /// The table's rows up to the description column, generated from the registry.
    /// Model kinds get the built-in detector (what `detect` runs by default) so their request type can be built.
    static func expectedRows() throws -> [String] {
        let detector = try VisionModel(contentsOf: #require(VisionModel.defaultDetectorURL))
        return try RequestKind.allCases.map { kind in
            let request = try kind.makeRequest(model: kind.isModelRequest ? detector : nil)
            let type = String(describing: Swift.type(of: request))
            return "| ``\(type)`` | `\(kind.name)` | `\(kind.reportKey)` |"
        }
    }

    @Test func theKindsTableIsTheRegistry() throws {
        let text = try String(contentsOf: Self.article, encoding: .utf8)
        let section =
            try #require(text.components(separatedBy: "## Kinds by name").dropFirst().first)
            .components(separatedBy: "\n## ").first ?? ""
        let rows = section.split(separator: "\n").filter { $0.hasPrefix("| ``") }
            .map { $0.split(separator: "|", omittingEmptySubsequences: false).prefix(4).joined(separator: "|") + "|" }
        // On a failure, the expected rows (paste them, then write each one's description column):
        let expected = try Self.expectedRows()
        #expect(rows == expected, Comment(rawValue: "\n" + expected.joined(separator: "\n")))
    }
}
