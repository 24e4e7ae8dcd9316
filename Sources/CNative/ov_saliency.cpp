// Saliency: heat maps and salient regions in the spirit of Vision's attention- and objectness-based
// saliency requests (OpenCV contrib `saliency`, whose dependencies are only core and imgproc).
//
// Algorithm
//   - Attention (OV_SALIENCY_SPECTRAL_RESIDUAL): the gray image shrunk (INTER_AREA) to map_size x map_size,
//     then cv::saliency::StaticSaliencySpectralResidual with its working size set to map_size x map_size
//     (Hou & Zhang 2007: the log-amplitude spectrum minus its 3x3 local mean, back-transformed, squared,
//     Gaussian-smoothed). Working at the map size directly skips OpenCV's resize to 64 x 64 and back up
//     to the input size. `spectralResidual` below computes it, within ~1e-4 of OpenCV contrib's class (see
//     Decisions).
//   - Objectness (OV_SALIENCY_FINE_GRAINED): the gray image shrunk (INTER_AREA) to a longer side of at most
//     4 x map_size, cv::saliency::StaticSaliencyFineGrained (Montabone & Soto 2010: centre-surround
//     differences over several scales), then shrunk (INTER_AREA) to map_size x map_size. The fine-grained
//     map is OpenCV contrib's arithmetic, bit for bit, computed by `fineGrained` below (see Decisions).
//   - Both maps are scaled to 0...1 by their maximum.
//   - Salient regions: the map thresholded at the larger of its Otsu level and 0.25; 8-connected
//     components of at least 1 % of the map; box = the component's bounding box, confidence = the mean
//     map value inside the component; most confident first.
//
// Decisions
//   - ObjectnessBING (OpenCV's objectness proposal) needs trained model files that Debian does not ship,
//     so objectness uses the fine-grained centre-surround map, which favours compact regions that stand
//     out from their surroundings (objects) over the spectral residual's texture-level surprises.
//   - A flat image (max - min < 2 gray levels after shrinking) gives an all-zero map and no regions; the
//     spectral residual of a constant image is otherwise log(0).
//   - Gray only (as both OpenCV algorithms convert colour to gray themselves).
//   - `fineGrained` replays StaticSaliencyFineGrained::computeSaliency (opencv_contrib
//     modules/saliency/src/staticSaliencyFineGrained.cpp, 4.6) instead of calling it: OpenCV's version
//     passes a cv::Mat by value per pixel and per scale (two atomic reference-count updates each), reads
//     pixels through Mat::at and runs on one thread, which made it nearly all of objectness's time. The
//     replay keeps every step in the same order and precision (the same GaussianBlur and integral calls,
//     the same float sums, clamps, truncations and normalisations, including the byte wrap-around of
//     on + off above the maximum that OpenCV's conversion produces), computes rows in parallel and is
//     checked byte for byte against OpenCV's class on the shared photos (ov_fine_grained_saliency with
//     reference = 1, CNativeTests).
//   - `spectralResidual` computes StaticSaliencySpectralResidual's steps itself (same order, double precision)
//     into matrices kept per thread. OpenCV's class makes a dozen new matrices per call (~0.5 MB for a 68 x 68
//     map, complex doubles); freeing them let malloc return the heap's top to the kernel, so every call
//     page-faulted it back in: a fifth of attention saliency's time on a small photo. Two steps are cheaper forms
//     of the class's: the forward DFT takes the real image (DFT_COMPLEX_OUTPUT: the same spectrum as the class's
//     complex DFT of image + 0i, at about half the cost), and the new spectrum is the old one scaled to the new
//     magnitude instead of cartToPolar's angle fed to polarToCart (OpenCV's angle is a fast approximation; the
//     scaling keeps the exact phase). Together ~30 % less time (68 x 68: 268 -> 184 us); the map stays within
//     5e-5 of the class's (0...1) on the shared photos. Checked against OpenCV's class
//     (ov_spectral_residual_saliency with reference = 1, CNativeTests: within 1e-4).
#include "ov_internal.hpp"
#include "ov_saliency.h"
#include "ov_imgcodecs.hpp"

#include <opencv2/imgproc.hpp>
#include <opencv2/saliency.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

cv::Mat shrink(const cv::Mat &src, cv::Size size) {
    if (size == src.size()) return src;
    cv::Mat dst;
    cv::resize(src, dst, size, 0, 0, size.width <= src.cols && size.height <= src.rows ? cv::INTER_AREA : cv::INTER_LINEAR);
    return dst;
}

