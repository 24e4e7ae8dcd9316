// Rectangles: quadrilateral detection in the spirit of Vision's VNDetectRectanglesRequest (OpenCV).
//
// Algorithm
//   1. From the cached gray image: a "fine" image (longer side <= 1024 px, INTER_AREA, Gaussian sigma 1)
//      on which corners are refined, and a "coarse" one (longer side <= 640 px, or the caller's
//      detection_side) on which candidates are found.
//   2. Candidates: contours (outer boundaries and holes, so both polarities) of three binarisations of
//      the coarse image (found in parallel): Canny edges dilated 3x3, an Otsu threshold (opened 3x3) and a local-mean
//      threshold. Each contour, or failing that its convex hull, is approximated with approxPolyDP at 2 %
//      (else 3.5 %) of its perimeter; convex 4-gons whose area matches the contour's are kept if they are
//      roughly (15 % slack) within the requested geometry.
//   3. Refinement on the fine image (candidates in parallel), per side: 8...48 samples along the side, each reading the intensity
//      profile across it (+-reach px) for gradient peaks (sub-pixel centroids). A peak is an edge reading
//      (rising or falling); two close, opposite, comparable peaks also give a stroke reading (the
//      centre line of a drawn line). A Hough vote over line offset and slope near the initial side, per
//      kind of reading, finds the best supported straight line; the readings near it are fitted by total
//      least squares (two rounds of outlier rejection). A quad is read by its strokes' centre lines when
//      these fit about as well as edges (an outlined rectangle), otherwise by edges. Corners are the
//      intersections of adjacent lines (sub-pixel). All four sides' readings are collected before any vote:
//      a side's support cannot exceed the fraction of its samples with a reading of one kind, so a quad whose
//      bounds already miss the minimum supports (Decisions) is dropped there (exact; most texture candidates).
//   4. The refined quad is checked exactly against the parameters; near-duplicates (same rectangle from
//      several binarisations, inner and outer contour of an outline) are merged keeping the most confident,
//      as is a weak quad mostly overlapping a much stronger one; the result is sorted by confidence.
//
// Confidence: per side, "support" = the fraction of its samples whose reading lies within 1 px (fine image)
// of the fitted line, using one consistent kind of reading (texture gives mixed polarities, real sides do
// not). confidence = (mean + minimum of the four supports) / 2 x (1 - 0.25 (worst corner deviation from
// 90 degrees / 45)^2). A clean, fully visible rectangle scores 0.95...1.
//
// Decisions
//   - A quad is reported only if every side has support >= 0.4 and the mean is >= 0.5, whatever
//     minimum_confidence says (so confidence of reported quads is at least ~0.3).
//   - The image frame is never reported: a quad with a side running along the image border (both ends
//     within max(3 px, 1 % of the shorter image side) of the same border) is dropped, so a rectangle cut by
//     the border or lying flush against it is not reported either.
//   - Aspect ratio and size use the average lengths of opposite sides; besides minimum_size the shorter
//     side must be >= 8 px of the coarse image, and each side must be at least half the shorter average.
//   - Corner order: clockwise as seen from top-left, the top side being the side whose direction is
//     closest to horizontal left-to-right. Near 45 degrees the choice between the two candidates for
//     top-left is arbitrary.
//   - Gray only: a rectangle differing from its surroundings in colour but not in luma is not found.
#include "ov_internal.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace {

using Quad = std::array<cv::Point2d, 4>;

