// Images: decoding, pixel import, orientation, crop/resize, encoding and drawing (OpenCV).
#include "ov_internal.hpp"

#include <opencv2/freetype.hpp>
#include "ov_imgcodecs.hpp"
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>

namespace {
thread_local std::string lastError;
}

namespace ov {

ov_status fail(ov_status status, const std::string &message) {
    lastError = message;
    return status;
}

ov_status ok() {
    lastError.clear();
    return OV_OK;
}

ov_image *wrap(cv::Mat &&pixels) {
    auto *image = new ov_image();
    if (!pixels.isContinuous()) pixels = pixels.clone();
    if (pixels.channels() == 1) image->luma = std::move(pixels); else image->bgr = std::move(pixels);
    return image;
}

cv::Mat fitWithin(const cv::Mat &image, int maxSide) {
    const int longer = std::max(image.cols, image.rows);
    if (maxSide <= 0 || longer <= maxSide) return image;
    const double f = static_cast<double>(maxSide) / longer;
    cv::Mat out;
    cv::resize(image, out, cv::Size(std::max(1, cvRound(image.cols * f)), std::max(1, cvRound(image.rows * f))), 0, 0,
               cv::INTER_AREA);
    return out;
}

}  // namespace ov

void ov_image::computeGray() const { cv::cvtColor(bgr, grayCache, cv::COLOR_BGR2GRAY); }

void ov_image::ensureColor() {
    if (!isGray()) return;
    cv::cvtColor(luma, bgr, cv::COLOR_GRAY2BGR);
    luma.release();
}

namespace {
// cv::imdecode with `mode` (IMREAD_*), EXIF orientation ignored; its failures as OV_ERR_DECODE.
ov_status decodeWithOpenCV(const void *data, size_t length, int mode, ov_image **out) {
    cv::Mat buffer(1, static_cast<int>(length), CV_8UC1, const_cast<void *>(data));
    cv::Mat decoded;
    try {
        decoded = ov::imgcodecs::imdecode(buffer, mode | cv::IMREAD_IGNORE_ORIENTATION);
    } catch (const cv::Exception &e) {
        return ov::fail(OV_ERR_DECODE, std::string("the image could not be decoded: ") + e.what());
    }
    if (decoded.empty())
        return ov::fail(OV_ERR_DECODE, "the image could not be decoded (corrupt, truncated or unsupported data)");
    *out = ov::wrap(std::move(decoded));
    return ov::ok();
}
}  // namespace

extern "C" {

const char *ov_last_error(void) { return lastError.c_str(); }

void ov_free(void *p) { std::free(p); }

ov_status ov_image_decode(const void *data, size_t length, int luma_only, int reduction, int strict, ov_image **out) {
    return ov::guarded("ov_image_decode", [&]() -> ov_status {
        if (!data || !out || length == 0) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no image bytes");
        int mode = luma_only ? cv::IMREAD_GRAYSCALE : cv::IMREAD_COLOR;
        switch (reduction) {
            case 1: break;
            case 2: mode = luma_only ? cv::IMREAD_REDUCED_GRAYSCALE_2 : cv::IMREAD_REDUCED_COLOR_2; break;
            case 4: mode = luma_only ? cv::IMREAD_REDUCED_GRAYSCALE_4 : cv::IMREAD_REDUCED_COLOR_4; break;
            case 8: mode = luma_only ? cv::IMREAD_REDUCED_GRAYSCALE_8 : cv::IMREAD_REDUCED_COLOR_8; break;
            default: return ov::fail(OV_ERR_INVALID_ARGUMENT, "reduction must be 1, 2, 4 or 8");
        }
        if (length > static_cast<size_t>(INT32_MAX))
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "image data larger than 2 GiB");
        if (ov::jpeg::isJpeg(data, length)) {
            cv::Mat pixels;
            std::vector<std::string> warnings;
            std::string error;
            switch (ov::jpeg::decode(data, length, luma_only != 0, reduction, pixels, warnings, error)) {
                case ov::jpeg::DecodeResult::failed:
                    return ov::fail(OV_ERR_DECODE, "the image could not be decoded: " + error);
                case ov::jpeg::DecodeResult::decoded: {
                    if (strict && !warnings.empty())
                        return ov::fail(OV_ERR_DECODE, "the JPEG is damaged (strict decoding): " + warnings.front());
                    *out = ov::wrap(std::move(pixels));
                    (*out)->warnings = std::move(warnings);
                    return ov::ok();
                }
                case ov::jpeg::DecodeResult::unsupported: break;  // OpenCV below
            }
        }
        if (ov::png::isPng(data, length)) {
            cv::Mat pixels;
            if (ov::png::decode(data, length, luma_only != 0, reduction, pixels) == ov::png::DecodeResult::decoded) {
                *out = ov::wrap(std::move(pixels));
                return ov::ok();
            }
            if (ov::png::checkDataSize(data, length) == ov::png::DataCheck::exceeds)
                return ov::fail(OV_ERR_DECODE, "the PNG's image data inflates to more than its declared size needs "
                                               "(a decompression bomb, or data after the image): not decoded");
            // The rest through libpng itself, as OpenCV would, but with its messages kept (not on stderr).
            std::vector<std::string> warnings;
            std::string error;
            if (!ov::png::decodeWithLibpng(data, length, luma_only != 0, reduction, pixels, warnings, error))
                return ov::fail(OV_ERR_DECODE, "the image could not be decoded: " + error);
            *out = ov::wrap(std::move(pixels));
            (*out)->warnings = std::move(warnings);
            return ov::ok();
        }
        return decodeWithOpenCV(data, length, mode, out);
    });
}

