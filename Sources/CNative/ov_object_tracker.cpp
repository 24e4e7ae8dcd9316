// Single-object tracking for Vision's TrackObjectRequest / TrackRectangleRequest: OpenCV's trackers
// (contrib `tracking`: CSRT, KCF; `video`: MIL) on the colour frames, plus a confidence and, for
// rectangles, corners.
//
// Algorithm
//   Box: the OpenCV tracker itself (init on the first frame, update on each next one), with its default
//     parameters (as Python's cv2.TrackerCSRT_create() etc., which the benchmark compares with).
//   Confidence: CSRT and KCF keep their correlation peak internal (update() only says found / not found),
//     so the confidence is the normalised cross-correlation (TM_CCOEFF_NORMED) of the first frame's
//     template with the patch now under the box (resized to the template's size), clamped at 0; 0 when
//     the tracker reports failure. It falls when something else covers the target.
//   Corners (rectangles): Shi-Tomasi corners inside the quadrilateral are tracked frame to frame with
//     pyramidal Lucas-Kanade (forward-backward checked, 1 px); a homography fitted on them (RANSAC, 2 px)
//     maps the corners. With fewer than 8 inliers the corners follow the box's translation and scale.
//     Corners are detected again inside the current quadrilateral when half of them are gone.
//
// Decisions
//   - Gray frames are given to the trackers as 3 channels (CSRT's and KCF's colour features expect them).
//   - A flat template (gray standard deviation < 1) has no correlation: the confidence is then 1 when the
//     tracker reports the target found, else 0.
#include "ov_internal.hpp"
#include "ov_tracking.h"

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/tracking.hpp>
#include <opencv2/video/tracking.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace {
const cv::Size kWindow(21, 21);
constexpr int kLevels = 3;
constexpr int kMinimumInliers = 8;

cv::Mat colourOf(const ov_image *frame) {
    if (!frame->isGray()) return frame->bgr;
    cv::Mat bgr;
    cv::cvtColor(frame->luma, bgr, cv::COLOR_GRAY2BGR);
    return bgr;
}
}  // namespace

struct ov_object_tracker {
    cv::Ptr<cv::Tracker> tracker;
    cv::Size size;
    cv::Rect box;
    cv::Mat templ;  // gray, the first box
    bool flat = false;
    // Rectangles only.
    bool followsQuad = false;
    std::vector<cv::Point2f> quad, points;
    cv::Mat previous;  // gray

    void detectPoints(const cv::Mat &gray) {
        points.clear();
        cv::Mat mask = cv::Mat::zeros(gray.size(), CV_8U);
        std::vector<cv::Point> polygon;
        for (const auto &p : quad) polygon.emplace_back(cvRound(p.x), cvRound(p.y));
        cv::fillConvexPoly(mask, polygon, cv::Scalar(255));
        cv::goodFeaturesToTrack(gray, points, 100, 0.01, 4, mask);
    }

    double confidence(const cv::Mat &gray, const cv::Rect &at) const {
        if (flat) return 1;
        cv::Mat patch, resized, score;
        cv::getRectSubPix(gray, at.size(), cv::Point2f(at.x + at.width / 2.0f, at.y + at.height / 2.0f), patch);
        cv::resize(patch, resized, templ.size(), 0, 0, cv::INTER_AREA);
        cv::matchTemplate(resized, templ, score, cv::TM_CCOEFF_NORMED);
        const double c = score.at<float>(0, 0);
        return std::isfinite(c) ? std::max(0.0, std::min(1.0, c)) : 0;
    }

    void followQuad(const cv::Mat &gray, const cv::Rect &before, const cv::Rect &after) {
        bool fitted = false;
        if (points.size() >= static_cast<size_t>(kMinimumInliers)) {
            std::vector<cv::Point2f> to, back;
            std::vector<unsigned char> status, statusBack;
            std::vector<float> error;
            const cv::TermCriteria criteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 30, 0.01);
            cv::calcOpticalFlowPyrLK(previous, gray, points, to, status, error, kWindow, kLevels, criteria);
            cv::calcOpticalFlowPyrLK(gray, previous, to, back, statusBack, error, kWindow, kLevels, criteria);
            std::vector<cv::Point2f> a, b;
            for (size_t i = 0; i < points.size(); ++i) {
                if (status[i] && statusBack[i] && cv::norm(back[i] - points[i]) < 1.0) {
                    a.push_back(points[i]);
                    b.push_back(to[i]);
                }
            }
            if (a.size() >= static_cast<size_t>(kMinimumInliers)) {
                std::vector<unsigned char> mask;
                cv::Mat h = cv::findHomography(a, b, cv::RANSAC, 2.0, mask);
                if (!h.empty() && cv::countNonZero(mask) >= kMinimumInliers) {
                    std::vector<cv::Point2f> moved;
                    cv::perspectiveTransform(quad, moved, h);
                    bool finite = true;
                    for (const auto &p : moved) finite = finite && std::isfinite(p.x) && std::isfinite(p.y);
                    if (finite) {
                        quad = moved;
                        points.clear();
                        for (size_t i = 0; i < b.size(); ++i) {
                            if (mask[i]) points.push_back(b[i]);
                        }
                        fitted = true;
                    }
                }
            }
        }
        if (!fitted) {
            const double sx = static_cast<double>(after.width) / std::max(1, before.width);
            const double sy = static_cast<double>(after.height) / std::max(1, before.height);
            for (auto &p : quad) {
                p.x = static_cast<float>(after.x + (p.x - before.x) * sx);
                p.y = static_cast<float>(after.y + (p.y - before.y) * sy);
            }
            points.clear();
        }
        if (points.size() < 50) detectPoints(gray);
        previous = gray.clone();
    }
};

