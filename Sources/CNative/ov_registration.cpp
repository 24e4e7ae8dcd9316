// Image registration: the translation or homography aligning one image with another, in the spirit of
// Vision's VNTranslationalImageRegistrationRequest / VNHomographicImageRegistrationRequest (OpenCV).
//
// Algorithm
//   Translation: cv::phaseCorrelate of the two gray planes (as float) under a Hann window (which
//     suppresses the edges where shifted content enters and leaves); sub-pixel from the peak's centroid.
//   Homography:
//     1. ORB (1000 features) on both gray planes (in parallel), brute-force Hamming matching, Lowe's ratio test (0.8).
//     2. cv::findHomography with RANSAC (3 px) on the matches: a first estimate (ORB keypoints sit on a
//        pyramid grid, good to ~1-2 px).
//     3. Refinement: up to 500 corners of the floating image (cv::goodFeaturesToTrack) are tracked into
//        the reference with pyramidal Lucas-Kanade starting from the first estimate's prediction, and the
//        homography is fitted again on them (RANSAC, 1 px). On the shared photos this brings the image
//        corners from 0.7-2.2 px to within 0.2 px of a known warp (Python check in HomographyTests).
//
// Decisions
//   - Translation keeps its float planes and Hann window (images up to 1 MP, ~12 MB) for the next call:
//     allocating and page-faulting them afresh made the request ~10 % slower (17.6-19.6 -> 16.3-17.3 ms per
//     768 x 576 pair, A/B over 6 process pairs); the window is recomputed only when the size changes.
//   - Full resolution: the refinement is what gives sub-pixel corners, and LK on 500 points is cheap.
//   - A flat image (gray standard deviation < 1) has nothing to register: found = 0, not an error. So do
//     fewer than 8 ratio-test matches or RANSAC inliers (unrelated images).
//   - Different sizes are an error here; the Swift layer says so before calling.
#include "ov_internal.hpp"
#include "ov_registration.h"

#include <opencv2/calib3d.hpp>
#include <opencv2/features2d.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/video/tracking.hpp>

#include <cmath>
#include <vector>

namespace {
constexpr double kFlatStdDev = 1.0;
constexpr int kMinimumMatches = 8;

// The float planes and the Hann window of the last translation (images up to 1 MP, ~12 MB): kept for the next
// call, whose buffers are then not allocated afresh and page-faulted in again (see ov_optical_flow.cpp).
struct TranslationWorkspace {
    cv::Mat fa, fb, window;
};

ov::Kept<TranslationWorkspace> &keptWorkspace() {
    static ov::Kept<TranslationWorkspace> kept;
    return kept;
}

bool isFlat(const cv::Mat &gray) {
    cv::Scalar mean, stddev;
    cv::meanStdDev(gray, mean, stddev);
    return stddev[0] < kFlatStdDev;
}

ov_status checkPair(const char *where, const ov_image *a, const ov_image *b) {
    if (!a || !b || a->empty() || b->empty()) return ov::fail(OV_ERR_INVALID_ARGUMENT, std::string(where) + ": missing image");
    if (a->cols() != b->cols() || a->rows() != b->rows()) {
        return ov::fail(OV_ERR_INVALID_ARGUMENT, std::string(where) + ": images differ in size (" + std::to_string(a->cols()) + "x" +
                                                     std::to_string(a->rows()) + " vs " + std::to_string(b->cols()) + "x" +
                                                     std::to_string(b->rows()) + ")");
    }
    return OV_OK;
}
}  // namespace

extern "C" ov_status ov_register_translation(const ov_image *reference, const ov_image *floating, int *found, double *dx,
                                             double *dy, double *response) {
    return ov::guarded("ov_register_translation", [&]() -> ov_status {
        if (!found || !dx || !dy || !response) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_register_translation: missing argument");
        *found = 0;
        *dx = *dy = *response = 0;
        if (ov_status s = checkPair("ov_register_translation", reference, floating); s != OV_OK) return s;
        const cv::Mat &a = reference->gray(), &b = floating->gray();
        if (a.cols < 2 || a.rows < 2 || isFlat(a) || isFlat(b)) return ov::ok();
        TranslationWorkspace work = keptWorkspace().take();
        a.convertTo(work.fa, CV_32F);
        b.convertTo(work.fb, CV_32F);
        if (work.window.size() != a.size()) cv::createHanningWindow(work.window, a.size(), CV_32F);
        double peak = 0;
        const cv::Point2d shift = cv::phaseCorrelate(work.fa, work.fb, work.window, &peak);
        if (work.fa.total() <= ov::kKeptMaxPixels) keptWorkspace().keep(std::move(work));
        if (!std::isfinite(shift.x) || !std::isfinite(shift.y)) return ov::ok();
        *dx = shift.x;
        *dy = shift.y;
        *response = std::isfinite(peak) ? std::min(1.0, std::max(0.0, peak)) : 0;
        *found = 1;
        return ov::ok();
    });
}

