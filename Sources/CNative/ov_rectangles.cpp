// Rectangles: quadrilateral detection in the spirit of Vision's VNDetectRectanglesRequest (OpenCV).
//
// Algorithm
//   1. Work on the cached gray image, shrunk (INTER_AREA) so that its longer side is at most
//      kMaxWorkSide pixels, then blurred slightly (Gaussian, sigma 1).
//   2. Candidate outlines come from three binarisations of that image: Canny edges (dilated 3x3 so
//      that small gaps close), an Otsu threshold and a local-mean (adaptive) threshold. All contours
//      (outer boundaries and holes, so both polarities) are approximated with approxPolyDP at 2 %
//      (and, if that gives 5...8 vertices, 3.5 %) of their perimeter; convex 4-gons whose area agrees
//      with the contour's area are kept.
//   3. Each candidate is refined on the image itself: every side is sampled (8...48 points), and at
//      each sample the intensity profile along the side's normal is searched for the nearest strong
//      gradient peak (sub-pixel, parabola fit). If an opposite-polarity peak follows within a few
//      pixels the side is a drawn stroke and the stroke's centre line is used instead, so the inner
//      and outer contours of an outlined rectangle refine to the same quad. A line is fitted to each
//      side's points (total least squares, two rounds of outlier rejection) and the corners are the
//      intersections of adjacent lines.
//   4. The refined quad is checked against the parameters (aspect, size, quadrature), near-duplicates
//      are merged (the most confident one of each group is kept) and the list is sorted by confidence.
//
// Confidence: for each side, the fraction of its samples that found an edge lying within 1 px (working
// resolution) of the fitted line ("edge support"). confidence = (mean + min of the four sides) / 2,
// times a mild quadrature factor 1 - 0.25 (worst corner deviation from 90 degrees / 45)^2. A clean,
// fully visible rectangle scores ~0.95-1.
//
// Decisions
//   - A quad is only reported when every side has real edge support (>= 30 % of its samples, mean
//     >= 50 %), whatever minimum_confidence says.
//   - The image frame itself is never reported: a candidate with a side running along the image border
//     (both ends within 2 px of the same border) is dropped, so a rectangle cut by the border or lying
//     flush against it is not found either.
//   - Besides minimum_size, a quad's shorter side must be at least 8 px at working resolution.
//   - Corner order: clockwise as seen, starting at top-left, where the top side is the side whose
//     direction is closest to horizontal left-to-right (for an exact 45 degree diamond the left vertex is
//     top-left).
#include "ov_internal.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>
#ifdef OV_RECT_PROFILE
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <opencv2/imgcodecs.hpp>
#define PROF(name) do { auto now_ = std::chrono::steady_clock::now(); std::fprintf(stderr, "  %-10s %.2f ms\n", name, std::chrono::duration<double, std::milli>(now_ - prof_).count()); prof_ = now_; } while (0)
#else
#define PROF(name) do {} while (0)
#endif

