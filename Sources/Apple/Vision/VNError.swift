import Foundation
import OpenVision

/// Vision's error domain.
public let VNErrorDomain = "com.apple.Vision"

/// Vision's error codes (`VNErrorCode`), the ones OpenVision's errors map to.
public enum VNErrorCode: Int, Sendable {
    /// No error (Apple's 0).
    case ok = 0
    /// The request was cancelled (OpenVision `cancelled`).
    case requestCancelled = 1
    /// Apple's invalid-format code; OpenVision errors do not map to it.
    case invalidFormat = 2
    /// Apple's operation-failed code; OpenVision errors do not map to it.
    case operationFailed = 3
    /// An index is out of range (`VNContoursObservation.contour(at:)`).
    case outOfBoundsError = 4
    /// A handler was given an image option Vision does not define.
    case invalidOption = 5
    /// A file could not be found or read (OpenVision `fileNotFound`, `ioError`).
    case ioError = 6
    /// Apple's missing-option code; OpenVision errors do not map to it.
    case missingOption = 7
    /// Apple's not-implemented code; OpenVision errors do not map to it.
    case notImplemented = 8
    /// Any OpenVision error without a closer Vision code.
    case internalError = 9
    /// Memory ran out (OpenVision `outOfMemory`).
    case outOfMemory = 10
    /// Apple's unknown-error code; OpenVision errors do not map to it.
    case unknownError = 11
    /// Apple's invalid-operation code; OpenVision errors do not map to it.
    case invalidOperation = 12
    /// The image could not be decoded, is of an unsupported format or too large (OpenVision `invalidImage`,
    /// `unsupportedImageFormat`, `imageTooLarge`).
    case invalidImage = 13
    /// An option or argument is out of range (OpenVision `invalidArgument`, `unsupportedLanguage`).
    case invalidArgument = 14
    /// The model cannot be used (OpenVision `invalidModel`).
    case invalidModel = 15
    /// The request revision is not supported.
    case unsupportedRevision = 16
    /// A model or data file is not installed (OpenVision `missingModelData`).
    case dataUnavailable = 17
    /// Apple's time-stamp-not-found code; OpenVision errors do not map to it.
    case timeStampNotFound = 18
    /// The request or option is not supported here (OpenVision `unsupported`).
    case unsupportedRequest = 19
}

/// An error as Vision reports it (`NSError` in `VNErrorDomain`), with OpenVision's error as the cause.
public struct VNError: Error, CustomStringConvertible, LocalizedError {
    /// Vision's code for the error (see `VNErrorCode` for the mapping).
    public let code: VNErrorCode
    /// What went wrong, for people (OpenVision's message).
    public let message: String
    /// The OpenVision error behind it.
    public let underlying: VisionError?
    /// Always `VNErrorDomain`.
    public var domain: String { VNErrorDomain }
    /// "com.apple.Vision error N (code): message".
    public var description: String { "\(VNErrorDomain) error \(code.rawValue) (\(code)): \(message)" }
    /// The message, for `LocalizedError`.
    public var errorDescription: String? { message }

    init(_ error: VisionError) {
        underlying = error
        message = error.message
        switch error.code {
        case .fileNotFound, .ioError: code = .ioError
        case .invalidImage, .unsupportedImageFormat, .imageTooLarge: code = .invalidImage
        case .invalidArgument, .unsupportedLanguage: code = .invalidArgument
        case .missingModelData: code = .dataUnavailable
        case .invalidModel: code = .invalidModel
        case .outOfMemory: code = .outOfMemory
        case .unsupported: code = .unsupportedRequest
        case .cancelled: code = .requestCancelled
        default: code = .internalError
        }
    }

    init(_ code: VNErrorCode, _ message: String) {
        self.code = code
        self.message = message
        underlying = nil
    }
}
