import Foundation
import OpenVision
import Testing

@Suite struct MOTFormatTests {
    @Test func roundTrip() throws {
        let records = [
            MOTRecord(frame: 1, id: 3, x: 912.5, y: 484, width: 97, height: 109, score: 0.875),
            MOTRecord(frame: 1, id: -1, x: -4.25, y: 0.1, width: 0, height: 1e-3, score: 1, extra: [1, 0.86, -1]),
            MOTRecord(
                frame: 12, id: 7, x: 1.0 / 3, y: 2.0 / 3, width: 1e7, height: 123_456.789, score: -0.5, extra: []),
        ]
        let text = MOTFormat.format(records)
        #expect(text.hasPrefix("1,3,912.5,484,97,109,0.875,-1,-1,-1\n1,-1,-4.25,0.1,0,0.001,1,1,0.86,-1\n"))
        #expect(try MOTFormat.parse(text) == records)
    }

    @Test func toleratesBlankLinesSpacesCRLFAndTrailingColumns() throws {
        let text =
            "\n1, -1, 794.2, 47.5, 71.2, 174.8, 67.5, -1, -1, -1\r\n\r\n   \n2,-1,10,20,30,40,0.9,\n3,5,1,2,3,4\n4,-1,1,2,3,4,0.5,1,2,3,4,5,6,7\n"
        let records = try MOTFormat.parse(text)
        #expect(records.map(\.frame) == [1, 2, 3, 4])
        #expect(records[0] == MOTRecord(frame: 1, id: -1, x: 794.2, y: 47.5, width: 71.2, height: 174.8, score: 67.5))
        #expect(records[1].extra.isEmpty && records[1].score == 0.9)
        #expect(records[2].score == 1 && records[2].id == 5)
        #expect(records[3].extra == [1, 2, 3, 4, 5, 6, 7])
    }

    @Test(arguments: [
        ("1,-1,1,2,3", 3, "at least 6"),
        ("1,-1,1,2,abc,4,0.5", 3, "width is not a number"),
        ("1,-1,1,2,3,4,nan", 3, "score must be finite"),
        ("1,-1,inf,2,3,4,0.5", 3, "x must be finite"),
        ("1,-1,1,2,-3,4,0.5", 3, "must not be negative"),
        ("1,-1,1,2,3,-0.1,0.5", 3, "must not be negative"),
        ("0,-1,1,2,3,4,0.5", 3, "frame must be a whole number of at least 1"),
        ("1.5,-1,1,2,3,4,0.5", 3, "frame must be"),
        ("1,2.5,1,2,3,4,0.5", 3, "id must be"),
        ("1,-1,1,2,3,4,0.5,-1,x", 3, "column 9 is not a number"),
        ("1,-1,,2,3,4,0.5", 3, "x is not a number"),
        ("1;-1;1;2;3;4", 3, "found 1"),
        // Issue 37, row 17: Swift's Double read "0x10" as 16.
        ("0x10,-1,1,2,3,4,0.5", 3, "frame is not a decimal number without exponent: \"0x10\""),
        ("1e0,-1,1,2,3,4,0.5", 3, "frame is not a decimal number without exponent"),
        ("1,-1,0x1p3,2,3,4,0.5", 3, "x is not a decimal number: \"0x1p3\""),
        ("1,-1,1,2,3,4,infinity", 3, "score must be finite"),
    ])
    func malformedLinesNameTheirLine(line: String, number: Int, message: String) {
        let text = "1,-1,10,20,30,40,0.9\n\n\(line)\n2,-1,10,20,30,40,0.9\n"
        #expect {
            _ = try MOTFormat.parse(text)
        } throws: { error in
            guard let error = error as? VisionError, error.code == .invalidArgument else { return false }
            return error.message.hasPrefix("line \(number): ") && error.message.contains(message)
        }
    }

    @Test func readNamesTheFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ov-mot-\(UUID().uuidString).txt")
        try Data("1,-1,10,20,30,40,0.9\n1,-1,10,20,30\n".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: VisionError.self) { try MOTFormat.read(contentsOf: url) }
        do {
            _ = try MOTFormat.read(contentsOf: url)
        } catch {
            #expect(
                error.message
                    == "\(url.path): line 2: expected at least 6 comma-separated columns (frame,id,x,y,w,h), found 5")
        }
        #expect {
            _ = try MOTFormat.read(contentsOf: url.appendingPathExtension("missing"))
        } throws: { ($0 as? VisionError)?.code == .fileNotFound }
    }
}
