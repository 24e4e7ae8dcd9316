// Quality factors of an image region, the measurable parts OpenVision composes face capture quality and aesthetics
// scores from (Sources/OpenVision/Backends/Quality; docs/requests.md, "Face capture quality and aesthetics").
//
// Measures (on the gray plane of the region, resampled to the working size unless said otherwise)
//   - exposure: the mean and standard deviation of the luminance, the shares of pixels at 16 or below and 239 or
//     above;
//   - sharpness: the mean square of cv::Laplacian (ksize 1: the 4-neighbour kernel) over the interior, its largest
//     value over a 4 x 4 grid of tiles (a sharp subject on a blurred background), and its floor, the 10th percentile
//     of its means over 8 x 8 blocks: what noise alone gives in the flattest parts, whatever the noise's spectrum
//     (white, or smoothed by the resampling);
//   - noise, on the region at its own resolution (shrunk to at most 2048 px): Immerkaer's fast estimate
//     (J. Immerkaer, "Fast noise variance estimation", CVIU 1996): sigma = sqrt(pi / 2) / 6 * mean |I * M| with
//     M = [1 -2 1; -2 4 -2; 1 -2 1], the mean taken per 8 x 8 block of the interior and the blocks' 10th percentile
//     kept: the flattest parts, where texture does not pass for noise;
//   - blockiness, at the region's own resolution (JPEG's grid is there): the mean absolute step between neighbouring
//     columns (and rows) across the 8-pixel grid lines, over the mean step elsewhere, minus 1 (floored at 0); the
//     grid's phase is the image's, so a region whose x or y is not a multiple of 8 is measured on the image's lines;
//   - colourfulness: Hasler and Suesstrunk's M = sqrt(var(rg) + var(yb)) + 0.3 sqrt(mean(rg)^2 + mean(yb)^2),
//     rg = R - G, yb = (R + G) / 2 - B (0 for a gray image);
//   - flatness: the share of pixels within 16 gray levels of the histogram's mode (a page's paper, a screen's
//     background).
#include "ov_internal.hpp"
#include "ov_quality.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace {
constexpr double kPi = 3.14159265358979323846;

/// Mean absolute step across the 8-pixel grid lines over the mean step elsewhere, minus 1, along x (rows of `g`),
/// with the grid at image columns ≡ 0 (mod 8): `x0` is the region's left column in the image.
double gridExcess(const cv::Mat &g, int x0) {
    double across = 0, elsewhere = 0;
    long nAcross = 0, nElsewhere = 0;
    for (int y = 0; y < g.rows; ++y) {
        const uchar *row = g.ptr<uchar>(y);
        for (int x = 1; x < g.cols; ++x) {
            const double step = std::abs(int(row[x]) - int(row[x - 1]));
            if ((x0 + x) % 8 == 0) {
                across += step;
                ++nAcross;
            } else {
                elsewhere += step;
                ++nElsewhere;
            }
        }
    }
    if (nAcross == 0 || nElsewhere == 0) return 0;
    const double a = across / double(nAcross), e = elsewhere / double(nElsewhere);
    return std::max(0.0, (a + 0.5) / (e + 0.5) - 1);
}
/// The 10th percentile of the means of `m`'s whole 8 x 8 blocks (of all of `m` when it has none).
double tenthPercentileOfBlocks(const cv::Mat &m) {
    std::vector<double> blocks;
    for (int by = 0; by + 8 <= m.rows; by += 8) {
        for (int bx = 0; bx + 8 <= m.cols; bx += 8) blocks.push_back(cv::mean(m(cv::Rect(bx, by, 8, 8)))[0]);
    }
    if (blocks.empty()) return cv::mean(m)[0];
    auto tenth = blocks.begin() + long(blocks.size() / 10);
    std::nth_element(blocks.begin(), tenth, blocks.end());
    return *tenth;
}
}  // namespace

