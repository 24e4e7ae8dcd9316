// PP-OCR (ov_ppocr_*): DB text detection → 0°/180° classification → CRNN recognition with CTC greedy
// decoding, each model run by the caller's runner (OpenVision's VisionModel and inference backend, as every
// other model: ov_ppocr_runner), pre- and post-processing with OpenCV.
//
// Decisions
//   - Every step mirrors rapidocr-onnxruntime 1.4.4 (main.py, ch_ppocr_det/cls/rec, config.yaml) so
//     that the same image gives the same strings and boxes: the whole-image reductions (longest side
//     ≤ 2000, shortest ≥ 30, black letterbox for flat strips), the detector input (shorter side scaled
//     to ≥ 736, both sides rounded to multiples of 32), DB post-processing (threshold 0.3, 2×2
//     dilation, contours, minAreaRect, fast box score ≥ 0.5, unclip 1.6, integer boxes), reading
//     order, the perspective crop (cubic, replicated border, tall crops turned 90° counter-clockwise),
//     the classifier (48×192, batches of 6 sorted by aspect) and the recogniser (height 48, batches
//     of 6 sorted by aspect, each padded to the batch's widest aspect and at least 320 wide).
//   - unclip: pyclipper's round-join offset of the (truncated integer) box by area·ratio/perimeter,
//     with pyclipper's arc step (ArcTolerance 0.25) and integer rounding, then minAreaRect.
//   - Page orientation (params.detect_orientation; not in rapidocr): a page turned 90°, 180° or 270° is read
//     line by line in the wrong order (top to bottom of the turned page) and its lines are detected and
//     turned one by one. After classification each line votes for the page's orientation, weighted by its
//     length: a wide line the classifier keeps says 0°, one it flips 180°; a tall line (turned 90°
//     counter-clockwise to be read) says 90° (text turned clockwise), flipped 270°. When a turned orientation
//     has at least kOrientationMajority of the votes, the working image is turned upright, and detection runs
//     again on it before recognition, without the classifier (the vote settled which way is up: a line flipped
//     on its own there was a misreading); boxes and cells go back through the turn. When no orientation has
//     that majority (two lines voting apart), the page is read each way voted and the most confident read kept
//     (length-weighted mean recognition confidence). An upright
//     page costs nothing extra (the vote reuses the classifier's outputs); a turned page one more detection.
//   - Not in rapidocr, bounding the work: a tall strip (height over 8 × width) gets black bands left and right as
//     a flat one gets them above and below (rapidocr scaled a 32 × 2000 strip's short side to 736: a
//     46368 × 736 detector input, 2.2 GB); the detector's input is at most kMaximumDetectorPixels (the largest a
//     letterboxed page gives, 736 × 5888), a larger one scaled down; and `params.cancel`, when set, stops the
//     pipeline before its next model run (OV_ERR_CANCELLED).
//   - Character cells come from the CTC alignment: a character's run of time steps gives its centre;
//     neighbouring cells meet halfway between centres. Cells and the line's corners go back to the
//     image through the inverse of the crop's transform (rotation, flip, perspective, scaling), so a
//     rotated line has rotated corners in reading order.
#include "ov_internal.hpp"
#include "ov_ppocr.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <numeric>
#include <sstream>

struct ov_ppocr {
    /// Index 0 is the CTC blank (""), then the dictionary, then " ".
    std::vector<std::string> characters;
};

struct ov_ppocr_output {
    std::vector<int64_t> shape;
    std::vector<float> data;
    bool set = false;
};

struct ov_ppocr_result {
    std::vector<ov_ppocr_line> lines;
    std::vector<ov_ppocr_char> chars;
    std::string text;
    int orientation = 0;  // degrees the page's text was found turned clockwise
};

