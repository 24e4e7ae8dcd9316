// The anchor tracker behind pinned labels (seed 003): points of the scene followed frame to frame.
//
// Algorithm (per frame, all anchors in one call, one gray pyramid per frame shared by all of them)
//   0. Everything runs on the half-size gray frame (cv::pyrDown; positions are scaled back): the pyramid
//      with its derivatives was most of the per-frame cost at full size (about 3 ms of CPU of the 4.3 for 10
//      anchors at 640x480 on the loaded bench machine), and Lucas-Kanade is sub-pixel at half size too.
//   1. A pyramid (cv::buildOpticalFlowPyramid, 15x15 windows, 3 levels, with derivatives) of the new
//      frame; the previous frame's is kept.
//   2. One pyramidal Lucas-Kanade pass, previous -> current, over every anchor's local corners (Shi-Tomasi,
//      within window_radius of the anchor) and the global corners (spread over the whole frame), then one
//      pass back; a point is kept when it returns within 1 px of where it
//      started (forward-backward check).
//   3. Camera motion: a homography fitted with RANSAC (2 px) on the global corners (frame to frame).
//   4. Each visible anchor moves by the least-squares similarity of its own corners' inliers (RANSAC,
//      cv::estimateAffinePartial2D without refinement, 1.5 px): "normal" with at least normal_inliers inliers and edge_margin px from the border,
//      "limited" with fewer or near the border; with fewer than min_inliers the camera motion moves it
//      ("limited"); with neither it is "lost". Its corners are detected again around it when half are gone.
//   5. An anchor whose point leaves the frame is "lost"; its position keeps following the camera motion
//      (the frame-to-frame homographies accumulate) while outside. When that prediction is back inside the
//      frame, the anchor's latest template (23x23 working px, refreshed while normal) is searched for within 16 working px
//      of it (normalised cross-correlation, cv::matchTemplate TM_CCOEFF_NORMED); a peak of at least
//      reacquire_ncc re-acquires it there. Without camera motion (a flat or unrelated frame), the search is
//      around its last prediction.
//
// Decisions
//   - The public position of a lost anchor is its last tracked one (the contract of Anchor.point); the
//     prediction is internal.
//   - A frame equal to the last one (pinning on the frame just analysed) is not tracked again.
#include "ov_internal.hpp"
#include "ov_anchor_tracker.h"

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/video/tracking.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace {
constexpr int kPyramidLevels = 2;  // maxLevel: 3 levels (up to ~28 px of half-size motion per frame)
const cv::Size kWindow(15, 15);
constexpr double kForwardBackward = 1.0;
constexpr int kTemplateRadius = 11;  // working-image pixels (22 px of the frame)
constexpr int kSearchRadius = 16;
constexpr double kScale = 0.5;  // the working image: the frame's gray plane shrunk by cv::pyrDown

struct AnchorEntry {
    int id = 0;
    int state = OV_ANCHOR_NORMAL;
    cv::Point2d position;   // last tracked position (what callers see)
    cv::Point2d predicted;  // current estimate, follows the camera motion while lost
    std::vector<cv::Point2f> corners;
    cv::Mat patch;  // template around the latest normal position
};

bool inside(const cv::Point2d &p, const cv::Size &size, double margin) {
    return p.x >= margin && p.y >= margin && p.x <= size.width - 1 - margin && p.y <= size.height - 1 - margin;
}

cv::Point2d apply(const cv::Mat &m, const cv::Point2d &p) {
    if (m.rows == 2) return {m.at<double>(0, 0) * p.x + m.at<double>(0, 1) * p.y + m.at<double>(0, 2),
                             m.at<double>(1, 0) * p.x + m.at<double>(1, 1) * p.y + m.at<double>(1, 2)};
    const double w = m.at<double>(2, 0) * p.x + m.at<double>(2, 1) * p.y + m.at<double>(2, 2);
    if (std::abs(w) < 1e-12) return {NAN, NAN};
    return {(m.at<double>(0, 0) * p.x + m.at<double>(0, 1) * p.y + m.at<double>(0, 2)) / w,
            (m.at<double>(1, 0) * p.x + m.at<double>(1, 1) * p.y + m.at<double>(1, 2)) / w};
}

bool finite(const cv::Point2d &p) { return std::isfinite(p.x) && std::isfinite(p.y); }

/// `p` moved by the least-squares similarity taking `a` to `b` (closed form: with points as complex numbers
/// about their centroids, z = sum(b' conj(a')) / sum(|a'|^2), p -> cb + z (p - ca)).
cv::Point2d similarityMove(const std::vector<cv::Point2f> &a, const std::vector<cv::Point2f> &b, const cv::Point2d &p) {
    cv::Point2d ca(0, 0), cb(0, 0);
    for (size_t i = 0; i < a.size(); ++i) {
        ca += cv::Point2d(a[i]);
        cb += cv::Point2d(b[i]);
    }
    ca /= static_cast<double>(a.size());
    cb /= static_cast<double>(b.size());
    double re = 0, im = 0, norm = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        const cv::Point2d u = cv::Point2d(a[i]) - ca, v = cv::Point2d(b[i]) - cb;
        re += v.x * u.x + v.y * u.y;
        im += v.y * u.x - v.x * u.y;
        norm += u.x * u.x + u.y * u.y;
    }
    if (norm < 1e-9) return cb + (p - ca);
    const double zr = re / norm, zi = im / norm;
    const cv::Point2d d = p - ca;
    return {cb.x + zr * d.x - zi * d.y, cb.y + zi * d.x + zr * d.y};
}

