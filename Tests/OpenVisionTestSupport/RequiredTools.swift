import Foundation

/// Suites that need an installed tool (PostgreSQL, schemathesis, Node.js) skip where it is missing, so that
/// `swift test` runs on a bare machine; CI sets `OPENVISION_REQUIRE_ALL=1` (`.ci/run`), and then a missing tool
/// fails those suites instead of letting them pass by skipping.
public enum RequiredTools {
    /// True when every tool-dependent suite must run (`OPENVISION_REQUIRE_ALL=1`).
    public static var required: Bool { ProcessInfo.processInfo.environment["OPENVISION_REQUIRE_ALL"] == "1" }

    /// Whether a suite needing a tool runs: when the tool is `available`, or when it is required (it then fails
    /// on its own check of the tool).
    public static func runs(_ available: Bool) -> Bool { available || required }
}