namespace {

using ov::Failure;

/// The largest detector input (pixels): what rapidocr's reductions give a letterboxed page at most, 736 × 5888.
constexpr long kMaximumDetectorPixels = 736L * 5888L;

/// The cancel flag of the recognition running on this thread (ov_ppocr_recognize sets it for its call).
thread_local const ov_cancel *currentCancel = nullptr;

/// The runner of the recognition on this thread (ov_ppocr_recognize sets it for its call).
thread_local const ov_ppocr_params *currentParams = nullptr;

/// A stage's output, as the runner stored it.
struct Outputs {
    ov_ppocr_output output;
    const float *data(std::vector<int64_t> &shape) const {
        if (!output.set) throw Failure(OV_ERR_INTERNAL, "PP-OCR: the model runner gave no output");
        shape = output.shape;
        return output.data.data();
    }
};

/// Runs stage `stage`'s model (through the caller's runner) on NCHW `data`.
void run(int stage, const std::vector<float> &data, const std::array<int64_t, 4> &shape, Outputs &out) {
    if (ov_cancel_is_set(currentCancel)) throw Failure(OV_ERR_CANCELLED, "accurate text recognition was cancelled");
    char message[512] = {0};
    ov_status status = currentParams->run(currentParams->run_context, stage, data.data(), shape.data(), 4, &out.output,
                                          message, sizeof message);
    if (status != OV_OK) {
        static const char *names[] = {"detector", "angle classifier", "recogniser"};
        throw Failure(status, std::string("PP-OCR ") + names[stage] + ": " + (message[0] ? message : "the model run failed"));
    }
}

/// Writes BGR 8-bit `image` into `dst` (CHW planes of `dstWidth` columns, first `image.cols` filled)
/// as (x / 255 − 0.5) / 0.5.
void normalizeInto(const cv::Mat &image, float *dst, int dstWidth, int dstHeight) {
    const size_t plane = static_cast<size_t>(dstWidth) * dstHeight;
    for (int y = 0; y < image.rows; ++y) {
        const uint8_t *row = image.ptr<uint8_t>(y);
        for (int x = 0; x < image.cols; ++x)
            for (int c = 0; c < 3; ++c)
                dst[c * plane + static_cast<size_t>(y) * dstWidth + x] = row[x * 3 + c] * (2.0f / 255.0f) - 1.0f;
    }
}

/// The integer rounding rapidocr applies to a resized size (Python's round, half to even).
int roundTo32(double v) { return static_cast<int>(std::nearbyint(static_cast<double>(static_cast<int>(v)) / 32.0)) * 32; }

using Quad = std::array<cv::Point2f, 4>;

/// A stable sort (insertion sort: the lists here are short, and libstdc++'s std::stable_sort is
/// deprecated under clang).
template <typename It, typename Less>
void stableSort(It first, It last, Less less) {
    for (It i = first; i != last; ++i)
        for (It j = i; j != first && less(*j, *(j - 1)); --j) std::iter_swap(j, j - 1);
}

/// rapidocr's get_mini_boxes: minAreaRect corners ordered tl, tr, br, bl; `shortSide` its shorter side.
Quad miniBox(const std::vector<cv::Point> &contour, float &shortSide) {
    cv::RotatedRect r = cv::minAreaRect(contour);
    cv::Point2f p[4];
    r.points(p);
    std::vector<cv::Point2f> pts(p, p + 4);
    stableSort(pts.begin(), pts.end(), [](const cv::Point2f &a, const cv::Point2f &b) { return a.x < b.x; });
    int i1, i2, i3, i4;
    if (pts[1].y > pts[0].y) { i1 = 0; i4 = 1; } else { i1 = 1; i4 = 0; }
    if (pts[3].y > pts[2].y) { i2 = 2; i3 = 3; } else { i2 = 3; i3 = 2; }
    shortSide = std::min(r.size.width, r.size.height);
    return {pts[i1], pts[i2], pts[i3], pts[i4]};
}

/// Mean of `pred` inside the quad (rapidocr's box_score_fast).
float boxScoreFast(const cv::Mat &pred, const Quad &box) {
    const int w = pred.cols, h = pred.rows;
    float minX = box[0].x, maxX = box[0].x, minY = box[0].y, maxY = box[0].y;
    for (const auto &p : box) {
        minX = std::min(minX, p.x); maxX = std::max(maxX, p.x);
        minY = std::min(minY, p.y); maxY = std::max(maxY, p.y);
    }
    int xmin = std::clamp(static_cast<int>(std::floor(minX)), 0, w - 1);
    int xmax = std::clamp(static_cast<int>(std::ceil(maxX)), 0, w - 1);
    int ymin = std::clamp(static_cast<int>(std::floor(minY)), 0, h - 1);
    int ymax = std::clamp(static_cast<int>(std::ceil(maxY)), 0, h - 1);
    cv::Mat mask = cv::Mat::zeros(ymax - ymin + 1, xmax - xmin + 1, CV_8UC1);
    std::vector<cv::Point> poly;
    for (const auto &p : box) poly.emplace_back(static_cast<int>(p.x - xmin), static_cast<int>(p.y - ymin));
    cv::fillPoly(mask, std::vector<std::vector<cv::Point>>{poly}, cv::Scalar(1));
    return static_cast<float>(cv::mean(pred(cv::Rect(xmin, ymin, xmax - xmin + 1, ymax - ymin + 1)), mask)[0]);
}

/// pyclipper's PyclipperOffset (JT_ROUND, ET_CLOSEDPOLYGON, ArcTolerance 0.25) of the box by
/// area·ratio/perimeter: the points of the grown outline (integers, as Clipper's).
std::vector<cv::Point> unclip(const Quad &box, float ratio) {
    double area = 0, length = 0;
    for (int i = 0; i < 4; ++i) {
        const cv::Point2f &a = box[i], &b = box[(i + 1) % 4];
        area += static_cast<double>(a.x) * b.y - static_cast<double>(b.x) * a.y;
        length += std::hypot(static_cast<double>(b.x - a.x), static_cast<double>(b.y - a.y));
    }
    area = std::abs(area) / 2;
    std::vector<cv::Point> result;
    if (length <= 0) return result;
    const double delta = area * ratio / length;
    // Clipper converts the path to integers (truncating) and orients it; a round join adds an arc
    // around each vertex between the two edge normals.
    std::vector<cv::Point2d> path;
    for (const auto &p : box) path.emplace_back(static_cast<double>(static_cast<int64_t>(p.x)), static_cast<double>(static_cast<int64_t>(p.y)));
    double signedArea = 0;
    for (size_t i = 0; i < path.size(); ++i) {
        const auto &a = path[i], &b = path[(i + 1) % path.size()];
        signedArea += a.x * b.y - b.x * a.y;
    }
    if (signedArea < 0) std::reverse(path.begin(), path.end());
    if (delta <= 0) return result;
    const double arcTolerance = std::min(0.25, delta * 0.25);
    double steps = M_PI / std::acos(1 - arcTolerance / delta);
    if (steps > delta * M_PI) steps = delta * M_PI;
    const double stepsPerRad = steps / (2 * M_PI);
    const double sn = std::sin(2 * M_PI / steps), cs = std::cos(2 * M_PI / steps);
    const size_t n = path.size();
    std::vector<cv::Point2d> normals(n);
    for (size_t i = 0; i < n; ++i) {
        const auto &a = path[i], &b = path[(i + 1) % n];
        double dx = b.x - a.x, dy = b.y - a.y, len = std::hypot(dx, dy);
        normals[i] = len > 0 ? cv::Point2d(dy / len, -dx / len) : cv::Point2d(0, 0);
    }
    auto add = [&](double x, double y) { result.emplace_back(static_cast<int>(std::lround(x)), static_cast<int>(std::lround(y))); };
    for (size_t j = 0; j < n; ++j) {
        size_t k = (j + n - 1) % n;
        const cv::Point2d &p = path[j];
        const cv::Point2d &nk = normals[k], &nj = normals[j];
        double sinA = nk.x * nj.y - nj.x * nk.y;
        double cosA = nk.x * nj.x + nk.y * nj.y;
        double a = std::atan2(sinA, cosA);
        if (std::abs(sinA * delta) < 1.0 && cosA > 0) {  // nearly straight: one point (Clipper)
            add(p.x + nk.x * delta, p.y + nk.y * delta);
            continue;
        }
        int count = std::max(1, static_cast<int>(std::lround(stepsPerRad * std::abs(a))));
        double x = nk.x, y = nk.y;
        for (int i = 0; i < count; ++i) {
            add(p.x + x * delta, p.y + y * delta);
            double x2 = x;
            x = x * cs - sn * y;
            y = x2 * sn + y * cs;
        }
        add(p.x + nj.x * delta, p.y + nj.y * delta);
    }
    return result;
}

/// rapidocr's order_points_clockwise: tl, tr, br, bl by x then y.
Quad orderClockwise(const Quad &box) {
    std::array<int, 4> idx = {0, 1, 2, 3};
    stableSort(idx.begin(), idx.end(), [&](int a, int b) { return box[a].x < box[b].x; });
    cv::Point2f l0 = box[idx[0]], l1 = box[idx[1]], r0 = box[idx[2]], r1 = box[idx[3]];
    if (l1.y < l0.y) std::swap(l0, l1);
    if (r1.y < r0.y) std::swap(r0, r1);
    return {l0, r0, r1, l1};
}

/// DB detection on `img` (BGR, the pipeline's working image): integer boxes tl, tr, br, bl.
std::vector<Quad> detect(const ov_ppocr &ocr, const cv::Mat &img, const ov_ppocr_params &params) {
    const int h = img.rows, w = img.cols;
    double ratio = 1.0;
    if (std::min(h, w) < params.limit_side_len) ratio = static_cast<double>(params.limit_side_len) / std::min(h, w);
    int rh = roundTo32(h * ratio), rw = roundTo32(w * ratio);
    if (static_cast<long>(rh) * rw > kMaximumDetectorPixels) {
        ratio *= std::sqrt(static_cast<double>(kMaximumDetectorPixels) / (static_cast<double>(rh) * rw));
        rh = std::max(32, static_cast<int>(h * ratio) / 32 * 32);
        rw = std::max(32, static_cast<int>(w * ratio) / 32 * 32);
    }
    if (rh <= 0 || rw <= 0) return {};
    cv::Mat resized;
    cv::resize(img, resized, cv::Size(rw, rh));
    std::vector<float> input(static_cast<size_t>(3) * rw * rh);
    normalizeInto(resized, input.data(), rw, rh);
    Outputs out;
    run(OV_PPOCR_DETECTOR, input, {1, 3, rh, rw}, out);
    std::vector<int64_t> shape;
    const float *prob = out.data(shape);
    if (shape.size() != 4 || shape[2] <= 0 || shape[3] <= 0)
        throw Failure(OV_ERR_MODEL, "PP-OCR detector: unexpected output rank");
    const int ph = static_cast<int>(shape[2]), pw = static_cast<int>(shape[3]);
    cv::Mat pred(ph, pw, CV_32FC1, const_cast<float *>(prob));
    cv::Mat bitmap = pred > params.det_thresh;  // 255 / 0
    cv::dilate(bitmap, bitmap, cv::Mat::ones(2, 2, CV_8UC1));
    std::vector<std::vector<cv::Point>> contours;
    cv::findContours(bitmap, contours, cv::RETR_LIST, cv::CHAIN_APPROX_SIMPLE);
    const size_t maxCandidates = 1000;
    std::vector<Quad> boxes;
    for (size_t i = 0; i < std::min(contours.size(), maxCandidates); ++i) {
        float side = 0;
        Quad points = miniBox(contours[i], side);
        if (side < 3) continue;
        if (params.box_thresh > boxScoreFast(pred, points)) continue;
        std::vector<cv::Point> grown = unclip(points, params.unclip_ratio);
        if (grown.size() < 3) continue;
        Quad box = miniBox(grown, side);
        if (side < 5) continue;
        for (auto &p : box) {
            p.x = std::clamp(static_cast<float>(std::nearbyint(p.x / pw * w)), 0.0f, static_cast<float>(w));
            p.y = std::clamp(static_cast<float>(std::nearbyint(p.y / ph * h)), 0.0f, static_cast<float>(h));
        }
        // filter_tag_det_res: clockwise order, clip to the image, drop boxes of 3 pixels or less.
        box = orderClockwise(box);
        for (auto &p : box) {
            p.x = static_cast<float>(static_cast<int>(std::min(std::max(p.x, 0.0f), static_cast<float>(w - 1))));
            p.y = static_cast<float>(static_cast<int>(std::min(std::max(p.y, 0.0f), static_cast<float>(h - 1))));
        }
        if (static_cast<int>(cv::norm(box[0] - box[1])) <= 3 || static_cast<int>(cv::norm(box[0] - box[3])) <= 3) continue;
        boxes.push_back(box);
    }
    // sorted_boxes: top to bottom, then left to right within 10 pixels.
    stableSort(boxes.begin(), boxes.end(), [](const Quad &a, const Quad &b) {
        return a[0].y != b[0].y ? a[0].y < b[0].y : a[0].x < b[0].x;
    });
    for (size_t i = 0; i + 1 < boxes.size(); ++i)
        for (size_t j = i + 1; j-- > 0;) {
            if (std::abs(boxes[j + 1][0].y - boxes[j][0].y) < 10 && boxes[j + 1][0].x < boxes[j][0].x)
                std::swap(boxes[j], boxes[j + 1]);
            else
                break;
        }
    return boxes;
}

/// A line's crop, upright, and the map from its pixels back to the working image.
struct Crop {
    cv::Mat pixels;
    cv::Matx33d toImage;  // homogeneous: crop (x, y, 1) → working image
    bool turned = false;  // a tall box, turned 90° counter-clockwise to be read
    bool flipped = false; // the classifier said 180° (p180 > p0), whether or not above its threshold
};

/// A page orientation wins the vote with at least this share of the lines' lengths.
constexpr double kOrientationMajority = 0.6;

/// False (and no crop) for a degenerate box whose transform cannot be inverted (clipping at the image
/// border can make corners collinear).
bool cropLine(const cv::Mat &img, const Quad &box, Crop &crop) {
    const int cw = static_cast<int>(std::max(cv::norm(box[0] - box[1]), cv::norm(box[2] - box[3])));
    const int ch = static_cast<int>(std::max(cv::norm(box[0] - box[3]), cv::norm(box[1] - box[2])));
    cv::Point2f src[4] = {box[0], box[1], box[2], box[3]};
    cv::Point2f dst[4] = {{0, 0}, {static_cast<float>(cw), 0}, {static_cast<float>(cw), static_cast<float>(ch)}, {0, static_cast<float>(ch)}};
    cv::Mat m = cv::getPerspectiveTransform(src, dst);
    if (!(std::abs(cv::determinant(m)) > 1e-12) || !cv::checkRange(m)) return false;
    cv::warpPerspective(img, crop.pixels, m, cv::Size(cw, ch), cv::INTER_CUBIC, cv::BORDER_REPLICATE);
    cv::Mat inverse = m.inv();
    if (!cv::checkRange(inverse)) return false;
    cv::Matx33d toImage = inverse;
    if (crop.pixels.rows >= 1.5 * crop.pixels.cols) {
        // np.rot90: counter-clockwise; a point (x, y) of the turned crop is (W − 1 − y, x)… in
        // continuous coordinates (W − y, x) of the original crop, W its width.
        const double W = crop.pixels.cols;
        cv::rotate(crop.pixels, crop.pixels, cv::ROTATE_90_COUNTERCLOCKWISE);
        toImage = toImage * cv::Matx33d(0, -1, W, 1, 0, 0, 0, 0, 1);
        crop.turned = true;
    }
    crop.toImage = toImage;
    return true;
}

/// Indices of `crops` by increasing aspect (width / height), as numpy's argsort.
std::vector<size_t> byAspect(const std::vector<Crop> &crops) {
    std::vector<size_t> order(crops.size());
    std::iota(order.begin(), order.end(), 0);
    stableSort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return static_cast<double>(crops[a].pixels.cols) / crops[a].pixels.rows <
               static_cast<double>(crops[b].pixels.cols) / crops[b].pixels.rows;
    });
    return order;
}

