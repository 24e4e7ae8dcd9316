import Foundation
import OpenVisionTestSupport
import Synchronization
import Testing

@testable import OpenVision

/// Issue 37, rows 6 and 13: a cache that cannot be poisoned or stuck. Converted models live only in folders the user
/// alone can write (0700, owned, not links); every entry's record (`CachedModelEntry`) and hash are checked before
/// use, and a damaged entry is converted again; XDG's variables are read as the specification says; long model
/// names stay valid file names. The converter here is a closure that counts its calls.
@Suite struct ConvertedModelCacheTests {
    /// How many conversions a cache ran.
    final class Calls: Sendable {
        private let value = Atomic(0)
        func add() { value.add(1, ordering: .relaxed) }
        var count: Int { value.load(ordering: .relaxed) }
    }

    /// A cache in a fresh folder (`home` for the user's cache, `temporary` for the fallback), whose conversions
    /// write `bytes` and are counted.
    static func cache(_ dir: URL, bytes: Data = Data("onnx bytes".utf8), counter: Calls) -> ConvertedModelCache {
        ConvertedModelCache(
            format: "test", what: "test model", revision: 7, home: dir.appendingPathComponent("home"),
            temporary: dir.appendingPathComponent("tmp")
        ) { _ in
            counter.add()
            return bytes
        }
    }

    static func model(in dir: URL, name: String = "model.bin") throws -> URL {
        let url = dir.appendingPathComponent(name)
        try Data("the model".utf8).write(to: url)
        return url
    }

