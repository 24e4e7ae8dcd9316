// Layers (ov_layer.h): the pixel work of lazy image recipes. Fused geometry is one cv::warpAffine /
// cv::warpPerspective (or a view), colour matrices one pass over float RGBA, blur is cv::GaussianBlur; the Lanczos
// resampler is our own (OpenCV's INTER_LANCZOS4 is a fixed 8-tap kernel that aliases when shrinking).
#include "ov_internal.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

struct ov_layer {
    ov_layer_kind kind = OV_LAYER_RGBA8;
    cv::Mat pixels;  // CV_8UC3 BGR, CV_8UC1 gray, CV_8UC4 or CV_32FC4 premultiplied RGBA
    ov_rect rect{0, 0, 0, 0};
};

namespace {

using Kind = ov_layer_kind;

// A layer this large (4 GiB as float RGBA) is refused outright; callers keep far smaller limits of their own.
constexpr int64_t kMaxLayerPixels = int64_t(1) << 28;
// Plane coordinates stay well inside int range, so that sums of positions and sizes never overflow.
constexpr int kMaxCoordinate = 1 << 29;

[[noreturn]] void invalid(const std::string &message) { throw ov::Failure(OV_ERR_INVALID_ARGUMENT, message); }

bool isEmpty(const ov_rect &r) { return r.width <= 0 || r.height <= 0; }

bool operator==(const ov_rect &a, const ov_rect &b) {
    return a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height;
}
bool operator!=(const ov_rect &a, const ov_rect &b) { return !(a == b); }

ov_rect intersect(const ov_rect &a, const ov_rect &b) {
    const int x0 = std::max(a.x, b.x), y0 = std::max(a.y, b.y);
    const int x1 = std::min(a.x + a.width, b.x + b.width), y1 = std::min(a.y + a.height, b.y + b.height);
    if (x1 <= x0 || y1 <= y0) return {x0, y0, 0, 0};
    return {x0, y0, x1 - x0, y1 - y0};
}

bool contains(const ov_rect &outer, const ov_rect &inner) {
    return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width &&
           inner.y + inner.height <= outer.y + outer.height;
}

// A rectangle an operation may allocate: positive, bounded size and coordinates.
void checkRect(const ov_rect &r, const char *what) {
    if (r.width <= 0 || r.height <= 0) invalid(std::string(what) + " is empty");
    if (std::abs(r.x) > kMaxCoordinate || std::abs(r.y) > kMaxCoordinate || r.width > kMaxCoordinate ||
        r.height > kMaxCoordinate)
        invalid(std::string(what) + " lies too far out on the plane");
    if (int64_t(r.width) * r.height > kMaxLayerPixels) invalid(std::string(what) + " has too many pixels");
}

// A rectangle used only to restrict (a crop or clip): any size, coordinates bounded.
void checkBounds(const ov_rect &r, const char *what) {
    if (r.width < 0 || r.height < 0) invalid(std::string(what) + " has a negative size");
    if (std::abs(int64_t(r.x)) > kMaxCoordinate || std::abs(int64_t(r.y)) > kMaxCoordinate ||
        r.width > 2 * kMaxCoordinate || r.height > 2 * kMaxCoordinate)
        invalid(std::string(what) + " lies too far out on the plane");
}

// The pixels of plane rectangle `part` inside a buffer covering plane rectangle `whole` (part inside whole).
cv::Rect indexRect(const ov_rect &whole, const ov_rect &part) {
    return cv::Rect(part.x - whole.x, (whole.y + whole.height) - (part.y + part.height), part.width, part.height);
}

int cvType(Kind kind) {
    switch (kind) {
        case OV_LAYER_BGR8: return CV_8UC3;
        case OV_LAYER_GRAY8: return CV_8UC1;
        case OV_LAYER_RGBA8: return CV_8UC4;
        case OV_LAYER_RGBAF: return CV_32FC4;
    }
    return CV_8UC4;
}

bool isOpaque(Kind kind) { return kind == OV_LAYER_BGR8 || kind == OV_LAYER_GRAY8; }

// The 4-channel kind holding `kind`'s pixels with an alpha channel.
Kind withAlpha(Kind kind) { return kind == OV_LAYER_RGBAF ? OV_LAYER_RGBAF : OV_LAYER_RGBA8; }

ov_layer *makeLayer(Kind kind, cv::Mat pixels, const ov_rect &rect) {
    auto *layer = new ov_layer();
    layer->kind = kind;
    // Pixels over borrowed memory (raw sources) are copied: a layer outlives the call that made it.
    layer->pixels = pixels.u == nullptr ? pixels.clone() : std::move(pixels);
    layer->rect = rect;
    return layer;
}

ov_layer *transparentLayer(const ov_rect &rect) {
    return makeLayer(OV_LAYER_RGBA8, cv::Mat::zeros(rect.height, rect.width, CV_8UC4), rect);
}

// Converts `src` (of `kind`) into `dst`, a 4-channel buffer of the same size (CV_8UC4 or CV_32FC4), written in place.
void convertInto(const cv::Mat &src, Kind kind, cv::Mat dst) {
    const bool toFloat = dst.depth() == CV_32F;
    cv::Mat rgba8;
    switch (kind) {
        case OV_LAYER_BGR8:
            if (!toFloat) { cv::cvtColor(src, dst, cv::COLOR_BGR2RGBA); return; }
            cv::cvtColor(src, rgba8, cv::COLOR_BGR2RGBA);
            break;
        case OV_LAYER_GRAY8:
            if (!toFloat) { cv::cvtColor(src, dst, cv::COLOR_GRAY2RGBA); return; }
            cv::cvtColor(src, rgba8, cv::COLOR_GRAY2RGBA);
            break;
        case OV_LAYER_RGBA8:
            if (!toFloat) { src.copyTo(dst); return; }
            rgba8 = src;
            break;
        case OV_LAYER_RGBAF:
            if (toFloat) { src.copyTo(dst); return; }
            src.convertTo(dst, CV_8U, 255.0);
            return;
    }
    rgba8.convertTo(dst, CV_32F, 1.0 / 255.0);
}

// The layer's pixels over `rect` as `type` (CV_8UC4 or CV_32FC4), transparent outside the layer: the layer's own
// buffer when it already is exactly that, else a new one.
cv::Mat placed(const ov_layer &layer, const ov_rect &rect, int type) {
    if (layer.rect == rect && layer.pixels.type() == type) return layer.pixels;
    cv::Mat out = cv::Mat::zeros(rect.height, rect.width, type);
    const ov_rect common = intersect(layer.rect, rect);
    if (!isEmpty(common)) convertInto(layer.pixels(indexRect(layer.rect, common)), layer.kind, out(indexRect(rect, common)));
    return out;
}

cv::Mat placedFloat(const ov_layer &layer, const ov_rect &rect) { return placed(layer, rect, CV_32FC4); }

// 8-bit straight RGBA (in place) → premultiplied.
void premultiply8(cv::Mat &rgba) {
    for (int y = 0; y < rgba.rows; ++y) {
        uint8_t *p = rgba.ptr<uint8_t>(y);
        for (int x = 0; x < rgba.cols; ++x, p += 4) {
            const int a = p[3];
            for (int c = 0; c < 3; ++c) p[c] = uint8_t((p[c] * a + 127) / 255);
        }
    }
}

void premultiplyFloat(cv::Mat &rgba) {
    for (int y = 0; y < rgba.rows; ++y) {
        float *p = rgba.ptr<float>(y);
        for (int x = 0; x < rgba.cols; ++x, p += 4) {
            for (int c = 0; c < 3; ++c) p[c] *= p[3];
        }
    }
}

// A raw pixel source as a buffer of one of the layer kinds: a header over the caller's memory where the layout
// already is one, else converted (only the part `need` of the frame, in index coordinates).
struct Source {
    cv::Mat mat;
    Kind kind;
};

Source importPixels(const ov_layer_pixels &p, const cv::Rect &need) {
    const int w = p.width, h = p.height;
    auto header = [&](int type) { return cv::Mat(h, w, type, const_cast<void *>(p.data), p.stride); };
    switch (p.format) {
        case OV_LAYER_PIXELS_BGR8: return {header(CV_8UC3), OV_LAYER_BGR8};
        case OV_LAYER_PIXELS_GRAY8: return {header(CV_8UC1), OV_LAYER_GRAY8};
        case OV_LAYER_PIXELS_RGB8: {
            cv::Mat full = cv::Mat::zeros(h, w, CV_8UC3);
            cv::cvtColor(header(CV_8UC3)(need), full(need), cv::COLOR_RGB2BGR);
            return {full, OV_LAYER_BGR8};
        }
        case OV_LAYER_PIXELS_RGBA8:
        case OV_LAYER_PIXELS_BGRA8:
        case OV_LAYER_PIXELS_ARGB8: {
            const cv::Mat src = header(CV_8UC4)(need);
            if (p.alpha == OV_ALPHA_IGNORED) {
                cv::Mat full = cv::Mat::zeros(h, w, CV_8UC3);
                cv::Mat part = full(need);
                if (p.format == OV_LAYER_PIXELS_RGBA8) cv::cvtColor(src, part, cv::COLOR_RGBA2BGR);
                else if (p.format == OV_LAYER_PIXELS_BGRA8) cv::cvtColor(src, part, cv::COLOR_BGRA2BGR);
                else {
                    const int fromTo[] = {1, 2, 2, 1, 3, 0};
                    cv::mixChannels(&src, 1, &part, 1, fromTo, 3);
                }
                return {full, OV_LAYER_BGR8};
            }
            if (p.format == OV_LAYER_PIXELS_RGBA8 && p.alpha == OV_ALPHA_PREMULTIPLIED)
                return {header(CV_8UC4), OV_LAYER_RGBA8};
            cv::Mat full = cv::Mat::zeros(h, w, CV_8UC4);
            cv::Mat part = full(need);
            if (p.format == OV_LAYER_PIXELS_RGBA8) src.copyTo(part);
            else if (p.format == OV_LAYER_PIXELS_BGRA8) cv::cvtColor(src, part, cv::COLOR_BGRA2RGBA);
            else {
                const int fromTo[] = {0, 3, 1, 0, 2, 1, 3, 2};
                cv::mixChannels(&src, 1, &part, 1, fromTo, 4);
            }
            if (p.alpha == OV_ALPHA_STRAIGHT) premultiply8(part);
            return {full, OV_LAYER_RGBA8};
        }
        case OV_LAYER_PIXELS_GRAYF32: {
            cv::Mat full = cv::Mat::zeros(h, w, CV_32FC4);
            const cv::Mat gray = header(CV_32FC1)(need);
            const cv::Mat ones(gray.size(), CV_32FC1, cv::Scalar(1));
            const cv::Mat planes[] = {gray, gray, gray, ones};
            cv::Mat part = full(need);
            cv::merge(planes, 4, part);
            return {full, OV_LAYER_RGBAF};
        }
        case OV_LAYER_PIXELS_RGBAF32: {
            if (p.alpha == OV_ALPHA_PREMULTIPLIED) return {header(CV_32FC4), OV_LAYER_RGBAF};
            cv::Mat full = cv::Mat::zeros(h, w, CV_32FC4);
            cv::Mat part = full(need);
            header(CV_32FC4)(need).copyTo(part);
            if (p.alpha == OV_ALPHA_STRAIGHT) premultiplyFloat(part);
            else part.forEach<cv::Vec4f>([](cv::Vec4f &v, const int *) { v[3] = 1.0f; });
            return {full, OV_LAYER_RGBAF};
        }
        case OV_LAYER_PIXELS_NV12: {
            if (w % 2 || h % 2) invalid("NV12 pixels need an even width and height");
            const cv::Mat yuv(h + h / 2, w, CV_8UC1, const_cast<void *>(p.data), p.stride);
            cv::Mat bgr;
            cv::cvtColor(yuv, bgr, cv::COLOR_YUV2BGR_NV12);
            return {bgr, OV_LAYER_BGR8};
        }
        default: invalid("unknown pixel layout " + std::to_string(p.format));
    }
}

void checkPixels(const ov_layer_pixels &p) {
    if (!p.data) invalid("no pixels");
    if (p.width <= 0 || p.height <= 0 || int64_t(p.width) * p.height > kMaxLayerPixels) invalid("bad pixel size");
    size_t bytesPerPixel = 0;
    switch (p.format) {
        case OV_LAYER_PIXELS_BGR8: case OV_LAYER_PIXELS_RGB8: bytesPerPixel = 3; break;
        case OV_LAYER_PIXELS_BGRA8: case OV_LAYER_PIXELS_RGBA8: case OV_LAYER_PIXELS_ARGB8:
        case OV_LAYER_PIXELS_GRAYF32: bytesPerPixel = 4; break;
        case OV_LAYER_PIXELS_GRAY8: case OV_LAYER_PIXELS_NV12: bytesPerPixel = 1; break;
        case OV_LAYER_PIXELS_RGBAF32: bytesPerPixel = 16; break;
        default: invalid("unknown pixel layout " + std::to_string(p.format));
    }
    if (p.alpha < OV_ALPHA_PREMULTIPLIED || p.alpha > OV_ALPHA_IGNORED) invalid("unknown alpha meaning");
    if (p.stride < size_t(p.width) * bytesPerPixel) invalid("row stride shorter than a row");
    if ((p.format == OV_LAYER_PIXELS_GRAYF32 || p.format == OV_LAYER_PIXELS_RGBAF32) && p.stride % 4)
        invalid("float rows must start on 4-byte boundaries");
}

using Matx33 = cv::Matx33d;

bool near(double a, double b) { return std::abs(a - b) < 1e-9; }

// The resampling geometry of one sampling, in index coordinates (pixel centres at integers, OpenCV's).
struct Geometry {
    Matx33 map;  // output index → input index
    bool affine = false;
};

Geometry indexMap(const double inverse[9], const ov_rect &outRect, const ov_rect &inRect) {
    for (int i = 0; i < 9; ++i) {
        if (!std::isfinite(inverse[i])) invalid("the transform is not finite");
    }
    const Matx33 H(inverse);
    if (std::abs(cv::determinant(H)) < 1e-14) invalid("the transform is singular");
    const Matx33 out(1, 0, outRect.x + 0.5, 0, -1, outRect.y + outRect.height - 0.5, 0, 0, 1);
    const Matx33 in(1, 0, -inRect.x - 0.5, 0, -1, inRect.y + inRect.height - 0.5, 0, 0, 1);
    Geometry g;
    g.map = in * H * out;
    if (std::abs(g.map(2, 2)) > 1e-300) g.map = g.map * (1.0 / g.map(2, 2));
    g.affine = std::abs(g.map(2, 0)) < 1e-12 && std::abs(g.map(2, 1)) < 1e-12 && near(g.map(2, 2), 1);
    return g;
}

// Writes `src` (of `from` kind) into `dst` (of `to` kind, same size): a copy, or a conversion to alpha.
void writeInto(const cv::Mat &src, Kind from, cv::Mat dst, Kind to) {
    if (from == to) src.copyTo(dst); else convertInto(src, from, dst);
}

// The sampling itself, on a buffer `full` of `kind` that covers plane rectangle `fullRect`.
ov_layer *sample(const cv::Mat &full, Kind kind, const ov_rect &fullRect, const ov_layer_sampling &s) {
    checkRect(s.rect, "the output rectangle");
    ov_rect inRect = fullRect;
    if (s.has_input_crop) {
        checkBounds(s.input_crop, "the input crop");
        inRect = intersect(fullRect, s.input_crop);
    }
    ov_rect eff = s.rect;
    if (s.has_clip) {
        checkBounds(s.clip, "the clip");
        eff = intersect(s.rect, s.clip);
    }
    if (isEmpty(inRect) || isEmpty(eff)) return transparentLayer(s.rect);
    const cv::Mat in = full(indexRect(fullRect, inRect));
    const Geometry g = indexMap(s.inverse, eff, inRect);
    const Matx33 &m = g.map;
    const bool placement = eff != s.rect;

    // A whole-pixel translation: a view of the input, or a copy of its overlap.
    if (g.affine && near(m(0, 0), 1) && near(m(1, 1), 1) && near(m(0, 1), 0) && near(m(1, 0), 0) &&
        near(m(0, 2), std::round(m(0, 2))) && near(m(1, 2), std::round(m(1, 2)))) {
        const double tx = std::round(m(0, 2)), ty = std::round(m(1, 2));
        if (std::abs(tx) < kMaxCoordinate && std::abs(ty) < kMaxCoordinate) {
            const cv::Rect from(int(tx), int(ty), eff.width, eff.height);
            const cv::Rect overlap = from & cv::Rect(0, 0, in.cols, in.rows);
            if (overlap == from && !placement) return makeLayer(kind, in(from), s.rect);
            if (s.edge != OV_EDGE_CLAMP) {
                const Kind outKind = withAlpha(kind);
                cv::Mat out = cv::Mat::zeros(s.rect.height, s.rect.width, cvType(outKind));
                if (!overlap.empty()) {
                    const cv::Rect effIndex = indexRect(s.rect, eff);
                    const cv::Rect to(effIndex.x + overlap.x - from.x, effIndex.y + overlap.y - from.y, overlap.width,
                                      overlap.height);
                    writeInto(in(overlap), kind, out(to), outKind);
                }
                return makeLayer(outKind, out, s.rect);
            }
        }
    }

    // Where the output's corners fall in the input: all inside means no sample reaches past the input's edge.
    bool inside = true, bounded = true;
    double minX = 1e300, minY = 1e300, maxX = -1e300, maxY = -1e300;
    const double side = (m * cv::Vec3d(0, 0, 1))[2] < 0 ? -1.0 : 1.0;  // a homography and its negative are one map
    for (const auto &corner : {cv::Vec3d(0, 0, 1), cv::Vec3d(eff.width - 1, 0, 1), cv::Vec3d(0, eff.height - 1, 1),
                               cv::Vec3d(eff.width - 1, eff.height - 1, 1)}) {
        const cv::Vec3d q = m * corner;
        if (!(q[2] * side > 1e-12)) { bounded = false; inside = false; break; }
        const double x = q[0] / q[2], y = q[1] / q[2];
        minX = std::min(minX, x), maxX = std::max(maxX, x), minY = std::min(minY, y), maxY = std::max(maxY, y);
        if (x < -1e-6 || y < -1e-6 || x > in.cols - 1 + 1e-6 || y > in.rows - 1 + 1e-6) inside = false;
    }

    cv::Mat src = in;
    Kind work = kind;
    Matx33 map = m;
    int border = cv::BORDER_REPLICATE;
    if (s.edge != OV_EDGE_CLAMP && !inside) {
        // Samples reach past the edge: work with alpha, transparent outside; convert only the part the warp reads.
        cv::Rect need(0, 0, in.cols, in.rows);
        if (bounded && maxX - minX < 4.0 * kMaxCoordinate && maxY - minY < 4.0 * kMaxCoordinate) {
            const cv::Rect box(int(std::floor(minX)) - 2, int(std::floor(minY)) - 2,
                               int(std::ceil(maxX) - std::floor(minX)) + 5, int(std::ceil(maxY) - std::floor(minY)) + 5);
            need &= box;
        }
        if (need.empty()) return transparentLayer(s.rect);
        work = withAlpha(kind);
        if (work == kind) src = in(need);
        else {
            src.create(need.size(), cvType(work));
            convertInto(in(need), kind, src);
        }
        map = Matx33(1, 0, -need.x, 0, 1, -need.y, 0, 0, 1) * m;
        border = cv::BORDER_CONSTANT;
    }

    const Kind outKind = placement ? withAlpha(work) : work;
    cv::Mat out = placement ? cv::Mat::zeros(s.rect.height, s.rect.width, cvType(outKind))
                            : cv::Mat(s.rect.height, s.rect.width, cvType(outKind));
    cv::Mat target = placement ? out(indexRect(s.rect, eff)) : out;
    cv::Mat warped = outKind == work ? target : cv::Mat(target.size(), cvType(work));
    const int flags = (s.interpolation == OV_SAMPLE_NEAREST ? cv::INTER_NEAREST : cv::INTER_LINEAR) | cv::WARP_INVERSE_MAP;
    if (g.affine) {
        const cv::Matx23d affine(map(0, 0), map(0, 1), map(0, 2), map(1, 0), map(1, 1), map(1, 2));
        cv::warpAffine(src, warped, affine, target.size(), flags, border, cv::Scalar::all(0));
    } else {
        cv::warpPerspective(src, warped, map, target.size(), flags, border, cv::Scalar::all(0));
    }
    if (outKind != work) convertInto(warped, work, target);
    return makeLayer(outKind, out, s.rect);
}

// One row of a layer's pixels (or transparent outside it) as premultiplied float RGBA.
void readRow(const ov_layer &layer, int planeY, int planeX0, int width, float *rgba) {
    std::fill(rgba, rgba + 4 * size_t(width), 0.0f);
    const ov_rect &r = layer.rect;
    if (planeY < r.y || planeY >= r.y + r.height) return;
    const int x0 = std::max(planeX0, r.x), x1 = std::min(planeX0 + width, r.x + r.width);
    if (x1 <= x0) return;
    const int row = r.y + r.height - 1 - planeY;
    float *o = rgba + 4 * size_t(x0 - planeX0);
    const int n = x1 - x0, c0 = x0 - r.x;
    constexpr float k = 1.0f / 255.0f;
    switch (layer.kind) {
        case OV_LAYER_BGR8: {
            const uint8_t *p = layer.pixels.ptr<uint8_t>(row) + 3 * c0;
            for (int i = 0; i < n; ++i, p += 3, o += 4) { o[0] = p[2] * k; o[1] = p[1] * k; o[2] = p[0] * k; o[3] = 1; }
            break;
        }
        case OV_LAYER_GRAY8: {
            const uint8_t *p = layer.pixels.ptr<uint8_t>(row) + c0;
            for (int i = 0; i < n; ++i, ++p, o += 4) { o[0] = o[1] = o[2] = *p * k; o[3] = 1; }
            break;
        }
        case OV_LAYER_RGBA8: {
            const uint8_t *p = layer.pixels.ptr<uint8_t>(row) + 4 * c0;
            for (int i = 0; i < 4 * n; ++i) o[i] = p[i] * k;
            break;
        }
        case OV_LAYER_RGBAF: {
            const float *p = layer.pixels.ptr<float>(row) + 4 * c0;
            std::memcpy(o, p, sizeof(float) * 4 * size_t(n));
            break;
        }
    }
}

// A plane row index (top row first) of a rectangle → its plane y.
int planeRowY(const ov_rect &rect, int row) { return rect.y + rect.height - 1 - row; }

uint8_t to8(float v) { return cv::saturate_cast<uint8_t>(v * 255.0f); }

// The (count) Lanczos-3 taps of each output sample along one axis: output index i reads input indices
// first[i] ... first[i] + count[i] - 1 with weights; `centre(i)` is the input index (pixel centres at integers)
// output sample i lies on.
struct Taps {
    std::vector<int> first, count;
    std::vector<float> weights;  // `span` per output sample
    int span = 0;
};

double lanczos3(double t) {
    t = std::abs(t);
    if (t < 1e-9) return 1.0;
    if (t >= 3.0) return 0.0;
    const double pt = CV_PI * t;
    return 3.0 * std::sin(pt) * std::sin(pt / 3.0) / (pt * pt);
}

template <typename Centre>
Taps lanczosTaps(int outputs, int inputs, double scale, Centre centre) {
    const double stretch = std::max(1.0, 1.0 / scale), support = 3.0 * stretch;
    Taps taps;
    taps.span = int(std::ceil(support)) * 2 + 1;
    if (int64_t(taps.span) * outputs > kMaxLayerPixels) invalid("the Lanczos kernel is too wide");
    taps.first.resize(outputs);
    taps.count.resize(outputs);
    taps.weights.assign(size_t(outputs) * taps.span, 0.0f);
    std::vector<double> w(taps.span);
    for (int i = 0; i < outputs; ++i) {
        const double c = centre(i);
        const int lo = int(std::ceil(c - support)), hi = int(std::floor(c + support));
        double total = 0;
        int n = 0;
        for (int j = lo; j <= hi && n < taps.span; ++j, ++n) total += (w[n] = lanczos3((j - c) / stretch));
        // Taps outside the input read transparent pixels: they count in the normalisation, not in the sum.
        const int from = std::max(lo, 0), to = std::min(lo + n - 1, inputs - 1);
        taps.first[i] = from;
        taps.count[i] = std::max(0, to - from + 1);
        for (int j = from; j <= to; ++j)
            taps.weights[size_t(i) * taps.span + (j - from)] = float(total != 0 ? w[j - lo] / total : 0);
    }
    return taps;
}

}  // namespace