cv::Mat patchAround(const cv::Mat &gray, const cv::Point2d &p) {
    cv::Mat patch;
    cv::getRectSubPix(gray, cv::Size(2 * kTemplateRadius + 1, 2 * kTemplateRadius + 1), cv::Point2f(p), patch);
    return patch;
}
}  // namespace

struct ov_anchor_tracker {
    ov_anchor_params params{};
    cv::Size frameSize;                  // the frames' (full) size
    cv::Mat previous;                    // the last working image (half-size gray), owned
    std::vector<cv::Mat> previousPyramid;  // built on demand
    std::vector<cv::Point2f> global;
    std::vector<AnchorEntry> anchors;

    const std::vector<cv::Mat> &pyramidOfPrevious() {
        if (previousPyramid.empty()) cv::buildOpticalFlowPyramid(previous, previousPyramid, kWindow, kPyramidLevels, true);
        return previousPyramid;
    }

    void detectGlobal(const cv::Mat &gray) {
        global.clear();
        if (gray.cols >= 8 && gray.rows >= 8) cv::goodFeaturesToTrack(gray, global, params.global_features, 0.01, 4);
    }

    void detectLocal(const cv::Mat &gray, AnchorEntry &anchor, const cv::Point2d &at) {
        anchor.corners.clear();
        const int r = params.window_radius;
        const cv::Rect window = cv::Rect(static_cast<int>(std::lround(at.x)) - r, static_cast<int>(std::lround(at.y)) - r, 2 * r + 1,
                                         2 * r + 1) & cv::Rect(0, 0, gray.cols, gray.rows);
        if (window.width < 8 || window.height < 8) return;
        std::vector<cv::Point2f> found;
        cv::goodFeaturesToTrack(gray(window), found, params.max_features, 0.01, 3);
        for (const auto &p : found) anchor.corners.emplace_back(p.x + window.x, p.y + window.y);
    }

    /// Tracks everything from `previous` into `gray` and makes `gray` the previous frame.
    void step(const cv::Mat &gray) {
        if (anchors.empty()) {
            previous = gray.clone();
            previousPyramid.clear();
            global.clear();
            return;
        }
        const std::vector<cv::Mat> &before = pyramidOfPrevious();
        std::vector<cv::Mat> after;
        cv::buildOpticalFlowPyramid(gray, after, kWindow, kPyramidLevels, true);

        // 2. one forward and one backward LK pass over all points.
        std::vector<cv::Point2f> from;
        std::vector<size_t> offsets;
        for (const auto &anchor : anchors) {
            offsets.push_back(from.size());
            if (anchor.state != OV_ANCHOR_LOST) from.insert(from.end(), anchor.corners.begin(), anchor.corners.end());
        }
        const size_t globalOffset = from.size();
        from.insert(from.end(), global.begin(), global.end());
        std::vector<cv::Point2f> to, back;
        std::vector<unsigned char> ok;
        if (!from.empty()) {
            std::vector<unsigned char> status, statusBack;
            std::vector<float> error;
            const cv::TermCriteria criteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 30, 0.01);
            cv::calcOpticalFlowPyrLK(before, after, from, to, status, error, kWindow, kPyramidLevels, criteria);
            back = from;
            cv::calcOpticalFlowPyrLK(after, before, to, back, statusBack, error, kWindow, kPyramidLevels, criteria,
                                     cv::OPTFLOW_USE_INITIAL_FLOW);
            ok.resize(from.size());
            for (size_t i = 0; i < from.size(); ++i) {
                ok[i] = status[i] && statusBack[i] && cv::norm(back[i] - from[i]) < kForwardBackward;
            }
        }

