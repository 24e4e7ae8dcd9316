import ArgumentParser

/// The built-in requests the CLI can run, by name.
enum RequestKind: String, CaseIterable {
    case barcodes, rectangles, faces, landmarks, text

    static func parse(_ values: [String]) throws -> [RequestKind] {
        var kinds: [RequestKind] = []
        for name in values.flatMap({ $0.split(separator: ",") }).map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) where !name.isEmpty {
            guard let kind = RequestKind(rawValue: name) else {
                throw ValidationError("unknown request '\(name)'; choose from \(allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        guard !kinds.isEmpty else { throw ValidationError("no requests given") }
        return kinds
    }
}

import Foundation
