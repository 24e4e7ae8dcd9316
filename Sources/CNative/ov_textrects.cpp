// Text rectangles: where text lines and their characters are, without reading them, in the spirit of
// Vision's VNDetectTextRectanglesRequest (OpenCV imgproc only).
//
// Algorithm
//   1. The gray image, shrunk (INTER_AREA) to a longer side of at most 2048 px.
//   2. Both polarities: local-mean thresholding (block ~ 1/16 of the shorter side, odd, >= 15 px; offset
//      12 gray levels) marks pixels clearly darker (dark text) or clearly lighter (light text) than their
//      surroundings.
//   3. Character candidates: 8-connected components 6 px...1/6 of the shorter image side high, at most 2x
//      as wide as high (touching glyphs), filling 15...90 % of their box (narrow ones, as I, l, 1, may be
//      solid). Smaller components over a character's columns (the dot of an i, accents: within half its
//      height, the union at most 1.6x its height) are merged into it, tallest characters first.
//   4. Lines: characters are chained left to right when their heights differ by at most 2x, they overlap
//      vertically by at least half the smaller height and the gap between them is at most 1.2x the
//      larger height. A line needs at least 3 characters, bottoms aligned (standard deviation <= 1/4 of
//      the mean character height) and a height of at most 1.6x the mean character height. Confidence =
//      1 - the relative spread of the characters' heights - that of their bottoms (clamped to 0.1...1).
//   5. Lines found in both polarities (overlap over half the smaller box) keep the one with more characters.
//
// Decisions
//   - Vision's algorithm is a network; this is the classic connected-component grouping: it finds
//     horizontal, printed text whose glyphs are separate components; handwriting, touching script and
//     strongly rotated lines are missed, and regular texture (tiles, fences) can look like text.
//   - Boxes are axis-aligned in image pixels; character boxes are left to right.
#include "ov_internal.hpp"
#include "ov_textrects.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <vector>

