import Foundation
import OpenVisionTestSupport

/// A private, throwaway PostgreSQL cluster for the tests: `initdb` into a temporary folder, the
/// server on a Unix socket in that folder (no TCP), trust authentication, user
/// `postgres`. PostgreSQL refuses to run as root, so under root (CI) the folder is given to the
/// `postgres` system user (or `nobody`) and every server command runs through `runuser`.
/// `stop()` shuts the server down and deletes the folder.
final class PostgresCluster: @unchecked Sendable {
    /// The server binaries (initdb, pg_ctl, psql): Debian's /usr/lib/postgresql/N/bin, newest first,
    /// or nil when PostgreSQL is not installed (the tests are then skipped: run ./scripts/setup).
    static let binDirectory: URL? = {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted(
            by: >)
        for version in versions {
            let bin = URL(fileURLWithPath: "\(root)/\(version)/bin")
            if FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("pg_ctl").path),
                FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("initdb").path)
            {
                return bin
            }
        }
        return nil
    }()

    static var available: Bool { binDirectory != nil }

    let folder: URL
    let port: Int
    private let bin: URL
    private let runAs: String?

    var data: String { folder.appendingPathComponent("data").path }
    /// The Unix socket in the cluster's folder, user postgres, database `database`. (Not TCP: the tests'
    /// many connections would take ephemeral ports that other tests bind and rebind.)
    func url(database: String = "postgres") -> String {
        "postgres://postgres@/\(database)?host=\(folder.path)&port=\(port)"
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    init() throws {
        guard let bin = Self.binDirectory else {
            throw Failure(description: "PostgreSQL binaries not found (./scripts/setup installs postgresql)")
        }
        self.bin = bin
        folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("ov-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if geteuid() == 0 {
            let user = getpwnam("postgres") != nil ? "postgres" : "nobody"
            runAs = user
            try Self.shell(["/bin/chown", "-R", user, folder.path])
        } else {
            runAs = nil
        }
        port = try Self.freePort()
        try run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"])
        // Small and quick: no fsync (a test cluster is thrown away), little shared memory.
        let conf = """

            listen_addresses = ''
            port = \(port)
            unix_socket_directories = '\(folder.path)'
            fsync = off
            synchronous_commit = off
            full_page_writes = off
            shared_buffers = 16MB
            max_connections = 60
            """
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: data).appendingPathComponent("postgresql.conf"))
        handle.seekToEndOfFile()
        handle.write(Data(conf.utf8))
        try handle.close()
        try start()
    }

    func start() throws {
        try run(
            "pg_ctl", ["-D", data, "-l", folder.appendingPathComponent("server.log").path, "-w", "-t", "120", "start"])
    }

    /// `pg_ctl restart -m fast`: every client connection is cut.
    func restart() throws {
        try run(
            "pg_ctl",
            [
                "-D", data, "-l", folder.appendingPathComponent("server.log").path, "-m", "fast", "-w", "-t", "120",
                "restart",
            ])
    }

    /// Stops the server at once and deletes the folder.
    func stop() {
        _ = try? run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs SQL through psql; returns its unaligned, tuples-only output.
    @discardableResult
    func psql(_ sql: String, database: String = "postgres") throws -> String {
        try run(
            "psql",
            [
                "-h", folder.path, "-p", String(port), "-U", "postgres", "-d", database, "-X", "-At", "-v",
                "ON_ERROR_STOP=1", "-c", sql,
            ])
    }

    /// The database a `url(database:)` names.
    static func database(in url: String) -> String {
        String(URLComponents(string: url)?.path.dropFirst() ?? "")
    }

    /// A new empty database, for a test of its own.
    func createDatabase() throws -> String {
        let name = "t_\(UUID().uuidString.prefix(8).lowercased())"
        try psql("CREATE DATABASE \(name)")
        return url(database: name)
    }

    @discardableResult
    private func run(_ tool: String, _ arguments: [String]) throws -> String {
        let path = bin.appendingPathComponent(tool).path
        if let runAs { return try Self.shell(["/usr/sbin/runuser", "-u", runAs, "--", path] + arguments) }
        return try Self.shell([path] + arguments)
    }

    /// Runs `command` with posix_spawn and waitpid, its output into files. (Foundation's Process
    /// missed runuser's exit once pg_ctl had left the server running: waitUntilExit never returned.)
    @discardableResult
    private static func shell(_ command: [String]) throws -> String {
        let tag = UUID().uuidString
        let outPath = "/tmp/ov-pg-\(tag).out"
        let errPath = "/tmp/ov-pg-\(tag).err"
        defer {
            unlink(outPath)
            unlink(errPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // From /tmp: the postgres user may not be allowed into the test's working directory. Nothing else of the
        // test process goes with it: pg_ctl leaves the postgres server running for the whole suite, and an inherited
        // descriptor (another test's listening socket) would keep that test's port taken after it closed. (Glibc's
        // posix_spawn_file_actions_addclosefrom_np is not visible to Swift; bash closes them before the exec.)
        let closeInherited =
            "for p in /proc/$$/fd/*; do fd=${p##*/}; if [ \"$fd\" -gt 2 ] 2>/dev/null; then eval \"exec $fd>&-\"; fi; done"
        let wrapped =
            ["/bin/bash", "-c", "cd /tmp && { \(closeInherited); } 2>/dev/null; exec \"$@\"", "bash"] + command
        let argv = wrapped.map { strdup($0) } + [nil]
        defer { for arg in argv { free(arg) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, wrapped[0], &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure(description: "cannot run \(command[0]): errno \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let stdout = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let exited = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        guard exited == 0 else {
            let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
            throw Failure(description: "\(command.joined(separator: " ")) exited \(exited): \(stderr)\(stdout)")
        }
        return stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A TCP port nothing listens on now (bound to 0, read back, closed).
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "bind() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

extension PostgresCluster {
    /// One cluster for the tests that need a database each (not a restart): started on first use,
    /// stopped when the test process exits.
    static let shared: Result<PostgresCluster, any Error> = {
        let result = Result { try PostgresCluster() }
        if case .success(let cluster) = result {
            sharedToStop = cluster
            atexit { sharedToStop?.stop() }
        }
        return result
    }()
}

nonisolated(unsafe) private var sharedToStop: PostgresCluster?
