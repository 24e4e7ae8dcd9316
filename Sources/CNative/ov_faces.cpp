// Faces: dlib's HOG frontal face detector and its 68-point shape predictor.
//
// Images reach dlib without copies: a tiny read-only view (MatView below) implements dlib's
// generic image interface over a cv::Mat, so only the pyramid up-sampling (when asked for)
// allocates a new image.
#include "ov_internal.hpp"

// Only the dlib pieces used here (dlib headers are heavy).
#include <dlib/image_processing/frontal_face_detector.h>  // object_detector, scan_fhog_pyramid
#include <dlib/image_processing/shape_predictor.h>
#include <dlib/image_transforms/interpolation.h>  // pyramid_up
#include <dlib/serialize.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>
#include <vector>

namespace {

// A read-only view of a cv::Mat (8-bit, 1 or 3 channels) as a dlib generic image.
// Pixel type: unsigned char for gray, dlib::bgr_pixel for OpenCV's BGR byte order.
template <typename Pixel>
struct MatView {
    const cv::Mat *mat;
};

template <typename Pixel> long num_rows(const MatView<Pixel> &v) { return v.mat->rows; }
template <typename Pixel> long num_columns(const MatView<Pixel> &v) { return v.mat->cols; }
template <typename Pixel> long width_step(const MatView<Pixel> &v) { return static_cast<long>(v.mat->step[0]); }
template <typename Pixel> const void *image_data(const MatView<Pixel> &v) { return v.mat->data; }
// dlib's const_image_view only reads, but the interface also names the non-const overload.
template <typename Pixel> void *image_data(MatView<Pixel> &v) { return v.mat->data; }

}  // namespace

namespace dlib {
template <typename Pixel>
struct image_traits<MatView<Pixel>> {
    typedef Pixel pixel_type;
};
}  // namespace dlib

// A loaded shape predictor. dlib::shape_predictor::operator() is const and keeps all of its
// working state (current shape, sampled pixel values) in locals; the model (trees, anchors,
// deltas, initial shape) is only read. So one instance is safe to use from many threads at
// once without a lock, as long as nobody mutates it (only ov_shape_predictor_free does).
struct ov_shape_predictor {
    dlib::shape_predictor model;
};

namespace {

// Detection score -> confidence in 0...1: logistic 1 / (1 + exp(-k * score)) with k = 3.
// Score 0 is dlib's default threshold (a borderline face) and maps to 0.5; score 1 (a clear
// frontal face) maps to 0.95; 2 to 0.998. Monotonic, so ordering by either is the same.
constexpr double kScoreSlope = 3.0;

float squash(double score) { return static_cast<float>(1.0 / (1.0 + std::exp(-kScoreSlope * score))); }

// dlib's object_detector caches per-image feature pyramids inside its scanner, so it cannot be
// shared across threads: each thread gets its own, built on first use. Decoding dlib's built-in
// model (base64 + compressed) takes ~190 ms, so that happens once per process into a prototype
// that is never used to detect (only read), and each thread copies it (~0.1 ms).
const dlib::frontal_face_detector &prototypeDetector() {
    static const dlib::frontal_face_detector prototype = dlib::get_frontal_face_detector();
    return prototype;
}

dlib::frontal_face_detector &threadDetector() {
    thread_local std::unique_ptr<dlib::frontal_face_detector> detector;
    if (!detector) detector = std::make_unique<dlib::frontal_face_detector>(prototypeDetector());
    return *detector;
}

// Refuses up-sampling that would make an absurdly large image (each level doubles both sides).
constexpr double kMaxUpsampledPixels = 256.0 * 1024 * 1024;

}  // namespace