namespace {

using Quad = std::array<cv::Point2d, 4>;

constexpr double kPi = 3.14159265358979323846;
constexpr int kMaxRefineSide = 1024;  // longer side of the image corners are refined on
constexpr int kMaxDetectSide = 640;   // longer side of the image candidates are found on
constexpr double kMinSidePx = 8.0;    // absolute minimum shorter side, working pixels
constexpr double kEdgeThreshold = 4;  // minimum gray-level change per pixel for an edge sample
constexpr double kInlierDistance = 1.0;

struct Settings {
    double minAspect, maxAspect, toleranceDeg, minSize, minConfidence;
};

struct Candidate {
    Quad q;
    double confidence = 0;
    double area = 0;
};

// ------------------------------------------------------------------ geometry

inline double cross(const cv::Point2d &a, const cv::Point2d &b) { return a.x * b.y - a.y * b.x; }
inline double norm2(const cv::Point2d &a) { return std::sqrt(a.x * a.x + a.y * a.y); }

// Shoelace area; positive when the corners run clockwise as seen (y down).
double signedArea(const Quad &q) {
    double s = 0;
    for (int i = 0; i < 4; ++i) s += cross(q[i], q[(i + 1) % 4]);
    return s / 2;
}

bool isConvex(const Quad &q) {
    int sign = 0;
    for (int i = 0; i < 4; ++i) {
        double c = cross(q[(i + 1) % 4] - q[i], q[(i + 2) % 4] - q[(i + 1) % 4]);
        if (std::abs(c) < 1e-9) return false;
        int s = c > 0 ? 1 : -1;
        if (sign == 0) sign = s;
        else if (s != sign) return false;
    }
    return true;
}

// Largest deviation of an interior angle from 90 degrees.
double maxAngleDeviation(const Quad &q) {
    double worst = 0;
    for (int i = 0; i < 4; ++i) {
        cv::Point2d a = q[(i + 3) % 4] - q[i], b = q[(i + 1) % 4] - q[i];
        double na = norm2(a), nb = norm2(b);
        if (na <= 0 || nb <= 0) return 90;
        double c = std::clamp((a.x * b.x + a.y * b.y) / (na * nb), -1.0, 1.0);
        worst = std::max(worst, std::abs(std::acos(c) * 180 / kPi - 90));
    }
    return worst;
}

// Average lengths of the two pairs of opposite sides (shorter first).
void sideLengths(const Quad &q, double &shortSide, double &longSide) {
    double a = (norm2(q[1] - q[0]) + norm2(q[3] - q[2])) / 2;
    double b = (norm2(q[2] - q[1]) + norm2(q[0] - q[3])) / 2;
    shortSide = std::min(a, b);
    longSide = std::max(a, b);
}

// Clockwise as seen, starting at top-left (the start of the side closest to horizontal, left-to-right).
Quad orderCorners(Quad q) {
    if (signedArea(q) < 0) std::swap(q[1], q[3]);
    int best = 0;
    double bestScore = -1e9;
    for (int i = 0; i < 4; ++i) {
        cv::Point2d d = q[(i + 1) % 4] - q[i];
        double n = norm2(d);
        if (n <= 0) continue;
        double score = d.x / n - 1e-6 * d.y / n;  // tie at 45 degrees: prefer the side rising to the right
        if (score > bestScore) bestScore = score, best = i;
    }
    Quad r;
    for (int i = 0; i < 4; ++i) r[i] = q[(best + i) % 4];
    return r;
}

// Largest corner distance between two quads, minimised over the cyclic relabellings of `b`.
double quadDistance(const Quad &a, const Quad &b) {
    double best = 1e300;
    for (int s = 0; s < 4; ++s) {
        double worst = 0;
        for (int i = 0; i < 4; ++i) worst = std::max(worst, norm2(a[i] - b[(i + s) % 4]));
        best = std::min(best, worst);
    }
    return best;
}

// Intersection over union of two convex quads.
double quadOverlap(const Candidate &a, const Candidate &b) {
    std::vector<cv::Point2f> pa, pb, inter;
    for (int i = 0; i < 4; ++i) pa.emplace_back(a.q[i]), pb.emplace_back(b.q[i]);
    float common = cv::intersectConvexConvex(pa, pb, inter, true);
    double uni = a.area + b.area - common;
    return common > 0 && uni > 0 ? common / uni : 0;
}

bool touchesBorder(const Quad &q, int width, int height, double margin) {
    for (int i = 0; i < 4; ++i) {
        const cv::Point2d &a = q[i], &b = q[(i + 1) % 4];
        if (a.x <= margin && b.x <= margin) return true;
        if (a.y <= margin && b.y <= margin) return true;
        if (a.x >= width - 1 - margin && b.x >= width - 1 - margin) return true;
        if (a.y >= height - 1 - margin && b.y >= height - 1 - margin) return true;
    }
    return false;
}

// Geometric checks shared by the raw candidates (with slack) and the refined quads (exact).
bool passesGeometry(const Quad &q, const Settings &s, double minSidePx, double slack) {
    double shortSide, longSide;
    sideLengths(q, shortSide, longSide);
    if (longSide <= 0 || shortSide < minSidePx * (1 - slack)) return false;
    // No degenerate (near-triangular) quads: each side at least half the shorter average side.
    for (int i = 0; i < 4; ++i)
        if (norm2(q[(i + 1) % 4] - q[i]) < 0.5 * shortSide * (1 - slack)) return false;
    double aspect = shortSide / longSide;
    if (aspect < s.minAspect * (1 - slack) - 1e-6) return false;
    if (aspect > std::min(1.0, s.maxAspect * (1 + slack)) + 1e-6) return false;
    return maxAngleDeviation(q) <= s.toleranceDeg + slack * 60 + 1e-6;
}

// ------------------------------------------------------------------ refinement on the image

struct Sampler {
    const cv::Mat &m;  // CV_8UC1
    float at(double x, double y) const {
        x = std::clamp(x, 0.0, static_cast<double>(m.cols - 1));
        y = std::clamp(y, 0.0, static_cast<double>(m.rows - 1));
        int x0 = std::min(static_cast<int>(x), m.cols - 2 < 0 ? 0 : m.cols - 2);
        int y0 = std::min(static_cast<int>(y), m.rows - 2 < 0 ? 0 : m.rows - 2);
        int x1 = std::min(x0 + 1, m.cols - 1), y1 = std::min(y0 + 1, m.rows - 1);
        double fx = x - x0, fy = y - y0;
        const uchar *r0 = m.ptr<uchar>(y0), *r1 = m.ptr<uchar>(y1);
        double top = r0[x0] + (r0[x1] - r0[x0]) * fx;
        double bottom = r1[x0] + (r1[x1] - r1[x0]) * fx;
        return static_cast<float>(top + (bottom - top) * fy);
    }
};

struct Line {
    cv::Point2d p, d;  // a point and a unit direction
};

// Total least squares line through `pts`.
bool fitLine(const std::vector<cv::Point2d> &pts, Line &line) {
    if (pts.size() < 2) return false;
    double mx = 0, my = 0;
    for (const auto &p : pts) mx += p.x, my += p.y;
    mx /= pts.size(), my /= pts.size();
    double sxx = 0, syy = 0, sxy = 0;
    for (const auto &p : pts) {
        double dx = p.x - mx, dy = p.y - my;
        sxx += dx * dx, syy += dy * dy, sxy += dx * dy;
    }
    double angle = 0.5 * std::atan2(2 * sxy, sxx - syy);
    line.p = {mx, my};
    line.d = {std::cos(angle), std::sin(angle)};
    return sxx + syy > 0;
}

inline double lineDistance(const Line &l, const cv::Point2d &p) { return std::abs(cross(l.d, p - l.p)); }

bool intersect(const Line &a, const Line &b, cv::Point2d &out) {
    double den = cross(a.d, b.d);
    if (std::abs(den) < 1e-6) return false;
    double t = cross(b.p - a.p, b.d) / den;
    out = a.p + t * a.d;
    return true;
}

struct Peak {
    double offset;  // pixels along the normal
    double value;   // signed derivative
};

// Refines `init` against the image; returns false when some side has no usable edge.
// `slack`: how far (px) the initial corners may be off beyond the usual contour error.
bool refineQuad(const Sampler &img, const Quad &init, double slack, Candidate &out, std::vector<Peak> &peaks,
                std::vector<float> &profile) {
    double shortSide, longSide;
    sideLengths(init, shortSide, longSide);
    const double reach = std::clamp(shortSide / 8, 2.0, 7.0) + slack;  // search half-window, px
    const double maxStroke = std::clamp(shortSide * 0.05, 2.0, 10.0);  // widest stroke taken as a line
    const double h = 0.5;                                           // profile step, px
    const double closeness = 1.5 + slack;
    const int m = static_cast<int>(std::ceil((reach + maxStroke) / h));

    Line lines[4];
    double support[4];
    std::vector<cv::Point2d> found[4], kept;
    for (int side = 0; side < 4; ++side) {
        const cv::Point2d a = init[side], b = init[(side + 1) % 4];
        const cv::Point2d ab = b - a;
        const double len = norm2(ab);
        if (len < 2) return false;
        const cv::Point2d u = ab * (1 / len), n(-u.y, u.x);
        const int samples = std::clamp(static_cast<int>(len / 4), 8, 48);
        for (auto &f : found) f.clear();
        for (int k = 0; k < samples; ++k) {
            const double t = 0.08 + 0.84 * (k + 0.5) / samples;
            const cv::Point2d q = a + t * ab;
            profile.resize(2 * m + 1);
            for (int j = -m; j <= m; ++j) profile[j + m] = img.at(q.x + j * h * n.x, q.y + j * h * n.y);
            // Derivative (gray levels per pixel) at offsets j*h, and its local extrema.
            peaks.clear();
            auto deriv = [&](int idx) { return static_cast<double>(profile[idx + 1] - profile[idx - 1]); };
            // Peaks: local maxima of |derivative| above the threshold; position = centroid of the part of the
            // peak above half its height (robust to the flat tops bilinear sampling produces).
            for (int idx = 2; idx <= 2 * m - 2; ++idx) {
                double d1 = deriv(idx), a1 = std::abs(d1);
                if (a1 < kEdgeThreshold || a1 < std::abs(deriv(idx - 1)) || a1 <= std::abs(deriv(idx + 1))) continue;
                const bool positive = d1 > 0;
                double sum = 0, weighted = 0;
                for (int dir : {-1, 1}) {
                    for (int j = dir < 0 ? idx : idx + 1; j >= 1 && j <= 2 * m - 1; j += dir) {
                        double d = deriv(j);
                        if ((d > 0) != positive || std::abs(d) < 0.5 * a1) break;
                        double w = std::abs(d) - 0.5 * a1;
                        sum += w, weighted += w * j;
                    }
                }
                double centre = sum > 0 ? weighted / sum : idx;
                peaks.push_back({(centre - m) * h, d1});
            }
            if (peaks.empty()) continue;
            // The primary edge: strength weighted by closeness to the initial line (Gaussian, sigma `closeness`).
            const Peak *primary = nullptr;
            double bestScore = 0;
            for (const auto &p : peaks) {
                if (std::abs(p.offset) > reach) continue;
                double z = p.offset / closeness, score = std::abs(p.value) * std::exp(-0.5 * z * z);
                if (score > bestScore) bestScore = score, primary = &p;
            }
            if (!primary) continue;
            // A nearby opposite-polarity partner makes it a stroke: use its centre line.
            const Peak *partner = nullptr;
            for (const auto &p : peaks) {
                if ((p.value > 0) == (primary->value > 0)) continue;
                double gap = std::abs(p.offset - primary->offset);
                if (gap > maxStroke || std::abs(p.value) < 0.5 * std::abs(primary->value)) continue;
                if (!partner || gap < std::abs(partner->offset - primary->offset)) partner = &p;
            }
#ifdef OV_RECT_PROFILE
            if (std::getenv("OV_RECT_TRACE") && side == std::atoi(std::getenv("OV_RECT_TRACE"))) {
                std::fprintf(stderr, "   k%2d primary %.2f (%.0f) partner %s %.2f :", k, primary->offset, primary->value,
                             partner ? "yes" : "no", partner ? partner->offset : 0.0);
                for (const auto &p : peaks) std::fprintf(stderr, " %.1f/%.0f", p.offset, p.value);
                std::fprintf(stderr, "\n");
            }
#endif
            // Two readings of the sample: an edge (rising / falling along n) and, with a partner, a stroke
            // (bright / dark); each side later keeps the reading that is consistent along it.
            found[primary->value > 0 ? 1 : 0].push_back(q + primary->offset * n);
            if (partner) {
                const Peak &first = primary->offset < partner->offset ? *primary : *partner;
                found[first.value > 0 ? 3 : 2].push_back(q + (primary->offset + partner->offset) / 2 * n);
            }
        }
        // A real side has one consistent kind of edge (texture does not): fit each kind, keep the best
        // supported one, preferring a stroke's centre line when it fits about as well as one of its edges.
        int bestInliers = -1;
        double bestScore = -1;
        for (int type = 0; type < 4; ++type) {
            const std::vector<cv::Point2d> &pts = found[type];
            if (static_cast<int>(pts.size()) < std::max(4, samples / 4)) continue;
            Line line;
            if (!fitLine(pts, line)) continue;
            bool ok = true;
            for (double tolerance : {2.0, 1.0}) {
                kept.clear();
                for (const auto &p : pts)
                    if (lineDistance(line, p) <= tolerance) kept.push_back(p);
                if (kept.size() < 2 || !fitLine(kept, line)) { ok = false; break; }
            }
            if (!ok) continue;
            int inliers = 0;
            for (const auto &p : pts)
                if (lineDistance(line, p) <= kInlierDistance) ++inliers;
            double score = inliers * (type >= 2 ? 1.0 / 0.9 : 1.0);
            if (score > bestScore) bestScore = score, bestInliers = inliers, lines[side] = line;
        }
        if (bestInliers < 0) {
#ifdef OV_RECT_PROFILE
            std::fprintf(stderr, "  side %d: too few edge samples of one kind (of %d)\n", side, samples);
#endif
            return false;
        }
        support[side] = static_cast<double>(bestInliers) / samples;
    }

    Quad q;
    for (int i = 0; i < 4; ++i) {
        if (!intersect(lines[(i + 3) % 4], lines[i], q[i])) return false;
        if (norm2(q[i] - init[i]) > 3 * reach + 2) return false;
    }
    if (!isConvex(q)) return false;

    double mean = (support[0] + support[1] + support[2] + support[3]) / 4;
    double minimum = std::min(std::min(support[0], support[1]), std::min(support[2], support[3]));
#ifdef OV_RECT_PROFILE
    std::fprintf(stderr, "  support %.2f %.2f %.2f %.2f\n", support[0], support[1], support[2], support[3]);
#endif
    if (minimum < 0.3 || mean < 0.5) return false;
    double deviation = maxAngleDeviation(q) / 45;
    out.q = orderCorners(q);
    out.confidence = std::clamp((mean + minimum) / 2 * (1 - 0.25 * deviation * deviation), 0.0, 1.0);
    out.area = std::abs(signedArea(q));
    return true;
}

// ------------------------------------------------------------------ candidates from contours

void collectQuads(const cv::Mat &binary, const Settings &s, double minSidePx, double borderMargin,
                  std::vector<Quad> &raw) {
    std::vector<std::vector<cv::Point>> contours;
    cv::findContours(binary, contours, cv::RETR_LIST, cv::CHAIN_APPROX_SIMPLE);
    const int w = binary.cols, h = binary.rows;
    const double minPerimeter = 0.9 * 2 * (minSidePx + minSidePx / std::max(s.maxAspect, 1e-3));
    std::vector<cv::Point> approx, hull;
    Quad q;
#ifdef OV_RECT_PROFILE
    static int dumpIndex = 0;
    if (std::getenv("OV_RECT_DUMP")) cv::imwrite("/tmp/rects/dbg_bin" + std::to_string(dumpIndex++ % 3) + ".png", binary);
#endif
    for (const auto &c : contours) {
        if (c.size() < 4) continue;
        // Cheap rejections first: a quad with shorter side s has a bounding box of at least s x s and an area
        // of at least s^2; the contour's area is within 75 % of the quad's.
        const cv::Rect box = cv::boundingRect(c);
        if (box.width < 0.85 * minSidePx || box.height < 0.85 * minSidePx) continue;
        const double contourArea = std::abs(cv::contourArea(c));
        if (contourArea < 0.5 * minSidePx * minSidePx) continue;
        const double perimeter = cv::arcLength(c, true);
        if (perimeter < minPerimeter) continue;
        // The contour itself, else its convex hull (content touching a side, small notches, occluders).
        bool found = false;
        for (int pass = 0; pass < 2 && !found; ++pass) {
            const std::vector<cv::Point> *shape = &c;
            if (pass == 1) {
                cv::convexHull(c, hull);
                shape = &hull;
            }
            double len = pass == 0 ? perimeter : cv::arcLength(*shape, true);
            for (double eps : {0.02, 0.035}) {
                cv::approxPolyDP(*shape, approx, eps * len, true);
                if (approx.size() <= 4 || approx.size() > 8) break;
            }
            if (approx.size() != 4 || !cv::isContourConvex(approx)) continue;
            for (int i = 0; i < 4; ++i) q[i] = cv::Point2d(approx[i].x, approx[i].y);
            double quadArea = std::abs(signedArea(q));
            if (quadArea <= 0) continue;
            double ratio = contourArea / quadArea;
            found = pass == 0 ? ratio > 0.85 && ratio < 1.2 : ratio > 0.75 && ratio < 1.2;
        }
        if (!found) continue;
        if (touchesBorder(q, w, h, borderMargin)) continue;
        if (!passesGeometry(q, s, minSidePx, 0.15)) continue;
        raw.push_back(q);
    }
}

const char *validate(const ov_rectangle_params &p) {
    auto bad01 = [](float v) { return !std::isfinite(v) || v < 0 || v > 1; };
    if (bad01(p.minimum_aspect_ratio)) return "minimum_aspect_ratio must be a number in 0...1";
    if (bad01(p.maximum_aspect_ratio)) return "maximum_aspect_ratio must be a number in 0...1";
    if (p.minimum_aspect_ratio > p.maximum_aspect_ratio)
        return "minimum_aspect_ratio must not exceed maximum_aspect_ratio";
    if (!std::isfinite(p.quadrature_tolerance) || p.quadrature_tolerance < 0 || p.quadrature_tolerance > 45)
        return "quadrature_tolerance must be a number of degrees in 0...45";
    if (bad01(p.minimum_size)) return "minimum_size must be a number in 0...1";
    if (bad01(p.minimum_confidence)) return "minimum_confidence must be a number in 0...1";
    return nullptr;
}

}  // namespace

