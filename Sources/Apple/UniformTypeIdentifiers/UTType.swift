import Foundation

/// Uniform Type Identifiers' type: a file or data format named by its identifier (`public.png`), with its filename
/// extensions, MIME types and the types it conforms to, as Apple's `UTType`. A value type. Here the types are the
/// system-declared ones in `UTType.declared` (images, movies, text, data, the formats code around Vision reads and
/// writes); Apple's dynamic types (`dyn.…`, for an extension nobody declared) are absent: those initializers give nil.
public struct UTType: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The type's identifier, such as `public.png`.
    public let identifier: String
    /// Filename extensions, the preferred first.
    let extensions: [String]
    /// MIME types, the preferred first.
    let mimeTypes: [String]
    /// The identifiers of the types it directly conforms to.
    let parents: [String]

    init(_ identifier: String, extensions: [String] = [], mimeTypes: [String] = [], parents: [String]) {
        self.identifier = identifier
        self.extensions = extensions
        self.mimeTypes = mimeTypes
        self.parents = parents
    }

    /// The declared type named `identifier` (case-insensitive, as identifiers are); nil for an undeclared one.
    public init?(_ identifier: String) {
        guard let type = UTType.declared[identifier.lowercased()] else { return nil }
        self = type
    }

    /// The declared type whose filename extensions include `filenameExtension` (case-insensitive) and which conforms
    /// to `supertype` (default `.data`); nil when no declared type has it.
    public init?(filenameExtension: String, conformingTo supertype: UTType = .data) {
        let ext = filenameExtension.lowercased()
        guard let type = UTType.all.first(where: { $0.extensions.contains(ext) && $0.conforms(to: supertype) })
        else { return nil }
        self = type
    }

    /// The declared type whose MIME types include `mimeType` (case-insensitive) and which conforms to `supertype`
    /// (default `.data`); nil when no declared type has it.
    public init?(mimeType: String, conformingTo supertype: UTType = .data) {
        let mime = mimeType.lowercased()
        guard let type = UTType.all.first(where: { $0.mimeTypes.contains(mime) && $0.conforms(to: supertype) })
        else { return nil }
        self = type
    }

    /// The extension files of this type usually have (`png`), nil for an abstract type such as `public.image`.
    public var preferredFilenameExtension: String? { extensions.first }
    /// The MIME type of this type (`image/png`), nil when it has none.
    public var preferredMIMEType: String? { mimeTypes.first }
    /// True for the types declared here (every type this module gives).
    public var isDeclared: Bool { true }
    /// True for a dynamic type (`dyn.…`): never here, as such types are not made.
    public var isDynamic: Bool { false }
    /// True when the identifier is in the `public.` domain.
    public var isPublic: Bool { identifier.hasPrefix("public.") }

    /// Every type this one conforms to, directly or not (itself excluded).
    public var supertypes: Set<UTType> {
        var found = Set<UTType>()
        var queue = parents
        while let next = queue.popLast() {
            guard let type = UTType.declared[next], found.insert(type).inserted else { continue }
            queue += type.parents
        }
        return found
    }

    /// True when this type is `type` or conforms to it, directly or through its supertypes.
    public func conforms(to type: UTType) -> Bool { self == type || supertypes.contains(type) }
    /// True when `type` conforms to this one and is not it.
    public func isSupertype(of type: UTType) -> Bool { self != type && type.conforms(to: self) }
    /// True when this type conforms to `type` and is not it.
    public func isSubtype(of type: UTType) -> Bool { self != type && conforms(to: type) }

    /// The identifier.
    public var description: String { identifier }

    /// Types are equal when their identifiers are.
    public static func == (a: UTType, b: UTType) -> Bool { a.identifier == b.identifier }
    /// Hashes the identifier.
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }

    /// Encodes the identifier.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }

    /// Decodes a declared type's identifier; an undeclared one is a `DecodingError`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let identifier = try container.decode(String.self)
        guard let type = UTType(identifier) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "undeclared type \(identifier)")
        }
        self = type
    }
}