        // 3. camera motion.
        cv::Mat homography;
        {
            std::vector<cv::Point2f> a, b;
            for (size_t i = globalOffset; i < from.size(); ++i) {
                if (ok[i]) {
                    a.push_back(from[i]);
                    b.push_back(to[i]);
                }
            }
            global.clear();
            if (a.size() >= 8) {
                std::vector<unsigned char> mask;
                cv::Mat h = cv::findHomography(a, b, cv::RANSAC, 2.0, mask);
                if (!h.empty() && cv::countNonZero(mask) >= 8) {
                    h.convertTo(homography, CV_64F);
                    for (size_t i = 0; i < b.size(); ++i) {
                        if (mask[i]) global.push_back(b[i]);
                    }
                }
            }
        }

        // 4-5. each anchor.
        const cv::Size size = gray.size();
        for (size_t k = 0; k < anchors.size(); ++k) {
            AnchorEntry &anchor = anchors[k];
            if (anchor.state == OV_ANCHOR_LOST) {
                if (!homography.empty()) {
                    const cv::Point2d moved = apply(homography, anchor.predicted);
                    if (finite(moved)) anchor.predicted = moved;
                }
                if (inside(anchor.predicted, size, params.edge_margin)) reacquire(gray, anchor);
                continue;
            }
            std::vector<cv::Point2f> a, b;
            const size_t end = k + 1 < anchors.size() ? offsets[k + 1] : globalOffset;
            for (size_t i = offsets[k]; i < end; ++i) {
                if (ok[i]) {
                    a.push_back(from[i]);
                    b.push_back(to[i]);
                }
            }
            int inliers = 0;
            cv::Point2d moved(NAN, NAN);
            anchor.corners.clear();
            if (static_cast<int>(a.size()) >= std::max(2, params.min_inliers)) {
                std::vector<unsigned char> mask;
                // RANSAC picks the inliers (no Levenberg-Marquardt refinement: it was most of an anchor's cost);
                // the least-squares similarity of the inliers moves the point.
                cv::Mat m = cv::estimateAffinePartial2D(a, b, mask, cv::RANSAC, 1.5, 500, 0.99, 0);
                if (!m.empty()) {
                    inliers = cv::countNonZero(mask);
                    if (inliers >= params.min_inliers) {
                        std::vector<cv::Point2f> ia, ib;
                        for (size_t i = 0; i < b.size(); ++i) {
                            if (mask[i]) {
                                ia.push_back(a[i]);
                                ib.push_back(b[i]);
                            }
                        }
                        moved = similarityMove(ia, ib, anchor.position);
                        anchor.corners = ib;
                    }
                }
            }
            if (!finite(moved) && !homography.empty()) {
                moved = apply(homography, anchor.position);
                inliers = 0;
            }
            if (!finite(moved)) {
                anchor.state = OV_ANCHOR_LOST;
                continue;
            }
            anchor.predicted = moved;
            if (!inside(moved, size, 0)) {
                anchor.state = OV_ANCHOR_LOST;
                anchor.corners.clear();
                continue;
            }
            anchor.position = moved;
            const bool normal = inliers >= params.normal_inliers && inside(moved, size, params.edge_margin);
            anchor.state = normal ? OV_ANCHOR_NORMAL : OV_ANCHOR_LIMITED;
            if (normal) anchor.patch = patchAround(gray, moved);
            if (static_cast<int>(anchor.corners.size()) < params.max_features / 2) detectLocal(gray, anchor, moved);
        }

