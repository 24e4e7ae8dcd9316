/// How an image's stored pixels relate to its upright appearance: the eight EXIF
/// orientations, with the names and raw values of Core Graphics' `CGImagePropertyOrientation`.
public enum ImageOrientation: UInt32, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Stored upright (EXIF 1).
    case up = 1
    /// Mirrored horizontally (EXIF 2).
    case upMirrored = 2
    /// Rotated 180° (EXIF 3).
    case down = 3
    /// Mirrored vertically (EXIF 4).
    case downMirrored = 4
    /// Mirrored along the top-left to bottom-right diagonal (EXIF 5).
    case leftMirrored = 5
    /// Stored rotated 90° counter-clockwise: displayed by turning it 90° clockwise (EXIF 6).
    case right = 6
    /// Mirrored along the top-right to bottom-left diagonal (EXIF 7).
    case rightMirrored = 7
    /// Stored rotated 90° clockwise: displayed by turning it 90° counter-clockwise (EXIF 8).
    case left = 8

    /// True when the upright image swaps the stored width and height.
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The value as short text, for logs and command-line output.
    public var description: String {
        switch self {
        case .up: "up"
        case .upMirrored: "upMirrored"
        case .down: "down"
        case .downMirrored: "downMirrored"
        case .leftMirrored: "leftMirrored"
        case .right: "right"
        case .rightMirrored: "rightMirrored"
        case .left: "left"
        }
    }
}

extension ImageOrientation {
    /// The orientation of content turned `degrees` clockwise (0, 90, 180, 270; other values are rounded down to a
    /// quarter turn): `.up`, `.left` (stored turned 90° clockwise), `.down`, `.right`.
    public init(turnedClockwise degrees: Int) {
        switch ((degrees % 360 + 360) % 360) / 90 {
        case 1: self = .left
        case 2: self = .down
        case 3: self = .right
        default: self = .up
        }
    }

    /// How many degrees clockwise the stored content is turned from upright: 0, 90 (`.left`), 180 (`.down`),
    /// 270 (`.right`); nil for the mirrored orientations, which no turn gives.
    public var clockwiseDegrees: Int? {
        switch self {
        case .up: 0
        case .left: 90
        case .down: 180
        case .right: 270
        case .upMirrored, .downMirrored, .leftMirrored, .rightMirrored: nil
        }
    }
}

/// Core Graphics' name for the same eight orientations, for code ported from Apple platforms.
public typealias CGImagePropertyOrientation = ImageOrientation