extern "C" {

ov_status ov_layer_sample_image(const ov_image *image, const ov_layer_sampling *sampling, ov_layer **out) {
    return ov::guarded("ov_layer_sample_image", [&]() -> ov_status {
        if (!image || image->empty() || !sampling || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "missing argument");
        const cv::Mat &pixels = image->primary();
        const Kind kind = image->isGray() ? OV_LAYER_GRAY8 : OV_LAYER_BGR8;
        *out = sample(pixels, kind, ov_rect{0, 0, pixels.cols, pixels.rows}, *sampling);
        return ov::ok();
    });
}

ov_status ov_layer_sample_pixels(const ov_layer_pixels *pixels, const ov_layer_sampling *sampling, ov_layer **out) {
    return ov::guarded("ov_layer_sample_pixels", [&]() -> ov_status {
        if (!pixels || !sampling || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "missing argument");
        checkPixels(*pixels);
        const ov_rect whole{0, 0, pixels->width, pixels->height};
        const ov_rect used = sampling->has_input_crop ? intersect(whole, sampling->input_crop) : whole;
        if (isEmpty(used)) {
            checkRect(sampling->rect, "the output rectangle");
            *out = transparentLayer(sampling->rect);
            return ov::ok();
        }
        const Source source = importPixels(*pixels, indexRect(whole, used));
        *out = sample(source.mat, source.kind, whole, *sampling);
        return ov::ok();
    });
}

ov_status ov_layer_sample_layer(const ov_layer *input, const ov_layer_sampling *sampling, ov_layer **out) {
    return ov::guarded("ov_layer_sample_layer", [&]() -> ov_status {
        if (!input || !sampling || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "missing argument");
        *out = sample(input->pixels, input->kind, input->rect, *sampling);
        return ov::ok();
    });
}

ov_status ov_layer_fill(const float rgba[4], ov_rect rect, const ov_rect *clip, ov_layer **out) {
    return ov::guarded("ov_layer_fill", [&]() -> ov_status {
        if (!rgba || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "missing argument");
        checkRect(rect, "the output rectangle");
        for (int i = 0; i < 4; ++i) {
            if (!std::isfinite(rgba[i])) return ov::fail(OV_ERR_INVALID_ARGUMENT, "the colour is not finite");
        }
        const cv::Scalar colour(rgba[0], rgba[1], rgba[2], rgba[3]);
        cv::Mat pixels;
        if (!clip) pixels = cv::Mat(rect.height, rect.width, CV_32FC4, colour);
        else {
            checkBounds(*clip, "the clip");
            pixels = cv::Mat::zeros(rect.height, rect.width, CV_32FC4);
            const ov_rect inside = intersect(rect, *clip);
            if (!isEmpty(inside)) pixels(indexRect(rect, inside)).setTo(colour);
        }
        *out = makeLayer(OV_LAYER_RGBAF, pixels, rect);
        return ov::ok();
    });
}

ov_status ov_layer_create_rgbaf(const float *pixels, size_t stride, ov_rect rect, ov_layer **out) {
    return ov::guarded("ov_layer_create_rgbaf", [&]() -> ov_status {
        if (!pixels || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "missing argument");
        checkRect(rect, "the layer rectangle");
        if (stride < size_t(rect.width) * 4 * sizeof(float) || stride % sizeof(float))
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "row stride shorter than a row or not float-aligned");
        const cv::Mat borrowed(rect.height, rect.width, CV_32FC4, const_cast<float *>(pixels), stride);
        *out = makeLayer(OV_LAYER_RGBAF, borrowed.clone(), rect);
        return ov::ok();
    });
}

