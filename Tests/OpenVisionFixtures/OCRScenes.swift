import Foundation
import OpenVision

/// The rendered and photo-like text images of the `.accurate` text tests, shared with
/// `openvision-bench make-ocr-set` so that the Python peer (rapidocr-onnxruntime) reads the very same
/// pixels that the tests' reference figures quote.
public enum OCRScenes {
    public static let fontDirectory = "/usr/share/fonts/truetype/dejavu/"

    /// A scene: its name, the expected lines (reading order) and how to draw it.
    public struct Scene: Sendable {
        public let name: String
        public let lines: [String]
        /// True for the photo-like scenes (a photo background, perspective, noise, JPEG).
        public let photoLike: Bool
        public let make: @Sendable () throws -> VisionImage
    }

    /// A white 4:3 page (`width` × 3/4 `width`), `lines` of (text, pixel height) set in `font` at x = 60
    /// from y = 120 down, baselines 1.6 heights apart.
    public static func page(_ lines: [(String, Int)], font: String = "DejaVuSans.ttf", width: Int = 1000) throws
        -> VisionImage
    {
        var canvas = try Fixtures.canvas(width: width, height: width * 3 / 4)
        var y = 120
        for (text, size) in lines {
            y += size
            try canvas.text(
                text, at: CGPoint(x: 60, y: y), fontFile: fontDirectory + font, pixelHeight: size,
                color: Fixtures.grayColor(0))
            y += Int(Double(size) * 0.6)
        }
        return canvas.makeImage()
    }

    /// Rendered pages in several fonts and sizes, and one line turned by 90°, 180°, 270° and 12°.
    public static let rendered: [Scene] = {
        let sign = "Camera mounted sideways"
        var scenes: [Scene] = [
            Scene(name: "sans-40", lines: ["Swift reads text on Linux"], photoLike: false) {
                try page([("Swift reads text on Linux", 40)])
            },
            Scene(
                name: "serif-32", lines: ["Invoice 2026-11-22", "Total due 42.50 EUR", "Thank you for your order"],
                photoLike: false
            ) {
                try page(
                    [("Invoice 2026-11-22", 32), ("Total due 42.50 EUR", 32), ("Thank you for your order", 32)],
                    font: "DejaVuSerif.ttf")
            },
            Scene(
                name: "mono-30", lines: ["The quick brown fox jumps", "over the lazy dog 0123456789"], photoLike: false
            ) {
                try page(
                    [("The quick brown fox jumps", 30), ("over the lazy dog 0123456789", 30)],
                    font: "DejaVuSansMono.ttf")
            },
            Scene(name: "bold-64", lines: ["OPEN 24 HOURS"], photoLike: false) {
                try page([("OPEN 24 HOURS", 64)], font: "DejaVuSans-Bold.ttf", width: 800)
            },
            Scene(name: "oblique-20", lines: ["Pack my box with five dozen liquor jugs"], photoLike: false) {
                try page([("Pack my box with five dozen liquor jugs", 20)], font: "DejaVuSans-Oblique.ttf", width: 700)
            },
        ]
        for (name, orientation) in [("rot90", ImageOrientation.right), ("rot180", .down), ("rot270", .left)] {
            scenes.append(
                Scene(name: name, lines: [sign], photoLike: false) {
                    try page([(sign, 44)]).oriented(orientation)
                })
        }
        scenes.append(
            Scene(name: "rot12", lines: [sign], photoLike: false) {
                var canvas = try Fixtures.canvas(width: 700, height: 90)
                try canvas.text(
                    sign, at: CGPoint(x: 20, y: 62), fontFile: fontDirectory + "DejaVuSans.ttf", pixelHeight: 44)
                var page = try Fixtures.canvas(width: 1000, height: 750)
                try Fixtures.paste(canvas.makeImage(), on: &page, x: 150, y: 330, degrees: 12)
                return page.makeImage()
            })
        return scenes
    }()

    /// Text on a light sign pasted onto a shared photo, seen in perspective, with speckle noise and
    /// JPEG compression (quality 80).
    public static let photoLike: [Scene] = [
        Scene(name: "photo-eagle", lines: ["PARKING 7-19", "Permit holders only"], photoLike: true) {
            try photo(
                "eagle.jpg", [("PARKING 7-19", 56), ("Permit holders only", 40)], seed: 4,
                corners: [(40, 60), (1000, 20), (960, 720), (80, 690)])
        },
        Scene(name: "photo-horses", lines: ["Fresh coffee 2.40", "Open daily 8am"], photoLike: true) {
            try photo(
                "horses.jpg", [("Fresh coffee 2.40", 48), ("Open daily 8am", 48)], seed: 5,
                corners: [(0, 40), (1000, 0), (1020, 740), (-20, 700)])
        },
    ]

    public static var all: [Scene] { rendered + photoLike }

    static func photo(_ name: String, _ lines: [(String, Int)], seed: UInt64, corners: [(Double, Double)]) throws
        -> VisionImage
    {
        let background = try VisionImage(contentsOf: Fixtures.sharedImage(name)).resized(width: 1024, height: 768)
        var canvas = try ImageCanvas(copying: background)
        // The sign: a light panel with dark text.
        try canvas.fill(
            polygon: [
                CGPoint(x: 180, y: 220), CGPoint(x: 860, y: 220), CGPoint(x: 860, y: 520), CGPoint(x: 180, y: 520),
            ],
            color: OverlayColor(red: 235, green: 232, blue: 220))
        var y = 250
        for (text, size) in lines {
            y += size
            try canvas.text(
                text, at: CGPoint(x: 220, y: y), fontFile: fontDirectory + "DejaVuSans-Bold.ttf", pixelHeight: size,
                color: OverlayColor(red: 30, green: 40, blue: 90))
            y += Int(Double(size) * 0.8)
        }
        // Perspective: the image's corners go to `corners`.
        let flat = canvas.makeImage()
        let h = homography(from: [(0, 0), (1024, 0), (1024, 768), (0, 768)], to: corners)
        let warped = try flat.warpedPerspective(by: h, width: 1024, height: 768, origin: .upperLeft)
        var noisy = try ImageCanvas(copying: warped)
        var rng = SplitMix(seed: seed)
        for _ in 0..<3000 {
            let g = UInt8(rng.next() * 255)
            try noisy.dot(
                at: CGPoint(x: rng.next() * 1024, y: rng.next() * 768), radius: 0.7, color: Fixtures.grayColor(g))
        }
        return try VisionImage(data: noisy.makeImage().encoded(as: .jpeg, quality: 80))
    }

    /// The homography mapping four points onto four others (pixels), by solving the 8×8 system.
    static func homography(from src: [(Double, Double)], to dst: [(Double, Double)]) -> Matrix3x3 {
        var a = [[Double]](repeating: [Double](repeating: 0, count: 9), count: 8)
        for i in 0..<4 {
            let (x, y) = src[i]
            let (u, v) = dst[i]
            a[2 * i] = [x, y, 1, 0, 0, 0, -u * x, -u * y, u]
            a[2 * i + 1] = [0, 0, 0, x, y, 1, -v * x, -v * y, v]
        }
        for col in 0..<8 {  // Gauss-Jordan with partial pivoting
            let pivot = (col..<8).max { abs(a[$0][col]) < abs(a[$1][col]) }!
            a.swapAt(col, pivot)
            for row in 0..<8 where row != col {
                let f = a[row][col] / a[col][col]
                for k in col..<9 { a[row][k] -= f * a[col][k] }
            }
        }
        let h = (0..<8).map { a[$0][8] / a[$0][$0] }
        return Matrix3x3(rowMajor: h + [1])
    }
}