// OpenCV contrib's StaticSaliencyFineGrained on a CV_8UC1 image (a CV_32F map in 0...1), bit for bit (see Decisions): six
// centre-surround scales from one float integral image, "on" (brighter than the surround) and "off" (darker)
// differences summed over the scales, each sum normalised by its maximum, then on + off by their maximum.
cv::Mat fineGrained(const cv::Mat &input) {
    cv::Mat gray = input.clone();
    cv::GaussianBlur(gray, gray, cv::Size(3, 3), 0, 0);  // "smooth at least twice, as done by Frintrop and Itti"
    cv::GaussianBlur(gray, gray, cv::Size(3, 3), 0, 0);
    cv::Mat integ;
    cv::integral(gray, integ, CV_32F);
    const int w = gray.cols, h = gray.rows;
    static constexpr int kNeighbourhoods[] = {3 * 4, 3 * 4 * 2, 3 * 4 * 2 * 2, 7 * 4, 7 * 4 * 2, 7 * 4 * 2 * 2};
    cv::Mat sumOn(h, w, CV_16U), sumOff(h, w, CV_16U);
    std::vector<int> rowMaxOn(h, 0), rowMaxOff(h, 0);
    cv::parallel_for_(cv::Range(0, h), [&](const cv::Range &rows) {
        for (int y = rows.start; y < rows.end; ++y) {
            const uchar *g = gray.ptr<uchar>(y);
            ushort *on = sumOn.ptr<ushort>(y), *off = sumOff.ptr<ushort>(y);
            int maxOn = 0, maxOff = 0;
            for (int x = 0; x < w; ++x) {
                const int centre = g[x];
                int totalOn = 0, totalOff = 0;
                for (const int n : kNeighbourhoods) {
                    // getMean: the window's corners clamped to the integral image (w + 1 by h + 1).
                    const int x1 = std::clamp(x - n + 1, 0, w), x2 = std::clamp(x + n + 1, 0, w);
                    const int y1 = std::clamp(y - n + 1, 0, h), y2 = std::clamp(y + n + 1, 0, h);
                    const float *r1 = integ.ptr<float>(y1), *r2 = integ.ptr<float>(y2);
                    float value = r2[x2] + r1[x1] - r2[x1] - r1[x2];
                    value = (value - centre) / ((x2 - x1) * (y2 - y1) - 1);
                    const float meanOn = centre - value, meanOff = value - centre;
                    totalOn += meanOn > 0 ? static_cast<uchar>(static_cast<int>(meanOn)) : 0;
                    totalOff += meanOff > 0 ? static_cast<uchar>(static_cast<int>(meanOff)) : 0;
                }
                on[x] = static_cast<ushort>(totalOn), off[x] = static_cast<ushort>(totalOff);
                maxOn = std::max(maxOn, totalOn), maxOff = std::max(maxOff, totalOff);
            }
            rowMaxOn[y] = maxOn, rowMaxOff[y] = maxOff;
        }
    });
    const int maxSumOn = *std::max_element(rowMaxOn.begin(), rowMaxOn.end());
    const int maxSumOff = *std::max_element(rowMaxOff.begin(), rowMaxOff.end());
    // mixScales: each sum to 0...255 by its maximum (an all-zero sum stays zero: OpenCV's 0 / 0 converts to 0).
    cv::Mat intensityOn(h, w, CV_8U), intensityOff(h, w, CV_8U);
    int maxVal = 0;
    for (int y = 0; y < h; ++y) {
        const ushort *on = sumOn.ptr<ushort>(y), *off = sumOff.ptr<ushort>(y);
        uchar *a = intensityOn.ptr<uchar>(y), *b = intensityOff.ptr<uchar>(y);
        for (int x = 0; x < w; ++x) {
            a[x] = maxSumOn > 0 ? static_cast<uchar>(static_cast<int>(255. * static_cast<float>(on[x] / static_cast<float>(maxSumOn)))) : 0;
            b[x] = maxSumOff > 0 ? static_cast<uchar>(static_cast<int>(255. * static_cast<float>(off[x] / static_cast<float>(maxSumOff)))) : 0;
            maxVal = std::max({maxVal, static_cast<int>(a[x]), static_cast<int>(b[x])});
        }
    }
    // mixOnOff: on + off by the larger maximum, converted as OpenCV's build does (through int, keeping the low
    // byte: a pixel whose on + off exceeds that maximum wraps around).
    cv::Mat intensity(h, w, CV_8U, cv::Scalar(0));
    if (maxVal > 0)
        for (int y = 0; y < h; ++y) {
            const uchar *a = intensityOn.ptr<uchar>(y), *b = intensityOff.ptr<uchar>(y);
            uchar *r = intensity.ptr<uchar>(y);
            for (int x = 0; x < w; ++x)
                r[x] = static_cast<uchar>(static_cast<int>(255. * static_cast<float>(a[x] + b[x]) / static_cast<float>(maxVal)));
        }
    cv::Mat result;
    intensity.convertTo(result, CV_32F, 1.0f / 255.0f);  // computeSaliencyImpl: "values are in range [0; 1]"
    return result;
}

