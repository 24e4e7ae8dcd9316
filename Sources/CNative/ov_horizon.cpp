// Horizon: the angle of an image's horizon, in the spirit of Vision's VNDetectHorizonRequest (OpenCV).
//
// Algorithm
//   1. The gray image is shrunk (INTER_AREA) to a longer side of at most 640 px and smoothed (Gaussian,
//      sigma 1.5): the horizon is a large-scale structure, texture is noise here.
//   2. Canny edges (thresholds 30 / 90, as the rectangles' candidates): a flat image has none.
//   3. cv::HoughLines over normals within +-45 degrees of vertical (lines within +-45 degrees of
//      horizontal), 1 px x 0.25 degree bins. The strongest line is the candidate. The range is voted on
//      as two 45-degree slices in parallel (cv::parallel_for_), each a cv::HoughLines call.
//   4. Refinement: the edge pixels within 2 px of the candidate are fitted with cv::fitLine (Huber); the
//      angle is that line's, measured counter-clockwise as seen (y up), corrected for any unequal
//      shrinking of the two axes.
//
// Decisions
//   - "A horizon" means one straight, nearly horizontal line across the image: the candidate's edge
//     pixels must span at least half the working image's width and number at least a third of it.
//     Otherwise (flat images, clutter without a dominant line) there is no result.
//   - Lines steeper than 45 degrees are not horizons: the angle is always within -45...45 degrees.
//   - Voting is ~80 % of the time on a photo (every edge pixel votes in 360 angle bins, one thread in
//     cv::HoughLines), so it is split by angle: each slice's accumulator is exactly the full accumulator's
//     rows, and std::max_element keeps the first (lower-angle) slice on equal votes, as HoughLines' own
//     sort does. Only a tie across the slices' shared edge (90 degrees) can pick a neighbouring bin, which
//     the refinement below absorbs (angles equal to the single call's within 0.01 degree on the shared photos).
//   - Vision's algorithm is not documented (likely learned); ours finds the dominant straight edge, so a
//     long straight edge that is not the horizon (a table edge, a roof line) is reported as one.
#include "ov_internal.hpp"
#include "ov_horizon.h"

#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace {
constexpr int kMaxSide = 640;
constexpr double kCannyLow = 30, kCannyHigh = 90;
constexpr double kPi = 3.14159265358979323846;
constexpr int kHoughParts = 2;  // theta slices voted on in parallel (each 45 degrees: 180 bins of 0.25 degree)
}  // namespace

extern "C" ov_status ov_detect_horizon(const ov_image *image, int *found, double *angle) {
    return ov::guarded("ov_detect_horizon", [&]() -> ov_status {
        if (!image || !found || !angle) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_detect_horizon: missing argument");
        *found = 0;
        *angle = 0;
        const cv::Mat &gray = image->gray();
        if (gray.empty() || gray.cols < 16 || gray.rows < 16) return ov::ok();

        const cv::Mat work = ov::fitWithin(gray, kMaxSide);
        cv::Mat smooth, edges;
        cv::GaussianBlur(work, smooth, cv::Size(0, 0), 1.5);
        cv::Canny(smooth, edges, kCannyLow, kCannyHigh);

        // The strongest line: the theta range in kHoughParts slices voted on in parallel (each slice's
        // accumulator is the full one's rows; see Decisions), the most votes across slices, ties to the
        // lower angle as cv::HoughLines orders them.
        const int threshold = std::max(10, work.cols / 3);
        std::vector<cv::Vec3f> best(kHoughParts, cv::Vec3f(0, 0, -1));  // rho, theta, votes
        const double step = kPi / 720, part = (kPi / 2) / kHoughParts;
        cv::parallel_for_(cv::Range(0, kHoughParts), [&](const cv::Range &range) {
            for (int i = range.start; i < range.end; ++i) {
                std::vector<cv::Vec3f> lines;
                const double from = kPi / 4 + i * part;
                cv::HoughLines(edges, lines, 1, step, threshold, 0, 0, from, from + part);
                if (!lines.empty()) best[i] = lines[0];
            }
        }, kHoughParts);
        const auto top = std::max_element(best.begin(), best.end(), [](const cv::Vec3f &a, const cv::Vec3f &b) { return a[2] < b[2]; });
        if ((*top)[2] < 0) return ov::ok();
        const float rho = (*top)[0], theta = (*top)[1];
        const double c = std::cos(theta), s = std::sin(theta);

        std::vector<cv::Point2f> inliers;
        float minX = 1e9f, maxX = -1e9f;
        for (int y = 0; y < edges.rows; ++y) {
            const uchar *row = edges.ptr<uchar>(y);
            for (int x = 0; x < edges.cols; ++x) {
                if (!row[x] || std::abs(x * c + y * s - rho) > 2) continue;
                inliers.emplace_back(static_cast<float>(x), static_cast<float>(y));
                minX = std::min(minX, static_cast<float>(x));
                maxX = std::max(maxX, static_cast<float>(x));
            }
        }
        if (static_cast<int>(inliers.size()) < threshold || maxX - minX < 0.5 * work.cols) return ov::ok();

        cv::Vec4f fit;
        cv::fitLine(inliers, fit, cv::DIST_HUBER, 0, 0.01, 0.01);
        // Back to the original pixel grid (the two axes may have shrunk by slightly different factors).
        const double vx = fit[0] * (static_cast<double>(gray.cols) / work.cols);
        const double vy = fit[1] * (static_cast<double>(gray.rows) / work.rows);
        double a = std::atan2(-vy, vx);  // y up: counter-clockwise positive
        if (a > kPi / 2) a -= kPi;
        if (a <= -kPi / 2) a += kPi;
        if (std::abs(a) > kPi / 4 + 1e-9) return ov::ok();
        *angle = a;
        *found = 1;
        return ov::ok();
    });
}