        if (static_cast<int>(global.size()) < params.global_features / 2) detectGlobal(gray);
        previous = gray.clone();
        previousPyramid = std::move(after);
    }

    void reacquire(const cv::Mat &gray, AnchorEntry &anchor) {
        if (anchor.patch.empty()) return;
        const int side = 2 * (kTemplateRadius + kSearchRadius) + 1;
        cv::Mat area, score;
        cv::getRectSubPix(gray, cv::Size(side, side), cv::Point2f(anchor.predicted), area);
        cv::matchTemplate(area, anchor.patch, score, cv::TM_CCOEFF_NORMED);
        double best = 0;
        cv::Point at;
        cv::minMaxLoc(score, nullptr, &best, nullptr, &at);
        if (!std::isfinite(best) || best < params.reacquire_ncc) return;
        // Sub-pixel: the parabola through the peak and its neighbours on each axis.
        double sx = at.x, sy = at.y;
        if (at.x > 0 && at.x < score.cols - 1) {
            const float l = score.at<float>(at.y, at.x - 1), c = score.at<float>(at), r = score.at<float>(at.y, at.x + 1);
            const double d = l - 2 * c + r;
            if (d < 0) sx += 0.5 * (l - r) / d;
        }
        if (at.y > 0 && at.y < score.rows - 1) {
            const float u = score.at<float>(at.y - 1, at.x), c = score.at<float>(at), w = score.at<float>(at.y + 1, at.x);
            const double d = u - 2 * c + w;
            if (d < 0) sy += 0.5 * (u - w) / d;
        }
        const cv::Point2d found(anchor.predicted.x + sx - kSearchRadius, anchor.predicted.y + sy - kSearchRadius);
        if (!inside(found, gray.size(), 0)) return;
        anchor.position = anchor.predicted = found;
        detectLocal(gray, anchor, found);
        anchor.state = static_cast<int>(anchor.corners.size()) >= params.normal_inliers && inside(found, gray.size(), params.edge_margin)
                           ? OV_ANCHOR_NORMAL
                           : OV_ANCHOR_LIMITED;
    }

    /// Checks `frame`'s size against the earlier frames' and makes the working image: the half-size gray frame.
    ov_status accept(const ov_image *frame, const char *where, cv::Mat &work) {
        if (!frame || frame->empty()) return ov::fail(OV_ERR_INVALID_ARGUMENT, std::string(where) + ": missing frame");
        const cv::Mat &gray = frame->gray();
        if (gray.cols < 16 || gray.rows < 16) return ov::fail(OV_ERR_INVALID_ARGUMENT, std::string(where) + ": the frame is smaller than 16x16");
        if (!frameSize.empty() && frameSize != gray.size()) {
            return ov::fail(OV_ERR_INVALID_ARGUMENT, std::string(where) + ": the frame size changed from " + std::to_string(frameSize.width) +
                                                         "x" + std::to_string(frameSize.height) + " to " + std::to_string(gray.cols) +
                                                         "x" + std::to_string(gray.rows));
        }
        frameSize = gray.size();
        cv::pyrDown(gray, work);
        return OV_OK;
    }
};

namespace {
bool sameFrame(const cv::Mat &a, const cv::Mat &b) {
    if (a.size() != b.size() || a.type() != b.type()) return false;
    const size_t rowBytes = static_cast<size_t>(a.cols) * a.elemSize();
    for (int y = 0; y < a.rows; ++y) {
        if (std::memcmp(a.ptr(y), b.ptr(y), rowBytes) != 0) return false;
    }
    return true;
}

void write(const ov_anchor_tracker &tracker, ov_anchor_result *results, int capacity, int *count) {
    const int n = std::min(capacity, static_cast<int>(tracker.anchors.size()));
    for (int i = 0; i < n; ++i) {
        const AnchorEntry &a = tracker.anchors[i];
        results[i] = ov_anchor_result{a.id, a.state, a.position.x / kScale, a.position.y / kScale};
    }
    *count = n;
}
}  // namespace

