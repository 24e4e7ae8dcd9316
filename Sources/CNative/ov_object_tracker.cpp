// Single-object tracking for Vision's TrackObjectRequest / TrackRectangleRequest: OpenCV's trackers
// (contrib `tracking`: CSRT, KCF; `video`: MIL) on the colour frames, plus a confidence and, for
// rectangles, corners.
//
// Algorithm
//   Box: the OpenCV tracker itself (init on the first frame, update on each next one), with its default
//     parameters (as Python's cv2.TrackerCSRT_create() etc., which the benchmark compares with).
//   Confidence: CSRT and KCF keep their correlation peak internal (update() only says found / not found),
//     so the confidence is the best normalised cross-correlation (TM_CCOEFF_NORMED, clamped at 0) of the
//     first frame's box (shrunk to at most 48 px a side) within the patch now under the box, rescaled to the
//     template's size, with a margin of a tenth of the template (+2 px) on each side; 0 when the tracker reports
//     failure. It falls when something else covers the target. The margin keeps it high while a tracker lags a
//     few pixels (KCF on the tests' moving patch: 0.25-0.48 without it). Rectangles whose corners are
//     followed: the same correlation on the current frame mapped back onto the first by the corners'
//     homography (turning and growing targets keep their score).
//   Corners (rectangles): up to 200 Shi-Tomasi corners inside the quadrilateral on the first frame. Each
//     frame, pyramidal Lucas-Kanade (4 levels, forward-backward checked to 1 px) follows them from the previous
//     frame and a homography fitted on them (RANSAC, 2 px) predicts where they are; Lucas-Kanade from the first
//     frame (2 levels, started at the prediction) then refines them and a second fit maps the first frame's
//     corners. Chained frame to frame alone, the corners drifted 4.9 px over 60 frames of the tests' turning
//     patch; from the first frame alone, Lucas-Kanade lost most points on the giraffe's repetitive texture.
//     With fewer than 8 inliers the corners follow the box's translation and scale, and that frame becomes the
//     new reference.
//
// Decisions
//   - Gray frames are given to the trackers as 3 channels (CSRT's and KCF's colour features expect them).
//   - A flat template (gray standard deviation < 1) has no correlation: the confidence is then 1 when the
//     tracker reports the target found, else 0.
#include "ov_internal.hpp"
#include "ov_object_tracker.h"

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
constexpr int kTemplateSide = 48;

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
    cv::Rect firstBox;
    cv::Mat templ;  // gray, the first box shrunk to at most kTemplateSide px
    double templateScale = 1;
    bool flat = false;
    // Rectangles only.
    bool followsQuad = false;
    std::vector<cv::Point2f> quad;  // the corners now
    cv::Mat first;                  // gray frame the points were found on
    cv::Mat previous;               // gray, the last frame
    std::vector<cv::Point2f> firstPoints, firstQuad;
    cv::Mat homography;  // first -> now

    void detectPoints(const cv::Mat &gray) {
        cv::Mat mask = cv::Mat::zeros(gray.size(), CV_8U);
        std::vector<cv::Point> polygon;
        for (const auto &p : quad) polygon.emplace_back(cvRound(p.x), cvRound(p.y));
        cv::fillConvexPoly(mask, polygon, cv::Scalar(255));
        cv::goodFeaturesToTrack(gray, firstPoints, 200, 0.01, 4, mask);
        firstQuad = quad;
        homography = cv::Mat::eye(3, 3, CV_64F);
    }

    /// The template's margin (template pixels) searched around the expected place: small misplacements of the
    /// box (a tracker lagging a few pixels) do not count as a loss of the target.
    cv::Size margin() const { return {templ.cols / 10 + 2, templ.rows / 10 + 2}; }

    /// The best normalised cross-correlation of the template within `area` (the template's size plus its
    /// margin on each side, at the template's scale), clamped to 0...1.
    double score(const cv::Mat &area) const {
        if (flat) return 1;
        cv::Mat result;
        cv::matchTemplate(area, templ, result, cv::TM_CCOEFF_NORMED);
        double best = 0;
        cv::minMaxLoc(result, nullptr, &best);
        return std::isfinite(best) ? std::max(0.0, std::min(1.0, best)) : 0;
    }

    /// The template searched around the box `at` (rescaled to the template's size).
    double confidence(const cv::Mat &gray, const cv::Rect &at) const {
        const cv::Size m = margin();
        const double fx = static_cast<double>(templ.cols) / std::max(1, at.width), fy = static_cast<double>(templ.rows) / std::max(1, at.height);
        const cv::Size full(std::max(1, cvRound(at.width + 2 * m.width / fx)), std::max(1, cvRound(at.height + 2 * m.height / fy)));
        cv::Mat patch, area;
        cv::getRectSubPix(gray, full, cv::Point2f(at.x + at.width / 2.0f, at.y + at.height / 2.0f), patch);
        cv::resize(patch, area, cv::Size(templ.cols + 2 * m.width, templ.rows + 2 * m.height), 0, 0, cv::INTER_AREA);
        return score(area);
    }

    /// The template searched in the current frame mapped back onto the first one by the corners' homography.
    double rectifiedConfidence(const cv::Mat &gray) const {
        const cv::Size m = margin();
        const double ex = m.width / templateScale, ey = m.height / templateScale;
        const cv::Mat shift = (cv::Mat_<double>(3, 3) << 1, 0, firstBox.x - ex, 0, 1, firstBox.y - ey, 0, 0, 1);
        cv::Mat patch, area;
        cv::warpPerspective(gray, patch, homography * shift, cv::Size(cvRound(firstBox.width + 2 * ex), cvRound(firstBox.height + 2 * ey)),
                            cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, cv::BORDER_REPLICATE);
        cv::resize(patch, area, cv::Size(templ.cols + 2 * m.width, templ.rows + 2 * m.height), 0, 0, cv::INTER_AREA);
        return score(area);
    }

    /// Lucas-Kanade from `a` to `b` of `from`, started at `to`, with a forward-backward check (1 px); keeps the pairs that pass.
    static void followPoints(const cv::Mat &a, const cv::Mat &b, const std::vector<cv::Point2f> &from, std::vector<cv::Point2f> to, int levels,
                             std::vector<cv::Point2f> &keptFrom, std::vector<cv::Point2f> &keptTo) {
        keptFrom.clear();
        keptTo.clear();
        if (from.empty()) return;
        std::vector<cv::Point2f> back = from;
        std::vector<unsigned char> status, statusBack;
        std::vector<float> error;
        const cv::TermCriteria criteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 30, 0.01);
        cv::calcOpticalFlowPyrLK(a, b, from, to, status, error, kWindow, levels, criteria, cv::OPTFLOW_USE_INITIAL_FLOW);
        cv::calcOpticalFlowPyrLK(b, a, to, back, statusBack, error, kWindow, levels, criteria, cv::OPTFLOW_USE_INITIAL_FLOW);
        for (size_t i = 0; i < from.size(); ++i) {
            if (status[i] && statusBack[i] && cv::norm(back[i] - from[i]) < 1.0) {
                keptFrom.push_back(from[i]);
                keptTo.push_back(to[i]);
            }
        }
    }

    /// A RANSAC homography (2 px) with at least kMinimumInliers inliers, or an empty matrix.
    static cv::Mat fit(const std::vector<cv::Point2f> &a, const std::vector<cv::Point2f> &b) {
        if (a.size() < static_cast<size_t>(kMinimumInliers)) return {};
        std::vector<unsigned char> mask;
        cv::Mat h = cv::findHomography(a, b, cv::RANSAC, 2.0, mask);
        if (h.empty() || cv::countNonZero(mask) < kMinimumInliers) return {};
        cv::Mat h64;
        h.convertTo(h64, CV_64F);
        return h64;
    }

    /// Predicts the homography (first frame -> now) from the previous frame (Lucas-Kanade over 4 levels between
    /// consecutive frames), then refines it against the first frame (Lucas-Kanade over 2 levels started at the
    /// prediction): consecutive frames look alike, so the prediction is robust; the refinement removes its drift.
    /// True when the homography was fitted (false: the corners followed the box).
    bool followQuad(const cv::Mat &gray, const cv::Rect &before, const cv::Rect &after) {
        cv::Mat moved;
        if (firstPoints.size() >= static_cast<size_t>(kMinimumInliers)) {
            std::vector<cv::Point2f> atPrevious, a, b;
            cv::perspectiveTransform(firstPoints, atPrevious, homography);
            followPoints(previous, gray, atPrevious, atPrevious, kLevels, a, b);
            const cv::Mat step = fit(a, b);
            if (!step.empty()) {
                const cv::Mat predicted = step * homography;
                std::vector<cv::Point2f> guess;
                cv::perspectiveTransform(firstPoints, guess, predicted);
                followPoints(first, gray, firstPoints, guess, 1, a, b);
                const cv::Mat refined = fit(a, b);
                moved = refined.empty() ? predicted : refined;
            }
        }
        std::vector<cv::Point2f> corners;
        if (!moved.empty()) cv::perspectiveTransform(firstQuad, corners, moved);
        bool finite = corners.size() == 4;
        for (const auto &p : corners) finite = finite && std::isfinite(p.x) && std::isfinite(p.y);
        if (finite) {
            quad = corners;
            homography = moved;
        } else {
            // Too few points followed: the corners move with the box, and this frame becomes the new reference.
            const double sx = static_cast<double>(after.width) / std::max(1, before.width);
            const double sy = static_cast<double>(after.height) / std::max(1, before.height);
            for (auto &p : quad) {
                p.x = static_cast<float>(after.x + (p.x - before.x) * sx);
                p.y = static_cast<float>(after.y + (p.y - before.y) * sy);
            }
            first = gray.clone();
            detectPoints(gray);
        }
        previous = gray.clone();
        return finite;
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
        t->firstBox = rect;
        t->templateScale = std::min(1.0, static_cast<double>(kTemplateSide) / std::max(rect.width, rect.height));
        cv::resize(gray(rect), t->templ,
                   cv::Size(std::max(1, cvRound(rect.width * t->templateScale)), std::max(1, cvRound(rect.height * t->templateScale))), 0, 0,
                   cv::INTER_AREA);
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
            t->first = gray.clone();
            t->previous = t->first;
            t->detectPoints(gray);
        }
        *out = t.release();
        return ov::ok();
    });
}

extern "C" void ov_object_tracker_free(ov_object_tracker *tracker) { delete tracker; }

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
            if (tracker->followQuad(gray, before, tracker->box)) *confidence = tracker->rectifiedConfidence(gray);
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