ov_status ov_layer_apply_color_matrix(ov_layer *layer, const float matrix[20], int unpremultiplied) {
    return ov::guarded("ov_layer_apply_color_matrix", [&]() -> ov_status {
        if (!layer || !matrix) return ov::fail(OV_ERR_INVALID_ARGUMENT, "missing argument");
        for (int i = 0; i < 20; ++i) {
            if (!std::isfinite(matrix[i])) return ov::fail(OV_ERR_INVALID_ARGUMENT, "the colour matrix is not finite");
        }
        const cv::Mat &src = layer->pixels;
        // Written in place only when this layer alone owns float pixels; shared pixels (an image's, another
        // layer's) are never written.
        const bool own = layer->kind == OV_LAYER_RGBAF && src.u && src.u->refcount == 1;
        cv::Mat dst = own ? src : cv::Mat(src.rows, src.cols, CV_32FC4);
        const ov_rect &r = layer->rect;
        std::vector<float> row(4 * size_t(r.width));
        const float *m = matrix;
        for (int y = 0; y < r.height; ++y) {
            readRow(*layer, planeRowY(r, y), r.x, r.width, row.data());
            float *o = dst.ptr<float>(y);
            for (int x = 0; x < r.width; ++x) {
                float v[4] = {row[4 * x], row[4 * x + 1], row[4 * x + 2], row[4 * x + 3]};
                if (unpremultiplied) {
                    const float a = v[3];
                    for (int c = 0; c < 3; ++c) v[c] = a > 0 ? v[c] / a : 0.0f;
                }
                float w[4];
                for (int c = 0; c < 4; ++c)
                    w[c] = m[5 * c] * v[0] + m[5 * c + 1] * v[1] + m[5 * c + 2] * v[2] + m[5 * c + 3] * v[3] + m[5 * c + 4];
                w[3] = std::min(1.0f, std::max(0.0f, w[3]));
                if (unpremultiplied) {
                    for (int c = 0; c < 3; ++c) w[c] *= w[3];
                }
                std::memcpy(o + 4 * x, w, sizeof w);
            }
        }
        layer->pixels = dst;
        layer->kind = OV_LAYER_RGBAF;
        return ov::ok();
    });
}

