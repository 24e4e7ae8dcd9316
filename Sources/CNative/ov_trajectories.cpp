// Moving blobs for trajectory detection, in the spirit of Vision's VNDetectTrajectoriesRequest (OpenCV).
// The linking of blobs into trajectories and the parabola fit are in Swift (TrajectoryTracker.swift).
//
// Algorithm (per frame)
//   1. Gray plane, shrunk (INTER_AREA) to a longer side of at most 640 px.
//   2. Background: the per-pixel median of the last kHistory frames (this one included). A ball that moves
//      more than about a third of its diameter per frame covers any pixel in at most a few of them, so
//      the median is the scene without it; a static camera is assumed.
//   3. Foreground: |frame - background| > kThreshold, opened with a 3x3 ellipse (noise), external contours.
//   4. Each contour is a blob: centroid from its moments, radius sqrt(area / pi); blobs outside the radius
//      range are dropped.
//
// Decisions
//   - No blobs until kMinimumHistory frames are held (the median of fewer still contains the object).
//   - A moving camera makes everything foreground; such frames give many large blobs that the radius range
//     and the Swift side's parabola test reject, not an error.
#include "ov_internal.hpp"
#include "ov_trajectories.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <deque>
#include <vector>

namespace {
constexpr int kHistory = 7;
constexpr int kMinimumHistory = 5;
constexpr int kMaxSide = 640;
constexpr double kThreshold = 30;
constexpr double kPi = 3.14159265358979323846;
}  // namespace

struct ov_motion_detector {
    std::deque<cv::Mat> frames;  // working-size gray frames, oldest first
    cv::Size original;           // the first frame's size
};

extern "C" ov_status ov_motion_detector_create(ov_motion_detector **out) {
    return ov::guarded("ov_motion_detector_create", [&]() -> ov_status {
        if (!out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_motion_detector_create: missing argument");
        *out = new ov_motion_detector();
        return ov::ok();
    });
}

extern "C" void ov_motion_detector_free(ov_motion_detector *detector) { delete detector; }

namespace {
/// The per-pixel median of `frames` (all CV_8UC1, same size).
cv::Mat median(const std::deque<cv::Mat> &frames) {
    const int n = static_cast<int>(frames.size());
    cv::Mat out(frames.front().size(), CV_8UC1);
    std::vector<const uchar *> rows(n);
    uchar values[kHistory];
    for (int y = 0; y < out.rows; ++y) {
        for (int i = 0; i < n; ++i) rows[i] = frames[i].ptr<uchar>(y);
        uchar *dst = out.ptr<uchar>(y);
        for (int x = 0; x < out.cols; ++x) {
            for (int i = 0; i < n; ++i) values[i] = rows[i][x];
            std::nth_element(values, values + n / 2, values + n);
            dst[x] = values[n / 2];
        }
    }
    return out;
}
}  // namespace

extern "C" ov_status ov_motion_detector_add(ov_motion_detector *detector, const ov_image *frame, float min_radius, float max_radius,
                                            ov_motion_blob *blobs, int capacity, int *count) {
    return ov::guarded("ov_motion_detector_add", [&]() -> ov_status {
        if (!detector || !frame || frame->empty() || !count || (capacity > 0 && !blobs)) {
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_motion_detector_add: missing argument");
        }
        *count = 0;
        const cv::Mat &gray = frame->gray();
        if (detector->original.area() == 0) {
            detector->original = gray.size();
        } else if (gray.size() != detector->original) {
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_motion_detector_add: frame size changed from " +
                                                         std::to_string(detector->original.width) + "x" +
                                                         std::to_string(detector->original.height) + " to " +
                                                         std::to_string(gray.cols) + "x" + std::to_string(gray.rows));
        }
        cv::Mat work = ov::fitWithin(gray, kMaxSide);
        if (work.data == gray.data) work = gray.clone();  // kept as the next frame's background sample
        const double fx = static_cast<double>(gray.cols) / work.cols, fy = static_cast<double>(gray.rows) / work.rows;
        detector->frames.push_back(work);
        if (static_cast<int>(detector->frames.size()) > kHistory) detector->frames.pop_front();
        if (static_cast<int>(detector->frames.size()) < kMinimumHistory) return ov::ok();

        cv::Mat background = median(detector->frames), diff, mask;
        cv::absdiff(work, background, diff);
        cv::threshold(diff, mask, kThreshold, 255, cv::THRESH_BINARY);
        cv::morphologyEx(mask, mask, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(3, 3)));
        std::vector<std::vector<cv::Point>> contours;
        cv::findContours(mask, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE);

        std::vector<ov_motion_blob> found;
        for (const auto &c : contours) {
            const cv::Moments m = cv::moments(c);
            if (m.m00 <= 0) continue;
            // Contour area excludes half the boundary pixels; count the mask's pixels for the radius.
            const cv::Rect box = cv::boundingRect(c);
            const double area = cv::countNonZero(mask(box)) * fx * fy;
            const ov_motion_blob blob{static_cast<float>((m.m10 / m.m00 + 0.5) * fx - 0.5),
                                      static_cast<float>((m.m01 / m.m00 + 0.5) * fy - 0.5),
                                      static_cast<float>(std::sqrt(area / kPi))};
            if (blob.radius >= min_radius && blob.radius <= max_radius) found.push_back(blob);
        }
        std::sort(found.begin(), found.end(), [](const ov_motion_blob &a, const ov_motion_blob &b) { return a.radius > b.radius; });
        const int n = std::min(capacity, static_cast<int>(found.size()));
        std::copy(found.begin(), found.begin() + n, blobs);
        *count = n;
        return ov::ok();
    });
}
