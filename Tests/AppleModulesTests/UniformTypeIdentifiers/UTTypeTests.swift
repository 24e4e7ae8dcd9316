import Foundation
import Testing
import UniformTypeIdentifiers

/// `UTType` as Apple documents it: identifiers, filename extensions and MIME types both ways, conformance through
/// the supertypes (png → image → data → item), and nil for what is not declared.
@Suite struct UTTypeTests {
    @Test func identifiersExtensionsAndMIMETypes() throws {
        #expect(UTType.png.identifier == "public.png")
        #expect(UTType.png.preferredFilenameExtension == "png")
        #expect(UTType.png.preferredMIMEType == "image/png")
        #expect(UTType.jpeg.preferredFilenameExtension == "jpeg")
        #expect(UTType(filenameExtension: "JPG") == .jpeg)
        #expect(UTType(mimeType: "video/mp4") == .mpeg4Movie)
        #expect(UTType("public.heic") == .heic)
        #expect(UTType("PUBLIC.PNG") == .png)
        #expect(UTType.image.preferredFilenameExtension == nil)
        #expect("\(UTType.json)" == "public.json")
    }

    @Test func conformanceFollowsTheSupertypes() throws {
        #expect(UTType.png.conforms(to: .image))
        #expect(UTType.png.conforms(to: .data))
        #expect(UTType.png.conforms(to: .item))
        #expect(UTType.png.conforms(to: .png))
        #expect(!UTType.png.conforms(to: .movie))
        #expect(UTType.heic.conforms(to: .image))
        #expect(UTType.commaSeparatedText.conforms(to: .text))
        #expect(UTType.quickTimeMovie.conforms(to: .audiovisualContent))
        #expect(UTType.image.isSupertype(of: .jpeg))
        #expect(!UTType.image.isSupertype(of: .image))
        #expect(UTType.jpeg.isSubtype(of: .image))
        #expect(UTType.png.supertypes == [.image, .data, .content, .item])
        // A filename extension resolved under a supertype it does not conform to is no type.
        #expect(UTType(filenameExtension: "png", conformingTo: .movie) == nil)
    }

    @Test func undeclaredIsNilAndCodingRoundTrips() throws {
        #expect(UTType("com.example.nothing") == nil)
        #expect(UTType(filenameExtension: "nosuchext") == nil)
        #expect(UTType(mimeType: "application/x-nothing") == nil)
        let data = try JSONEncoder().encode([UTType.png, .mpeg4Movie])
        #expect(String(decoding: data, as: UTF8.self) == #"["public.png","public.mpeg-4"]"#)
        #expect(try JSONDecoder().decode([UTType].self, from: data) == [.png, .mpeg4Movie])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([UTType].self, from: Data(#"["dyn.x"]"#.utf8)) }
    }
}