ov_status ov_layer_gaussian_blur(const ov_layer *input, double sigma, ov_rect rect, ov_layer **out) {
    return ov::guarded("ov_layer_gaussian_blur", [&]() -> ov_status {
        if (!input || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "missing argument");
        if (!(sigma > 0) || !std::isfinite(sigma)) return ov::fail(OV_ERR_INVALID_ARGUMENT, "sigma must be positive");
        checkRect(rect, "the output rectangle");
        const double r = std::ceil(3.0 * sigma);
        if (r > kMaxCoordinate / 4) return ov::fail(OV_ERR_INVALID_ARGUMENT, "sigma is too large");
        const int radius = int(r);
        auto grown = [radius](const ov_rect &a) {
            return ov_rect{a.x - radius, a.y - radius, a.width + 2 * radius, a.height + 2 * radius};
        };
        // Only what lies within the radius of both the output and the input's pixels matters (the rest is
        // transparent input): blur that, zero-padded.
        const ov_rect read = intersect(grown(rect), grown(input->rect));
        const ov_rect made = intersect(rect, read);
        if (isEmpty(made)) {
            *out = transparentLayer(rect);
            return ov::ok();
        }
        checkRect(read, "the blurred rectangle");
        const cv::Mat src = placedFloat(*input, read);
        cv::Mat blurred;
        cv::GaussianBlur(src, blurred, cv::Size(2 * radius + 1, 2 * radius + 1), sigma, sigma, cv::BORDER_CONSTANT);
        if (made == rect) {
            *out = makeLayer(OV_LAYER_RGBAF, blurred(indexRect(read, rect)), rect);
        } else {
            cv::Mat pixels = cv::Mat::zeros(rect.height, rect.width, CV_32FC4);
            blurred(indexRect(read, made)).copyTo(pixels(indexRect(rect, made)));
            *out = makeLayer(OV_LAYER_RGBAF, pixels, rect);
        }
        return ov::ok();
    });
}

