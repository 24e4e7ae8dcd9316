// Drawing onto caller-owned 8-bit pixels (ov_bitmap.h): OpenCV rasterises coverage masks (fillPoly, polylines,
// warpAffine) and each covered pixel is blended source-over into the bitmap's own layout.
#include "ov_internal.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

namespace {

constexpr int kShift = 8;  // sub-pixel bits of fillPoly / polylines coordinates
constexpr double kScale = 1 << kShift;

bool valid(const ov_bitmap *b) {
    return b && b->pixels && b->width > 0 && b->height > 0 && (b->channels == 1 || b->channels == 3 || b->channels == 4)
        && b->stride >= static_cast<size_t>(b->width) * b->channels && b->alpha_index < b->channels;
}

cv::Mat view(const ov_bitmap *b) {
    return cv::Mat(b->height, b->width, CV_8UC(b->channels), b->pixels, b->stride);
}

std::vector<std::vector<cv::Point>> polygons(const float *xy, const int *counts, int count, int minimum) {
    std::vector<std::vector<cv::Point>> result;
    size_t offset = 0;
    for (int i = 0; i < count; ++i) {
        std::vector<cv::Point> points;
        for (int k = 0; k < counts[i]; ++k, ++offset) {
            const float x = xy[2 * offset], y = xy[2 * offset + 1];
            // Far-away points clamp (OpenCV's fixed-point coordinates are 32-bit).
            points.emplace_back(static_cast<int>(std::lround(std::clamp<double>(x, -1e6, 1e6) * kScale)),
                                static_cast<int>(std::lround(std::clamp<double>(y, -1e6, 1e6) * kScale)));
        }
        if (static_cast<int>(points.size()) >= minimum) result.push_back(std::move(points));
    }
    return result;
}

// Blends `components` at opacity alpha × mask into the bitmap, source over.
void blend(const ov_bitmap *b, const cv::Mat &mask, const double *components, double alpha) {
    cv::Mat pixels = view(b);
    const int channels = b->channels, a = b->alpha_index;
    for (int y = 0; y < b->height; ++y) {
        const uint8_t *m = mask.ptr<uint8_t>(y);
        uint8_t *p = pixels.ptr<uint8_t>(y);
        for (int x = 0; x < b->width; ++x, p += channels) {
            if (!m[x]) continue;
            const double coverage = alpha * m[x] / 255.0;
            const double da = a >= 0 ? p[a] / 255.0 : 1.0;  // before the alpha component is written
            for (int c = 0; c < channels; ++c) {
                double value;
                if (c == a) value = 255.0 * coverage + p[c] * (1 - coverage);
                else if (a >= 0 && !b->premultiplied) {
                    // Straight alpha: the colour weighted by each side's alpha.
                    const double out = coverage + da * (1 - coverage);
                    value = out > 0 ? (components[c] * coverage + p[c] * da * (1 - coverage)) / out : 0;
                } else value = components[c] * coverage + p[c] * (1 - coverage);
                p[c] = cv::saturate_cast<uint8_t>(value);
            }
        }
    }
}

}  // namespace

extern "C" {

ov_status ov_bitmap_fill_polygons(const ov_bitmap *bitmap, const float *xy, const int *counts, int polygon_count,
                                  int even_odd, int antialias, const double *components, double alpha) {
    return ov::guarded("ov_bitmap_fill_polygons", [&]() -> ov_status {
        if (!valid(bitmap) || !components || polygon_count < 0 || (polygon_count > 0 && (!xy || !counts)))
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "invalid bitmap or polygons");
        const auto polys = polygons(xy, counts, polygon_count, 3);
        if (polys.empty() || alpha <= 0) return ov::ok();
        cv::Mat mask(bitmap->height, bitmap->width, CV_8UC1, cv::Scalar(0));
        if (polys.size() == 1) {
            cv::fillPoly(mask, polys, cv::Scalar(255), antialias ? cv::LINE_AA : cv::LINE_8, kShift);
        } else {
            // Several polygons: count each pixel's winding (each polygon's orientation, by its signed area) or
            // crossings, then keep the pixels inside under the rule.
            cv::Mat count(bitmap->height, bitmap->width, CV_16SC1, cv::Scalar(0)), one;
            for (const auto &poly : polys) {
                one = cv::Mat::zeros(bitmap->height, bitmap->width, CV_8UC1);
                cv::fillPoly(one, std::vector<std::vector<cv::Point>>{poly}, cv::Scalar(1), cv::LINE_8, kShift);
                std::vector<cv::Point2f> points(poly.begin(), poly.end());
                const double sign = even_odd ? 1 : (cv::contourArea(points, true) < 0 ? -1 : 1);
                cv::Mat signedOne;
                one.convertTo(signedOne, CV_16SC1, sign);
                count += signedOne;
            }
            for (int y = 0; y < mask.rows; ++y) {
                const int16_t *c = count.ptr<int16_t>(y);
                uint8_t *m = mask.ptr<uint8_t>(y);
                for (int x = 0; x < mask.cols; ++x) m[x] = (even_odd ? (c[x] & 1) : c[x] != 0) ? 255 : 0;
            }
        }
        blend(bitmap, mask, components, std::min(alpha, 1.0));
        return ov::ok();
    });
}