extern "C" ov_status ov_measure_quality(const ov_image *image, int x, int y, int width, int height, int work_width,
                                        int max_side, ov_quality_measures *out) {
    return ov::guarded("ov_measure_quality", [&]() -> ov_status {
        if (!image || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_measure_quality: missing argument");
        *out = ov_quality_measures{};
        const cv::Rect region = cv::Rect(x, y, width, height) & cv::Rect(0, 0, image->cols(), image->rows());
        if (region.width < 8 || region.height < 8)
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "quality: the region is under 8 x 8 pixels");
        if ((work_width != 0 && (work_width < 8 || work_width > 4096)) ||
            (work_width == 0 && (max_side < 8 || max_side > 4096)))
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "quality: the working size must be 8...4096 pixels");
        const cv::Mat gray = image->gray()(region);

        // Blockiness at full resolution, both directions.
        cv::Mat grayT;
        cv::transpose(gray, grayT);
        out->blockiness = 0.5 * (gridExcess(gray, region.x) + gridExcess(grayT, region.y));

        // The working image.
        cv::Mat work;
        cv::Mat colour = image->isGray() ? cv::Mat() : image->bgr(region);
        if (work_width > 0) {
            const int h = std::max(8, int(std::lround(double(region.height) * work_width / region.width)));
            if (h > 4096) return ov::fail(OV_ERR_INVALID_ARGUMENT, "quality: the region is too narrow");
            const int interpolation = work_width < region.width ? cv::INTER_AREA : cv::INTER_CUBIC;
            cv::resize(gray, work, cv::Size(work_width, h), 0, 0, interpolation);
            if (!colour.empty()) cv::resize(colour, colour, cv::Size(work_width, h), 0, 0, interpolation);
        } else {
            work = ov::fitWithin(gray, max_side);
            if (!colour.empty()) colour = ov::fitWithin(colour, max_side);
        }
        out->width = work.cols;
        out->height = work.rows;

        // Exposure.
        cv::Scalar mean, stddev;
        cv::meanStdDev(work, mean, stddev);
        out->mean = mean[0];
        out->contrast = stddev[0];
        const double n = double(work.total());
        out->dark = double(cv::countNonZero(work <= 16)) / n;
        out->bright = double(cv::countNonZero(work >= 239)) / n;
        int histogram[256] = {0};
        for (int r = 0; r < work.rows; ++r) {
            const uchar *p = work.ptr<uchar>(r);
            for (int c = 0; c < work.cols; ++c) ++histogram[p[c]];
        }
        const int mode = int(std::max_element(histogram, histogram + 256) - histogram);
        long near = 0;
        for (int v = std::max(mode - 16, 0); v <= std::min(mode + 16, 255); ++v) near += histogram[v];
        out->flat = double(near) / n;

        // Sharpness: the Laplacian's mean square over the interior, per tile of a 4 x 4 grid, and per 8 x 8 block (the
        // blocks' 10th percentile is the floor that noise alone gives).
        cv::Mat lap;
        cv::Laplacian(work, lap, CV_32F, 1, 1, 0, cv::BORDER_REPLICATE);
        const cv::Rect interior(1, 1, work.cols - 2, work.rows - 2);
        const cv::Mat energy = lap(interior).mul(lap(interior));
        out->laplacian = cv::mean(energy)[0];
        double peak = 0;
        for (int ty = 0; ty < 4; ++ty) {
            for (int tx = 0; tx < 4; ++tx) {
                const int x0 = tx * energy.cols / 4, x1 = (tx + 1) * energy.cols / 4;
                const int y0 = ty * energy.rows / 4, y1 = (ty + 1) * energy.rows / 4;
                if (x1 - x0 < 1 || y1 - y0 < 1) continue;
                peak = std::max(peak, cv::mean(energy(cv::Rect(x0, y0, x1 - x0, y1 - y0)))[0]);
            }
        }
        out->peak_laplacian = peak;
        out->laplacian_floor = tenthPercentileOfBlocks(energy);

        // Noise: Immerkaer's operator on the region at its own resolution (shrunk to at most 2048 px), its mean
        // magnitude per 8 x 8 block of the interior, the blocks' 10th percentile.
        const cv::Mat native = ov::fitWithin(gray, 2048);
        const cv::Mat kernel = (cv::Mat_<float>(3, 3) << 1, -2, 1, -2, 4, -2, 1, -2, 1);
        cv::Mat response;
        cv::filter2D(native, response, CV_32F, kernel, cv::Point(-1, -1), 0, cv::BORDER_REPLICATE);
        const cv::Mat magnitude = cv::abs(response(cv::Rect(1, 1, native.cols - 2, native.rows - 2)));
        out->noise = std::sqrt(kPi / 2) / 6 * tenthPercentileOfBlocks(magnitude);

        // Colourfulness.
        if (!colour.empty()) {
            std::vector<cv::Mat> bgr;
            cv::Mat planes;
            colour.convertTo(planes, CV_32FC3);
            cv::split(planes, bgr);
            const cv::Mat rg = bgr[2] - bgr[1];
            const cv::Mat yb = 0.5 * (bgr[2] + bgr[1]) - bgr[0];
            cv::Scalar mrg, srg, myb, syb;
            cv::meanStdDev(rg, mrg, srg);
            cv::meanStdDev(yb, myb, syb);
            out->colorfulness = std::sqrt(srg[0] * srg[0] + syb[0] * syb[0]) +
                                0.3 * std::sqrt(mrg[0] * mrg[0] + myb[0] * myb[0]);
        }
        return ov::ok();
    });
}