ov_status ov_layer_lanczos_scale(const ov_layer *input, double scale_x, double scale_y, ov_rect rect, ov_layer **out) {
    return ov::guarded("ov_layer_lanczos_scale", [&]() -> ov_status {
        if (!input || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "missing argument");
        if (!(scale_x > 0) || !(scale_y > 0) || !std::isfinite(scale_x) || !std::isfinite(scale_y))
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "scales must be positive");
        checkRect(rect, "the output rectangle");
        const ov_rect &in = input->rect;
        // Output column c (plane x = rect.x + c + 0.5) reads input plane x / scale_x, at input index that - in.x - 0.5.
        const Taps columns = lanczosTaps(rect.width, in.width, scale_x,
                                         [&](int c) { return (rect.x + c + 0.5) / scale_x - in.x - 0.5; });
        // Output row r (plane y = rect.y + rect.height - r - 0.5) reads input row (in.y + in.height) - y / scale_y - 0.5.
        const Taps rows = lanczosTaps(rect.height, in.height, scale_y, [&](int r) {
            return (in.y + in.height) - (rect.y + rect.height - r - 0.5) / scale_y - 0.5;
        });
        int rowLo = in.height, rowHi = -1;
        for (int r = 0; r < rect.height; ++r) {
            if (rows.count[r] == 0) continue;
            rowLo = std::min(rowLo, rows.first[r]);
            rowHi = std::max(rowHi, rows.first[r] + rows.count[r] - 1);
        }
        cv::Mat result = cv::Mat::zeros(rect.height, rect.width, CV_32FC4);
        if (rowHi >= rowLo) {
            // Horizontal pass over the input rows the vertical pass reads.
            cv::Mat horizontal(rowHi - rowLo + 1, rect.width, CV_32FC4);
            std::vector<float> line(4 * size_t(in.width));
            for (int y = rowLo; y <= rowHi; ++y) {
                readRow(*input, planeRowY(in, y), in.x, in.width, line.data());
                float *o = horizontal.ptr<float>(y - rowLo);
                for (int c = 0; c < rect.width; ++c) {
                    float acc[4] = {0, 0, 0, 0};
                    const float *w = &columns.weights[size_t(c) * columns.span];
                    const float *p = line.data() + 4 * size_t(columns.first[c]);
                    for (int k = 0; k < columns.count[c]; ++k, p += 4) {
                        for (int ch = 0; ch < 4; ++ch) acc[ch] += w[k] * p[ch];
                    }
                    std::memcpy(o + 4 * c, acc, sizeof acc);
                }
            }
            for (int r = 0; r < rect.height; ++r) {
                float *o = result.ptr<float>(r);
                const float *w = &rows.weights[size_t(r) * rows.span];
                for (int k = 0; k < rows.count[r]; ++k) {
                    const float *p = horizontal.ptr<float>(rows.first[r] + k - rowLo);
                    for (int i = 0; i < 4 * rect.width; ++i) o[i] += w[k] * p[i];
                }
            }
        }
        *out = makeLayer(OV_LAYER_RGBAF, result, rect);
        return ov::ok();
    });
}

