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
//   - noise, on the region at its own resolution (shrunk to at most 2048 px): the weak-texture patch estimate of
//     X. Liu, M. Tanaka and M. Okutomi ("Single-image noise level estimation for blind denoising", IEEE TIP 2013):
//     sigma^2 is the smallest eigenvalue of the covariance of 7 x 7 patches, first of all patches, then (twice) of
//     the patches whose gradient energy (the sum of squared central differences [-1/2 0 1/2] inside the patch,
//     both directions) is under sigma^2 * tau0, tau0 the 1 - 1e-6 quantile of the gamma law that energy follows on
//     pure Gaussian noise (shape r / 2, scale 2 tr(D'D) / r; D the patch's difference operator, r its rank).
//     Texture has little energy along some direction of patch space, white noise has sigma^2 along every one: the
//     estimate holds on images all texture (grass, fur) where a block-percentile estimate reads texture as noise
//     (giraffe.jpg: Immerkaer's flattest-blocks sigma 8.2, this one 2.1; both about 4 with noise of sigma 4 added,
//     which is what re-encoding as JPEG would otherwise be credited with removing). Patches are taken on a grid
//     of step s (the smallest giving at most 40,000 of them; the covariance of a sample is the covariance). Under
//     40 x 49 patches (regions under about 50 x 50 pixels: small faces, whose few patches' smallest eigenvalue falls
//     well under sigma^2 and swings with the face's own detail), Immerkaer's fast estimate
//     (J. Immerkaer, "Fast noise variance estimation", CVIU 1996) instead: sigma = sqrt(pi / 2) / 6 * mean |I * M|
//     with M = [1 -2 1; -2 4 -2; 1 -2 1], the mean taken per 8 x 8 block of the interior, the blocks' 10th
//     percentile;
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
/// ln Q(a, x), the regularised upper incomplete gamma function, by its continued fraction (x > a + 1) or 1 − the
/// lower one's series (Numerical Recipes' gcf / gser).
double logUpperGamma(double a, double x) {
    const double lga = std::lgamma(a);
    if (x <= 0) return 0;
    if (x < a + 1) {
        double sum = 1 / a, term = sum;
        for (int n = 1; n < 1000; ++n) {
            term *= x / (a + n);
            sum += term;
            if (std::abs(term) < std::abs(sum) * 1e-15) break;
        }
        const double p = sum * std::exp(-x + a * std::log(x) - lga);
        return std::log(std::max(1 - p, 1e-300));
    }
    double b = x + 1 - a, c = 1e300, d = 1 / b, h = d;
    for (int i = 1; i < 1000; ++i) {
        const double an = -i * (i - a);
        b += 2;
        d = an * d + b;
        if (std::abs(d) < 1e-300) d = 1e-300;
        c = b + an / c;
        if (std::abs(c) < 1e-300) c = 1e-300;
        d = 1 / d;
        const double delta = d * c;
        h *= delta;
        if (std::abs(delta - 1) < 1e-15) break;
    }
    return -x + a * std::log(x) - lga + std::log(h);
}