constexpr double kPi = 3.14159265358979323846;
constexpr int kMaxRefineSide = 1024;     // longer side of the image corners are refined on
constexpr int kMaxDetectSide = 640;      // longer side of the image candidates are found on
constexpr double kMinSidePx = 8.0;       // absolute minimum shorter side, coarse pixels
constexpr double kEdgeThreshold = 4;     // minimum gray-level change per pixel for an edge reading
constexpr double kInlierDistance = 1.0;  // fine pixels
constexpr double kMinSideSupport = 0.4;
constexpr double kMinMeanSupport = 0.5;
constexpr size_t kMaxCandidates = 300;  // bounds the refinement time on cluttered images

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
        double score = d.x / n - 1e-6 * d.y / n;  // exact 45 degrees: prefer the side rising to the right
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
    // out[j + half] = at(q + j h n) for j = -half...half: the same values as `at`, without its clamps when the
    // whole profile lies inside the image (the usual case; the refinement reads ~100 values per sample).
    void profile(const cv::Point2d &q, const cv::Point2d &n, double h, int half, float *out) const {
        const double xa = q.x - half * h * n.x, xb = q.x + half * h * n.x;
        const double ya = q.y - half * h * n.y, yb = q.y + half * h * n.y;
        const bool inside = std::min(xa, xb) >= 0 && std::max(xa, xb) <= m.cols - 2 && std::min(ya, yb) >= 0 &&
                            std::max(ya, yb) <= m.rows - 2;
        if (!inside) {
            for (int j = -half; j <= half; ++j) out[j + half] = at(q.x + j * h * n.x, q.y + j * h * n.y);
            return;
        }
        const uchar *data = m.data;
        const size_t step = m.step[0];
        for (int j = -half; j <= half; ++j) {
            const double x = q.x + j * h * n.x, y = q.y + j * h * n.y;
            const int x0 = static_cast<int>(x), y0 = static_cast<int>(y);
            const double fx = x - x0, fy = y - y0;
            const uchar *r0 = data + y0 * step, *r1 = r0 + step;
            const double top = r0[x0] + (r0[x0 + 1] - r0[x0]) * fx;
            const double bottom = r1[x0] + (r1[x0 + 1] - r1[x0]) * fx;
            out[j + half] = static_cast<float>(top + (bottom - top) * fy);
        }
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
    double value;   // signed derivative, gray levels per pixel
};

// Where a sample along a side saw something: an edge (kind 0 falling / 1 rising along the normal) or the
// centre line of a thin stroke (kind 2 dark / 3 bright).
struct Reading {
    int sample;
    double t;       // position along the side, 0...1
    double offset;  // pixels along the normal from the initial side
    int kind;
};

struct Workspace {
    std::vector<float> profile;
    std::vector<Peak> peaks;
    std::array<std::vector<Reading>, 4> sideReadings;
    std::vector<int> votes;
    std::vector<cv::Point2d> pts, kept, origins;
    std::vector<double> nearest;
    std::vector<double> closeness;  // per offset bin: the mild preference for lines near the initial side
};

// Local maxima of |d profile / dn| above kEdgeThreshold. Position: centroid of the part of the peak above
// half its height (robust to the flat tops bilinear sampling produces).
void findPeaks(const std::vector<float> &profile, int m, double h, std::vector<Peak> &peaks) {
    peaks.clear();
    auto deriv = [&](int idx) { return static_cast<double>(profile[idx + 1] - profile[idx - 1]) / (2 * h); };
    for (int idx = 2; idx <= 2 * m - 2; ++idx) {
        const double d1 = deriv(idx), a1 = std::abs(d1);
        if (a1 < kEdgeThreshold || a1 < std::abs(deriv(idx - 1)) || a1 <= std::abs(deriv(idx + 1))) continue;
        const bool positive = d1 > 0;
        double sum = 0, weighted = 0;
        for (int dir : {-1, 1}) {
            for (int j = dir < 0 ? idx : idx + 1; j >= 1 && j <= 2 * m - 1; j += dir) {
                const double d = deriv(j);
                if ((d > 0) != positive || std::abs(d) < 0.5 * a1) break;
                const double w = std::abs(d) - 0.5 * a1;
                sum += w, weighted += w * j;
            }
        }
        peaks.push_back({((sum > 0 ? weighted / sum : idx) - m) * h, d1});
    }
}

// Where sample k of `samples` lies along a side, 0...1 (the middle 84 %: corners blur both sides).
inline double samplePosition(int k, int samples) { return 0.08 + 0.84 * (k + 0.5) / samples; }