ov_status ov_layer_source_over(const ov_layer *foreground, const ov_layer *background, ov_rect rect, ov_layer **out) {
    return ov::guarded("ov_layer_source_over", [&]() -> ov_status {
        if (!foreground || !background || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "missing argument");
        checkRect(rect, "the output rectangle");
        cv::Mat result(rect.height, rect.width, CV_32FC4);
        std::vector<float> fg(4 * size_t(rect.width)), bg(fg.size());
        for (int r = 0; r < rect.height; ++r) {
            readRow(*foreground, planeRowY(rect, r), rect.x, rect.width, fg.data());
            readRow(*background, planeRowY(rect, r), rect.x, rect.width, bg.data());
            float *o = result.ptr<float>(r);
            for (int x = 0; x < rect.width; ++x) {
                const float keep = 1.0f - fg[4 * x + 3];
                for (int c = 0; c < 4; ++c) o[4 * x + c] = fg[4 * x + c] + bg[4 * x + c] * keep;
            }
        }
        *out = makeLayer(OV_LAYER_RGBAF, result, rect);
        return ov::ok();
    });
}

ov_status ov_layer_blend_with_mask(const ov_layer *foreground, const ov_layer *background, const ov_layer *mask,
                                   int channel, ov_rect rect, ov_layer **out) {
    return ov::guarded("ov_layer_blend_with_mask", [&]() -> ov_status {
        if (!mask || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "missing argument");
        if (channel < 0 || channel > 3) return ov::fail(OV_ERR_INVALID_ARGUMENT, "the mask channel must be 0...3");
        checkRect(rect, "the output rectangle");
        cv::Mat result(rect.height, rect.width, CV_32FC4);
        std::vector<float> fg(4 * size_t(rect.width), 0.0f), bg(fg.size(), 0.0f), m(fg.size());
        for (int r = 0; r < rect.height; ++r) {
            const int y = planeRowY(rect, r);
            if (foreground) readRow(*foreground, y, rect.x, rect.width, fg.data());
            if (background) readRow(*background, y, rect.x, rect.width, bg.data());
            readRow(*mask, y, rect.x, rect.width, m.data());
            float *o = result.ptr<float>(r);
            for (int x = 0; x < rect.width; ++x) {
                const float t = std::min(1.0f, std::max(0.0f, m[4 * x + channel]));
                for (int c = 0; c < 4; ++c) o[4 * x + c] = bg[4 * x + c] + (fg[4 * x + c] - bg[4 * x + c]) * t;
            }
        }
        *out = makeLayer(OV_LAYER_RGBAF, result, rect);
        return ov::ok();
    });
}

