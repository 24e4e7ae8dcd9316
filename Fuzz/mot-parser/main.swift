// libFuzzer target: the MOTChallenge text parser (OpenVision/Tracking/MOTFormat.swift), built with
// MOTRecord.swift and VisionError.swift only. Any input must give records or an invalidArgument error
// naming a line that exists; parsed records must survive format → parse unchanged.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMOTParser(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    do {
        let records = try MOTFormat.parse(text)
        for r in records {
            precondition(r.frame >= 1 && r.width >= 0 && r.height >= 0 && r.x.isFinite && r.score.isFinite)
        }
        precondition((try? MOTFormat.parse(MOTFormat.format(records))) == records, "round trip")
    } catch {
        precondition(error.code == .invalidArgument && error.message.hasPrefix("line "))
    }
    return 0
}
