import Foundation
import OpenVision

/// Vision's error domain.
public let VNErrorDomain = "com.apple.Vision"

/// Vision's error codes (`VNErrorCode`), the ones OpenVision's errors map to.
public enum VNErrorCode: Int, Sendable {
    case ok = 0
    case requestCancelled = 1
    case invalidFormat = 2
    case operationFailed = 3
    case outOfBoundsError = 4
    case invalidOption = 5
    case ioError = 6
    case missingOption = 7
    case notImplemented = 8
    case internalError = 9
    case outOfMemory = 10
    case unknownError = 11
    case invalidOperation = 12
    case invalidImage = 13
    case invalidArgument = 14
    case invalidModel = 15
    case unsupportedRevision = 16
    case dataUnavailable = 17
    case timeStampNotFound = 18
    case unsupportedRequest = 19
}

/// An error as Vision reports it (`NSError` in `VNErrorDomain`), with OpenVision's error as the cause.
public struct VNError: Error, CustomStringConvertible, LocalizedError {
    public let code: VNErrorCode
    public let message: String
    /// The OpenVision error behind it.
    public let underlying: VisionError?
    public var domain: String { VNErrorDomain }
    public var description: String { "\(VNErrorDomain) error \(code.rawValue) (\(code)): \(message)" }
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