ov_status ov_layer_share(const ov_layer *layer, ov_layer **out) {
    return ov::guarded("ov_layer_share", [&]() -> ov_status {
        if (!layer || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "missing argument");
        *out = new ov_layer(*layer);
        return ov::ok();
    });
}

ov_status ov_layer_export(const ov_layer *layer, ov_rect rect, void *destination, size_t stride, int format,
                          int premultiplied) {
    return ov::guarded("ov_layer_export", [&]() -> ov_status {
        if (!layer || !destination) return ov::fail(OV_ERR_INVALID_ARGUMENT, "missing argument");
        checkRect(rect, "the exported rectangle");
        int type = 0;
        switch (format) {
            case OV_LAYER_PIXELS_BGR8: case OV_LAYER_PIXELS_RGB8: type = CV_8UC3; break;
            case OV_LAYER_PIXELS_BGRA8: case OV_LAYER_PIXELS_RGBA8: case OV_LAYER_PIXELS_ARGB8: type = CV_8UC4; break;
            case OV_LAYER_PIXELS_GRAY8: type = CV_8UC1; break;
            case OV_LAYER_PIXELS_GRAYF32: type = CV_32FC1; break;
            case OV_LAYER_PIXELS_RGBAF32: type = CV_32FC4; break;
            default: return ov::fail(OV_ERR_UNSUPPORTED, "pixels cannot be written in layout " + std::to_string(format));
        }
        if (stride < size_t(rect.width) * CV_ELEM_SIZE(type))
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "row stride shorter than a row");
        cv::Mat dst(rect.height, rect.width, type, destination, stride);
        const ov_rect common = intersect(layer->rect, rect);
        if (common != rect) dst.setTo(cv::Scalar::all(0));
        if (isEmpty(common)) return ov::ok();
        const cv::Mat src = layer->pixels(indexRect(layer->rect, common));
        cv::Mat part = dst(indexRect(rect, common));
        const bool alphaFormat = type == CV_8UC4 || type == CV_32FC4;
        const bool straight = alphaFormat && !premultiplied;
        // Layouts the kinds already are, or that one OpenCV conversion makes (opaque kinds need no unpremultiply).
        if (layer->kind == OV_LAYER_BGR8) {
            switch (format) {
                case OV_LAYER_PIXELS_BGR8: src.copyTo(part); return ov::ok();
                case OV_LAYER_PIXELS_RGB8: cv::cvtColor(src, part, cv::COLOR_BGR2RGB); return ov::ok();
                case OV_LAYER_PIXELS_RGBA8: cv::cvtColor(src, part, cv::COLOR_BGR2RGBA); return ov::ok();
                case OV_LAYER_PIXELS_BGRA8: cv::cvtColor(src, part, cv::COLOR_BGR2BGRA); return ov::ok();
                default: break;
            }
        } else if (layer->kind == OV_LAYER_GRAY8) {
            switch (format) {
                case OV_LAYER_PIXELS_GRAY8: src.copyTo(part); return ov::ok();
                case OV_LAYER_PIXELS_BGR8: case OV_LAYER_PIXELS_RGB8: cv::cvtColor(src, part, cv::COLOR_GRAY2BGR); return ov::ok();
                case OV_LAYER_PIXELS_RGBA8: case OV_LAYER_PIXELS_BGRA8: cv::cvtColor(src, part, cv::COLOR_GRAY2BGRA); return ov::ok();
                default: break;
            }
        } else if (layer->kind == OV_LAYER_RGBA8 && !straight) {
            switch (format) {
                case OV_LAYER_PIXELS_RGBA8: src.copyTo(part); return ov::ok();
                case OV_LAYER_PIXELS_BGRA8: cv::cvtColor(src, part, cv::COLOR_RGBA2BGRA); return ov::ok();
                case OV_LAYER_PIXELS_BGR8: cv::cvtColor(src, part, cv::COLOR_RGBA2BGR); return ov::ok();
                case OV_LAYER_PIXELS_RGB8: cv::cvtColor(src, part, cv::COLOR_RGBA2RGB); return ov::ok();
                default: break;
            }
        }
        std::vector<float> row(4 * size_t(common.width));
        for (int r = 0; r < common.height; ++r) {
            readRow(*layer, planeRowY(common, r), common.x, common.width, row.data());
            uint8_t *o8 = part.ptr<uint8_t>(r);
            float *of = part.ptr<float>(r);
            for (int x = 0; x < common.width; ++x) {
                float v[4] = {row[4 * x], row[4 * x + 1], row[4 * x + 2], row[4 * x + 3]};
                if (straight) {
                    for (int c = 0; c < 3; ++c) v[c] = v[3] > 0 ? v[c] / v[3] : 0.0f;
                }
                switch (format) {
                    case OV_LAYER_PIXELS_BGR8: o8[3 * x] = to8(v[2]); o8[3 * x + 1] = to8(v[1]); o8[3 * x + 2] = to8(v[0]); break;
                    case OV_LAYER_PIXELS_RGB8: o8[3 * x] = to8(v[0]); o8[3 * x + 1] = to8(v[1]); o8[3 * x + 2] = to8(v[2]); break;
                    case OV_LAYER_PIXELS_RGBA8: for (int c = 0; c < 4; ++c) o8[4 * x + c] = to8(v[c]); break;
                    case OV_LAYER_PIXELS_BGRA8:
                        o8[4 * x] = to8(v[2]); o8[4 * x + 1] = to8(v[1]); o8[4 * x + 2] = to8(v[0]); o8[4 * x + 3] = to8(v[3]);
                        break;
                    case OV_LAYER_PIXELS_ARGB8:
                        o8[4 * x] = to8(v[3]); o8[4 * x + 1] = to8(v[0]); o8[4 * x + 2] = to8(v[1]); o8[4 * x + 3] = to8(v[2]);
                        break;
                    case OV_LAYER_PIXELS_GRAY8: o8[x] = to8(v[0]); break;
                    case OV_LAYER_PIXELS_GRAYF32: of[x] = v[0]; break;
                    case OV_LAYER_PIXELS_RGBAF32: std::memcpy(of + 4 * x, v, sizeof v); break;
                }
            }
        }
        return ov::ok();
    });
}