extern "C" ov_status ov_object_tracker_create(ov_object_tracker_kind kind, const ov_image *frame, const double box[4], const double *quad,
                                              ov_object_tracker **out) {
    return ov::guarded("ov_object_tracker_create", [&]() -> ov_status {
        if (!frame || frame->empty() || !box || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_object_tracker_create: missing argument");
        for (int i = 0; i < 4; ++i) {
            if (!std::isfinite(box[i])) return ov::fail(OV_ERR_INVALID_ARGUMENT, "tracking: the box is not finite");
        }
        const cv::Rect image(0, 0, frame->cols(), frame->rows());
        // Clipped: a box rounded to pixels may overhang the frame by one.
        const cv::Rect rect = cv::Rect(cvRound(box[0]), cvRound(box[1]), cvRound(box[2]), cvRound(box[3])) & image;
        if (rect.width < 2 || rect.height < 2) {
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "tracking: the box must be at least 2x2 pixels and inside the frame");
        }
        auto t = std::make_unique<ov_object_tracker>();
        switch (kind) {
            case OV_TRACKER_CSRT: t->tracker = cv::TrackerCSRT::create(); break;
            case OV_TRACKER_KCF: t->tracker = cv::TrackerKCF::create(); break;
            case OV_TRACKER_MIL: t->tracker = cv::TrackerMIL::create(); break;
            default: return ov::fail(OV_ERR_INVALID_ARGUMENT, "tracking: unknown tracker kind");
        }
        t->tracker->init(colourOf(frame), rect);
        t->size = image.size();
        t->box = rect;
        const cv::Mat &gray = frame->gray();
        t->templ = gray(rect).clone();
        cv::Scalar mean, stddev;
        cv::meanStdDev(t->templ, mean, stddev);
        t->flat = stddev[0] < 1.0;
        if (quad) {
            t->followsQuad = true;
            for (int i = 0; i < 4; ++i) {
                if (!std::isfinite(quad[2 * i]) || !std::isfinite(quad[2 * i + 1])) {
                    return ov::fail(OV_ERR_INVALID_ARGUMENT, "tracking: a corner is not finite");
                }
                t->quad.emplace_back(static_cast<float>(quad[2 * i]), static_cast<float>(quad[2 * i + 1]));
            }
            t->previous = gray.clone();
            t->detectPoints(gray);
        }
        *out = t.release();
        return ov::ok();
    });
}

extern "C" void ov_object_tracker_release(ov_object_tracker *tracker) { delete tracker; }

extern "C" ov_status ov_object_tracker_update(ov_object_tracker *tracker, const ov_image *frame, double box[4], int *found,
                                              double *confidence, double *quad) {
    return ov::guarded("ov_object_tracker_update", [&]() -> ov_status {
        if (!tracker || !frame || frame->empty() || !box || !found || !confidence) {
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_object_tracker_update: missing argument");
        }
        if (frame->cols() != tracker->size.width || frame->rows() != tracker->size.height) {
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "tracking: the frame size changed from " + std::to_string(tracker->size.width) + "x" +
                                                         std::to_string(tracker->size.height) + " to " + std::to_string(frame->cols()) +
                                                         "x" + std::to_string(frame->rows()));
        }
        cv::Rect rect = tracker->box;
        const bool ok = tracker->tracker->update(colourOf(frame), rect) && rect.width > 0 && rect.height > 0;
        const cv::Rect before = tracker->box;
        if (ok) tracker->box = rect;
        const cv::Mat &gray = frame->gray();
        *found = ok ? 1 : 0;
        *confidence = ok ? tracker->confidence(gray, tracker->box) : 0;
        box[0] = tracker->box.x;
        box[1] = tracker->box.y;
        box[2] = tracker->box.width;
        box[3] = tracker->box.height;
        if (tracker->followsQuad) {
            tracker->followQuad(gray, before, tracker->box);
            if (quad) {
                for (int i = 0; i < 4; ++i) {
                    quad[2 * i] = tracker->quad[i].x;
                    quad[2 * i + 1] = tracker->quad[i].y;
                }
            }
        }
        return ov::ok();
    });
}