extern "C" ov_status ov_register_homography(const ov_image *reference, const ov_image *floating, int *found, double h[9],
                                            double *inlier_ratio) {
    return ov::guarded("ov_register_homography", [&]() -> ov_status {
        if (!found || !h || !inlier_ratio) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_register_homography: missing argument");
        *found = 0;
        *inlier_ratio = 0;
        for (int i = 0; i < 9; ++i) h[i] = i % 4 == 0 ? 1 : 0;
        if (ov_status s = checkPair("ov_register_homography", reference, floating); s != OV_OK) return s;
        const cv::Mat &ref = reference->gray(), &flo = floating->gray();
        if (ref.cols < 16 || ref.rows < 16 || isFlat(ref) || isFlat(flo)) return ov::ok();

        // 1-2: ORB matches and a first RANSAC estimate (floating -> reference).
        // The two images' features are independent: computed in parallel (one ORB each; same results).
        std::vector<cv::KeyPoint> kr, kf;
        cv::Mat dr, df;
        cv::parallel_for_(cv::Range(0, 2), [&](const cv::Range &range) {
            for (int i = range.start; i < range.end; ++i)
                cv::ORB::create(1000)->detectAndCompute(i == 0 ? ref : flo, cv::noArray(), i == 0 ? kr : kf, i == 0 ? dr : df);
        });
        if (dr.rows < 2 || df.rows < 2) return ov::ok();
        std::vector<std::vector<cv::DMatch>> knn;
        cv::BFMatcher(cv::NORM_HAMMING).knnMatch(df, dr, knn, 2);
        std::vector<cv::Point2f> from, to;
        for (const auto &m : knn) {
            if (m.size() == 2 && m[0].distance < 0.8f * m[1].distance) {
                from.push_back(kf[m[0].queryIdx].pt);
                to.push_back(kr[m[0].trainIdx].pt);
            }
        }
        if (static_cast<int>(from.size()) < kMinimumMatches) return ov::ok();
        std::vector<unsigned char> mask;
        cv::Mat first = cv::findHomography(from, to, cv::RANSAC, 3.0, mask);
        if (first.empty() || cv::countNonZero(mask) < kMinimumMatches) return ov::ok();

        // 3: sub-pixel refinement with Lucas-Kanade from the first estimate's prediction.
        cv::Mat result = first;
        std::vector<cv::Point2f> corners;
        cv::goodFeaturesToTrack(flo, corners, 500, 0.01, 8);
        double ratio = static_cast<double>(cv::countNonZero(mask)) / from.size();
        if (static_cast<int>(corners.size()) >= kMinimumMatches) {
            std::vector<cv::Point2f> predicted;
            cv::perspectiveTransform(corners, predicted, first);
            std::vector<unsigned char> status;
            std::vector<float> error;
            cv::calcOpticalFlowPyrLK(flo, ref, corners, predicted, status, error, cv::Size(21, 21), 1,
                                     cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 30, 0.01),
                                     cv::OPTFLOW_USE_INITIAL_FLOW);
            std::vector<cv::Point2f> a, b;
            for (size_t i = 0; i < corners.size(); ++i) {
                if (status[i]) {
                    a.push_back(corners[i]);
                    b.push_back(predicted[i]);
                }
            }
            if (static_cast<int>(a.size()) >= kMinimumMatches) {
                std::vector<unsigned char> refinedMask;
                cv::Mat refined = cv::findHomography(a, b, cv::RANSAC, 1.0, refinedMask);
                const int inliers = refinedMask.empty() ? 0 : cv::countNonZero(refinedMask);
                if (!refined.empty() && inliers >= kMinimumMatches) {
                    result = refined;
                    ratio = static_cast<double>(inliers) / a.size();
                }
            }
        }
        cv::Mat r;
        result.convertTo(r, CV_64F);
        const double scale = r.at<double>(2, 2);
        if (!std::isfinite(scale) || std::abs(scale) < 1e-12) return ov::ok();
        for (int i = 0; i < 9; ++i) h[i] = r.at<double>(i / 3, i % 3) / scale;
        for (int i = 0; i < 9; ++i) {
            if (!std::isfinite(h[i])) return ov::ok();
        }
        *inlier_ratio = ratio;
        *found = 1;
        return ov::ok();
    });
}

extern "C" ov_status ov_image_warp_perspective(const ov_image *image, const double h[9], int width, int height, ov_image **out) {
    return ov::guarded("ov_image_warp_perspective", [&]() -> ov_status {
        if (!image || image->empty() || !h || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_image_warp_perspective: missing argument");
        if (width <= 0 || height <= 0) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_image_warp_perspective: size must be positive");
        for (int i = 0; i < 9; ++i) {
            if (!std::isfinite(h[i])) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_image_warp_perspective: matrix is not finite");
        }
        const cv::Mat m(3, 3, CV_64F, const_cast<double *>(h));
        if (std::abs(cv::determinant(m)) < 1e-12) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_image_warp_perspective: matrix is singular");
        cv::Mat warped;
        cv::warpPerspective(image->primary(), warped, m, cv::Size(width, height), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
        *out = ov::wrap(std::move(warped));
        return ov::ok();
    });
}