namespace {

constexpr int kMaxSide = 2048;
constexpr int kMinCharHeight = 6;
constexpr double kOffset = 12;

struct Box {
    int x0, y0, x1, y1;  // inclusive-exclusive
    int core = 0;        // a character's height before parts (dots, accents) were merged into it
    int w() const { return x1 - x0; }
    int h() const { return y1 - y0; }
    void add(const Box &b) { x0 = std::min(x0, b.x0), y0 = std::min(y0, b.y0), x1 = std::max(x1, b.x1), y1 = std::max(y1, b.y1); }
};

struct Line {
    Box box;
    std::vector<Box> chars;
    double confidence;
};

double overlap1D(int a0, int a1, int b0, int b1) { return std::max(0, std::min(a1, b1) - std::max(a0, b0)); }

std::vector<Line> linesIn(const cv::Mat &binary) {
    cv::Mat labels, stats, centroids;
    const int n = cv::connectedComponentsWithStats(binary, labels, stats, centroids, 8, CV_32S);
    const int maxHeight = std::max(kMinCharHeight, std::min(binary.rows, binary.cols) / 6);
    std::vector<Box> parts;
    for (int i = 1; i < n; ++i) {
        const int x = stats.at<int>(i, cv::CC_STAT_LEFT), y = stats.at<int>(i, cv::CC_STAT_TOP);
        const int w = stats.at<int>(i, cv::CC_STAT_WIDTH), h = stats.at<int>(i, cv::CC_STAT_HEIGHT);
        const int area = stats.at<int>(i, cv::CC_STAT_AREA);
        if (h > maxHeight || w > 2 * std::max(h, kMinCharHeight) || w * h < 4) continue;
        const double fill = static_cast<double>(area) / (w * h);
        if (h >= kMinCharHeight && (fill < 0.15 || (fill > 0.9 && 2 * w > h))) continue;  // I, l, 1 are solid
        parts.push_back({x, y, x + w, y + h});  // small parts (dots) are kept for merging
    }
    // Merge parts stacked over the same columns (i, j, accents) into characters.
    // Tallest first; ties in a fixed order (the Python peer in Benchmarks/python/bench_catalogue.py sorts alike).
    std::sort(parts.begin(), parts.end(), [](const Box &a, const Box &b) {
        return a.h() != b.h() ? a.h() > b.h() : a.x0 != b.x0 ? a.x0 < b.x0 : a.y0 < b.y0;
    });
    // A part joins the first character (in creation order) it fits; a grid of 32 px cells finds the
    // candidates (a photo has thousands of parts).
    constexpr int kCell = 32;
    const int gridW = binary.cols / kCell + 1, gridH = binary.rows / kCell + 1;
    std::vector<std::vector<int>> grid(static_cast<size_t>(gridW) * gridH);
    auto enter = [&](int index, const Box &b) {
        for (int gy = b.y0 / kCell; gy <= (b.y1 - 1) / kCell; ++gy)
            for (int gx = b.x0 / kCell; gx <= (b.x1 - 1) / kCell; ++gx) {
                auto &cell = grid[static_cast<size_t>(gy) * gridW + gx];
                if (cell.empty() || cell.back() != index) cell.push_back(index);
            }
    };
    int tallest = 0;  // the tallest character core so far: a merge allows a gap of up to half of it
    std::vector<Box> chars;
    for (const Box &p : parts) {
        int match = -1;
        const int reach = std::max(2, tallest / 2);
        const int gy0 = std::max(0, (p.y0 - reach) / kCell), gy1 = std::min(gridH - 1, (p.y1 - 1 + reach) / kCell);
        for (int gy = gy0; gy <= gy1; ++gy)
            for (int gx = p.x0 / kCell; gx <= (p.x1 - 1) / kCell; ++gx)
                for (int index : grid[static_cast<size_t>(gy) * gridW + gx]) {
                    if (match >= 0 && index >= match) continue;
                    const Box &c = chars[index];
                    const double ov = overlap1D(p.x0, p.x1, c.x0, c.x1);
                    const int gap = std::max(p.y0 - c.y1, c.y0 - p.y1);
                    const int merged = std::max(c.y1, p.y1) - std::min(c.y0, p.y0);
                    if (ov >= 0.6 * std::min(p.w(), c.w()) && gap <= std::max(2, c.core / 2) && p.h() < c.core &&
                        merged <= std::min(static_cast<double>(maxHeight), 1.6 * c.core))
                        match = index;
                }
        if (match >= 0) {
            chars[match].add(p);
            enter(match, chars[match]);
        } else if (p.h() >= kMinCharHeight) {
            Box c = p;
            c.core = p.h();
            chars.push_back(c);
            enter(static_cast<int>(chars.size()) - 1, c);
            tallest = std::max(tallest, c.core);
        }
    }
    std::sort(chars.begin(), chars.end(), [](const Box &a, const Box &b) { return a.x0 != b.x0 ? a.x0 < b.x0 : a.y0 < b.y0; });

    // Chain characters into lines, left to right.
    std::vector<int> lineOf(chars.size(), -1);
    std::vector<Line> lines;
    for (size_t i = 0; i < chars.size(); ++i) {
        if (lineOf[i] >= 0) continue;
        Line line{chars[i], {chars[i]}, 0};
        lineOf[i] = static_cast<int>(lines.size());
        size_t last = i;
        for (size_t j = i + 1; j < chars.size(); ++j) {
            if (lineOf[j] >= 0) continue;
            const Box &a = chars[last], &b = chars[j];
            const int hmin = std::min(a.h(), b.h()), hmax = std::max(a.h(), b.h());
            if (b.x0 - a.x1 > 1.2 * hmax) {
                if (b.x0 - line.box.x1 > 1.2 * line.box.h()) break;  // sorted by x0: nothing further is closer
                continue;
            }
            if (hmax > 2 * hmin) continue;
            if (overlap1D(a.y0, a.y1, b.y0, b.y1) < 0.5 * hmin) continue;
            line.chars.push_back(b);
            line.box.add(b);
            lineOf[j] = lineOf[i];
            last = j;
        }
        lines.push_back(std::move(line));
    }
    std::vector<Line> kept;
    for (auto &line : lines) {
        if (line.chars.size() < 3) continue;
        double mean = 0, var = 0, bottomVar = 0, bottomMean = 0;
        for (const Box &c : line.chars) mean += c.h(), bottomMean += c.y1;
        mean /= line.chars.size();
        bottomMean /= line.chars.size();
        for (const Box &c : line.chars) var += (c.h() - mean) * (c.h() - mean), bottomVar += (c.y1 - bottomMean) * (c.y1 - bottomMean);
        const double spread = std::sqrt(var / line.chars.size()) / mean;
        const double bottomSpread = std::sqrt(bottomVar / line.chars.size()) / mean;
        // Printed text sits on a baseline (descenders aside) and the line is about one character high.
        if (bottomSpread > 0.25 || line.box.h() > 1.6 * mean) continue;
        line.confidence = std::clamp(1 - spread - bottomSpread, 0.1, 1.0);
        kept.push_back(std::move(line));
    }
    return kept;
}

}  // namespace