/// Width of a crop resized to `height`, capped at `maxWidth`.
int resizedWidth(const cv::Mat &crop, int height, int maxWidth) {
    double ratio = static_cast<double>(crop.cols) / crop.rows;
    int w = static_cast<int>(std::ceil(height * ratio));
    return std::max(1, std::min(w, maxWidth));
}

/// Turns crops whose classifier says "180" with probability above the threshold.
void classify(const ov_ppocr &ocr, std::vector<Crop> &crops, float threshold) {
    const int H = 48, W = 192, batch = 6;
    std::vector<size_t> order = byAspect(crops);
    for (size_t begin = 0; begin < order.size(); begin += batch) {
        const size_t n = std::min(order.size() - begin, static_cast<size_t>(batch));
        std::vector<float> input(n * 3 * H * W, 0.0f);
        for (size_t k = 0; k < n; ++k) {
            const cv::Mat &crop = crops[order[begin + k]].pixels;
            cv::Mat resized;
            cv::resize(crop, resized, cv::Size(resizedWidth(crop, H, W), H));
            normalizeInto(resized, input.data() + k * 3 * H * W, W, H);
        }
        Outputs out;
        run(OV_PPOCR_CLASSIFIER, input, {static_cast<int64_t>(n), 3, H, W}, out);
        std::vector<int64_t> shape;
        const float *prob = out.data(shape);
        if (shape.size() != 2 || shape[0] != static_cast<int64_t>(n) || shape[1] != 2)
            throw Failure(OV_ERR_MODEL, "PP-OCR classifier: unexpected output shape");
        for (size_t k = 0; k < n; ++k) {
            const float p0 = prob[k * 2], p180 = prob[k * 2 + 1];
            crops[order[begin + k]].flipped = p180 > p0;
            if (p180 > p0 && p180 > threshold) {
                Crop &c = crops[order[begin + k]];
                const double W0 = c.pixels.cols, H0 = c.pixels.rows;
                cv::rotate(c.pixels, c.pixels, cv::ROTATE_180);
                c.toImage = c.toImage * cv::Matx33d(-1, 0, W0, 0, -1, H0, 0, 0, 1);
            }
        }
    }
}

