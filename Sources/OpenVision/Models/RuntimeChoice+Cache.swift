import Foundation
internal import OpenVisionConverters

extension RuntimeChoice {
    /// The record of one choice, `NAME.choice` in the cache (NAME: `<stem>-<32 hex digits of the graph's SHA-256>-<the
    /// key's tag>`). Eleven lines of printable ASCII:
    ///
    ///     openvision-runtime-choice 2
    ///     source <64 hex digits: the ONNX graph's SHA-256>
    ///     onnxruntime <ONNX Runtime's version>
    ///     openvino <the OpenVINO library's identity: VERSION, path, size, modification time>
    ///     threads <the thread setting>
    ///     machine <CPU model x cores>
    ///     method <RuntimeChoice.methodField: the method's version, graph optimisation, the caller's warm-up shapes>
    ///     runtime onnxruntime|openvino
    ///     timings <ONNX Runtime's median ms|-> <OpenVINO's median ms|->
    ///     reason <why, one line>
    ///     sha256 <64 hex digits: the SHA-256 of the ten lines above, newlines included>
    ///
    /// The reader is strict (nil for anything else: version 1's records, which lacked the method, included), and a
    /// record is used only when its SHA-256, its source and every key field match.
    struct Entry: Sendable, Equatable {
        var source: String
        var key: Key
        var decision: Decision

        static let header = "openvision-runtime-choice 2"
        static let maximumBytes = 4096

        init(source: String, key: Key, decision: Decision) {
            self.source = source
            self.key = key
            self.decision = decision
            self.decision.cached = false
        }

        /// Reads a record; nil unless it is exactly as `text` writes one.
        init?(bytes: [UInt8]) {
            guard bytes.count <= Self.maximumBytes, bytes.allSatisfy({ $0 == 0x0A || (0x20..<0x7F).contains($0) })
            else { return nil }
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                .map(String.init)
            let keys = [
                "source", "onnxruntime", "openvino", "threads", "machine", "method", "runtime", "timings", "reason",
                "sha256",
            ]
            guard lines.count == 12, lines[0] == Self.header, lines[11].isEmpty else { return nil }
            var values: [String] = []
            for (index, key) in keys.enumerated() {
                guard lines[index + 1].hasPrefix(key + " ") else { return nil }
                values.append(String(lines[index + 1].dropFirst(key.count + 1)))
            }
            let body = lines[0..<10].joined(separator: "\n") + "\n"
            guard Self.isHash(values[0]), Self.isHash(values[9]), SHA256.hex(Array(body.utf8)) == values[9],
                let threads = Int(values[3]), String(threads) == values[3], threads >= 0,
                let runtime = Decision.Runtime(rawValue: values[6])
            else { return nil }
            let timings = values[7].split(separator: " ", omittingEmptySubsequences: false)
            guard timings.count == 2 else { return nil }
            func milliseconds(_ text: Substring) -> Double?? {
                if text == "-" { return .some(nil) }
                guard let value = Double(text), value.isFinite, value >= 0 else { return nil }
                return .some(value)
            }
            guard let ort = milliseconds(timings[0]), let vino = milliseconds(timings[1]) else { return nil }
            source = values[0]
            key = Key(
                onnxRuntime: values[1], openVINO: values[2], threads: threads, machine: values[4], method: values[5])
            decision = Decision(
                runtime: runtime, onnxRuntimeMilliseconds: ort, openVINOMilliseconds: vino, reason: values[8])
        }

