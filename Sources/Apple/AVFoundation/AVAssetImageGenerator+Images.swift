import Foundation
import OpenVision

extension AVAssetImageGenerator {
    /// The images of `images(for:)`, one element per requested time in the order given (AVFoundation's
    /// `AVAssetImageGenerator.Images`). The file is decoded once, when iteration starts.
    public struct Images: AsyncSequence, @unchecked Sendable {
        /// A requested time's image and the time of the frame used, or why it could not be made.
        @frozen public enum Element: @unchecked Sendable {
            /// The image for `requestedTime`, made from the frame shown at `actualTime`.
            case success(requestedTime: CMTime, image: CGImage, actualTime: CMTime)
            /// No image for `requestedTime`: `error` says why.
            case failure(requestedTime: CMTime, error: any Error)

            /// The time the image was asked for.
            public var requestedTime: CMTime {
                switch self {
                case .success(let time, _, _), .failure(let time, _): return time
                }
            }

            /// The image; throws the request's error when it failed.
            public var image: CGImage {
                get throws {
                    switch self {
                    case .success(_, let image, _): return image
                    case .failure(_, let error): throw error
                    }
                }
            }

            /// The time of the frame used; throws the request's error when it failed.
            public var actualTime: CMTime {
                get throws {
                    switch self {
                    case .success(_, _, let time): return time
                    case .failure(_, let error): throw error
                    }
                }
            }
        }

        let generator: AVAssetImageGenerator
        let times: [CMTime]

        /// An iterator over the images (decodes the file at its first `next()`).
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(generator: generator, times: times)
        }

        /// Gives the images in the order of the requested times.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let generator: AVAssetImageGenerator
            let times: [CMTime]
            var results: [Element]?
            var index = 0

            /// The next requested time's image (or failure); nil after the last.
            public mutating func next() async -> Element? {
                if results == nil {
                    do {
                        results = zip(times, try generator.generate(times)).map { time, result in
                            switch result {
                            case .success(let made):
                                return .success(requestedTime: time, image: made.image, actualTime: made.actualTime)
                            case .failure(let error): return .failure(requestedTime: time, error: error)
                            }
                        }
                    } catch {
                        results = times.map { .failure(requestedTime: $0, error: error) }
                    }
                }
                guard let results, index < results.count else { return nil }
                defer { index += 1 }
                return results[index]
            }
        }
    }
}