struct Decoded {
    std::vector<int> indices;     // emitted characters
    std::vector<float> probs;     // their probability
    std::vector<double> centres;  // their centre, in time steps (+0.5 = the step's middle)
    float confidence = 0;
    int steps = 0;
};

/// CTC greedy decoding of one [T, C] row block: argmax per step, repeats merged, blanks dropped.
Decoded ctcDecode(const float *logits, int steps, int classes) {
    Decoded d;
    d.steps = steps;
    int previous = -1;
    int runStart = 0;
    for (int t = 0; t < steps; ++t) {
        const float *row = logits + static_cast<size_t>(t) * classes;
        int best = static_cast<int>(std::max_element(row, row + classes) - row);
        if (best != previous) {
            if (previous > 0) d.centres.back() = (runStart + t - 1) / 2.0 + 0.5;
            runStart = t;
            if (best > 0) {
                d.indices.push_back(best);
                d.probs.push_back(row[best]);
                d.centres.push_back(t + 0.5);
            }
        }
        previous = best;
    }
    if (previous > 0) d.centres.back() = (runStart + steps - 1) / 2.0 + 0.5;
    if (!d.probs.empty())
        d.confidence = static_cast<float>(std::accumulate(d.probs.begin(), d.probs.end(), 0.0) / d.probs.size());
    return d;
}

