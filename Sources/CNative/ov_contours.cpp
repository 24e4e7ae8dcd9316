// Contours: the outlines of an image's shapes and their nesting, in the spirit of Vision's
// VNDetectContoursRequest (OpenCV findContours).
//
// Algorithm
//   1. The gray image is shrunk (INTER_AREA) so that its longer side is at most
//      maximum_image_dimension; everything below runs on that working image.
//   2. Contrast: v' = clamp((v - pivot) * contrast_adjustment + pivot), on 0...1 intensities. The pivot
//      is contrast_pivot, or (automatic) the working image's Otsu threshold.
//   3. The adjusted image is binarised with Otsu's threshold; the foreground is the dark side when
//      detects_dark_on_light, else the light side.
//   4. cv::findContours(RETR_TREE, CHAIN_APPROX_SIMPLE) on the foreground: every outer boundary and
//      every hole, with the enclosing contour of each (holes are children of the shape they pierce,
//      shapes inside holes children of the hole), in OpenCV's order (parents before their children).
//
// Decisions
//   - A flat image (max - min < 2 gray levels in the working image) has no contours: Otsu would
//     otherwise split noise-free pixels arbitrarily.
//   - CHAIN_APPROX_SIMPLE keeps only the ends of horizontal, vertical and diagonal runs: the outline is
//     the same, with far fewer points than Vision's dense ones.
//   - Points are pixel centres of the working image; the caller normalises them by its size.
//   - Vision's own algorithm is not documented; where it differs (e.g. sub-pixel outlines), ours is
//     OpenCV's classic border following (Suzuki & Abe 1985).
#include "ov_internal.hpp"
#include "ov_contours.h"

#include <opencv2/imgproc.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

const char *validate(const ov_contour_params &p) {
    if (!std::isfinite(p.contrast_adjustment) || p.contrast_adjustment < 0 || p.contrast_adjustment > 3)
        return "contrast_adjustment must be a number in 0...3";
    if (p.has_contrast_pivot && (!std::isfinite(p.contrast_pivot) || p.contrast_pivot < 0 || p.contrast_pivot > 1))
        return "contrast_pivot must be a number in 0...1";
    if (p.maximum_image_dimension <= 0) return "maximum_image_dimension must be positive";
    return nullptr;
}

}  // namespace

extern "C" void ov_contour_set_free(ov_contour_set *set) {
    if (!set) return;
    std::free(set->parents);
    std::free(set->point_offsets);
    std::free(set->points);
    *set = ov_contour_set{};
}

extern "C" ov_status ov_detect_contours(const ov_image *image, const ov_contour_params *params, ov_contour_set *out) {
    return ov::guarded("ov_detect_contours", [&]() -> ov_status {
        if (!image || !params || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_detect_contours: missing argument");
        *out = ov_contour_set{};
        if (const char *message = validate(*params))
            return ov::fail(OV_ERR_INVALID_ARGUMENT, std::string("ov_detect_contours: ") + message);

        const cv::Mat &gray = image->gray();
        if (gray.empty()) return ov::ok();
        const cv::Mat work = ov::fitWithin(gray, params->maximum_image_dimension);
        out->width = work.cols;
        out->height = work.rows;
        out->point_offsets = ov::callocArray<int>(1);

        double lo = 0, hi = 0;
        cv::minMaxLoc(work, &lo, &hi);
        if (hi - lo < 2) return ov::ok();

        cv::Mat scratch;
        const double pivot = params->has_contrast_pivot
                                 ? params->contrast_pivot * 255.0
                                 : cv::threshold(work, scratch, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
        const double c = params->contrast_adjustment;
        cv::Mat adjusted, binary;
        work.convertTo(adjusted, CV_8U, c, pivot * (1 - c));  // saturating: the clamp to 0...255
        cv::threshold(adjusted, binary, 0, 255,
                      (params->detects_dark_on_light ? cv::THRESH_BINARY_INV : cv::THRESH_BINARY) | cv::THRESH_OTSU);

        std::vector<std::vector<cv::Point>> contours;
        std::vector<cv::Vec4i> hierarchy;
        cv::findContours(binary, contours, hierarchy, cv::RETR_TREE, cv::CHAIN_APPROX_SIMPLE);

        const size_t n = contours.size();
        size_t total = 0;
        for (const auto &c : contours) total += c.size();
        std::free(out->point_offsets);
        out->point_offsets = ov::callocArray<int>(n + 1);
        out->parents = ov::callocArray<int>(n);
        out->points = ov::callocArray<float>(2 * total);
        size_t k = 0;
        for (size_t i = 0; i < n; ++i) {
            out->parents[i] = hierarchy[i][3];
            out->point_offsets[i] = static_cast<int>(k);
            for (const auto &p : contours[i]) {
                out->points[2 * k] = static_cast<float>(p.x);
                out->points[2 * k + 1] = static_cast<float>(p.y);
                ++k;
            }
        }
        out->point_offsets[n] = static_cast<int>(k);
        out->contour_count = static_cast<int>(n);
        return ov::ok();
    });
}

extern "C" ov_status ov_approx_polygon(const float *xy, int count, double epsilon, float *out, int *out_count) {
    return ov::guarded("ov_approx_polygon", [&]() -> ov_status {
        if (!xy || !out || !out_count || count < 0) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_approx_polygon: bad argument");
        if (!std::isfinite(epsilon) || epsilon < 0) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_approx_polygon: epsilon must be >= 0");
        *out_count = 0;
        if (count == 0) return ov::ok();
        const cv::Mat points(count, 1, CV_32FC2, const_cast<float *>(xy));
        std::vector<cv::Point2f> approx;
        cv::approxPolyDP(points, approx, epsilon, true);
        const int n = std::min(count, static_cast<int>(approx.size()));
        for (int i = 0; i < n; ++i) out[2 * i] = approx[i].x, out[2 * i + 1] = approx[i].y;
        *out_count = n;
        return ov::ok();
    });
}