// Refines `init` against the image. For each side: sample the intensity profile across it, collect edge
// and stroke readings, find the best supported straight line of one kind of reading near the initial side
// (a small Hough vote over offset and slope), then fit it precisely (total least squares with outlier
// rejection). Corners are intersections of adjacent lines. Returns false when a side has no such line.
// `slack`: how far (px) the initial corners may be off beyond the usual contour error.
bool refineQuad(const Sampler &img, const Quad &init, double slack, Candidate &out, Workspace &ws) {
    double shortSide, longSide;
    sideLengths(init, shortSide, longSide);
    const double reach = std::clamp(shortSide * 0.08, 3.0, 16.0) + slack;  // search half-window, px
    const double maxStroke = std::clamp(shortSide * 0.05, 2.0, 10.0);     // widest stroke taken as a line
    const double h = 0.5;                                                // profile step, px
    const int m = static_cast<int>(std::ceil((reach + maxStroke) / h));
    const int range = static_cast<int>(std::ceil(reach));
    const int nd = 2 * range + 1, ns = 4 * range + 1;  // offset bins (1 px), slope bins (1 px end to end)

    Line edgeLines[4], strokeLines[4];
    int edgeInliers[4], strokeInliers[4], sampleCount[4];
    cv::Point2d normals[4];
    // Phase 1, per side: the readings. A side's support can be no more than the fraction of its samples with a
    // reading of one kind, so a quad that cannot reach the minimum supports is dropped before any vote (exact:
    // the same quads pass; most candidates on textured images fail here, at a fraction of the cost).
    double bounds[4];
    for (int side = 0; side < 4; ++side) {
        const cv::Point2d a = init[side], b = init[(side + 1) % 4];
        const cv::Point2d ab = b - a;
        const double len = norm2(ab);
        if (len < 2) return false;
        const cv::Point2d u = ab * (1 / len), n(-u.y, u.x);
        const int samples = std::clamp(static_cast<int>(len / 4), 8, 48);
        normals[side] = n;
        sampleCount[side] = samples;

        std::vector<Reading> &readings = ws.sideReadings[side];
        readings.clear();
        ws.profile.resize(2 * m + 1);
        int samplesOfKind[4] = {0, 0, 0, 0};
        for (int k = 0; k < samples; ++k) {
            const double t = samplePosition(k, samples);
            const cv::Point2d q = a + t * ab;
            const size_t before = readings.size();
            img.profile(q, n, h, m, ws.profile.data());
            findPeaks(ws.profile, m, h, ws.peaks);
            for (size_t i = 0; i < ws.peaks.size(); ++i) {
                const Peak &p = ws.peaks[i];
                if (std::abs(p.offset) <= reach) readings.push_back({k, t, p.offset, p.value > 0 ? 1 : 0});
                // A thin stroke: this edge and the next comparably strong opposite one within maxStroke
                // (weaker wiggles in between are ignored; a comparably strong same-sign edge ends the search).
                for (size_t j = i + 1; j < ws.peaks.size() && ws.peaks[j].offset - p.offset <= maxStroke; ++j) {
                    const Peak &next = ws.peaks[j];
                    const bool comparable = std::abs(next.value) >= 0.5 * std::abs(p.value) &&
                                            std::abs(p.value) >= 0.5 * std::abs(next.value);
                    if ((next.value > 0) == (p.value > 0)) {
                        if (std::abs(next.value) >= 0.5 * std::abs(p.value)) break;
                        continue;
                    }
                    if (!comparable) continue;
                    const double centre = (p.offset + next.offset) / 2;
                    if (std::abs(centre) <= reach) readings.push_back({k, t, centre, p.value > 0 ? 3 : 2});
                    break;
                }
            }
            bool seen[4] = {false, false, false, false};
            for (size_t i = before; i < readings.size(); ++i) seen[readings[i].kind] = true;
            for (int kind = 0; kind < 4; ++kind) samplesOfKind[kind] += seen[kind];
        }
        bounds[side] = static_cast<double>(*std::max_element(samplesOfKind, samplesOfKind + 4)) / samples;
        if (bounds[side] < kMinSideSupport) return false;
    }
    // The same expression as the mean support below: floating-point sums are monotonic, so this bounds it.
    if ((bounds[0] + bounds[1] + bounds[2] + bounds[3]) / 4 < kMinMeanSupport) return false;

    // Phase 2, per side: the best supported line of one kind of reading.
    for (int side = 0; side < 4; ++side) {
        const cv::Point2d a = init[side], ab = init[(side + 1) % 4] - a, n = normals[side];
        const int samples = sampleCount[side];
        const std::vector<Reading> &readings = ws.sideReadings[side];
        ws.origins.resize(samples);
        for (int k = 0; k < samples; ++k) ws.origins[k] = a + samplePosition(k, samples) * ab;

        // Vote: line offset(t) = d + s (t - 0.5), per kind of reading.
        ws.closeness.resize(nd);
        for (int di = 0; di < nd; ++di) ws.closeness[di] = 1 - 0.01 * std::abs(di + 0.5 - range);
        ws.votes.assign(static_cast<size_t>(4) * ns * nd, 0);
        for (const Reading &r : readings) {
            int *row = &ws.votes[static_cast<size_t>(r.kind) * ns * nd];
            for (int si = 0; si < ns; ++si) {
                // Nearest offset bin; a negative position is outside the grid (truncation is floor from 0 up).
                const double x = r.offset - (si - 2 * range) * (r.t - 0.5) + range + 0.5;
                if (x < 0) continue;
                const int di = static_cast<int>(x);
                if (di < nd) ++row[si * nd + di];
            }
        }

        edgeInliers[side] = strokeInliers[side] = 0;
        for (int kind = 0; kind < 4; ++kind) {
            // Best cell (two adjacent offset bins), mildly preferring lines close to the initial side.
            const int *row = &ws.votes[static_cast<size_t>(kind) * ns * nd];
            double cellScore = 0, lineD = 0, lineS = 0;
            for (int si = 0; si < ns; ++si) {
                const int *cells = &row[si * nd];
                for (int di = 0; di + 1 < nd; ++di) {
                    const int votes = cells[di] + cells[di + 1];
                    if (votes == 0) continue;
                    const double score = votes * ws.closeness[di];
                    if (score > cellScore) cellScore = score, lineD = di + 0.5 - range, lineS = si - 2 * range;
                }
            }
            if (cellScore < std::max(4, samples / 4)) continue;
            // The reading of this kind nearest to that line, per sample, within 1.5 px.
            ws.nearest.assign(samples, 1e9);
            for (const Reading &r : readings) {
                if (r.kind != kind) continue;
                const double predicted = lineD + lineS * (r.t - 0.5);
                if (std::abs(r.offset - predicted) <= 1.5 &&
                    std::abs(r.offset - predicted) < std::abs(ws.nearest[r.sample] - predicted))
                    ws.nearest[r.sample] = r.offset;
            }
            ws.pts.clear();
            for (int k = 0; k < samples; ++k)
                if (ws.nearest[k] < 1e8) ws.pts.push_back(ws.origins[k] + ws.nearest[k] * n);
            if (static_cast<int>(ws.pts.size()) < std::max(4, samples / 4)) continue;
            Line line;
            if (!fitLine(ws.pts, line)) continue;
            bool ok = true;
            for (double tolerance : {2.0, 1.0}) {
                ws.kept.clear();
                for (const auto &p : ws.pts)
                    if (lineDistance(line, p) <= tolerance) ws.kept.push_back(p);
                if (ws.kept.size() < 2 || !fitLine(ws.kept, line)) { ok = false; break; }
            }
            if (!ok) continue;
            int inliers = 0;
            for (const auto &p : ws.pts)
                if (lineDistance(line, p) <= kInlierDistance) ++inliers;
            if (kind < 2 && inliers > edgeInliers[side]) edgeInliers[side] = inliers, edgeLines[side] = line;
            if (kind >= 2 && inliers > strokeInliers[side]) strokeInliers[side] = inliers, strokeLines[side] = line;
        }
    }

    // Edges or strokes, for the whole quad: an outlined rectangle is read by its strokes' centre lines when they
    // fit about as well as the strokes' edges do.
    int edgeTotal = 0, strokeTotal = 0;
    bool allStrokes = true;
    for (int side = 0; side < 4; ++side) {
        edgeTotal += edgeInliers[side], strokeTotal += strokeInliers[side];
        allStrokes = allStrokes && strokeInliers[side] > 0;
    }
    const bool strokes = allStrokes && strokeTotal >= 0.85 * edgeTotal;
    Line lines[4];
    double support[4];
    for (int side = 0; side < 4; ++side) {
        const int inliers = strokes ? strokeInliers[side] : edgeInliers[side];
        if (inliers <= 0) {
            return false;
        }
        lines[side] = strokes ? strokeLines[side] : edgeLines[side];
        support[side] = static_cast<double>(inliers) / sampleCount[side];
    }

    Quad q;
    for (int i = 0; i < 4; ++i) {
        if (!intersect(lines[(i + 3) % 4], lines[i], q[i])) return false;
        if (norm2(q[i] - init[i]) > 3 * reach + 2) return false;
    }
    if (!isConvex(q)) return false;

    const double mean = (support[0] + support[1] + support[2] + support[3]) / 4;
    const double minimum = std::min(std::min(support[0], support[1]), std::min(support[2], support[3]));
    if (minimum < kMinSideSupport || mean < kMinMeanSupport) return false;
    const double deviation = maxAngleDeviation(q) / 45;
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
    if (p.detection_side < 0 || (p.detection_side > 0 && p.detection_side < 64) || p.detection_side > 4096)
        return "detection_side must be 0 (default) or 64...4096";
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
        const int detectSide = params->detection_side > 0 ? params->detection_side : kMaxDetectSide;
        // `fine` is already smooth (sigma 1): bilinear is enough down to about half size; below that, Gaussian
        // pyramid halvings first (OpenCV's general area resampling costs more than the whole detection).
        cv::Mat reduced = fine;
        while (std::max(reduced.cols, reduced.rows) >= 2 * detectSide) {
            cv::Mat half;
            cv::pyrDown(reduced, half);
            reduced = half;
        }
        const cv::Mat coarse = shrink(reduced, detectSide, cv::INTER_LINEAR);
        // Pixel-centre mapping between the images: x_b = (x_a + 0.5) * (b.cols / a.cols) - 0.5.
        const double cx = static_cast<double>(fine.cols) / coarse.cols, cy = static_cast<double>(fine.rows) / coarse.rows;
        const double coarseMinSide = std::max(kMinSidePx, s.minSize * std::min(coarse.cols, coarse.rows));
        const double fineMinSide = std::max(kMinSidePx * std::max(cx, cy), s.minSize * std::min(fine.cols, fine.rows));
        const double coarseMargin = std::max(3.0, 0.01 * std::min(coarse.cols, coarse.rows));
        const double fineMargin = std::max(3.0, 0.01 * std::min(fine.cols, fine.rows));

        // Candidates from several binarisations of the detection image, found in parallel (each into its own
        // list; concatenated in a fixed order, so the result does not depend on the scheduling).
        std::array<std::vector<Quad>, 3> found;
        const cv::Mat kernel = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3));
        cv::parallel_for_(cv::Range(0, 3), [&](const cv::Range &range) {
            for (int i = range.start; i < range.end; ++i) {
                cv::Mat binary;
                if (i == 0) {
                    cv::Mat edges;
                    cv::Canny(coarse, edges, 30, 90);
                    cv::dilate(edges, binary, kernel);
                } else if (i == 1) {
                    cv::threshold(coarse, binary, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
                    cv::morphologyEx(binary, binary, cv::MORPH_OPEN, kernel);  // speckle (flat, noisy images) costs time
                } else {
                    const int block = std::max(3, (std::min(coarse.cols, coarse.rows) / 8) | 1);
                    cv::adaptiveThreshold(coarse, binary, 255, cv::ADAPTIVE_THRESH_MEAN_C, cv::THRESH_BINARY, block, 4);
                }
                collectQuads(binary, s, coarseMinSide, coarseMargin, found[i]);
            }
        });
        std::vector<Quad> raw;
        for (const auto &list : found) raw.insert(raw.end(), list.begin(), list.end());

        // Drop raw duplicates (they would refine to the same quad), then refine on the fine image.
        std::vector<Quad> unique;
        for (const auto &q : raw) {
            bool dup = false;
            for (const auto &u : unique)
                if (quadDistance(q, u) <= 1.5) { dup = true; break; }
            if (!dup) unique.push_back(q);
        }
        if (unique.size() > kMaxCandidates) {  // keep the largest
            std::partial_sort(unique.begin(), unique.begin() + kMaxCandidates, unique.end(),
                              [](const Quad &a, const Quad &b) { return std::abs(signedArea(a)) > std::abs(signedArea(b)); });
            unique.resize(kMaxCandidates);
        }
        const Sampler sampler{fine};
        const double slack = std::max(cx, cy);
        // Each candidate is refined independently, in parallel; slots keep the candidates' order.
        std::vector<Candidate> slots(unique.size());
        std::vector<char> passed(unique.size(), 0);
        cv::parallel_for_(cv::Range(0, static_cast<int>(unique.size())), [&](const cv::Range &range) {
            Workspace workspace;
            for (int i = range.start; i < range.end; ++i) {
                Quad q = unique[i];
                for (auto &p : q) p = {(p.x + 0.5) * cx - 0.5, (p.y + 0.5) * cy - 0.5};
                Candidate &c = slots[i];
                if (!refineQuad(sampler, q, slack, c, workspace)) continue;
                if (!passesGeometry(c.q, s, fineMinSide, 0)) continue;
                if (touchesBorder(c.q, fine.cols, fine.rows, fineMargin)) continue;
                if (c.confidence < s.minConfidence) continue;
                passed[i] = 1;
            }
        });
        std::vector<Candidate> refined;
        for (size_t i = 0; i < slots.size(); ++i)
            if (passed[i]) refined.push_back(slots[i]);

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