struct Recognized {
    Decoded decoded;
    double pixelsPerStep = 0;  // crop pixels per time step
};

std::vector<Recognized> recognize(const ov_ppocr &ocr, const std::vector<Crop> &crops) {
    const int H = 48, batch = 6;
    std::vector<Recognized> results(crops.size());
    std::vector<size_t> order = byAspect(crops);
    const int classes = static_cast<int>(ocr.characters.size());
    for (size_t begin = 0; begin < order.size(); begin += batch) {
        const size_t n = std::min(order.size() - begin, static_cast<size_t>(batch));
        double maxRatio = 320.0 / 48.0;
        for (size_t k = 0; k < n; ++k) {
            const cv::Mat &c = crops[order[begin + k]].pixels;
            maxRatio = std::max(maxRatio, static_cast<double>(c.cols) / c.rows);
        }
        const int W = static_cast<int>(H * maxRatio);
        std::vector<float> input(n * 3 * H * static_cast<size_t>(W), 0.0f);
        std::vector<int> widths(n);
        for (size_t k = 0; k < n; ++k) {
            const cv::Mat &crop = crops[order[begin + k]].pixels;
            widths[k] = resizedWidth(crop, H, W);
            cv::Mat resized;
            cv::resize(crop, resized, cv::Size(widths[k], H));
            normalizeInto(resized, input.data() + k * 3 * H * static_cast<size_t>(W), W, H);
        }
        Outputs out;
        run(OV_PPOCR_RECOGNIZER, input, {static_cast<int64_t>(n), 3, H, W}, out);
        std::vector<int64_t> shape;
        const float *logits = out.data(shape);
        if (shape.size() != 3 || shape[0] != static_cast<int64_t>(n) || shape[2] != classes || shape[1] <= 0)
            throw Failure(OV_ERR_MODEL, "PP-OCR recogniser: unexpected output shape");
        const int steps = static_cast<int>(shape[1]);
        for (size_t k = 0; k < n; ++k) {
            Recognized &r = results[order[begin + k]];
            r.decoded = ctcDecode(logits + k * static_cast<size_t>(steps) * classes, steps, classes);
            const cv::Mat &crop = crops[order[begin + k]].pixels;
            // A step covers W / steps input pixels; the crop was scaled by widths[k] / crop.cols.
            r.pixelsPerStep = static_cast<double>(W) / steps * crop.cols / widths[k];
        }
    }
    return results;
}

/// The lines' vote for how the page's text is turned clockwise (0, 90, 180, 270): each line's orientation
/// from its shape and the classifier, weighted by its length.
struct PageVote {
    int majority = 0;        // the orientation with at least kOrientationMajority of the weight; -1 when none has
    std::vector<int> voted;  // every orientation some line voted for, heaviest first
};