extern "C" ov_status ov_detect_rectangles(const ov_image *image, const ov_rectangle_params *params, ov_quad *out,
                                          int capacity, int *count) {
    return ov::guarded("ov_detect_rectangles", [&]() -> ov_status {
        if (!image || !params || !count) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_detect_rectangles: missing argument");
        if (capacity < 0) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_detect_rectangles: capacity must be >= 0");
        if (capacity > 0 && !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_detect_rectangles: no output buffer");
        if (const char *message = validate(*params))
            return ov::fail(OV_ERR_INVALID_ARGUMENT, std::string("ov_detect_rectangles: ") + message);
        *count = 0;
        const Settings s{params->minimum_aspect_ratio, params->maximum_aspect_ratio, params->quadrature_tolerance,
                         params->minimum_size, params->minimum_confidence};

        const cv::Mat &gray = image->gray();
        if (gray.empty() || gray.cols < 16 || gray.rows < 16) return ov::ok();

        // Refinement image (longer side <= kMaxRefineSide, blurred) and detection image (<= kMaxDetectSide).
#ifdef OV_RECT_PROFILE
        auto prof_ = std::chrono::steady_clock::now();
#endif
        auto shrink = [](const cv::Mat &src, int maxSide, int interpolation) {
            const double f = static_cast<double>(maxSide) / std::max(src.cols, src.rows);
            if (f >= 1) return src;
            cv::Mat dst;
            cv::resize(src, dst, cv::Size(std::max(1, cvRound(src.cols * f)), std::max(1, cvRound(src.rows * f))), 0, 0,
                       interpolation);
            return dst;
        };
        cv::Mat fine;
        cv::GaussianBlur(shrink(gray, kMaxRefineSide, cv::INTER_AREA), fine, cv::Size(5, 5), 1.0);
        const cv::Mat coarse = shrink(fine, kMaxDetectSide, cv::INTER_LINEAR);  // `fine` is already smooth
        PROF("prepare");
        // Pixel-centre mapping between the images: x_b = (x_a + 0.5) * (b.cols / a.cols) - 0.5.
        const double cx = static_cast<double>(fine.cols) / coarse.cols, cy = static_cast<double>(fine.rows) / coarse.rows;
        const double coarseMinSide = std::max(kMinSidePx, s.minSize * std::min(coarse.cols, coarse.rows));
        const double fineMinSide = std::max(kMinSidePx * std::max(cx, cy), s.minSize * std::min(fine.cols, fine.rows));
        const double coarseMargin = std::max(3.0, 0.01 * std::min(coarse.cols, coarse.rows));
        const double fineMargin = std::max(3.0, 0.01 * std::min(fine.cols, fine.rows));

        // Candidates from several binarisations of the detection image.
        std::vector<Quad> raw;
        cv::Mat binary, edges;
        const cv::Mat kernel = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3));
        cv::Canny(coarse, edges, 30, 90);
        cv::dilate(edges, binary, kernel);
        PROF("canny");
        collectQuads(binary, s, coarseMinSide, coarseMargin, raw);
        PROF("contours1");
        cv::threshold(coarse, binary, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
        cv::morphologyEx(binary, binary, cv::MORPH_OPEN, kernel);  // speckle (flat, noisy images) costs time
        collectQuads(binary, s, coarseMinSide, coarseMargin, raw);
        PROF("otsu");
        const int block = std::max(3, (std::min(coarse.cols, coarse.rows) / 8) | 1);
        cv::adaptiveThreshold(coarse, binary, 255, cv::ADAPTIVE_THRESH_MEAN_C, cv::THRESH_BINARY, block, 4);
        PROF("adaptive");
        collectQuads(binary, s, coarseMinSide, coarseMargin, raw);
        PROF("contours3");

        // Drop raw duplicates (they would refine to the same quad), then refine on the fine image.
        std::vector<Quad> unique;
        for (const auto &q : raw) {
            bool dup = false;
            for (const auto &u : unique)
                if (quadDistance(q, u) <= 1.5) { dup = true; break; }
            if (!dup) unique.push_back(q);
        }
        const Sampler sampler{fine};
        const double slack = std::max(cx, cy);
        std::vector<Candidate> refined;
        std::vector<Peak> peaks;
        std::vector<float> profile;
        for (Quad q : unique) {
            for (auto &p : q) p = {(p.x + 0.5) * cx - 0.5, (p.y + 0.5) * cy - 0.5};
            Candidate c;
            if (!refineQuad(sampler, q, slack, c, peaks, profile)) {
#ifdef OV_RECT_PROFILE
                std::fprintf(stderr, "  refine failed for (%.0f,%.0f) (%.0f,%.0f) (%.0f,%.0f) (%.0f,%.0f)\n", q[0].x, q[0].y,
                             q[1].x, q[1].y, q[2].x, q[2].y, q[3].x, q[3].y);
#endif
                continue;
            }
            if (!passesGeometry(c.q, s, fineMinSide, 0)) continue;
            if (touchesBorder(c.q, fine.cols, fine.rows, fineMargin)) continue;
            if (c.confidence < s.minConfidence) continue;
            refined.push_back(c);
        }
        PROF("refine");
#ifdef OV_RECT_PROFILE
        std::fprintf(stderr, "  raw %zu unique %zu refined %zu\n", raw.size(), unique.size(), refined.size());
#endif

        // Merge near-duplicates (and drop weak quads mostly overlapping a much stronger one, typically a
        // real rectangle with one side dragged along an edge): keep the most confident of each group.
        std::stable_sort(refined.begin(), refined.end(),
                         [](const Candidate &a, const Candidate &b) { return a.confidence > b.confidence; });
        std::vector<Candidate> kept;
        for (const auto &c : refined) {
            double cShort, cLong;
            sideLengths(c.q, cShort, cLong);
            bool dup = false;
            for (const auto &k : kept) {
                double kShort, kLong;
                sideLengths(k.q, kShort, kLong);
                if (quadDistance(c.q, k.q) <= std::max(3.0, 0.08 * std::min(cShort, kShort)) ||
                    (c.confidence < 0.8 * k.confidence && quadOverlap(c, k) > 0.6)) {
                    dup = true;
                    break;
                }
            }
            if (!dup) kept.push_back(c);
        }

        // Back to image pixels.
        const double sx = static_cast<double>(fine.cols) / gray.cols, sy = static_cast<double>(fine.rows) / gray.rows;
        const int n = static_cast<int>(kept.size());
        for (int i = 0; i < n && i < capacity; ++i) {
            ov_quad &o = out[i];
            for (int k = 0; k < 4; ++k) {
                o.x[k] = static_cast<float>((kept[i].q[k].x + 0.5) / sx - 0.5);
                o.y[k] = static_cast<float>((kept[i].q[k].y + 0.5) / sy - 0.5);
            }
            o.confidence = static_cast<float>(kept[i].confidence);
        }
        *count = n;
        return ov::ok();
    });
}