// OpenCV contrib's StaticSaliencySpectralResidual::computeSaliencyImpl on a CV_8UC1 image already at its working
// size (a CV_32F map in 0...1, the working size), within ~1e-4 of the class (see Decisions): the same steps into
// buffers kept per thread, with a real-input forward DFT and the phase kept by scaling the spectrum.
cv::Mat spectralResidual(const cv::Mat &input) {
    struct Scratch {
        cv::Mat real, spectrum, magnitude, logAmplitude, blurred, residual, combined;
        std::vector<cv::Mat> planes;
    };
    // Kept per thread only up to 256 x 256 (attention's map is 68 x 68): at most ~5.5 MB a thread stays allocated.
    thread_local Scratch kept;
    Scratch local;
    Scratch &t = input.total() <= 256 * 256 ? kept : local;
    // The class: merge(image, zeros) and a complex DFT; the same full spectrum from a real-input DFT.
    input.convertTo(t.real, CV_64F);
    cv::dft(t.real, t.spectrum, cv::DFT_COMPLEX_OUTPUT);
    cv::split(t.spectrum, t.planes);
    cv::magnitude(t.planes[0], t.planes[1], t.magnitude);
    cv::add(t.magnitude, cv::Scalar(1), t.logAmplitude);  // OpenCV's `log(magnitude + Scalar(1), logAmplitude)`
    cv::log(t.logAmplitude, t.logAmplitude);
    cv::blur(t.logAmplitude, t.blurred, cv::Size(3, 3), cv::Point(-1, -1), cv::BORDER_DEFAULT);
    cv::subtract(t.logAmplitude, t.blurred, t.residual);  // OpenCV's `logAmplitude - logAmplitude_blur`
    cv::exp(t.residual, t.residual);  // the new magnitude
    // The class: cartToPolar's angle and polarToCart(exp(residual), angle). The same spectrum: each value scaled
    // to the new magnitude (a zero value has angle 0, so it becomes the new magnitude on the real axis).
    for (int y = 0; y < t.spectrum.rows; ++y) {
        cv::Vec2d *value = t.spectrum.ptr<cv::Vec2d>(y);
        const double *target = t.residual.ptr<double>(y), *current = t.magnitude.ptr<double>(y);
        for (int x = 0; x < t.spectrum.cols; ++x) {
            if (current[x] > 0) {
                const double k = target[x] / current[x];
                value[x][0] *= k, value[x][1] *= k;
            } else {
                value[x] = cv::Vec2d(target[x], 0);
            }
        }
    }
    cv::dft(t.spectrum, t.combined, cv::DFT_INVERSE);
    cv::split(t.combined, t.planes);
    cv::magnitude(t.planes[0], t.planes[1], t.magnitude);
    cv::GaussianBlur(t.magnitude, t.magnitude, cv::Size(5, 5), 8, 0, cv::BORDER_DEFAULT);
    cv::multiply(t.magnitude, t.magnitude, t.magnitude);  // `magnitude.mul(magnitude)`
    double minVal = 0, maxVal = 0;
    cv::minMaxLoc(t.magnitude, &minVal, &maxVal);
    t.magnitude.convertTo(t.magnitude, -1, 1.0 / maxVal);  // `magnitude / maxVal` (a MatExpr scaling by 1 / maxVal)
    cv::Mat result;  // a matrix of its own, not the scratch's; OpenCV's final resize to the input's size is a copy
    t.magnitude.convertTo(result, CV_32F);
    return result;
}

// The two entry points that tests hold to OpenCV's classes: a gray image's map computed by `ours` or, with
// `reference`, by OpenCV's class through `theirs(input, map) -> bool`, copied into `out`.
template <class Ours, class Theirs>
ov_status mapOfGray(const char *name, const uint8_t *gray, int width, int height, size_t stride, int maxSide, int reference,
                    float *out, Ours ours, Theirs theirs) {
    if (!gray || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, std::string(name) + ": missing argument");
    if (width < 1 || height < 1 || width > maxSide || height > maxSide || stride < static_cast<size_t>(width))
        return ov::fail(OV_ERR_INVALID_ARGUMENT, std::string(name) + ": bad image geometry");
    const cv::Mat input(height, width, CV_8U, const_cast<uint8_t *>(gray), stride);
    cv::Mat map;
    if (!reference) {
        map = ours(input);
    } else if (!theirs(input, map)) {
        return ov::fail(OV_ERR_INTERNAL, std::string(name) + ": OpenCV failed");
    }
    if (map.type() != CV_32F || map.size() != input.size())
        return ov::fail(OV_ERR_INTERNAL, std::string(name) + ": unexpected map type or size");
    cv::Mat target(height, width, CV_32F, out);
    map.copyTo(target);  // same size and type: copies into `out`
    return ov::ok();
}

}  // namespace