        /// The record as written (text fields cut to one line of printable ASCII, at most 300 characters).
        var text: String {
            func field(_ text: String) -> String {
                String(text.unicodeScalars.prefix(300).map { (0x20..<0x7F).contains($0.value) ? Character($0) : "?" })
            }
            func ms(_ value: Double?) -> String { value.map { String(format: "%.4f", $0) } ?? "-" }
            let body =
                "\(Self.header)\nsource \(source)\nonnxruntime \(key.onnxRuntime)\n"
                + "openvino \(key.openVINO)\nthreads \(key.threads)\nmachine \(key.machine)\nmethod \(key.method)\n"
                + "runtime \(decision.runtime.rawValue)\n"
                + "timings \(ms(decision.onnxRuntimeMilliseconds)) \(ms(decision.openVINOMilliseconds))\n"
                + "reason \(field(decision.reason))\n"
            return body + "sha256 \(SHA256.hex(Array(body.utf8)))\n"
        }

        static func isHash(_ text: String) -> Bool {
            text.utf8.count == 64 && text.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
        }
    }

    /// The cache of choices: `openvision/runtime` in the folders `ConvertedModelCache` uses, with its stamp files (a
    /// graph whose path, size, modification time and inode are unchanged is found without hashing it again).
    struct Store {
        let folders: [URL]

        init(home: URL?, temporary: URL?) {
            let directory = (home ?? ConvertedModelCache.cacheHome()).appendingPathComponent("openvision/runtime")
            folders = ConvertedModelCache.folders("runtime", directory: directory, temporary: temporary)
        }

        /// `<stem>-<32 hex digits of source>-<key tag>.choice`, the stem as `ConvertedModelCache` writes it.
        static func entryName(_ model: URL, source: String, key: Key) -> String {
            let converted = ConvertedModelCache.entryName(model, key: source, revision: 0)
            return String(converted.dropLast("-r0.onnx".count)) + "-\(key.tag).choice"
        }

        /// The checked record for the graph at `model` and `key`, if any.
        func lookup(_ model: URL, key: Key) -> Entry? {
            let stamp = ConvertedModelCache.stamp(model).map { "\($0)-\(key.tag).key" }
            if let stamp {
                for folder in folders {
                    guard let bytes = PrivateFolder.read(ConvertedModelCache.file(stamp, in: folder), limit: 512),
                        let name = String(bytes: bytes, encoding: .utf8), name.utf8.count <= 160, !name.contains("/"),
                        !name.hasPrefix("."), name.hasSuffix("-\(key.tag).choice"),
                        let entry = read(ConvertedModelCache.file(name, in: folder), key: key),
                        name.hasSuffix("-\(entry.source.prefix(32))-\(key.tag).choice")
                    else { continue }
                    return entry
                }
            }
            guard let source = try? ConvertedModelCache.contentHash(model) else { return nil }
            let name = Self.entryName(model, source: source, key: key)
            for folder in folders {
                if let entry = read(ConvertedModelCache.file(name, in: folder), key: key), entry.source == source {
                    if let stamp {
                        PrivateFolder.write(Data(name.utf8), to: ConvertedModelCache.file(stamp, in: folder))
                    }
                    return entry
                }
            }
            return nil
        }

        /// Keeps `decision` for the graph at `model` and `key` in the first folder that takes it (nothing when none
        /// does: the next load measures again).
        func save(_ decision: Decision, for model: URL, key: Key) {
            guard let source = try? ConvertedModelCache.contentHash(model) else { return }
            let name = Self.entryName(model, source: source, key: key)
            let entry = Entry(source: source, key: key, decision: decision)
            for folder in folders
            where PrivateFolder.write(Data(entry.text.utf8), to: ConvertedModelCache.file(name, in: folder)) {
                if let stamp = ConvertedModelCache.stamp(model) {
                    PrivateFolder.write(
                        Data(name.utf8), to: ConvertedModelCache.file("\(stamp)-\(key.tag).key", in: folder))
                }
                return
            }
        }

        /// The record at `url` when it reads (a regular file of this user) and is for `key`.
        func read(_ url: URL, key: Key) -> Entry? {
            guard let bytes = PrivateFolder.read(url, limit: Entry.maximumBytes), let entry = Entry(bytes: bytes),
                entry.key == key
            else { return nil }
            return entry
        }
    }
}
