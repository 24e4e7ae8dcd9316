import CNative
import CZXing
import Foundation
import Testing

/// The raw C layer, called directly: it builds, links, and answers one call per library
/// (OpenCV core/imgproc, lazily loaded imgcodecs, dlib, Tesseract, ONNX Runtime's loader, zxing-cpp).
@Suite struct CNativeSmokeTests {
    @Test func openCVMakesAndEncodesAnImage() throws {
        var image: OpaquePointer?
        #expect(ov_image_create_filled(64, 48, 10, 20, 30, &image) == OV_OK)
        defer { ov_image_free(image) }
        #expect(ov_image_width(image) == 64)
        // Encoding goes through libopencv_imgcodecs, loaded on first use (ov_lazy.hpp).
        var bytes: UnsafeMutablePointer<UInt8>?
        var length = 0
        #expect(ov_image_encode(image, "png", 0, &bytes, &length) == OV_OK)
        defer { ov_free(bytes) }
        #expect(length > 8 && bytes?[1] == UInt8(ascii: "P"))  // \x89PNG
        var decoded: OpaquePointer?
        #expect(ov_image_decode(bytes, length, 0, 1, 0, &decoded) == OV_OK)
        defer { ov_image_free(decoded) }
        #expect(ov_image_width(decoded) == 64)
    }

    @Test func onlyTheLazyModulesCanBePreloaded() {
        #expect(ov_preload_module("videoio") == OV_OK)
        #expect(ov_preload_module("imgcodecs") == OV_OK)
        #expect(ov_preload_module("../../evil") == OV_ERR_INVALID_ARGUMENT)
        #expect(ov_preload_module(nil) == OV_ERR_INVALID_ARGUMENT)
    }

    @Test func corruptBytesAreADecodeErrorWithAMessage() {
        var decoded: OpaquePointer?
        let junk: [UInt8] = [0xFF, 0xD8, 0xFF, 0x00, 1, 2, 3]
        #expect(ov_image_decode(junk, junk.count, 0, 1, 0, &decoded) == OV_ERR_DECODE)
        #expect(!String(cString: ov_last_error()).isEmpty)
    }

    /// OpenCV contrib's saliency module (linked by name in Package.swift) answers, and the catalogue's
    /// buffers come back released.
    @Test func saliencyAndContoursOnAFlatImage() {
        var image: OpaquePointer?
        #expect(ov_image_create_filled(80, 60, 128, 128, 128, &image) == OV_OK)
        defer { ov_image_free(image) }
        var map = [Float](repeating: 1, count: 68 * 68)
        var count: Int32 = -1
        #expect(ov_saliency(image, OV_SALIENCY_SPECTRAL_RESIDUAL, 68, &map, nil, 0, &count) == OV_OK)
        #expect(count == 0 && map.allSatisfy { $0 == 0 })
        var params = ov_contour_params(
            contrast_adjustment: 2, contrast_pivot: 0.5, has_contrast_pivot: 1,
            detects_dark_on_light: 1, maximum_image_dimension: 0)
        var set = ov_contour_set()
        #expect(ov_detect_contours(image, &params, &set) == OV_ERR_INVALID_ARGUMENT)
        #expect(String(cString: ov_last_error()).contains("maximum_image_dimension"))
        params.maximum_image_dimension = 512
        #expect(ov_detect_contours(image, &params, &set) == OV_OK)
        #expect(set.contour_count == 0 && set.width == 80 && set.height == 60)
        ov_contour_set_free(&set)
        #expect(set.points == nil && set.point_offsets == nil)
    }

    @Test func dlibFindsNoFaceInABlankImage() {
        var image: OpaquePointer?
        #expect(ov_image_create_filled(80, 80, 255, 255, 255, &image) == OV_OK)
        defer { ov_image_free(image) }
        var boxes = [ov_face_box](repeating: ov_face_box(), count: 4)
        var count: Int32 = -1
        #expect(ov_detect_faces(image, 0, &boxes, 4, &count) == OV_OK)
        #expect(count == 0)
    }

    @Test func tesseractLoadsEnglishAndRefusesAMissingLanguage() {
        var ocr: OpaquePointer?
        #expect(ov_ocr_create(nil, "eng", &ocr) == OV_OK)
        ov_ocr_free(ocr)
        var missing: OpaquePointer?
        #expect(ov_ocr_create(nil, "xxx", &missing) != OV_OK)
    }

    @Test func onnxRuntimeLoaderNamesAMissingLibrary() {
        #expect(ov_ort_load("/nonexistent/libonnxruntime.so") != OV_OK)
        #expect(String(cString: ov_last_error()).contains("/nonexistent/libonnxruntime.so"))
    }

    @Test func zxingReaderOptionsRoundTrip() {
        let options = ZXing_ReaderOptions_new()
        #expect(options != nil)
        ZXing_ReaderOptions_setTryHarder(options, false)
        #expect(ZXing_ReaderOptions_getTryHarder(options) == false)
        ZXing_ReaderOptions_delete(options)
    }
}