PageVote pageVote(const std::vector<Crop> &crops) {
    double weight[4] = {0, 0, 0, 0}, total = 0;
    for (const Crop &c : crops) {
        const int quarter = c.turned ? (c.flipped ? 3 : 1) : (c.flipped ? 2 : 0);
        weight[quarter] += c.pixels.cols;
        total += c.pixels.cols;
    }
    PageVote vote;
    if (total <= 0) return vote;
    const int best = static_cast<int>(std::max_element(weight, weight + 4) - weight);
    if (weight[best] >= kOrientationMajority * total) {
        vote.majority = 90 * best;
        return vote;
    }
    vote.majority = -1;
    std::vector<int> quarters;
    for (int q = 0; q < 4; ++q)
        if (weight[q] > 0) quarters.push_back(q);
    std::stable_sort(quarters.begin(), quarters.end(), [&](int a, int b) { return weight[a] > weight[b]; });
    for (int q : quarters) vote.voted.push_back(90 * q);
    return vote;
}

/// The length-weighted mean confidence of recognised lines (0 when none).
double meanConfidence(const std::vector<Recognized> &read) {
    double sum = 0, weight = 0;
    for (const Recognized &r : read) {
        sum += r.decoded.confidence * r.decoded.indices.size();
        weight += r.decoded.indices.size();
    }
    return weight > 0 ? sum / weight : 0;
}

/// Detection, crops and classification of `img` (the working image).
std::vector<Crop> detectAndClassify(const ov_ppocr &ocr, const cv::Mat &img, const ov_ppocr_params &p) {
    std::vector<Quad> boxes = detect(ocr, img, p);
    std::vector<Crop> crops;
    crops.reserve(boxes.size());
    for (const Quad &box : boxes) {
        Crop crop;
        if (cropLine(img, box, crop)) crops.push_back(std::move(crop));
    }
    if (p.use_cls && !crops.empty()) classify(ocr, crops, p.cls_thresh);
    return crops;
}

cv::Point2f apply(const cv::Matx33d &m, double x, double y) {
    cv::Vec3d v = m * cv::Vec3d(x, y, 1);
    return {static_cast<float>(v[0] / v[2]), static_cast<float>(v[1] / v[2])};
}

}  // namespace

