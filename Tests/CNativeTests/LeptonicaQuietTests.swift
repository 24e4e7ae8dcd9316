import CNative
import Foundation
import Testing

/// Issue 37, row 16: Leptonica (libtesseract's image library) printed its errors on the CLI's stderr ("Error in
/// pixScanForForeground: …", from Tesseract's page layout). Once an OCR engine is made, Leptonica's error stream is
/// silenced: the same call that printed that line prints nothing.
@Suite struct LeptonicaQuietTests {
    /// What `body` writes to file descriptor 2.
    static func stderr(of body: () -> Void) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ov-stderr-\(UUID())")
        FileManager.default.createFile(atPath: file.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: file) }
        let saved = dup(2)
        let fd = open(file.path, O_WRONLY)
        dup2(fd, 2)
        body()
        fflush(nil)
        dup2(saved, 2)
        close(fd)
        close(saved)
        return try String(contentsOf: file, encoding: .utf8)
    }

    @Test func leptonicaErrorsStayOffStderr() throws {
        var ocr: OpaquePointer?
        #expect(ov_ocr_create(nil, "eng", &ocr) == OV_OK)
        defer { ov_ocr_free(ocr) }
        // libtesseract is loaded now (RTLD_NOLOAD finds it); Leptonica comes with it.
        let library = try #require(dlopen("libtesseract.so.5", RTLD_NOW | RTLD_NOLOAD))
        defer { dlclose(library) }
        let symbol = try #require(dlsym(library, "pixScanForForeground"))
        typealias Scan =
            @convention(c) (UnsafeRawPointer?, UnsafeRawPointer?, Int32, UnsafeMutablePointer<Int32>?) -> Int32
        let scan = unsafeBitCast(symbol, to: Scan.self)
        var location: Int32 = 0
        // A NULL image: Leptonica's "Error in pixScanForForeground: pixs not defined or not 1 bpp".
        let printed = try Self.stderr { _ = scan(nil, nil, 0, &location) }
        #expect(printed.isEmpty, "\(printed)")
    }
}