ov_status ov_image_decode_opencv(const void *data, size_t length, int luma_only, ov_image **out) {
    return ov::guarded("ov_image_decode_opencv", [&]() -> ov_status {
        if (!data || !out || length == 0) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no image bytes");
        if (length > static_cast<size_t>(INT32_MAX))
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "image data larger than 2 GiB");
        return decodeWithOpenCV(data, length, luma_only ? cv::IMREAD_GRAYSCALE : cv::IMREAD_COLOR, out);
    });
}

ov_status ov_image_decode_png(const void *data, size_t length, int luma_only, ov_image **out) {
    return ov::guarded("ov_image_decode_png", [&]() -> ov_status {
        if (!data || !out || length == 0) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no image bytes");
        cv::Mat pixels;
        if (ov::png::decode(data, length, luma_only != 0, 1, pixels) != ov::png::DecodeResult::decoded)
            return ov::fail(OV_ERR_UNSUPPORTED, "left to OpenCV: not a PNG this decoder takes exactly");
        *out = ov::wrap(std::move(pixels));
        return ov::ok();
    });
}

ov_status ov_image_from_pixels(const void *data, int width, int height, size_t stride,
                               ov_pixel_format format, ov_image **out) {
    return ov::guarded("ov_image_from_pixels", [&]() -> ov_status {
        if (!data || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no pixel data");
        if (width <= 0 || height <= 0) return ov::fail(OV_ERR_INVALID_ARGUMENT, "width and height must be positive");
        int channels = 0, type = CV_8UC3, code = -1;
        switch (format) {
            case OV_PIXEL_RGB8: channels = 3; type = CV_8UC3; code = cv::COLOR_RGB2BGR; break;
            case OV_PIXEL_BGR8: channels = 3; type = CV_8UC3; code = -1; break;
            case OV_PIXEL_RGBA8: channels = 4; type = CV_8UC4; code = cv::COLOR_RGBA2BGR; break;
            case OV_PIXEL_BGRA8: channels = 4; type = CV_8UC4; code = cv::COLOR_BGRA2BGR; break;
            case OV_PIXEL_GRAY8: channels = 1; type = CV_8UC1; code = cv::COLOR_GRAY2BGR; break;
            case OV_PIXEL_ARGB8: {
                if (stride < static_cast<size_t>(width) * 4)
                    return ov::fail(OV_ERR_INVALID_ARGUMENT, "row stride is smaller than width x bytes per pixel");
                cv::Mat view(height, width, CV_8UC4, const_cast<void *>(data), stride);
                cv::Mat bgr(height, width, CV_8UC3);
                const int fromTo[] = {3, 0, 2, 1, 1, 2};  // A R G B -> B G R
                cv::mixChannels(&view, 1, &bgr, 1, fromTo, 3);
                *out = ov::wrap(std::move(bgr));
                return ov::ok();
            }
            case OV_PIXEL_NV12: {
                if (width % 2 || height % 2)
                    return ov::fail(OV_ERR_INVALID_ARGUMENT, "NV12 needs even width and height");
                if (stride < static_cast<size_t>(width))
                    return ov::fail(OV_ERR_INVALID_ARGUMENT, "row stride is smaller than the row");
                // Y plane then UV plane, both with `stride`; make a contiguous (h * 3/2) x w buffer.
                cv::Mat yuv(height * 3 / 2, width, CV_8UC1);
                const auto *src = static_cast<const uint8_t *>(data);
                for (int row = 0; row < height * 3 / 2; ++row)
                    std::memcpy(yuv.ptr(row), src + static_cast<size_t>(row) * stride, static_cast<size_t>(width));
                cv::Mat bgr;
                cv::cvtColor(yuv, bgr, cv::COLOR_YUV2BGR_NV12);
                *out = ov::wrap(std::move(bgr));
                return ov::ok();
            }
            default: return ov::fail(OV_ERR_UNSUPPORTED, "unknown pixel format");
        }
        if (stride < static_cast<size_t>(width) * channels)
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "row stride is smaller than width x bytes per pixel");
        cv::Mat view(height, width, type, const_cast<void *>(data), stride);
        cv::Mat bgr;
        if (code < 0) bgr = view.clone(); else cv::cvtColor(view, bgr, code);
        *out = ov::wrap(std::move(bgr));
        return ov::ok();
    });
}

