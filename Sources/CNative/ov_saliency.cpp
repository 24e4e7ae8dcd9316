// Saliency: heat maps and salient regions in the spirit of Vision's attention- and objectness-based
// saliency requests (OpenCV contrib `saliency`, whose dependencies are only core and imgproc).
//
// Algorithm
//   - Attention (OV_SALIENCY_SPECTRAL_RESIDUAL): the gray image shrunk (INTER_AREA) to map_size x map_size,
//     then cv::saliency::StaticSaliencySpectralResidual with its working size set to map_size x map_size
//     (Hou & Zhang 2007: the log-amplitude spectrum minus its 3x3 local mean, back-transformed, squared,
//     Gaussian-smoothed). Working at the map size directly skips OpenCV's resize to 64 x 64 and back up
//     to the input size.
//   - Objectness (OV_SALIENCY_FINE_GRAINED): the gray image shrunk (INTER_AREA) to a longer side of at most
//     4 x map_size, cv::saliency::StaticSaliencyFineGrained (Montabone & Soto 2010: centre-surround
//     differences over several scales), then shrunk (INTER_AREA) to map_size x map_size.
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
#include "ov_internal.hpp"
#include "ov_catalogue.h"
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

}  // namespace

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
            auto sr = cv::saliency::StaticSaliencySpectralResidual::create();
            sr->setImageWidth(map_size);
            sr->setImageHeight(map_size);
            if (!sr->computeSaliency(input, raw)) return ov::fail(OV_ERR_INTERNAL, "ov_saliency: spectral residual failed");
        } else {
            auto fg = cv::saliency::StaticSaliencyFineGrained::create();
            if (!fg->computeSaliency(input, raw)) return ov::fail(OV_ERR_INTERNAL, "ov_saliency: fine-grained saliency failed");
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
