import CoreMedia
import Foundation
import OpenVisionTestSupport
import Testing
import simd

@testable import OpenVision  // Frame's initializer: frames come from LiveAnalyzer and FrameSource

@Suite struct CMSampleBufferTests {
    static func pixelBuffer(width: Int = 16, height: Int = 8) throws -> CVPixelBuffer {
        var made: CVPixelBuffer?
        #expect(
            CVPixelBufferCreate(kCFAllocatorDefault, width, height, kCVPixelFormatType_32BGRA, nil, &made)
                == kCVReturnSuccess)
        return try #require(made)
    }

    /// Made as a capture pipeline makes one: the image buffer and the times come back out.
    @Test func imageAndTimeRoundTrip() throws {
        let buffer = try Self.pixelBuffer()
        var format: CMVideoFormatDescription?
        #expect(
            CMVideoFormatDescriptionCreateForImageBuffer(
                allocator: kCFAllocatorDefault, imageBuffer: buffer,
                formatDescriptionOut: &format) == 0)
        var timing = CMSampleTimingInfo(
            duration: CMTimeMake(value: 1, timescale: 30),
            presentationTimeStamp: CMTimeMake(value: 90, timescale: 30), decodeTimeStamp: .invalid)
        var made: CMSampleBuffer?
        #expect(
            CMSampleBufferCreateReadyWithImageBuffer(
                allocator: kCFAllocatorDefault, imageBuffer: buffer,
                formatDescription: format!, sampleTiming: &timing,
                sampleBufferOut: &made) == 0)
        let sample = try #require(made)
        #expect(CMSampleBufferGetImageBuffer(sample) === buffer && sample.imageBuffer === buffer)
        #expect(
            CMSampleBufferGetPresentationTimeStamp(sample).seconds == 3
                && sample.presentationTimeStamp == CMTimeMake(value: 3, timescale: 1))
        #expect(CMSampleBufferGetDuration(sample) == CMTimeMake(value: 1, timescale: 30))
        #expect(!CMSampleBufferGetDecodeTimeStamp(sample).isValid && CMSampleBufferGetNumSamples(sample) == 1)
        let dimensions = CMVideoFormatDescriptionGetDimensions(try #require(CMSampleBufferGetFormatDescription(sample)))
        #expect(dimensions.width == 16 && dimensions.height == 8)
        #expect(CMFormatDescriptionGetMediaSubType(format!) == kCVPixelFormatType_32BGRA)
        // The Swift overlay's form.
        let swift = try CMSampleBuffer(
            imageBuffer: buffer, formatDescription: try CMFormatDescription(imageBuffer: buffer),
            sampleTiming: timing)
        #expect(swift.presentationTimeStamp.value == 90 && swift.imageBuffer === buffer)
    }

    /// A format description of another buffer is refused (a 0×0 buffer cannot be made: CVPixelBufferCreate refuses it).
    @Test func mismatchedFormatIsRefused() throws {
        let format = try CMFormatDescription(imageBuffer: try Self.pixelBuffer(width: 8))
        #expect {
            try CMSampleBuffer(
                imageBuffer: try Self.pixelBuffer(), formatDescription: format, sampleTiming: CMSampleTimingInfo())
        } throws: { ($0 as NSError).code == Int(kCMSampleBufferError_InvalidMediaFormat) }
        var made: CMSampleBuffer?
        var timing = CMSampleTimingInfo()
        #expect(
            CMSampleBufferCreateReadyWithImageBuffer(
                allocator: nil, imageBuffer: try Self.pixelBuffer(), formatDescription: format,
                sampleTiming: &timing, sampleBufferOut: &made) == kCMSampleBufferError_InvalidMediaFormat)
        #expect(made == nil)
        var empty: CVPixelBuffer?
        #expect(
            CVPixelBufferCreate(nil, 0, 0, kCVPixelFormatType_32BGRA, nil, &empty) == kCVReturnInvalidSize
                && empty == nil)
    }

    /// A capture frame as a sample buffer: the frame's image itself (no copy) at the source's timestamp.
    @Test func captureFrame() throws {
        let image = try VisionImage(contentsOf: Fixtures.sharedImage("eagle.jpg"))
        let sample = CMSampleBuffer(frame: Frame(index: 4, captureTime: .now, sourceTimestamp: 2.5, image: image))
        #expect(sample.presentationTimeStamp.seconds == 2.5)
        #expect(try CMSampleBufferGetImageBuffer(sample)!.visionImage() === image)
    }

    /// The camera intrinsics attachment: a matrix_float3x3 in a CFData, set and read back as capture code reads it.
    @Test func cameraIntrinsicsAttachment() throws {
        let sample = try CMSampleBuffer(
            imageBuffer: try Self.pixelBuffer(),
            formatDescription: try CMFormatDescription(imageBuffer: try Self.pixelBuffer()),
            sampleTiming: CMSampleTimingInfo())
        #expect(
            CMGetAttachment(sample, key: kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix, attachmentModeOut: nil)
                == nil)
        var intrinsics = matrix_float3x3(simd_float3(800, 0, 0), simd_float3(0, 810, 0), simd_float3(320, 240, 1))
        let data = Data(bytes: &intrinsics, count: MemoryLayout<matrix_float3x3>.size)
        CMSetAttachment(
            sample, key: kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix, value: data as CFData,
            attachmentMode: kCMAttachmentMode_ShouldNotPropagate)
        var mode: CMAttachmentMode = 99
        let value = CMGetAttachment(
            sample, key: kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix, attachmentModeOut: &mode)
        let matrix = try #require(value as? Data).withUnsafeBytes { $0.load(as: matrix_float3x3.self) }
        #expect(mode == kCMAttachmentMode_ShouldNotPropagate && matrix == intrinsics && matrix[2, 0] == 320)
        #expect(MemoryLayout<matrix_float3x3>.size == 48)
        CMRemoveAttachment(sample, key: kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix)
        #expect(
            CMGetAttachment(sample, key: kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix, attachmentModeOut: nil)
                == nil)
    }
}