ov_status ov_image_to_pixels(const ov_image *image, ov_pixel_format format, void *dst, size_t stride) {
    return ov::guarded("ov_image_to_pixels", [&]() -> ov_status {
        if (!image || !dst || image->empty()) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no image or destination");
        const int width = image->cols(), height = image->rows();
        int channels = 0;
        switch (format) {
            case OV_PIXEL_RGB8: case OV_PIXEL_BGR8: channels = 3; break;
            case OV_PIXEL_RGBA8: case OV_PIXEL_BGRA8: case OV_PIXEL_ARGB8: channels = 4; break;
            case OV_PIXEL_GRAY8: channels = 1; break;
            default: return ov::fail(OV_ERR_UNSUPPORTED, "pixels cannot be written in this format");
        }
        if (stride < static_cast<size_t>(width) * channels)
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "row stride is smaller than width x bytes per pixel");
        cv::Mat out(height, width, CV_MAKETYPE(CV_8U, channels), dst, stride);
        if (format == OV_PIXEL_GRAY8) {
            image->gray().copyTo(out);
            return ov::ok();
        }
        cv::Mat bgr;
        if (image->isGray()) cv::cvtColor(image->luma, bgr, cv::COLOR_GRAY2BGR); else bgr = image->bgr;
        switch (format) {
            case OV_PIXEL_BGR8: bgr.copyTo(out); break;
            case OV_PIXEL_RGB8: cv::cvtColor(bgr, out, cv::COLOR_BGR2RGB); break;
            case OV_PIXEL_BGRA8: cv::cvtColor(bgr, out, cv::COLOR_BGR2BGRA); break;
            case OV_PIXEL_RGBA8: cv::cvtColor(bgr, out, cv::COLOR_BGR2RGBA); break;
            default: {  // ARGB: alpha first, then R G B
                const cv::Mat alpha(height, width, CV_8UC1, cv::Scalar(255));
                const cv::Mat sources[] = {bgr, alpha};
                const int fromTo[] = {3, 0, 2, 1, 1, 2, 0, 3};
                cv::mixChannels(sources, 2, &out, 1, fromTo, 4);
            }
        }
        // cvtColor and copyTo write into `out` in place as long as its size and type match (they do).
        if (out.data != dst) return ov::fail(OV_ERR_INTERNAL, "pixels were not written in place");
        return ov::ok();
    });
}