extern "C" {

ov_status ov_detect_faces(const ov_image *image, int upsample, ov_face_box *out, int capacity, int *count) {
    if (count) *count = 0;
    return ov::guarded("ov_detect_faces", [&]() -> ov_status {
        if (!image || !count) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_detect_faces: no image or count");
        if (capacity < 0) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_detect_faces: capacity must not be negative");
        if (capacity > 0 && !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_detect_faces: no output buffer");
        if (upsample < 0) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_detect_faces: upsample must not be negative");
        const int cols = image->cols(), rows = image->rows();
        if (cols <= 0 || rows <= 0) return ov::ok();
        if (static_cast<double>(cols) * rows * std::pow(4.0, upsample) > kMaxUpsampledPixels)
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_detect_faces: upsample " + std::to_string(upsample) +
                                                         " would make the image too large");

        // HOG on the gray image: one channel to up-sample and to take gradients of.
        const cv::Mat &gray = image->gray();
        const MatView<unsigned char> view{&gray};
        dlib::frontal_face_detector &detector = threadDetector();
        std::vector<dlib::rect_detection> dets;
        double sx = 1.0, sy = 1.0;  // up-sampled pixel -> original pixel
        if (upsample == 0) {
            detector(view, dets, 0.0);
        } else {
            dlib::pyramid_down<2> pyr;
            dlib::array2d<unsigned char> up, next;
            dlib::pyramid_up(view, up, pyr);
            for (int i = 1; i < upsample; ++i) {
                dlib::pyramid_up(up, next, pyr);
                dlib::swap(up, next);
            }
            next.clear();
            // pyramid_up resizes with dlib::resize_image, which maps output pixel p to input pixel
            // p * (in - 1) / (out - 1) on each axis; invert that exactly (composition of levels
            // is the same ratio end to end).
            if (up.nc() > 1) sx = (cols - 1) / static_cast<double>(up.nc() - 1);
            if (up.nr() > 1) sy = (rows - 1) / static_cast<double>(up.nr() - 1);
            detector(up, dets, 0.0);
        }

        std::stable_sort(dets.begin(), dets.end(), [](const dlib::rect_detection &a, const dlib::rect_detection &b) {
            return a.detection_confidence > b.detection_confidence;
        });
        *count = static_cast<int>(dets.size());
        const int n = std::min(capacity, static_cast<int>(dets.size()));
        for (int i = 0; i < n; ++i) {
            const dlib::rectangle &r = dets[i].rect;  // inclusive corners
            // Edges in original pixels (right/bottom exclusive), clamped to the image.
            const double left = std::clamp(r.left() * sx, 0.0, static_cast<double>(cols));
            const double top = std::clamp(r.top() * sy, 0.0, static_cast<double>(rows));
            const double right = std::clamp((r.right() + 1) * sx, 0.0, static_cast<double>(cols));
            const double bottom = std::clamp((r.bottom() + 1) * sy, 0.0, static_cast<double>(rows));
            ov_face_box &box = out[i];
            box.x = static_cast<float>(left);
            box.y = static_cast<float>(top);
            box.width = static_cast<float>(std::max(0.0, right - left));
            box.height = static_cast<float>(std::max(0.0, bottom - top));
            box.raw_score = static_cast<float>(dets[i].detection_confidence);
            box.confidence = squash(dets[i].detection_confidence);
        }
        return ov::ok();
    });
}

ov_status ov_shape_predictor_load(const char *path, ov_shape_predictor **out) {
    if (out) *out = nullptr;
    return ov::guarded("ov_shape_predictor_load", [&]() -> ov_status {
        if (!path || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_shape_predictor_load: no path or output");
        std::ifstream file(path, std::ios::binary);
        if (!file) return ov::fail(OV_ERR_MODEL, std::string("cannot open shape predictor model ") + path);
        auto predictor = std::make_unique<ov_shape_predictor>();
        try {
            dlib::deserialize(predictor->model, file);
        } catch (const std::bad_alloc &) {
            throw;
        } catch (const std::exception &e) {
            return ov::fail(OV_ERR_MODEL, std::string("corrupt shape predictor model ") + path + ": " + e.what());
        }
        if (predictor->model.num_parts() == 0 || predictor->model.num_features() == 0)
            return ov::fail(OV_ERR_MODEL, std::string("shape predictor model ") + path + " predicts no parts");
        *out = predictor.release();
        return ov::ok();
    });
}

void ov_shape_predictor_free(ov_shape_predictor *predictor) { delete predictor; }

int ov_shape_predictor_parts(const ov_shape_predictor *predictor) {
    return predictor ? static_cast<int>(predictor->model.num_parts()) : 0;
}

ov_status ov_predict_landmarks(const ov_shape_predictor *predictor, const ov_image *image, float x, float y,
                               float width, float height, float *xy, int capacity) {
    return ov::guarded("ov_predict_landmarks", [&]() -> ov_status {
        if (!predictor || !image || !xy)
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_predict_landmarks: no predictor, image or output");
        const long parts = static_cast<long>(predictor->model.num_parts());
        if (capacity < 0 || static_cast<long>(capacity) < parts * 2)
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_predict_landmarks: output holds " + std::to_string(capacity) +
                                                         " floats, needs " + std::to_string(parts * 2));
        const float limit = 1e7f;  // keeps the rectangle's corners well inside `long`
        if (!(std::isfinite(x) && std::isfinite(y) && std::isfinite(width) && std::isfinite(height)) ||
            width <= 0 || height <= 0 || std::fabs(x) > limit || std::fabs(y) > limit || width > limit || height > limit)
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_predict_landmarks: the face box must be finite and non-empty");
        if (image->empty()) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_predict_landmarks: empty image");

        // dlib rectangles have inclusive corners.
        const long left = std::lround(x), top = std::lround(y);
        const long right = std::max(left, std::lround(x + width) - 1);
        const long bottom = std::max(top, std::lround(y + height) - 1);
        // BGR view: dlib reads a bgr_pixel's intensity as (r + g + b) / 3, exactly the gray the
        // model was trained on; only a few hundred pixels are sampled, so no gray image is needed.
        // A luma-only image is read as its gray plane (the model only needs intensities).
        const dlib::rectangle box(left, top, right, bottom);
        const dlib::full_object_detection shape =
            image->isGray() ? predictor->model(MatView<unsigned char>{&image->luma}, box)
                            : predictor->model(MatView<dlib::bgr_pixel>{&image->bgr}, box);
        for (long i = 0; i < parts && i < static_cast<long>(shape.num_parts()); ++i) {
            xy[2 * i] = static_cast<float>(shape.part(i).x());
            xy[2 * i + 1] = static_cast<float>(shape.part(i).y());
        }
        return ov::ok();
    });
}

}  // extern "C"
