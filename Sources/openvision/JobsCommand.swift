import ArgumentParser
import Foundation
import OpenVision
import OpenVisionJobs

/// `openvision jobs`: the queue's producer and read-out side (the workers are `openvision worker`).
struct JobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs",
        abstract:
            "Queue images and live streams in PostgreSQL for a fleet of `openvision worker`s; read states and results.",
        discussion: "The schema is created on first use; docs/jobs.md describes tables, states and leases.",
        subcommands: [Submit.self, SubmitStream.self, Status.self, Results.self, Retry.self]
    )

    /// Prints `error` as the CLI does and exits 1.
    static func fail(_ error: JobsError) -> Never {
        FileHandle.standardError.write(Data("openvision: error: \(error.message) [\(error.code.rawValue)]\n".utf8))
        fflush(nil)
        _exit(1)  // as OpenVisionCommand.main ends: no static destructors under ONNX Runtime's threads
    }

    /// Runs `body` on an open store, closing it after; database errors are one line and exit 1.
    static func withStore<T>(_ database: DatabaseOption, _ body: (JobStore) async throws -> T) async throws -> T {
        let store = try await database.open()
        do {
            let value = try await body(store)
            await store.close()
            return value
        } catch let error as JobsError {
            await store.close()
            fail(error)
        }
    }

    struct Submit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Enqueue one analysis job per image.",
            discussion: """
                INPUT: an image file, a directory (its images, as `analyze` lists them), or a list file (.txt or \
                .list: one image path per line; blank lines and lines starting with # are skipped; relative paths \
                are relative to the list's folder). Paths are stored absolute: workers must see the same files \
                (a shared mount). Prints {"first":ID,"last":ID,"submitted":N}.
                """
        )
        @OptionGroup var database: DatabaseOption
        @Argument(help: "Images, directories or list files.") var inputs: [String]
        @Option(
            name: .shortAndLong,
            help: ArgumentHelp(
                "Requests to run, as `openvision analyze --requests` (default "
                    + RequestKind.stillDefaults.map(\.name).joined(separator: ",") + ")."))
        var requests: String?
        @OptionGroup var requestOptions: RequestOptionFlags<StillScope>
        @Flag(help: "Decoder warnings are errors, as `analyze --strict`.") var strict = false
        @Option(help: "Attempts before a job is failed for good (1...\(JobStore.maximumAttempts)).") var maxAttempts:
            Int = 3

        /// The job payload, checked with the rules the worker's still analysis applies (a usage error otherwise).
        func jobOptions() throws -> JobOptions {
            var options = JobOptions(requests: requests, options: try requestOptions.options())
            options.strict = strict ? true : nil
            do { _ = try options.stillAnalysis() } catch { throw ValidationError(error.message) }
            return options
        }

        func validate() throws {
            _ = try jobOptions()
            try JobsCommand.checkAttempts(maxAttempts)
        }

        func run() async throws {
            var paths: [String] = []
            for input in inputs { paths += try Self.expand(input) }
            guard !paths.isEmpty else { throw ValidationError("no images found in \(inputs.joined(separator: " "))") }
            let json = try jobOptions().json()
            let ids = try await JobsCommand.withStore(database) {
                try await $0.submit(kind: .image, inputs: paths, options: json, maxAttempts: maxAttempts)
            }
            BatchRunner.write(#"{"first":\#(ids.first ?? 0),"last":\#(ids.last ?? 0),"submitted":\#(ids.count)}"#)
        }

        /// The absolute image paths an input stands for.
        static func expand(_ input: String) throws -> [String] {
            let url = URL(fileURLWithPath: input).standardizedFileURL
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
            if exists && isDirectory.boolValue {
                do { return try ImageSequence.imageFiles(inDirectory: url.path).map(\.standardizedFileURL.path) } catch
                {
                    throw ValidationError("\(input): \(error.message)")
                }
            }
            guard ["txt", "list"].contains(url.pathExtension.lowercased()) else { return [url.path] }
            guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                throw ValidationError("cannot read list \(input)")
            }
            let folder = url.deletingLastPathComponent()
            return text.split(whereSeparator: \.isNewline).compactMap { line in
                let entry = line.trimmingCharacters(in: .whitespaces)
                guard !entry.isEmpty, !entry.hasPrefix("#") else { return nil }
                return (entry.hasPrefix("/") ? URL(fileURLWithPath: entry) : folder.appendingPathComponent(entry))
                    .standardizedFileURL.path
            }
        }
    }

    struct SubmitStream: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "submit-stream",
            abstract: "Enqueue live sources (cameras, streams, videos, image folders), one stream job each.",
            discussion: """
                A worker with a free stream slot (`openvision worker --streams N`) owns each source under a lease it \
                renews while it analyses; if it dies, another worker takes the source over within the lease time. \
                Frames go into openvision_stream_frames (`openvision jobs results --stream ID`). SOURCE is as for \
                `openvision live`; existing local paths are stored absolute. Prints {"first":ID,"last":ID,"submitted":N}.
                """
        )
        @OptionGroup var database: DatabaseOption
        @Argument(help: "Sources: 0 or /dev/video0, rtsp:// or http(s):// streams, video files, image folders.")
        var sources: [String]
        @Option(
            name: .shortAndLong,
            help: ArgumentHelp(
                "Requests, as `live --requests` (default: detect with --model, else "
                    + RequestKind.liveDefaults.map(\.name).joined(separator: ",") + ")."))
        var requests: String?
        @OptionGroup var requestOptions: RequestOptionFlags<LiveScope>
        @Option(help: "Longest side of the analysed copy in pixels.") var analysisSize: Int?
        @Option(help: "Stop each stream (succeeded) after this many seconds; default: until the source ends.")
        var duration: Double?
        @Option(
            help:
                "Attempts (a source that cannot be opened, a worker lost) before a stream is failed for good (1...\(JobStore.maximumAttempts))."
        )
        var maxAttempts: Int = 3

        /// The job payload, checked as the worker reads it (a usage error otherwise).
        func jobOptions() throws -> JobOptions {
            var options = JobOptions(requests: requests, options: try requestOptions.options())
            do { _ = try options.streamKinds() } catch { throw ValidationError(error.message) }
            options.analysisSize = analysisSize
            options.duration = duration
            return options
        }

        func validate() throws {
            _ = try jobOptions()
            try JobsCommand.checkAttempts(maxAttempts)
        }

        func run() async throws {
            let json = try jobOptions().json()
            let inputs = sources.map {
                FileManager.default.fileExists(atPath: $0) ? URL(fileURLWithPath: $0).standardizedFileURL.path : $0
            }
            let ids = try await JobsCommand.withStore(database) {
                try await $0.submit(kind: .stream, inputs: inputs, options: json, maxAttempts: maxAttempts)
            }
            BatchRunner.write(#"{"first":\#(ids.first ?? 0),"last":\#(ids.last ?? 0),"submitted":\#(ids.count)}"#)
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Jobs per state: queued, running, succeeded, failed.",
            discussion: #"JSON: {"failed":N,"queued":N,"running":N,"succeeded":N}; text: one "STATE N" line each."#
        )
        @OptionGroup var database: DatabaseOption
        @Option(help: "Only jobs of this kind: image or stream.") var kind: String?
        @Option(name: .shortAndLong, help: "Output format: json or text.") var format: OutputFormat = .json

        func run() async throws {
            let kind = try JobsCommand.kind(self.kind)
            let counts = try await JobsCommand.withStore(database) { try await $0.counts(kind: kind) }
            let states = JobState.allCases.map { ($0.rawValue, counts[$0] ?? 0) }
            switch format {
            case .json:
                BatchRunner.write(
                    "{" + states.sorted { $0.0 < $1.0 }.map { #""\#($0.0)":\#($0.1)"# }.joined(separator: ",") + "}")
            case .text, .table:
                BatchRunner.write(states.map { "\($0.0) \($0.1)" }.joined(separator: "\n"))
            }
        }
    }

    struct Results: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Finished jobs as JSON Lines, by id; or one stream job's frames.",
            discussion: """
                One object per job: {"attempts":N,"id":N,"input":…,"kind":…,"result":{…},"state":"succeeded","worker":…} \
                (result: as `openvision analyze` prints it) or, failed, with "error" instead of "result". With --stream \
                ID: that stream job's frames, {"frame":N,"job":ID,"result":{…},"worker":…}.
                """
        )
        @OptionGroup var database: DatabaseOption
        @Option(help: "succeeded, failed, or finished (both).") var state: String = "finished"
        @Option(help: "Only jobs of this kind: image or stream.") var kind: String?
        @Option(help: "Only jobs (or frames, with --stream) with an id above this one.") var after: Int64 = 0
        @Option(help: "At most this many lines (0 = all).") var limit: Int = 0
        @Option(help: "Print the frames of this stream job instead.") var stream: Int64?

        func run() async throws {
            let states: [JobState]
            switch state {
            case "finished": states = [.succeeded, .failed]
            case "succeeded": states = [.succeeded]
            case "failed": states = [.failed]
            default: throw ValidationError("--state: succeeded, failed or finished")
            }
            let kind = try JobsCommand.kind(self.kind)
            try await JobsCommand.withStore(database) { store in
                var after = self.after
                var printed = 0
                while limit == 0 || printed < limit {
                    let page = min(1000, limit == 0 ? 1000 : limit - printed)
                    let lines =
                        if let stream { try await store.frames(job: stream, after: after, limit: page) } else {
                            try await store.results(states: states, kind: kind, after: after, limit: page)
                        }
                    guard let last = lines.last else { break }
                    BatchRunner.write(lines.map(\.json).joined(separator: "\n"))
                    printed += lines.count
                    after = last.id
                }
            }
        }
    }

    struct Retry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Put failed jobs back in the queue with their attempts reset.",
            discussion: #"Prints {"requeued":N}."#
        )
        @OptionGroup var database: DatabaseOption
        @Option(
            name: .customLong("id"), parsing: .singleValue,
            help: "Only this job (repeatable); default: every failed job.")
        var ids: [Int64] = []

        func run() async throws {
            let ids = self.ids
            let count = try await JobsCommand.withStore(database) {
                try await $0.retryFailed(ids: ids.isEmpty ? nil : ids)
            }
            BatchRunner.write(#"{"requeued":\#(count)}"#)
        }
    }

    static func checkAttempts(_ value: Int) throws {
        guard (1...JobStore.maximumAttempts).contains(value) else {
            throw ValidationError("--max-attempts must be 1...\(JobStore.maximumAttempts), got \(value)")
        }
    }

    static func kind(_ name: String?) throws -> JobKind? {
        guard let name else { return nil }
        guard let kind = JobKind(rawValue: name) else { throw ValidationError("--kind: image or stream") }
        return kind
    }
}
