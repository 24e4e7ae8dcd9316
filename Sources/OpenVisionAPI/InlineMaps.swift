import Foundation
import OpenVision

/// `POST /v1/analyze?maps=true`: each image-valued result (saliency and objectness heat maps, the person mask) in
/// the answer itself, its `png` a `data:image/png;base64,…` URL of the 8-bit map (the values 0...1 as 0...255).
struct InlineMaps: MapOutput {
    func write(_ map: PixelBufferObservation, request: String, name: String) throws(VisionError)
        -> AnalysisReport.MapFiles
    {
        let png = try map.makeImage().encoded(as: .png)
        return AnalysisReport.MapFiles(png: "data:image/png;base64," + png.base64EncodedString(), npy: nil)
    }
}