extern "C" void ov_text_rects_free(ov_text_rects *rects) {
    if (!rects) return;
    std::free(rects->lines);
    std::free(rects->char_offsets);
    std::free(rects->chars);
    *rects = ov_text_rects{};
}

extern "C" ov_status ov_detect_text_rectangles(const ov_image *image, ov_text_rects *out) {
    return ov::guarded("ov_detect_text_rectangles", [&]() -> ov_status {
        if (!image || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_detect_text_rectangles: missing argument");
        *out = ov_text_rects{};
        out->char_offsets = ov::callocArray<int>(1);
        const cv::Mat &gray = image->gray();
        if (gray.empty() || gray.cols < kMinCharHeight || gray.rows < kMinCharHeight) return ov::ok();
        const cv::Mat work = ov::fitWithin(gray, kMaxSide);
        double lo = 0, hi = 0;
        cv::minMaxLoc(work, &lo, &hi);
        if (hi - lo < kOffset) return ov::ok();

        const int block = std::max(15, (std::min(work.cols, work.rows) / 16) | 1);
        cv::Mat dark, light;
        cv::adaptiveThreshold(work, dark, 255, cv::ADAPTIVE_THRESH_MEAN_C, cv::THRESH_BINARY_INV, block, kOffset);
        cv::adaptiveThreshold(work, light, 255, cv::ADAPTIVE_THRESH_MEAN_C, cv::THRESH_BINARY, block, -kOffset);
        std::vector<Line> lines = linesIn(dark);
        for (auto &l : linesIn(light)) {
            bool clash = false;
            for (auto &k : lines) {
                const double inter = overlap1D(l.box.x0, l.box.x1, k.box.x0, k.box.x1) * overlap1D(l.box.y0, l.box.y1, k.box.y0, k.box.y1);
                const double smaller = std::min(static_cast<double>(l.box.w()) * l.box.h(), static_cast<double>(k.box.w()) * k.box.h());
                if (inter > 0.5 * smaller) {
                    clash = true;
                    if (l.chars.size() > k.chars.size()) k = l;
                    break;
                }
            }
            if (!clash) lines.push_back(std::move(l));
        }
        std::sort(lines.begin(), lines.end(), [](const Line &a, const Line &b) { return a.box.y0 != b.box.y0 ? a.box.y0 < b.box.y0 : a.box.x0 < b.box.x0; });

        const double sx = static_cast<double>(gray.cols) / work.cols, sy = static_cast<double>(gray.rows) / work.rows;
        size_t total = 0;
        for (const auto &l : lines) total += l.chars.size();
        std::free(out->char_offsets);
        out->char_offsets = ov::callocArray<int>(lines.size() + 1);
        out->lines = ov::callocArray<float>(5 * lines.size());
        out->chars = ov::callocArray<float>(4 * total);
        size_t k = 0;
        auto put = [&](float *dst, const Box &b) {
            dst[0] = static_cast<float>(b.x0 * sx), dst[1] = static_cast<float>(b.y0 * sy);
            dst[2] = static_cast<float>(b.w() * sx), dst[3] = static_cast<float>(b.h() * sy);
        };
        for (size_t i = 0; i < lines.size(); ++i) {
            put(out->lines + 5 * i, lines[i].box);
            out->lines[5 * i + 4] = static_cast<float>(lines[i].confidence);
            out->char_offsets[i] = static_cast<int>(k);
            for (const Box &c : lines[i].chars) put(out->chars + 4 * k++, c);
        }
        out->char_offsets[lines.size()] = static_cast<int>(k);
        out->line_count = static_cast<int>(lines.size());
        return ov::ok();
    });
}
