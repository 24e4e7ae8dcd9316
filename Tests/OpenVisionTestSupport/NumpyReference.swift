import Foundation

/// Reference values computed by Python with OpenCV (`cv2`) and numpy — the system's python3-opencv, which
/// scripts/setup installs — for tests that hold pixels to OpenCV's or numpy's answer. The reference code is kept in
/// the test itself: it gets its inputs as numpy arrays named as given, with `np` and `cv2` imported, and sets `out`.
public enum NumpyReference {
    /// An input array: raw bytes in C order, its shape and numpy dtype ("uint8", "float32").
    public struct Array: Sendable {
        public var data: Data
        public var shape: [Int]
        public var dtype: String

        public init(data: Data, shape: [Int], dtype: String = "uint8") {
            self.data = data
            self.shape = shape
            self.dtype = dtype
        }

        /// Float32 values.
        public init(_ values: [Float], shape: [Int]) {
            self.init(data: values.withUnsafeBytes { Data($0) }, shape: shape, dtype: "float32")
        }
    }

    public static let python = "/usr/bin/python3"

    /// Whether python3 with cv2 and numpy is here (checked once).
    public static let available: Bool = {
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        return (try? runProcess(["-c", "import cv2, numpy"]).status) == 0
    }()

    /// Runs `code` on `inputs` and returns `out` flattened as Float32 (C order). Throws when Python fails, with its
    /// error output.
    public static func run(_ code: String, inputs: [String: Array]) throws -> [Float] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ov-numpy-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var prelude = "import sys\nimport numpy as np\nimport cv2\n"
        for (index, (name, array)) in inputs.sorted(by: { $0.key < $1.key }).enumerated() {
            let file = dir.appendingPathComponent("in\(index).bin")
            try array.data.write(to: file)
            let shape = array.shape.map(String.init).joined(separator: ", ")
            prelude += "\(name) = np.fromfile('\(file.path)', np.\(array.dtype)).reshape((\(shape),))\n"
        }
        let output = dir.appendingPathComponent("out.bin")
        let script = prelude + code + "\nnp.ascontiguousarray(out, np.float32).tofile('\(output.path)')\n"
        let scriptFile = dir.appendingPathComponent("reference.py")
        try script.write(to: scriptFile, atomically: true, encoding: .utf8)
        let run = try runProcess([scriptFile.path])
        guard run.status == 0 else {
            throw NSError(
                domain: "NumpyReference", code: Int(run.status),
                userInfo: [NSLocalizedDescriptionKey: "python failed: \(run.stderr)"])
        }
        let bytes = try Data(contentsOf: output)
        return bytes.withUnsafeBytes { Swift.Array($0.bindMemory(to: Float.self)) }
    }

    private static func runProcess(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
    }
}