ov_status ov_image_orient(const ov_image *src, int orientation, ov_image **out) {
    return ov::guarded("ov_image_orient", [&]() -> ov_status {
        if (!src || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no image");
        if (orientation < 1 || orientation > 8)
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "EXIF orientation must be 1...8");
        const cv::Mat &m = src->primary();
        cv::Mat r;
        switch (orientation) {
            case 1: r = m.clone(); break;
            case 2: cv::flip(m, r, 1); break;                          // mirrored horizontally
            case 3: cv::rotate(m, r, cv::ROTATE_180); break;
            case 4: cv::flip(m, r, 0); break;                          // mirrored vertically
            case 5: cv::transpose(m, r); break;                        // transpose
            case 6: cv::rotate(m, r, cv::ROTATE_90_CLOCKWISE); break;
            case 7: { cv::Mat t; cv::transpose(m, t); cv::rotate(t, r, cv::ROTATE_180); break; }  // transverse
            case 8: cv::rotate(m, r, cv::ROTATE_90_COUNTERCLOCKWISE); break;
        }
        *out = ov::wrap(std::move(r));
        return ov::ok();
    });
}

ov_status ov_image_crop(const ov_image *src, int x, int y, int width, int height, ov_image **out) {
    return ov::guarded("ov_image_crop", [&]() -> ov_status {
        if (!src || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no image");
        cv::Rect rect = cv::Rect(x, y, width, height) & cv::Rect(0, 0, src->cols(), src->rows());
        if (rect.empty()) return ov::fail(OV_ERR_INVALID_ARGUMENT, "the crop rectangle does not overlap the image");
        *out = ov::wrap(src->primary()(rect).clone());
        return ov::ok();
    });
}

ov_status ov_image_resize(const ov_image *src, int width, int height, ov_image **out) {
    return ov::guarded("ov_image_resize", [&]() -> ov_status {
        if (!src || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no image");
        if (width <= 0 || height <= 0) return ov::fail(OV_ERR_INVALID_ARGUMENT, "size must be positive");
        cv::Mat r;
        bool shrinking = width < src->cols() && height < src->rows();
        cv::resize(src->primary(), r, cv::Size(width, height), 0, 0, shrinking ? cv::INTER_AREA : cv::INTER_LINEAR);
        *out = ov::wrap(std::move(r));
        return ov::ok();
    });
}

ov_status ov_resize_float_map(const float *src, int width, int height, float *dst, int out_width, int out_height) {
    return ov::guarded("ov_resize_float_map", [&]() -> ov_status {
        if (!src || !dst) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no map");
        if (width <= 0 || height <= 0 || out_width <= 0 || out_height <= 0)
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "sizes must be positive");
        const cv::Mat in(height, width, CV_32FC1, const_cast<float *>(src));
        cv::Mat out(out_height, out_width, CV_32FC1, dst);
        cv::resize(in, out, out.size(), 0, 0, cv::INTER_LINEAR);  // writes into dst: the size and type match
        return ov::ok();
    });
}

ov_status ov_image_create_filled(int width, int height, int r, int g, int b, ov_image **out) {
    return ov::guarded("ov_image_create_filled", [&]() -> ov_status {
        if (!out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no output");
        if (width <= 0 || height <= 0) return ov::fail(OV_ERR_INVALID_ARGUMENT, "width and height must be positive");
        *out = ov::wrap(cv::Mat(height, width, CV_8UC3, cv::Scalar(b, g, r)));
        return ov::ok();
    });
}

ov_status ov_image_clone(const ov_image *src, ov_image **out) {
    return ov::guarded("ov_image_clone", [&]() -> ov_status {
        if (!src || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no image");
        *out = ov::wrap(src->primary().clone());
        return ov::ok();
    });
}

void ov_image_free(ov_image *image) { delete image; }

int ov_image_width(const ov_image *image) { return image ? image->cols() : 0; }
int ov_image_height(const ov_image *image) { return image ? image->rows() : 0; }
int ov_image_is_gray(const ov_image *image) { return image && image->isGray() ? 1 : 0; }

const uint8_t *ov_image_bgr(const ov_image *image, size_t *stride) {
    if (!image || image->isGray()) return nullptr;
    if (stride) *stride = image->bgr.step[0];
    return image->bgr.data;
}

size_t ov_image_warning_count(const ov_image *image) { return image ? image->warnings.size() : 0; }

const char *ov_image_warning(const ov_image *image, size_t index) {
    if (!image || index >= image->warnings.size()) return nullptr;
    return image->warnings[index].c_str();
}

const uint8_t *ov_image_gray(const ov_image *image, size_t *stride) {
    if (!image) return nullptr;
    try {
        const cv::Mat &g = image->gray();
        if (stride) *stride = g.step[0];
        return g.data;
    } catch (...) {
        ov::fail(OV_ERR_INTERNAL, "gray conversion failed");
        return nullptr;
    }
}

ov_status ov_image_encode(const ov_image *image, const char *extension, int quality, uint8_t **out,
                          size_t *length) {
    return ov::guarded("ov_image_encode", [&]() -> ov_status {
        if (!image || !extension || !out || !length) return ov::fail(OV_ERR_INVALID_ARGUMENT, "missing argument");
        std::string ext(extension);
        if (!ext.empty() && ext[0] != '.') ext = "." + ext;
        if (!ov::imgcodecs::haveImageWriter(ext)) return ov::fail(OV_ERR_UNSUPPORTED, "no encoder for '" + ext + "'");
        std::vector<int> params;
        if (quality > 0) {
            if (ext == ".jpg" || ext == ".jpeg") params = {cv::IMWRITE_JPEG_QUALITY, quality};
            if (ext == ".webp") params = {cv::IMWRITE_WEBP_QUALITY, quality};
        }
        std::vector<uchar> bytes;
        if (!ov::imgcodecs::imencode(ext, image->primary(), bytes, params)) return ov::fail(OV_ERR_IO, "encoding failed");
        auto *buffer = static_cast<uint8_t *>(std::malloc(bytes.size()));
        if (!buffer) return ov::fail(OV_ERR_OUT_OF_MEMORY, "out of memory");
        std::memcpy(buffer, bytes.data(), bytes.size());
        *out = buffer;
        *length = bytes.size();
        return ov::ok();
    });
}

ov_status ov_image_draw_polyline(ov_image *image, const float *xy, int count, int closed, int r, int g, int b,
                                 int thickness) {
    return ov::guarded("ov_image_draw_polyline", [&]() -> ov_status {
        if (!image || !xy || count < 2) return ov::fail(OV_ERR_INVALID_ARGUMENT, "need an image and 2+ points");
        image->ensureColor();
        std::vector<cv::Point> points;
        points.reserve(count);
        for (int i = 0; i < count; ++i) points.emplace_back(cvRound(xy[2 * i]), cvRound(xy[2 * i + 1]));
        cv::polylines(image->bgr, points, closed != 0, cv::Scalar(b, g, r), std::max(1, thickness), cv::LINE_AA);
        return ov::ok();
    });
}

ov_status ov_image_draw_circle(ov_image *image, float x, float y, float radius, int r, int g, int b,
                               int thickness) {
    return ov::guarded("ov_image_draw_circle", [&]() -> ov_status {
        if (!image) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no image");
        image->ensureColor();
        cv::circle(image->bgr, cv::Point(cvRound(x), cvRound(y)), std::max(1, cvRound(radius)), cv::Scalar(b, g, r),
                   thickness < 0 ? cv::FILLED : std::max(1, thickness), cv::LINE_AA);
        return ov::ok();
    });
}

ov_status ov_image_draw_label(ov_image *image, const char *utf8, float x, float y, float scale, int r, int g,
                              int b, int br, int bg, int bb) {
    return ov::guarded("ov_image_draw_label", [&]() -> ov_status {
        if (!image || !utf8) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no image or text");
        image->ensureColor();
        const int font = cv::FONT_HERSHEY_SIMPLEX;
        double fontScale = 0.6 * scale;
        int thickness = std::max(1, cvRound(1.5 * scale));
        int baseline = 0;
        cv::Size size = cv::getTextSize(utf8, font, fontScale, thickness, &baseline);
        cv::Point origin(cvRound(x), cvRound(y));
        // Keep the label inside the image.
        origin.x = std::clamp(origin.x, 0, std::max(0, image->bgr.cols - size.width - 4));
        origin.y = std::clamp(origin.y, size.height + 4, std::max(size.height + 4, image->bgr.rows - baseline));
        cv::rectangle(image->bgr, cv::Point(origin.x, origin.y - size.height - 4),
                      cv::Point(origin.x + size.width + 4, origin.y + baseline), cv::Scalar(bb, bg, br), cv::FILLED);
        cv::putText(image->bgr, utf8, cv::Point(origin.x + 2, origin.y - 2), font, fontScale, cv::Scalar(b, g, r),
                    thickness, cv::LINE_AA);
        return ov::ok();
    });
}

ov_status ov_image_draw_text_ttf(ov_image *image, const char *utf8, const char *fontPath, int pixelHeight, int x,
                                 int y, int r, int g, int b) {
    return ov::guarded("ov_image_draw_text_ttf", [&]() -> ov_status {
        if (!image || !utf8 || !fontPath) return ov::fail(OV_ERR_INVALID_ARGUMENT, "missing argument");
        image->ensureColor();
        static std::mutex mutex;
        static std::map<std::string, cv::Ptr<cv::freetype::FreeType2>> fonts;
        std::lock_guard<std::mutex> lock(mutex);
        auto &ft = fonts[fontPath];
        if (!ft) {
            ft = cv::freetype::createFreeType2();
            try {
                ft->loadFontData(fontPath, 0);
            } catch (const cv::Exception &e) {
                fonts.erase(fontPath);
                return ov::fail(OV_ERR_IO, std::string("cannot load font ") + fontPath);
            }
        }
        ft->putText(image->bgr, utf8, cv::Point(x, y), pixelHeight, cv::Scalar(b, g, r), -1, cv::LINE_AA, true);
        return ov::ok();
    });
}

ov_status ov_image_fill_polygon(ov_image *image, const float *xy, int count, int r, int g, int b) {
    return ov::guarded("ov_image_fill_polygon", [&]() -> ov_status {
        if (!image || !xy || count < 3) return ov::fail(OV_ERR_INVALID_ARGUMENT, "need an image and 3+ points");
        image->ensureColor();
        std::vector<cv::Point> points;
        for (int i = 0; i < count; ++i) points.emplace_back(cvRound(xy[2 * i]), cvRound(xy[2 * i + 1]));
        std::vector<std::vector<cv::Point>> polys{points};
        cv::fillPoly(image->bgr, polys, cv::Scalar(b, g, r), cv::LINE_AA);
        return ov::ok();
    });
}

ov_status ov_image_paste(ov_image *dst, const ov_image *src, float x, float y, float degrees, float scale) {
    return ov::guarded("ov_image_paste", [&]() -> ov_status {
        if (!dst || !src || scale <= 0) return ov::fail(OV_ERR_INVALID_ARGUMENT, "missing image or bad scale");
        dst->ensureColor();
        cv::Mat converted;
        if (src->isGray()) cv::cvtColor(src->luma, converted, cv::COLOR_GRAY2BGR);
        const cv::Mat &s = src->isGray() ? converted : src->bgr;
        cv::Point2f centre(s.cols / 2.0f, s.rows / 2.0f);
        cv::Mat m = cv::getRotationMatrix2D(centre, degrees, scale);
        // Translate so that the source centre lands at (x + w*scale/2, y + h*scale/2).
        m.at<double>(0, 2) += x + s.cols * scale / 2.0 - centre.x;
        m.at<double>(1, 2) += y + s.rows * scale / 2.0 - centre.y;
        cv::Mat mask(s.size(), CV_8UC1, cv::Scalar(255)), warpedMask, warped;
        cv::warpAffine(s, warped, m, dst->bgr.size(), cv::INTER_LINEAR, cv::BORDER_CONSTANT);
        cv::warpAffine(mask, warpedMask, m, dst->bgr.size(), cv::INTER_NEAREST, cv::BORDER_CONSTANT);
        warped.copyTo(dst->bgr, warpedMask);
        return ov::ok();
    });
}

}  // extern "C"