/// The x at which the gamma law of shape `a` (scale 1) leaves `tail` above it: Q(a, x) = tail, by bisection on ln Q.
double gammaUpperQuantile(double a, double tail) {
    const double target = std::log(tail);
    double lo = 0, hi = a + 10;
    while (logUpperGamma(a, hi) > target) hi *= 2;
    for (int i = 0; i < 200; ++i) {
        const double mid = 0.5 * (lo + hi);
        (logUpperGamma(a, mid) > target ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

/// Liu, Tanaka and Okutomi's noise sigma of `gray` (see the header), or a negative value when it has too few patches.
double weakTexturePatchNoise(const cv::Mat &gray) {
    constexpr int P = 7, D = P * P;
    constexpr double kTail = 1e-6;
    // Fewer patches than this (a region under about 50 x 50 pixels): Immerkaer's estimate instead (see the header).
    constexpr int kMinimumPatches = 40 * D;
    // tau0: the gradient energy's threshold for pure noise of unit variance, from D'D of the patch's differences.
    static const double tau0 = [] {
        cv::Mat dd = cv::Mat::zeros(D, D, CV_64F);
        auto addRow = [&](int a, int b) {  // the difference 0.5 * (p[b] - p[a])
            const int idx[2] = {a, b};
            const double w[2] = {-0.5, 0.5};
            for (int i = 0; i < 2; ++i)
                for (int j = 0; j < 2; ++j) dd.at<double>(idx[i], idx[j]) += w[i] * w[j];
        };
        for (int y = 0; y < P; ++y)
            for (int x = 0; x + 2 < P; ++x) {
                addRow(y * P + x, y * P + x + 2);
                addRow(x * P + y, (x + 2) * P + y);
            }
        cv::Mat values;
        cv::eigen(dd, values);
        int rank = 0;
        for (int i = 0; i < D; ++i) rank += values.at<double>(i) > 1e-9 * values.at<double>(0);
        const double trace = cv::trace(dd)[0];
        return gammaUpperQuantile(rank / 2.0, kTail) * 2 * trace / rank;
    }();
    const int positionsY = gray.rows - P + 1, positionsX = gray.cols - P + 1;
    if (positionsY <= 0 || positionsX <= 0) return -1;
    const double positions = double(positionsY) * positionsX;
    const int step = std::max(1, int(std::ceil(std::sqrt(positions / 40000.0))));
    const int ny = (positionsY + step - 1) / step, nx = (positionsX + step - 1) / step;
    const int n = ny * nx;
    if (n < kMinimumPatches) return -1;
    cv::Mat patches(n, D, CV_32F);
    std::vector<double> energy(size_t(n), 0.0);
    int row = 0;
    for (int y = 0; y < positionsY; y += step) {
        for (int x = 0; x < positionsX; x += step, ++row) {
            float *out = patches.ptr<float>(row);
            double e = 0;
            for (int dy = 0; dy < P; ++dy) {
                const uchar *p = gray.ptr<uchar>(y + dy) + x;
                for (int dx = 0; dx < P; ++dx) out[dy * P + dx] = float(p[dx]);
                for (int dx = 0; dx + 2 < P; ++dx) {
                    const double h = 0.5 * (double(p[dx + 2]) - double(p[dx]));
                    e += h * h;
                }
            }
            for (int dy = 0; dy + 2 < P; ++dy)
                for (int dx = 0; dx < P; ++dx) {
                    const double v = 0.5 * (double(out[(dy + 2) * P + dx]) - double(out[dy * P + dx]));
                    e += v * v;
                }
            energy[size_t(row)] = e;
        }
    }
    auto smallestEigenvalue = [&](const cv::Mat &samples) {
        cv::Mat covariance, mean, values;
        cv::calcCovarMatrix(samples, covariance, mean, cv::COVAR_NORMAL | cv::COVAR_ROWS, CV_64F);
        covariance /= double(samples.rows - 1);
        cv::eigen(covariance, values);
        return std::max(values.at<double>(D - 1), 0.0);
    };
    double variance = smallestEigenvalue(patches);
    for (int iteration = 1; iteration < 3; ++iteration) {
        const double tau = variance * tau0;
        std::vector<int> kept;
        for (int i = 0; i < patches.rows; ++i)
            if (energy[size_t(i)] < tau) kept.push_back(i);
        if (int(kept.size()) < D) break;
        cv::Mat selected(int(kept.size()), D, CV_32F);
        std::vector<double> selectedEnergy(kept.size());
        for (size_t k = 0; k < kept.size(); ++k) {
            patches.row(kept[k]).copyTo(selected.row(int(k)));
            selectedEnergy[k] = energy[size_t(kept[k])];
        }
        patches = selected;
        energy.swap(selectedEnergy);
        variance = smallestEigenvalue(patches);
    }
    return std::sqrt(variance);
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

        // Noise, on the region at its own resolution (shrunk to at most 2048 px): weak-texture patches, or on small
        // regions Immerkaer's operator, its mean magnitude per 8 x 8 block of the interior, the blocks' 10th
        // percentile.
        const cv::Mat native = ov::fitWithin(gray, 2048);
        out->noise = weakTexturePatchNoise(native);
        if (out->noise < 0) {
            const cv::Mat kernel = (cv::Mat_<float>(3, 3) << 1, -2, 1, -2, 4, -2, 1, -2, 1);
            cv::Mat response;
            cv::filter2D(native, response, CV_32F, kernel, cv::Point(-1, -1), 0, cv::BORDER_REPLICATE);
            const cv::Mat magnitude = cv::abs(response(cv::Rect(1, 1, native.cols - 2, native.rows - 2)));
            out->noise = std::sqrt(kPi / 2) / 6 * tenthPercentileOfBlocks(magnitude);
        }

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