extern "C" ov_status ov_anchor_tracker_create(const ov_anchor_params *params, ov_anchor_tracker **out) {
    return ov::guarded("ov_anchor_tracker_create", [&]() -> ov_status {
        if (!params || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_anchor_tracker_create: missing argument");
        if (params->window_radius < 4 || params->max_features < 1 || params->min_inliers < 2 || params->normal_inliers < params->min_inliers ||
            params->global_features < 8 || !(params->edge_margin >= 0) || !(params->reacquire_ncc > 0 && params->reacquire_ncc <= 1)) {
            return ov::fail(OV_ERR_INVALID_ARGUMENT,
                            "ov_anchor_tracker_create: window_radius >= 4, max_features >= 1, 2 <= min_inliers <= normal_inliers, "
                            "global_features >= 8, edge_margin >= 0 and reacquire_ncc in (0, 1] are required");
        }
        auto tracker = std::make_unique<ov_anchor_tracker>();
        tracker->params = *params;
        // Pixel tunables are the caller's (full-size frames); the tracker works at half size.
        tracker->params.window_radius = std::max(4, static_cast<int>(std::lround(params->window_radius * kScale)));
        tracker->params.edge_margin = params->edge_margin * kScale;
        *out = tracker.release();
        return ov::ok();
    });
}

extern "C" void ov_anchor_tracker_free(ov_anchor_tracker *tracker) { delete tracker; }

extern "C" ov_status ov_anchor_tracker_add(ov_anchor_tracker *tracker, const ov_image *frame, int id, double x, double y) {
    return ov::guarded("ov_anchor_tracker_add", [&]() -> ov_status {
        if (!tracker) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_anchor_tracker_add: missing tracker");
        if (!frame || frame->empty()) return ov::fail(OV_ERR_INVALID_ARGUMENT, "anchor: missing frame");
        if (!std::isfinite(x) || !std::isfinite(y) || x < 0 || y < 0 || x > frame->cols() - 1 || y > frame->rows() - 1) {
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "anchor: the point is outside the frame");
        }
        cv::Mat work;
        if (ov_status s = tracker->accept(frame, "anchor", work); s != OV_OK) return s;
        const cv::Mat *gray = &work;
        if (tracker->previous.empty()) {
            tracker->previous = gray->clone();
            tracker->previousPyramid.clear();
        } else if (!sameFrame(tracker->previous, *gray)) {
            tracker->step(*gray);
        }
        AnchorEntry anchor;
        anchor.id = id;
        anchor.position = anchor.predicted = cv::Point2d(x, y) * kScale;
        tracker->detectLocal(tracker->previous, anchor, anchor.position);
        anchor.patch = patchAround(tracker->previous, anchor.position);
        anchor.state = static_cast<int>(anchor.corners.size()) >= tracker->params.normal_inliers &&
                               inside(anchor.position, gray->size(), tracker->params.edge_margin)
                           ? OV_ANCHOR_NORMAL
                           : OV_ANCHOR_LIMITED;
        tracker->anchors.push_back(std::move(anchor));
        if (tracker->global.empty()) tracker->detectGlobal(tracker->previous);
        return ov::ok();
    });
}

extern "C" ov_status ov_anchor_tracker_remove(ov_anchor_tracker *tracker, int id, int *removed) {
    return ov::guarded("ov_anchor_tracker_remove", [&]() -> ov_status {
        if (!tracker || !removed) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_anchor_tracker_remove: missing argument");
        auto &list = tracker->anchors;
        const auto it = std::find_if(list.begin(), list.end(), [id](const AnchorEntry &a) { return a.id == id; });
        *removed = it != list.end();
        if (it != list.end()) list.erase(it);
        return ov::ok();
    });
}

extern "C" ov_status ov_anchor_tracker_update(ov_anchor_tracker *tracker, const ov_image *frame, ov_anchor_result *results,
                                             int capacity, int *count) {
    return ov::guarded("ov_anchor_tracker_update", [&]() -> ov_status {
        if (!tracker || !count || capacity < 0 || (capacity > 0 && !results)) {
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_anchor_tracker_update: missing argument");
        }
        *count = 0;
        cv::Mat work;
        if (ov_status s = tracker->accept(frame, "anchor tracking", work); s != OV_OK) return s;
        const cv::Mat *gray = &work;
        if (tracker->previous.empty()) {
            tracker->previous = gray->clone();
        } else {
            tracker->step(*gray);
        }
        write(*tracker, results, capacity, count);
        return ov::ok();
    });
}

extern "C" ov_status ov_anchor_tracker_peek(const ov_anchor_tracker *tracker, ov_anchor_result *results, int capacity, int *count) {
    return ov::guarded("ov_anchor_tracker_peek", [&]() -> ov_status {
        if (!tracker || !count || capacity < 0 || (capacity > 0 && !results)) {
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_anchor_tracker_peek: missing argument");
        }
        write(*tracker, results, capacity, count);
        return ov::ok();
    });
}
