import CoreGraphics
import Foundation
import Testing

/// `NSLog` with an object for `%@`, as Apple's (the face-tracking sample's `NSLog("Failed …: %@", error)`): an
/// `NSError` prints as Apple's `-[NSError description]` does, e.g. on macOS
/// `swift -e 'import Foundation; print(NSError(domain: "D", code: 3, userInfo: [NSLocalizedDescriptionKey: "bad"]))'`
/// → `Error Domain=D Code=3 "bad" UserInfo={NSLocalizedDescription=bad}`, and without a description `"(null)"`.
@Suite struct NSLogTests {
    @Test func anErrorFormatsAsApplesDescription() {
        let error = NSError(domain: "D", code: 3, userInfo: [NSLocalizedDescriptionKey: "bad"])
        let arguments = nsLogArguments(["request", error, 7])
        #expect(
            String(format: "%@ failed: %@ (%d)", arguments: arguments)
                == "request failed: Error Domain=D Code=3 \"bad\" UserInfo={NSLocalizedDescription=bad} (7)")
        let bare = NSError(domain: "com.example", code: -1)
        #expect(
            String(format: "%@", arguments: nsLogArguments([bare])) == "Error Domain=com.example Code=-1 \"(null)\"")
    }

    /// Other objects print their `description`; CVarArgs pass through unchanged.
    @Test func otherArgumentsKeepTheirFormatting() {
        let url = NSURL(fileURLWithPath: "/tmp/a.png")
        #expect(String(format: "%@", arguments: nsLogArguments([url])) == url.description)
        #expect(String(format: "%.2f %@ %ld", arguments: nsLogArguments([1.5, "x", 42])) == "1.50 x 42")
    }

    /// The overload writes its line to the standard error as Foundation's `NSLog` does (the message after the date,
    /// process name and id).
    @Test func logsTheLineToStandardError() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("nslog-\(UUID().uuidString).txt").path
        let file = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        try #require(file >= 0)
        defer { unlink(path) }
        let saved = dup(2)
        dup2(file, 2)
        NSLog("Failed to perform SequenceRequest: %@", NSError(domain: "VNErrorDomain", code: 9))
        dup2(saved, 2)
        close(saved)
        close(file)
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.contains("Failed to perform SequenceRequest: Error Domain=VNErrorDomain Code=9 \"(null)\"\n"))
    }
}
