// libFuzzer target: the Darknet .weights reader (OpenVisionConverters/Darknet/DarknetWeights.swift)
// against a small fixed network: the header, the size check, and the conversion of what it accepts.
import Foundation

let network: DarknetConfig = {
    let cfg = """
        [net]
        width=16
        height=16
        channels=3
        [convolutional]
        batch_normalize=1
        filters=4
        size=3
        stride=2
        pad=1
        activation=leaky
        [convolutional]
        filters=18
        size=1
        activation=linear
        [yolo]
        classes=1
        anchors=2,3,4,5,6,7
        mask=0,1,2
        """
    return try! DarknetConfig(text: cfg, fileName: "fuzz.cfg")
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDarknetWeights(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    guard let weights = try? DarknetWeights(data: data, fileName: "fuzz.weights", config: network) else { return 0 }
    var converter = DarknetToONNX(config: network, weights: weights, classNames: ["one"])
    let model = try! converter.makeModel().serialized()
    precondition((try? ONNXModelInfo(data: model)) != nil)
    return 0
}