extern "C" ov_status ov_fine_grained_saliency(const uint8_t *gray, int width, int height, size_t stride, int reference,
                                              float *out) {
    return ov::guarded("ov_fine_grained_saliency", [&]() -> ov_status {
        return mapOfGray("ov_fine_grained_saliency", gray, width, height, stride, 8192, reference, out, fineGrained,
                         [](const cv::Mat &input, cv::Mat &map) {
                             return cv::saliency::StaticSaliencyFineGrained::create()->computeSaliency(input, map);
                         });
    });
}

extern "C" ov_status ov_spectral_residual_saliency(const uint8_t *gray, int width, int height, size_t stride, int reference,
                                                   float *out) {
    return ov::guarded("ov_spectral_residual_saliency", [&]() -> ov_status {
        return mapOfGray("ov_spectral_residual_saliency", gray, width, height, stride, 4096, reference, out, spectralResidual,
                         [](const cv::Mat &input, cv::Mat &map) {
                             auto sr = cv::saliency::StaticSaliencySpectralResidual::create();
                             sr->setImageWidth(input.cols);
                             sr->setImageHeight(input.rows);
                             return sr->computeSaliency(input, map);
                         });
    });
}

extern "C" ov_status ov_saliency(const ov_image *image, ov_saliency_kind kind, int map_size, float *map,
                                 ov_salient_box *boxes, int capacity, int *box_count) {
    return ov::guarded("ov_saliency", [&]() -> ov_status {
        if (!image || !map || !box_count) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_saliency: missing argument");
        if (map_size < 8 || map_size > 1024) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_saliency: map_size must be in 8...1024");
        if (capacity < 0 || (capacity > 0 && !boxes)) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_saliency: bad output buffer");
        if (kind != OV_SALIENCY_SPECTRAL_RESIDUAL && kind != OV_SALIENCY_FINE_GRAINED)
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_saliency: unknown kind");
        *box_count = 0;
        cv::Mat result(map_size, map_size, CV_32F, map);  // writes straight into the caller's buffer
        result.setTo(0);
        const cv::Mat &gray = image->gray();
        if (gray.empty()) return ov::ok();

        cv::Mat input, raw;
        if (kind == OV_SALIENCY_SPECTRAL_RESIDUAL) {
            input = shrink(gray, cv::Size(map_size, map_size));
        } else {
            const int maxSide = 4 * map_size;
            const double f = std::min(1.0, static_cast<double>(maxSide) / std::max(gray.cols, gray.rows));
            input = shrink(gray, cv::Size(std::max(1, cvRound(gray.cols * f)), std::max(1, cvRound(gray.rows * f))));
        }
        double lo = 0, hi = 0;
        cv::minMaxLoc(input, &lo, &hi);
        if (hi - lo < 2) return ov::ok();

        if (kind == OV_SALIENCY_SPECTRAL_RESIDUAL) {
            raw = spectralResidual(input);
        } else {
            raw = fineGrained(input);
        }
        cv::Mat values;
        raw.convertTo(values, CV_32F);
        values = shrink(values, cv::Size(map_size, map_size));
        cv::minMaxLoc(values, &lo, &hi);
        if (!(hi > 0)) return ov::ok();
        values.convertTo(result, CV_32F, 1.0 / hi);  // result shares `map`: same size and type, no reallocation
        cv::max(result, 0, result);

        // Salient regions.
        cv::Mat bytes, binary, labels, stats, centroids;
        result.convertTo(bytes, CV_8U, 255);
        const double otsu = cv::threshold(bytes, binary, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
        cv::threshold(bytes, binary, std::max(otsu, 0.25 * 255), 255, cv::THRESH_BINARY);
        const int n = cv::connectedComponentsWithStats(binary, labels, stats, centroids, 8, CV_32S);
        std::vector<double> sums(n, 0);
        for (int y = 0; y < map_size; ++y) {
            const int *l = labels.ptr<int>(y);
            const float *v = result.ptr<float>(y);
            for (int x = 0; x < map_size; ++x) sums[l[x]] += v[x];
        }
        std::vector<ov_salient_box> found;
        const int minArea = std::max(1, map_size * map_size / 100);
        for (int i = 1; i < n; ++i) {
            const int area = stats.at<int>(i, cv::CC_STAT_AREA);
            if (area < minArea) continue;
            found.push_back({static_cast<float>(stats.at<int>(i, cv::CC_STAT_LEFT)), static_cast<float>(stats.at<int>(i, cv::CC_STAT_TOP)),
                             static_cast<float>(stats.at<int>(i, cv::CC_STAT_WIDTH)),
                             static_cast<float>(stats.at<int>(i, cv::CC_STAT_HEIGHT)), static_cast<float>(sums[i] / area)});
        }
        std::stable_sort(found.begin(), found.end(),
                         [](const ov_salient_box &a, const ov_salient_box &b) { return a.confidence > b.confidence; });
        for (size_t i = 0; i < found.size() && static_cast<int>(i) < capacity; ++i) boxes[i] = found[i];
        *box_count = static_cast<int>(found.size());
        return ov::ok();
    });
}

extern "C" ov_status ov_image_blend_heat_map(ov_image *image, const float *map, int map_width, int map_height, int x, int y,
                                             int width, int height, float opacity) {
    return ov::guarded("ov_image_blend_heat_map", [&]() -> ov_status {
        if (!image || !map || map_width <= 0 || map_height <= 0)
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_image_blend_heat_map: missing image or map");
        if (!std::isfinite(opacity) || opacity < 0 || opacity > 1)
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_image_blend_heat_map: opacity must be in 0...1");
        image->ensureColor();
        const cv::Rect target = cv::Rect(x, y, width, height) & cv::Rect(0, 0, image->bgr.cols, image->bgr.rows);
        if (target.empty()) return ov::ok();
        const cv::Mat values(map_height, map_width, CV_32F, const_cast<float *>(map));
        cv::Mat stretched, bytes, colours;
        cv::resize(values, stretched, cv::Size(width, height), 0, 0, cv::INTER_LINEAR);
        stretched = stretched(cv::Rect(target.x - x, target.y - y, target.width, target.height));
        stretched.convertTo(bytes, CV_8U, 255);
        cv::applyColorMap(bytes, colours, cv::COLORMAP_JET);
        cv::Mat roi = image->bgr(target);
        for (int r = 0; r < roi.rows; ++r) {
            cv::Vec3b *dst = roi.ptr<cv::Vec3b>(r);
            const cv::Vec3b *src = colours.ptr<cv::Vec3b>(r);
            const float *v = stretched.ptr<float>(r);
            for (int c = 0; c < roi.cols; ++c) {
                const float a = opacity * std::clamp(v[c], 0.0f, 1.0f);
                for (int k = 0; k < 3; ++k) dst[c][k] = cv::saturate_cast<uchar>(dst[c][k] * (1 - a) + src[c][k] * a);
            }
        }
        return ov::ok();
    });
}

extern "C" ov_status ov_heat_map_png(const float *map, int map_width, int map_height, uint8_t **out, size_t *length) {
    return ov::guarded("ov_heat_map_png", [&]() -> ov_status {
        if (!map || map_width <= 0 || map_height <= 0 || !out || !length)
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_heat_map_png: missing map or output");
        cv::Mat bytes(map_height, map_width, CV_8U);
        for (int r = 0; r < map_height; ++r) {
            const float *v = map + static_cast<size_t>(r) * map_width;
            uchar *b = bytes.ptr<uchar>(r);
            for (int c = 0; c < map_width; ++c) b[c] = std::isnan(v[c]) ? 0 : cv::saturate_cast<uchar>(std::clamp(v[c], 0.0f, 1.0f) * 255);
        }
        cv::Mat colours, bgra;
        cv::applyColorMap(bytes, colours, cv::COLORMAP_JET);
        cv::cvtColor(colours, bgra, cv::COLOR_BGR2BGRA);
        cv::insertChannel(bytes, bgra, 3);
        std::vector<uchar> png;
        if (!ov::imgcodecs::imencode(".png", bgra, png, {})) return ov::fail(OV_ERR_IO, "ov_heat_map_png: encoding failed");
        auto *buffer = static_cast<uint8_t *>(std::malloc(png.size()));
        if (!buffer) return ov::fail(OV_ERR_OUT_OF_MEMORY, "out of memory");
        std::memcpy(buffer, png.data(), png.size());
        *out = buffer;
        *length = png.size();
        return ov::ok();
    });
}
