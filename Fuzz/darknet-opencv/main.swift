// libFuzzer target: differential between OpenVision's Darknet check for OpenCV's reader
// (DarknetConfig(text:reader: .openCV), what VisionModel runs before OpenCV sees a .cfg) and OpenCV 4.6's
// importer itself. Every small network the check accepts is read by cv::dnn::readNetFromDarknet with
// zero weights of exactly the count the check computed, and run once: OpenCV must not crash (a signal
// ends the run with a reproducer) and must not throw anything but cv::Exception (a std::out_of_range
// means an index the check let through). Networks the check refuses are not handed to OpenCV.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDarknetOpenCV(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    guard let config = try? DarknetConfig(text: text, fileName: "fuzz.cfg", reader: .openCV) else { return 0 }
    // Keep each run small (the fuzzer's time and memory, not the check's limits).
    let largest = config.layers.map { $0.output.channels * $0.output.height * $0.output.width }.max() ?? 0
    guard config.weightFloatCount <= 1 << 18, largest <= 1 << 18, config.layers.count <= 64,
        config.width * config.height * config.channels <= 1 << 16
    else { return 0 }
    var weights = Data([0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    weights.append(Data(count: config.weightFloatCount * 4))
    let cfg = Data(text.utf8)
    let result = cfg.withUnsafeBytes { c in
        weights.withUnsafeBytes { w in
            fuzz_opencv_darknet(
                c.baseAddress?.assumingMemoryBound(to: CChar.self), c.count,
                w.baseAddress?.assumingMemoryBound(to: CChar.self), w.count,
                Int32(config.width), Int32(config.height), Int32(config.channels))
        }
    }
    precondition(result != 2, "OpenCV threw a C++ exception other than cv::Exception on a network the check accepted")
    return 0
}
