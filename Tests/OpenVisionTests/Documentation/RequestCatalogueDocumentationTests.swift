import Foundation
import Testing
import OpenVision
import OpenVisionTestSupport

/// The DocC article "The request catalogue" lists the registry as it is: one row per `RequestKind`, with the Swift
/// type its descriptor builds, its name and its report key, in declaration order, and no other row.
@Suite struct RequestCatalogueDocumentationTests {
    static let article = Fixtures.packageRoot
        .appendingPathComponent("Sources/OpenVision/OpenVision.docc/RequestCatalogue.md")

    /// The table's rows up to the description column, generated from the registry.
    static var expectedRows: [String] {
        RequestKind.allCases.map { kind in
            let type = String(describing: Swift.type(of: kind.defaultRequest))
            return "| ``\(type)`` | `\(kind.rawValue)` | `\(kind.descriptor.reportKey)` |"
        }
    }

    @Test func theKindsTableIsTheRegistry() throws {
        let text = try String(contentsOf: Self.article, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## Kinds by name").dropFirst().first)
            .components(separatedBy: "\n## ").first ?? ""
        let rows = section.split(separator: "\n").filter { $0.hasPrefix("| ``") }
            .map { $0.split(separator: "|", omittingEmptySubsequences: false).prefix(4).joined(separator: "|") + "|" }
        // On a failure, the expected rows (paste them, then write each one's description column):
        #expect(rows == Self.expectedRows, Comment(rawValue: "\n" + Self.expectedRows.joined(separator: "\n")))
    }
}