/// The motion entry points (ov_registration.h, ov_optical_flow.h, ov_trajectories.h: OpenCV video, calib3d, features2d), called directly.
@Suite struct CNativeMotionSmokeTests {
    @Test func registrationAndFlowAnswerOnFlatImagesAndRefuseMismatchedSizes() {
        var a: OpaquePointer?
        var b: OpaquePointer?
        var c: OpaquePointer?
        #expect(ov_image_create_filled(64, 48, 90, 90, 90, &a) == OV_OK)
        #expect(ov_image_create_filled(64, 48, 90, 90, 90, &b) == OV_OK)
        #expect(ov_image_create_filled(32, 48, 90, 90, 90, &c) == OV_OK)
        defer {
            ov_image_free(a)
            ov_image_free(b)
            ov_image_free(c)
        }
        var found: Int32 = -1
        var dx = 0.0
        var dy = 0.0
        var response = 0.0
        #expect(ov_register_translation(a, b, &found, &dx, &dy, &response) == OV_OK)
        #expect(found == 0)  // flat: nothing to correlate
        var h = [Double](repeating: 0, count: 9)
        var ratio = 0.0
        #expect(ov_register_homography(a, c, &found, &h, &ratio) == OV_ERR_INVALID_ARGUMENT)
        #expect(String(cString: ov_last_error()).contains("differ in size"))
        var flow = [Float](repeating: 1, count: 64 * 48 * 2)
        #expect(ov_optical_flow(a, b, OV_FLOW_LOW, &flow) == OV_OK)
        #expect(flow.allSatisfy { $0 == 0 })
    }

    @Test func motionDetectorRefusesAChangedFrameSize() {
        var detector: OpaquePointer?
        #expect(ov_motion_detector_create(&detector) == OV_OK)
        defer { ov_motion_detector_free(detector) }
        var a: OpaquePointer?
        var c: OpaquePointer?
        #expect(ov_image_create_filled(64, 48, 90, 90, 90, &a) == OV_OK)
        #expect(ov_image_create_filled(32, 48, 90, 90, 90, &c) == OV_OK)
        defer {
            ov_image_free(a)
            ov_image_free(c)
        }
        var blobs = [ov_motion_blob](repeating: ov_motion_blob(), count: 4)
        var count: Int32 = -1
        for _ in 0..<6 { #expect(ov_motion_detector_add(detector, a, 0, 100, &blobs, 4, &count) == OV_OK) }
        #expect(count == 0)
        #expect(ov_motion_detector_add(detector, c, 0, 100, &blobs, 4, &count) == OV_ERR_INVALID_ARGUMENT)
    }

    @Test func trackersOnFlatImagesAndRefuseBadBoxesAndSizes() {
        var a: OpaquePointer?
        var c: OpaquePointer?
        #expect(ov_image_create_filled(64, 48, 90, 90, 90, &a) == OV_OK)
        #expect(ov_image_create_filled(32, 48, 90, 90, 90, &c) == OV_OK)
        defer {
            ov_image_free(a)
            ov_image_free(c)
        }
        var tracker: OpaquePointer?
        #expect(
            ov_object_tracker_create(OV_TRACKER_KCF, a, [70, 10, 10, 10], nil, &tracker) == OV_ERR_INVALID_ARGUMENT)
        #expect(
            ov_object_tracker_create(OV_TRACKER_KCF, a, [10, 10, .nan, 10], nil, &tracker) == OV_ERR_INVALID_ARGUMENT)
        #expect(ov_object_tracker_create(OV_TRACKER_KCF, a, [10, 10, 20, 20], nil, &tracker) == OV_OK)
        defer { ov_object_tracker_free(tracker) }
        var box = [Double](repeating: 0, count: 4)
        var found: Int32 = 0
        var confidence = 0.0
        #expect(ov_object_tracker_update(tracker, c, &box, &found, &confidence, nil) == OV_ERR_INVALID_ARGUMENT)

        var params = ov_anchor_params(
            window_radius: 40, max_features: 24, normal_inliers: 8, min_inliers: 4, edge_margin: 16,
            global_features: 160, reacquire_ncc: 0.6)
        var anchors: OpaquePointer?
        #expect(ov_anchor_tracker_create(&params, &anchors) == OV_OK)
        defer { ov_anchor_tracker_free(anchors) }
        #expect(ov_anchor_tracker_add(anchors, a, 1, 100, 10) == OV_ERR_INVALID_ARGUMENT)
        #expect(ov_anchor_tracker_add(anchors, a, 1, 30, 20) == OV_OK)
        var results = [ov_anchor_result](repeating: ov_anchor_result(), count: 2)
        var count: Int32 = 0
        // A flat frame has nothing to follow: the anchor is kept, not tracked.
        #expect(ov_anchor_tracker_update(anchors, a, &results, 2, &count) == OV_OK)
        #expect(count == 1 && results[0].id == 1)
        #expect(ov_anchor_tracker_update(anchors, c, &results, 2, &count) == OV_ERR_INVALID_ARGUMENT)
        var removed: Int32 = 0
        #expect(ov_anchor_tracker_remove(anchors, 7, &removed) == OV_OK && removed == 0)
        #expect(ov_anchor_tracker_remove(anchors, 1, &removed) == OV_OK && removed == 1)
    }
}
