// classify-photo PHOTO: the barcodes, faces and ImageNet classes in one photo, through
// OpenVision's request/handler API (one decode shared by the three requests).
import Foundation
import OpenVision

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: classify-photo PHOTO\n".utf8))
    exit(64)
}
let photo = URL(fileURLWithPath: CommandLine.arguments[1])
let handler = ImageRequestHandler(photo)
do {
    let (codes, faces, classes) = try await handler.perform(
        DetectBarcodesRequest(), DetectFaceRectanglesRequest(),
        ClassifyImageRequest())
    let size = try handler.imageSize()
    print("\(photo.lastPathComponent): \(Int(size.width))×\(Int(size.height))")
    for code in codes { print("  barcode \(code.symbology.rawValue): \(code.payloadString ?? "<binary>")") }
    for face in faces {
        let box = face.boundingBox.toImageCoordinates(size, origin: .upperLeft)
        print(
            String(
                format: "  face %.2f at x=%.0f y=%.0f w=%.0f h=%.0f", face.confidence, box.minX, box.minY, box.width,
                box.height))
    }
    for label in classes.prefix(3) { print(String(format: "  %.3f  %@", label.confidence, label.identifier)) }
} catch {
    FileHandle.standardError.write(Data("classify-photo: \(error.message) [\(error.code)]\n".utf8))
    exit(1)
}