    static func mode(_ url: URL) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) ?? -1
    }

    @Test func entriesAreWrittenPrivatelyWithTheirRecord() throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let calls = Calls()
        let cache = Self.cache(dir, counter: calls)
        let onnx = try cache.onnxFile(for: try Self.model(in: dir))
        #expect(onnx.deletingLastPathComponent() == cache.directory)
        #expect(Self.mode(cache.directory) == 0o700 && Self.mode(cache.directory.deletingLastPathComponent()) == 0o700)
        let record = try CachedModelEntry(bytes: [UInt8](Data(contentsOf: ConvertedModelCache.entryURL(onnx))))
        // sha256("onnx bytes"): python3 -c "import hashlib; print(hashlib.sha256(b'onnx bytes').hexdigest())"
        #expect(record.sha256 == "c1650a9961b22b18b7919016db749eb46e2f14ad9da48dd02aa586fe8a335978")
        #expect(record.size == 10 && record.revision == 7)
        // Found again without converting.
        #expect(try cache.onnxFile(for: try Self.model(in: dir)) == onnx && calls.count == 1)
    }

    /// A truncated, garbage, empty or folder entry, or one whose record is missing or of another revision: converted
    /// again and replaced, not an error on every later run.
    @Test(arguments: ["truncated", "garbage", "empty", "folder", "no record", "other revision"])
    func damagedEntriesAreConvertedAgain(_ damage: String) throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let calls = Calls()
        let cache = Self.cache(dir, counter: calls)
        let model = try Self.model(in: dir)
        let onnx = try cache.onnxFile(for: model)
        let record = ConvertedModelCache.entryURL(onnx)
        switch damage {
        case "truncated": try Data("onnx".utf8).write(to: onnx)
        case "garbage": try Data("PWN! bytes".utf8).write(to: onnx)
        case "empty": try Data().write(to: onnx)
        case "folder":
            try FileManager.default.removeItem(at: onnx)
            try FileManager.default.createDirectory(at: onnx, withIntermediateDirectories: false)
        case "no record": try FileManager.default.removeItem(at: record)
        default:
            try String(decoding: Data(contentsOf: record), as: UTF8.self).replacingOccurrences(
                of: "revision 7", with: "revision 6"
            )
            .write(to: record, atomically: true, encoding: .utf8)
        }
        #expect(try cache.onnxFile(for: model) == onnx)
        #expect(calls.count == 2, "\(damage): not converted again")
        #expect(try Data(contentsOf: onnx) == Data("onnx bytes".utf8))
    }

    /// A converted model planted in the shared temporary folder under the name the old cache used is never read;
    /// a per-user fallback folder someone else made, or made writable by others, is not used as it is.
    @Test func sharedFoldersAreNotRead() throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let calls = Calls()
        let cache = Self.cache(dir, counter: calls)
        let model = try Self.model(in: dir)
        let key = try ConvertedModelCache.contentHash(model)
        let name = ConvertedModelCache.entryName(model, key: key, revision: 7)
        let planted = dir.appendingPathComponent("tmp/openvision-test")
        try FileManager.default.createDirectory(at: planted, withIntermediateDirectories: true)
        try Data("PWN!".utf8).write(to: planted.appendingPathComponent(name))
        #expect(try Data(contentsOf: try cache.onnxFile(for: model)) == Data("onnx bytes".utf8))
        // The per-user fallback, group- and world-writable: made 0700 before use (it is this user's).
        let fallback = dir.appendingPathComponent("tmp/openvision-\(getuid())")
        try FileManager.default.createDirectory(
            at: fallback, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        #expect(PrivateFolder.prepare(fallback, creatingParents: false))
        #expect(Self.mode(fallback) == 0o700)
        // A link is not a folder of this user's; nor (when the tests run as root, which can give it away) is a
        // folder owned by someone else.
        let link = dir.appendingPathComponent("tmp/link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: fallback)
        #expect(!PrivateFolder.prepare(link, creatingParents: false))
        if getuid() == 0 {
            let foreign = dir.appendingPathComponent("tmp/foreign")
            try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)
            #expect(chown(foreign.path, 65534, 65534) == 0)
            #expect(!PrivateFolder.prepare(foreign, creatingParents: false))
        }
    }

    /// A home whose cache cannot be written (read-only): the per-user fallback in the temporary folder, 0700.
    @Test func aReadOnlyHomeFallsBackToAPrivateFolder() throws {
        guard getuid() != 0 else { return }  // root writes anywhere: nothing is read-only to it
        let dir = try CLIProcess.tempDir()
        defer {
            chmod(dir.appendingPathComponent("home").path, 0o700)
            try? FileManager.default.removeItem(at: dir)
        }
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("home"), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o500])
        let calls = Calls()
        let onnx = try Self.cache(dir, counter: calls).onnxFile(for: try Self.model(in: dir))
        #expect(onnx.path.hasPrefix(dir.appendingPathComponent("tmp/openvision-\(getuid())/test").path))
    }

    /// XDG base directory specification: an unset, empty or relative `XDG_CACHE_HOME` is ignored (`$HOME/.cache`).
    @Test func xdgCacheHomeIsReadAsTheSpecificationSays() {
        let home = ["HOME": "/home/u"]
        #expect(ConvertedModelCache.cacheHome(home).path == "/home/u/.cache")
        #expect(ConvertedModelCache.cacheHome(home.merging(["XDG_CACHE_HOME": ""]) { $1 }).path == "/home/u/.cache")
        #expect(
            ConvertedModelCache.cacheHome(home.merging(["XDG_CACHE_HOME": "relative/cache"]) { $1 }).path
                == "/home/u/.cache")
        #expect(
            ConvertedModelCache.cacheHome(home.merging(["XDG_CACHE_HOME": "/var/cache/u"]) { $1 }).path
                == "/var/cache/u")
    }

    /// A 240-character model name: the entry's name stays far below NAME_MAX (255) and the model converts.
    @Test func longModelNamesMakeValidEntryNames() throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let calls = Calls()
        let model = try Self.model(in: dir, name: String(repeating: "é", count: 120) + ".bin")
        let onnx = try Self.cache(dir, counter: calls).onnxFile(for: model)
        #expect(onnx.lastPathComponent.utf8.count <= 64 + 1 + 32 + 8)
        #expect(FileManager.default.fileExists(atPath: onnx.path))
    }

    /// The record reads back what it writes, and nothing but that.
    @Test func entryRecordsAreStrict() throws {
        let hash = String(repeating: "ab", count: 32)
        let entry = CachedModelEntry(source: hash, revision: 4, size: 1234, sha256: hash)
        #expect(try CachedModelEntry(bytes: Array(entry.text.utf8)) == entry)
        let text = entry.text
        for bad in [
            "", text.uppercased(), text.replacingOccurrences(of: "size 1234", with: "size 01234"),
            text.replacingOccurrences(of: "size 1234", with: "size +1234"),
            text.replacingOccurrences(of: "size 1234", with: "size 0x4d2"), text + "extra\n",
            String(text.dropLast()), text.replacingOccurrences(of: "revision 4\n", with: ""),
            text.replacingOccurrences(of: "\n", with: "\r\n"), String(repeating: "x", count: 600),
        ] {
            #expect(throws: VisionError.self, "\(bad.prefix(60))") { try CachedModelEntry(bytes: Array(bad.utf8)) }
        }
    }
}