ov_status ov_bitmap_fill_rect(const ov_bitmap *bitmap, double x0, double y0, double x1, double y1,
                              const double *components, double alpha) {
    return ov::guarded("ov_bitmap_fill_rect", [&]() -> ov_status {
        if (!valid(bitmap) || !components || !std::isfinite(x0) || !std::isfinite(y0) || !std::isfinite(x1)
            || !std::isfinite(y1))
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "invalid bitmap or rectangle");
        const double left = std::max(0.0, std::min(x0, x1)), right = std::min<double>(bitmap->width, std::max(x0, x1));
        const double top = std::max(0.0, std::min(y0, y1)), bottom = std::min<double>(bitmap->height, std::max(y0, y1));
        if (right <= left || bottom <= top || alpha <= 0) return ov::ok();
        // Each pixel's coverage: the overlap of its square with the rectangle, column share times row share.
        cv::Mat mask(bitmap->height, bitmap->width, CV_8UC1, cv::Scalar(0));
        const int i0 = static_cast<int>(std::floor(left)), i1 = static_cast<int>(std::ceil(right));
        const int j0 = static_cast<int>(std::floor(top)), j1 = static_cast<int>(std::ceil(bottom));
        for (int j = j0; j < j1; ++j) {
            const double rowShare = std::min<double>(j + 1, bottom) - std::max<double>(j, top);
            uint8_t *m = mask.ptr<uint8_t>(j);
            for (int i = i0; i < i1; ++i) {
                const double share = rowShare * (std::min<double>(i + 1, right) - std::max<double>(i, left));
                m[i] = static_cast<uint8_t>(std::lround(255 * share));
            }
        }
        blend(bitmap, mask, components, std::min(alpha, 1.0));
        return ov::ok();
    });
}

ov_status ov_bitmap_stroke_polylines(const ov_bitmap *bitmap, const float *xy, const int *counts, const int *closed,
                                     int polygon_count, float line_width, int antialias, const double *components,
                                     double alpha) {
    return ov::guarded("ov_bitmap_stroke_polylines", [&]() -> ov_status {
        if (!valid(bitmap) || !components || polygon_count < 0
            || (polygon_count > 0 && (!xy || !counts || !closed)) || !std::isfinite(line_width))
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "invalid bitmap or polylines");
        const auto polys = polygons(xy, counts, polygon_count, 1);
        if (polys.empty() || alpha <= 0) return ov::ok();
        const int thickness = std::max(1, std::min(4096, static_cast<int>(std::lround(line_width))));
        cv::Mat mask(bitmap->height, bitmap->width, CV_8UC1, cv::Scalar(0));
        size_t index = 0;
        for (int i = 0; i < polygon_count; ++i) {
            if (counts[i] < 1) continue;
            auto poly = polys[index++];
            if (poly.size() == 1) poly.push_back(poly[0]);  // a dot
            cv::polylines(mask, std::vector<std::vector<cv::Point>>{poly}, closed[i] != 0, cv::Scalar(255), thickness,
                          antialias ? cv::LINE_AA : cv::LINE_8, kShift);
        }
        blend(bitmap, mask, components, std::min(alpha, 1.0));
        return ov::ok();
    });
}

ov_status ov_bitmap_clear(const ov_bitmap *bitmap, int x, int y, int width, int height) {
    return ov::guarded("ov_bitmap_clear", [&]() -> ov_status {
        if (!valid(bitmap)) return ov::fail(OV_ERR_INVALID_ARGUMENT, "invalid bitmap");
        const cv::Rect rect = cv::Rect(x, y, std::max(0, width), std::max(0, height))
            & cv::Rect(0, 0, bitmap->width, bitmap->height);
        if (!rect.empty()) view(bitmap)(rect).setTo(cv::Scalar::all(0));
        return ov::ok();
    });
}