extern "C" {

ov_ppocr_params ov_ppocr_default_params(void) {
    ov_ppocr_params p;
    p.limit_side_len = 736;
    p.det_thresh = 0.3f;
    p.box_thresh = 0.5f;
    p.unclip_ratio = 1.6f;
    p.use_cls = 1;
    p.cls_thresh = 0.9f;
    p.text_score = 0.5f;
    p.min_text_height = 0;
    p.cancel = nullptr;
    p.detect_orientation = 0;
    p.run = nullptr;
    p.run_context = nullptr;
    return p;
}

ov_status ov_ppocr_output_set(ov_ppocr_output *output, const float *data, const int64_t *shape, int rank) {
    return ov::guarded("ov_ppocr_output_set", [&]() -> ov_status {
        if (!output || !shape || rank < 1 || rank > 8) return ov::fail(OV_ERR_INVALID_ARGUMENT, "PP-OCR: bad output shape");
        size_t count = 1;
        for (int i = 0; i < rank; ++i) {
            if (shape[i] < 0) return ov::fail(OV_ERR_INVALID_ARGUMENT, "PP-OCR: negative output dimension");
            count *= static_cast<size_t>(shape[i]);
        }
        if (count && !data) return ov::fail(OV_ERR_INVALID_ARGUMENT, "PP-OCR: NULL output data");
        output->shape.assign(shape, shape + rank);
        output->data.assign(data, data + count);
        output->set = true;
        return ov::ok();
    });
}

ov_status ov_ppocr_create(const char *dict_path, int64_t recognizer_classes, ov_ppocr **out) {
    return ov::guarded("ov_ppocr_create", [&]() -> ov_status {
        if (!out || !dict_path) return ov::fail(OV_ERR_INVALID_ARGUMENT, "PP-OCR: NULL dictionary path");
        *out = nullptr;
        auto ocr = std::make_unique<ov_ppocr>();
        std::ifstream file(dict_path, std::ios::binary);
        if (!file) return ov::fail(OV_ERR_IO, std::string("PP-OCR: cannot read the dictionary ") + dict_path);
        std::stringstream buffer;
        buffer << file.rdbuf();
        std::string text = buffer.str();
        ocr->characters.emplace_back();  // CTC blank
        size_t start = 0;
        while (start < text.size()) {
            size_t end = text.find('\n', start);
            if (end == std::string::npos) end = text.size();
            std::string entry = text.substr(start, end - start);
            if (!entry.empty() && entry.back() == '\r') entry.pop_back();
            ocr->characters.push_back(entry);
            start = end + 1;
        }
        ocr->characters.emplace_back(" ");
        if (recognizer_classes > 0 && recognizer_classes != static_cast<int64_t>(ocr->characters.size()))
            return ov::fail(OV_ERR_MODEL, "PP-OCR: the dictionary " + std::string(dict_path) + " has " +
                                              std::to_string(ocr->characters.size() - 2) + " entries but the recogniser has " +
                                              std::to_string(recognizer_classes) + " classes (expected entries + 2)");
        *out = ocr.release();
        return ov::ok();
    });
}

void ov_ppocr_free(ov_ppocr *ocr) { delete ocr; }

int ov_ppocr_dictionary_size(const ov_ppocr *ocr) {
    return ocr ? static_cast<int>(ocr->characters.size()) - 2 : 0;
}

ov_status ov_ppocr_recognize(const ov_ppocr *ocr, const ov_image *image, const ov_ppocr_params *params,
                             ov_ppocr_result **out) {
    return ov::guarded("ov_ppocr_recognize", [&]() -> ov_status {
        if (!ocr || !image || image->empty() || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "PP-OCR: NULL or empty image");
        *out = nullptr;
        const ov_ppocr_params p = params ? *params : ov_ppocr_default_params();
        if (!p.run) return ov::fail(OV_ERR_INVALID_ARGUMENT, "PP-OCR: no model runner");
        struct CurrentCall {
            explicit CurrentCall(const ov_ppocr_params *params) { currentCancel = params->cancel; currentParams = params; }
            ~CurrentCall() { currentCancel = nullptr; currentParams = nullptr; }
        } scope(&p);
        if (p.limit_side_len < 32 || p.limit_side_len > 4096 || !(p.unclip_ratio > 0 && p.unclip_ratio <= 10) ||
            !(p.det_thresh >= 0 && p.det_thresh < 1) || !(p.box_thresh >= 0 && p.box_thresh <= 1))
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "PP-OCR: parameter out of range");
        cv::Mat img;
        if (image->isGray()) cv::cvtColor(image->luma, img, cv::COLOR_GRAY2BGR);
        else img = image->bgr;
        const int rawW = img.cols, rawH = img.rows;

        // rapidocr's preprocess: longest side ≤ 2000, shortest ≥ 30 (sizes rounded to 32).
        double ratioW = 1, ratioH = 1;
        const int maxSide = 2000, minSide = 30, minHeight = 30, maxAspect = 8;
        auto resizeTo = [&](double ratio) {
            int rh = roundTo32(img.rows * ratio), rw = roundTo32(img.cols * ratio);
            if (rh <= 0 || rw <= 0) return false;
            ratioH = static_cast<double>(img.rows) / rh;
            ratioW = static_cast<double>(img.cols) / rw;
            cv::Mat resized;
            cv::resize(img, resized, cv::Size(rw, rh));
            img = resized;
            return true;
        };
        auto result = std::make_unique<ov_ppocr_result>();
        if (std::max(img.rows, img.cols) > maxSide &&
            !resizeTo(static_cast<double>(maxSide) / std::max(img.rows, img.cols))) {
            *out = result.release();
            return ov::ok();
        }
        if (std::min(img.rows, img.cols) < minSide &&
            !resizeTo(static_cast<double>(minSide) / std::min(img.rows, img.cols))) {
            *out = result.release();
            return ov::ok();
        }
        // A flat strip gets black bands above and below (rapidocr's letterbox).
        int padTop = 0;
        if (img.rows <= minHeight || static_cast<double>(img.cols) / img.rows > maxAspect) {
            int newH = std::max(static_cast<int>(img.cols / static_cast<double>(maxAspect)), minHeight) * 2;
            padTop = std::abs(newH - img.rows) / 2;
            cv::Mat padded;
            cv::copyMakeBorder(img, padded, padTop, padTop, 0, 0, cv::BORDER_CONSTANT, cv::Scalar(0, 0, 0));
            img = padded;
        }
        // A tall strip gets black bands left and right, the same way.
        int padLeft = 0;
        if (static_cast<double>(img.rows) / img.cols > maxAspect) {
            int newW = std::max(static_cast<int>(img.rows / static_cast<double>(maxAspect)), minHeight) * 2;
            padLeft = std::abs(newW - img.cols) / 2;
            cv::Mat padded;
            cv::copyMakeBorder(img, padded, 0, 0, padLeft, padLeft, cv::BORDER_CONSTANT, cv::Scalar(0, 0, 0));
            img = padded;
        }

        std::vector<Crop> crops = detectAndClassify(*ocr, img, p);
        std::vector<Recognized> texts;
        bool recognized = false;
        if (p.detect_orientation && p.use_cls) {
            // The page turned upright by `degrees` (clockwise turn of its text): its crops map back through the turn:
            // (u, v) of the upright image (Wu × Hu) is (Hu − v, u) on a page turned 90° clockwise, (Wu − u, Hu − v)
            // at 180°, (v, Wu − u) at 270°. The vote settled which way is up, so no line of the upright page is
            // flipped on its own (the classifier flipped one of mono-30's two lines turned 270°).
            auto uprightCrops = [&](int degrees) {
                cv::Mat upright;
                cv::rotate(img, upright, degrees == 90 ? cv::ROTATE_90_COUNTERCLOCKWISE
                                         : degrees == 180 ? cv::ROTATE_180 : cv::ROTATE_90_CLOCKWISE);
                const double Wu = upright.cols, Hu = upright.rows;
                const cv::Matx33d back = degrees == 90 ? cv::Matx33d(0, -1, Hu, 1, 0, 0, 0, 0, 1)
                                       : degrees == 180 ? cv::Matx33d(-1, 0, Wu, 0, -1, Hu, 0, 0, 1)
                                                        : cv::Matx33d(0, 1, 0, -1, 0, Wu, 0, 0, 1);
                ov_ppocr_params settled = p;
                settled.use_cls = 0;
                std::vector<Crop> turned = detectAndClassify(*ocr, upright, settled);
                for (Crop &c : turned) c.toImage = back * c.toImage;
                return turned;
            };
            const PageVote vote = pageVote(crops);
            if (vote.majority > 0) {
                crops = uprightCrops(vote.majority);
                result->orientation = vote.majority;
            } else if (vote.majority < 0) {
                // No orientation has a clear majority (two lines voting apart): read the page each way voted and keep
                // the most confident read (length-weighted mean of the lines' confidences).
                double bestScore = -1;
                for (int degrees : vote.voted) {
                    std::vector<Crop> candidate = degrees == 0 ? crops : uprightCrops(degrees);
                    std::vector<Recognized> read = candidate.empty() ? std::vector<Recognized>() : recognize(*ocr, candidate);
                    const double score = meanConfidence(read);
                    if (score > bestScore) {
                        bestScore = score;
                        texts = std::move(read);
                        recognized = true;
                        result->orientation = degrees;
                        crops = std::move(candidate);
                    }
                }
            }
        }
        if (!recognized && !crops.empty()) texts = recognize(*ocr, crops);

        // Working image → input image: undo the letterbox, then the resizes; clip like rapidocr.
        auto toInput = [&](cv::Point2f q, float *dst) {
            double x = std::clamp((static_cast<double>(q.x) - padLeft) * ratioW, 0.0, static_cast<double>(rawW));
            double y = std::clamp((static_cast<double>(q.y) - padTop) * ratioH, 0.0, static_cast<double>(rawH));
            dst[0] = static_cast<float>(x);
            dst[1] = static_cast<float>(y);
        };
        for (size_t i = 0; i < crops.size(); ++i) {
            const Decoded &d = texts[i].decoded;
            if (d.indices.empty() || d.confidence < p.text_score) continue;
            const Crop &crop = crops[i];
            const double W = crop.pixels.cols, H = crop.pixels.rows;
            ov_ppocr_line line{};
            toInput(apply(crop.toImage, 0, 0), line.quad);
            toInput(apply(crop.toImage, W, 0), line.quad + 2);
            toInput(apply(crop.toImage, W, H), line.quad + 4);
            toInput(apply(crop.toImage, 0, H), line.quad + 6);
            const double height = std::max(std::hypot(line.quad[6] - line.quad[0], line.quad[7] - line.quad[1]),
                                           std::hypot(line.quad[4] - line.quad[2], line.quad[5] - line.quad[3]));
            if (height < p.min_text_height) continue;
            line.confidence = d.confidence;
            line.text_offset = static_cast<int>(result->text.size());
            line.char_start = static_cast<int>(result->chars.size());
            line.char_count = static_cast<int>(d.indices.size());
            const double step = texts[i].pixelsPerStep;
            for (size_t k = 0; k < d.indices.size(); ++k) {
                const double centre = d.centres[k] * step;
                const double left = k > 0 ? (d.centres[k - 1] * step + centre) / 2
                                  : (d.indices.size() > 1 ? centre - (d.centres[1] * step - centre) / 2 : centre - 0.3 * H);
                const double right = k + 1 < d.indices.size() ? (centre + d.centres[k + 1] * step) / 2
                                   : (k > 0 ? centre + (centre - d.centres[k - 1] * step) / 2 : centre + 0.3 * H);
                const double x0 = std::clamp(left, 0.0, W), x1 = std::clamp(right, 0.0, W);
                ov_ppocr_char c{};
                toInput(apply(crop.toImage, x0, 0), c.quad);
                toInput(apply(crop.toImage, x1, 0), c.quad + 2);
                toInput(apply(crop.toImage, x1, H), c.quad + 4);
                toInput(apply(crop.toImage, x0, H), c.quad + 6);
                c.confidence = d.probs[k];
                const std::string &s = ocr->characters[static_cast<size_t>(d.indices[k])];
                c.text_offset = static_cast<int>(result->text.size());
                c.text_length = static_cast<int>(s.size());
                result->text += s;
                result->chars.push_back(c);
            }
            line.text_length = static_cast<int>(result->text.size()) - line.text_offset;
            result->lines.push_back(line);
        }
        *out = result.release();
        return ov::ok();
    });
}

int ov_ppocr_result_line_count(const ov_ppocr_result *result) { return result ? static_cast<int>(result->lines.size()) : 0; }
const ov_ppocr_line *ov_ppocr_result_lines(const ov_ppocr_result *result) { return result ? result->lines.data() : nullptr; }
int ov_ppocr_result_char_count(const ov_ppocr_result *result) { return result ? static_cast<int>(result->chars.size()) : 0; }
const ov_ppocr_char *ov_ppocr_result_chars(const ov_ppocr_result *result) { return result ? result->chars.data() : nullptr; }
const char *ov_ppocr_result_text(const ov_ppocr_result *result) { return result ? result->text.c_str() : ""; }
int ov_ppocr_result_orientation(const ov_ppocr_result *result) { return result ? result->orientation : 0; }
void ov_ppocr_result_free(ov_ppocr_result *result) { delete result; }

}  // extern "C"
