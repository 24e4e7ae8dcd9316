import ArgumentParser
import OpenVision

/// The CLI's spelling of `RequestKind`'s checks: a usage error (`ValidationError`) with the same message.
extension RequestKind {
    static func requireStill(_ kinds: [RequestKind]) throws {
        do { try validateStill(kinds) } catch { throw ValidationError(error.message) }
    }

    static func parse(_ values: [String]) throws -> [RequestKind] {
        do { return try kinds(from: values) } catch { throw ValidationError(error.message) }
    }
}