ov_status ov_bitmap_draw(const ov_bitmap *destination, const ov_bitmap *source, const double *matrix,
                         const int *channel_map, double alpha, int interpolate) {
    return ov::guarded("ov_bitmap_draw", [&]() -> ov_status {
        if (!valid(destination) || !valid(source) || !matrix || !channel_map)
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "invalid bitmaps or matrix");
        for (int i = 0; i < 6; ++i)
            if (!std::isfinite(matrix[i])) return ov::fail(OV_ERR_INVALID_ARGUMENT, "the matrix is not finite");
        for (int k = 0; k < destination->channels; ++k)
            if (channel_map[k] >= source->channels) return ov::fail(OV_ERR_INVALID_ARGUMENT, "bad channel map");
        if (alpha <= 0) return ov::ok();
        const cv::Mat m = (cv::Mat_<double>(2, 3) << matrix[0], matrix[1], matrix[2], matrix[3], matrix[4], matrix[5]);
        // The destination pixels the source lands on: its corners through the matrix, clipped.
        std::vector<cv::Point2d> corners{{-0.5, -0.5}, {source->width - 0.5, -0.5}, {-0.5, source->height - 0.5},
                                         {source->width - 0.5, source->height - 0.5}};
        double minX = 1e18, minY = 1e18, maxX = -1e18, maxY = -1e18;
        for (const auto &c : corners) {
            const double x = matrix[0] * c.x + matrix[1] * c.y + matrix[2], y = matrix[3] * c.x + matrix[4] * c.y + matrix[5];
            minX = std::min(minX, x); maxX = std::max(maxX, x); minY = std::min(minY, y); maxY = std::max(maxY, y);
        }
        const cv::Rect area = cv::Rect(cv::Point(static_cast<int>(std::floor(std::max(minX, -1.0))),
                                                 static_cast<int>(std::floor(std::max(minY, -1.0)))),
                                       cv::Point(static_cast<int>(std::ceil(std::min(maxX, 1e7))) + 1,
                                                 static_cast<int>(std::ceil(std::min(maxY, 1e7))) + 1))
            & cv::Rect(0, 0, destination->width, destination->height);
        if (area.empty()) return ov::ok();
        // Source pixels, and a coverage mask (1 inside the source), warped into that area.
        cv::Mat shifted = m.clone();
        shifted.at<double>(0, 2) -= area.x;
        shifted.at<double>(1, 2) -= area.y;
        const int flags = interpolate ? cv::INTER_LINEAR : cv::INTER_NEAREST;
        cv::Mat warped, coverage;
        cv::warpAffine(view(source), warped, shifted, area.size(), flags, cv::BORDER_CONSTANT, cv::Scalar::all(0));
        cv::warpAffine(cv::Mat(source->height, source->width, CV_8UC1, cv::Scalar(255)), coverage, shifted, area.size(),
                       flags, cv::BORDER_CONSTANT, cv::Scalar(0));
        cv::Mat pixels = view(destination)(area);
        const int dc = destination->channels, sc = source->channels, da = destination->alpha_index;
        const int sa = source->alpha_index;
        for (int y = 0; y < area.height; ++y) {
            const uint8_t *s = warped.ptr<uint8_t>(y), *cov = coverage.ptr<uint8_t>(y);
            uint8_t *d = pixels.ptr<uint8_t>(y);
            for (int x = 0; x < area.width; ++x, s += sc, d += dc) {
                if (!cov[x]) continue;
                // Straight source alpha (bilinear samples of premultiplied pixels stay premultiplied).
                const double sourceAlpha = sa >= 0 ? s[sa] / 255.0 : 1.0;
                const double a = alpha * cov[x] / 255.0 * sourceAlpha;
                if (a <= 0) continue;
                const double dstAlpha = da >= 0 ? d[da] / 255.0 : 1.0;  // before the alpha component is written
                for (int k = 0; k < dc; ++k) {
                    if (k == da) {
                        d[k] = cv::saturate_cast<uint8_t>(255.0 * a + d[k] * (1 - a));
                        continue;
                    }
                    if (channel_map[k] < 0) continue;
                    double value = s[channel_map[k]];
                    if (sa >= 0 && source->premultiplied) value = sourceAlpha > 0 ? value / sourceAlpha : 0;
                    if (da >= 0 && !destination->premultiplied) {
                        const double out = a + dstAlpha * (1 - a);
                        d[k] = cv::saturate_cast<uint8_t>(out > 0 ? (value * a + d[k] * dstAlpha * (1 - a)) / out : 0);
                    } else {
                        d[k] = cv::saturate_cast<uint8_t>(value * a + d[k] * (1 - a));
                    }
                }
            }
        }
        return ov::ok();
    });
}

}  // extern "C"
