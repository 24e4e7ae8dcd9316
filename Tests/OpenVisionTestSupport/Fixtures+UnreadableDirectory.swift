import Foundation

/// A directory the test process cannot list, for checking what a failed listing reports. Root
/// ignores permissions, so as root the only candidate is /proc/1/map_files, whose listing needs
/// CAP_SYS_ADMIN in PID 1's user namespace (root in a container lacks it).
extension Fixtures {
    private static let procMapFiles = "/proc/1/map_files"

    /// True when `unreadableDirectory()` can give one here: when not root, or when `ls` cannot list
    /// /proc/1/map_files.
    public static let canMakeUnreadableDirectory: Bool = getuid() != 0 || lsFails(procMapFiles)

    /// A new mode-000 folder (holding one PNG name) when not root, else /proc/1/map_files. Give it
    /// back to `discard(unreadableDirectory:)`.
    public static func unreadableDirectory() throws -> String {
        guard getuid() != 0 else { return procMapFiles }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ov-unreadable-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data().write(to: dir.appendingPathComponent("a.png"))
        guard chmod(dir.path, 0) == 0 else { throw CocoaError(.fileWriteNoPermission) }
        return dir.path
    }

    /// Makes a folder from `unreadableDirectory()` readable again and removes it (leaves /proc alone).
    public static func discard(unreadableDirectory path: String) {
        guard path != procMapFiles else { return }
        chmod(path, 0o700)
        try? FileManager.default.removeItem(atPath: path)
    }

    private static func lsFails(_ path: String) -> Bool {
        let ls = Process()
        ls.executableURL = URL(fileURLWithPath: "/bin/ls")
        ls.arguments = [path]
        ls.standardOutput = FileHandle.nullDevice
        ls.standardError = FileHandle.nullDevice
        guard (try? ls.run()) != nil else { return false }
        ls.waitUntilExit()
        return ls.terminationStatus != 0
    }
}
