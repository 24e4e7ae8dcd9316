import Foundation
import OpenVision

/// Paths and fixtures of the corpus tests: the shared images, and videos made with ffmpeg from a still image (the
/// same picture in every frame, optionally transposed or turned as a phone's sensor would deliver it).
enum Corpus {
    /// The OpenVision checkout (this package is at Examples/PortingCorpus in it).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `../shared` beside the checkout (OPENVISION_SHARED overrides it).
    static let shared = URL(
        fileURLWithPath: ProcessInfo.processInfo.environment["OPENVISION_SHARED"]
            ?? root.deletingLastPathComponent().appendingPathComponent("shared").path)

    static func image(_ name: String) -> URL { shared.appendingPathComponent("images/\(name)") }

    /// A folder for this run's files, removed by the caller.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("porting-corpus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// An H.264 video of `frames` frames at 10 fps showing `still`, made by ffmpeg; `filter` is an ffmpeg video
    /// filter applied first (e.g. "transpose=2" for a sensor turned 90° from upright).
    static func video(of still: URL, frames: Int, filter: String? = nil, in folder: URL) throws -> URL {
        let out = folder.appendingPathComponent("\(still.deletingPathExtension().lastPathComponent).mp4")
        var filters = ["scale=trunc(iw/2)*2:trunc(ih/2)*2"]
        if let filter { filters.insert(filter, at: 0) }
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = [
            "-v", "error", "-y", "-loop", "1", "-i", still.path, "-frames:v", "\(frames)", "-r", "10",
            "-vf", filters.joined(separator: ","), "-c:v", "libx264", "-pix_fmt", "yuv420p", out.path,
        ]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        guard ffmpeg.terminationStatus == 0 else {
            throw VisionError(.ioError, "ffmpeg failed (\(ffmpeg.terminationStatus)) making \(out.path)")
        }
        return out
    }

    /// A white PNG of `width` × `height` with `lines` of black text (DejaVu Sans, `pixelHeight` px) from `origin`.
    static func textImage(
        _ lines: [String], width: Int, height: Int, pixelHeight: Int = 40,
        origin: CGPoint = CGPoint(x: 40, y: 40), in folder: URL, name: String
    ) throws -> URL {
        var canvas = try ImageCanvas(width: width, height: height, color: .white)
        for (i, line) in lines.enumerated() {
            try canvas.text(
                line, at: CGPoint(x: origin.x, y: origin.y + Double(i * pixelHeight * 3 / 2)),
                fontFile: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", pixelHeight: pixelHeight,
                color: OverlayColor(red: 0, green: 0, blue: 0))
        }
        let url = folder.appendingPathComponent(name)
        try canvas.makeImage().encoded(as: .png).write(to: url)
        return url
    }
}