ov_status ov_layer_to_image(const ov_layer *layer, ov_rect rect, ov_image **out) {
    return ov::guarded("ov_layer_to_image", [&]() -> ov_status {
        if (!layer || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "missing argument");
        checkRect(rect, "the image rectangle");
        const bool gray = layer->kind == OV_LAYER_GRAY8;
        if (isOpaque(layer->kind) && contains(layer->rect, rect)) {
            cv::Mat view = layer->pixels(indexRect(layer->rect, rect));
            // ov::wrap keeps a continuous buffer as is (shared with the layer, which never writes shared pixels).
            *out = ov::wrap(view.u ? std::move(view) : view.clone());
            return ov::ok();
        }
        cv::Mat pixels(rect.height, rect.width, gray ? CV_8UC1 : CV_8UC3);
        const ov_status status = ov_layer_export(layer, rect, pixels.data, pixels.step,
                                                 gray ? OV_LAYER_PIXELS_GRAY8 : OV_LAYER_PIXELS_BGR8, 1);
        if (status != OV_OK) return status;
        *out = ov::wrap(std::move(pixels));
        return ov::ok();
    });
}

ov_status ov_perspective_transform(const double from[8], const double to[8], double h[9]) {
    return ov::guarded("ov_perspective_transform", [&]() -> ov_status {
        if (!from || !to || !h) return ov::fail(OV_ERR_INVALID_ARGUMENT, "missing argument");
        cv::Point2f a[4], b[4];
        for (int i = 0; i < 4; ++i) {
            if (!std::isfinite(from[2 * i]) || !std::isfinite(from[2 * i + 1]) || !std::isfinite(to[2 * i]) ||
                !std::isfinite(to[2 * i + 1]))
                return ov::fail(OV_ERR_INVALID_ARGUMENT, "a corner is not finite");
            a[i] = cv::Point2f(float(from[2 * i]), float(from[2 * i + 1]));
            b[i] = cv::Point2f(float(to[2 * i]), float(to[2 * i + 1]));
        }
        // Three collinear points make the system singular (OpenCV then returns zeros or garbage): refused first.
        for (const auto *points : {a, b}) {
            for (int i = 0; i < 4; ++i) {
                const cv::Point2f p = points[i], q = points[(i + 1) % 4], r = points[(i + 2) % 4];
                const double cross = double(q.x - p.x) * (r.y - p.y) - double(q.y - p.y) * (r.x - p.x);
                const double scale = std::max(1.0, double(cv::norm(q - p)) * cv::norm(r - p));
                if (std::abs(cross) < 1e-9 * scale)
                    return ov::fail(OV_ERR_INVALID_ARGUMENT, "three of the four corners are collinear");
            }
        }
        const cv::Mat m = cv::getPerspectiveTransform(a, b, cv::DECOMP_LU);
        for (int i = 0; i < 9; ++i) {
            h[i] = m.at<double>(i / 3, i % 3);
            if (!std::isfinite(h[i])) return ov::fail(OV_ERR_INVALID_ARGUMENT, "the corners give no perspective transform");
        }
        return ov::ok();
    });
}

ov_rect ov_layer_rect(const ov_layer *layer) { return layer ? layer->rect : ov_rect{0, 0, 0, 0}; }

int ov_layer_kind_of(const ov_layer *layer) { return layer ? int(layer->kind) : -1; }

int ov_layer_shares_image(const ov_layer *layer, const ov_image *image) {
    if (!layer || !image || image->empty() || layer->pixels.empty()) return 0;
    const cv::Mat &m = image->primary();
    return layer->pixels.data >= m.datastart && layer->pixels.data < m.dataend ? 1 : 0;
}

void ov_layer_free(ov_layer *layer) { delete layer; }

}  // extern "C"
