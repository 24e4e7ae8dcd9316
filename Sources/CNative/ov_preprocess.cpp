// Model input preparation: resize / letterbox / centre-crop an image into a float tensor (OpenCV).
#include "ov_internal.hpp"

#include <opencv2/imgproc.hpp>

#include <cmath>

namespace {

// (pixel * scale - mean) / std per channel of an 8-bit BGR canvas at model size, in the requested order and layout.
void write_tensor(const cv::Mat &canvas, const ov_preprocess_params &p, float *out) {
    const int W = p.width, H = p.height;
    const int order[3] = {p.rgb ? 2 : 0, 1, p.rgb ? 0 : 2};  // output channel c reads BGR channel order[c]
    const size_t plane = static_cast<size_t>(W) * H;
    if (!p.nhwc) {
        cv::Mat bgr[3];
        cv::split(canvas, bgr);
        for (int c = 0; c < 3; ++c) {
            cv::Mat dst(H, W, CV_32FC1, out + c * plane);
            const double a = p.scale / p.std[c], b = -p.mean[c] / p.std[c];
            bgr[order[c]].convertTo(dst, CV_32F, a, b);
        }
    } else {
        float a[3], b[3];
        for (int c = 0; c < 3; ++c) { a[c] = p.scale / p.std[c]; b[c] = -p.mean[c] / p.std[c]; }
        for (int y = 0; y < H; ++y) {
            const uint8_t *row = canvas.ptr<uint8_t>(y);
            float *o = out + static_cast<size_t>(y) * W * 3;
            for (int x = 0; x < W; ++x, row += 3, o += 3)
                for (int c = 0; c < 3; ++c) o[c] = row[order[c]] * a[c] + b[c];
        }
    }
}

// Why `p` cannot fill a tensor of `capacity` floats, or nullptr when it can.
const char *checkParams(const ov_preprocess_params &p, size_t capacity) {
    if (p.width <= 0 || p.height <= 0 || p.width > 16384 || p.height > 16384)
        return "model input size must be 1...16384 on each side";
    if (capacity < static_cast<size_t>(p.width) * p.height * 3) return "output buffer smaller than 3 x width x height floats";
    for (int c = 0; c < 3; ++c)
        if (!(p.std[c] != 0.0f) || !std::isfinite(p.std[c]) || !std::isfinite(p.mean[c]))
            return "mean/std must be finite and std non-zero";
    return nullptr;
}

// The image's BGR pixels (a gray image expanded to three channels).
cv::Mat bgrOf(const ov_image &image) {
    if (!image.isGray()) return image.bgr;
    cv::Mat bgr;
    cv::cvtColor(image.luma, bgr, cv::COLOR_GRAY2BGR);
    return bgr;
}

}  // namespace

extern "C" ov_status ov_preprocess(const ov_image *image, const ov_preprocess_params *p, float *out, size_t capacity,
                                   ov_input_mapping *mapping) {
    return ov::guarded("ov_preprocess", [&]() -> ov_status {
        if (!image || !p || !out || image->empty()) return ov::fail(OV_ERR_INVALID_ARGUMENT, "missing image or parameters");
        if (const char *problem = checkParams(*p, capacity)) return ov::fail(OV_ERR_INVALID_ARGUMENT, problem);
        const int W = p->width, H = p->height;

        const cv::Mat src = bgrOf(*image);
        const double w = src.cols, h = src.rows;

        // The 8-bit canvas at model size, and how source pixels map into it.
        cv::Mat canvas;
        double sx = 1, sy = 1, ox = 0, oy = 0;
        switch (p->mode) {
            case OV_CROP_SCALE_FILL: {
                sx = W / w; sy = H / h;
                cv::resize(src, canvas, cv::Size(W, H), 0, 0, cv::INTER_LINEAR);
                break;
            }
            case OV_CROP_SCALE_FIT: {  // letterbox, as Ultralytics: centred, padded with pad_value
                const double s = std::min(W / w, H / h);
                const int nw = std::max(1, static_cast<int>(std::lround(w * s)));
                const int nh = std::max(1, static_cast<int>(std::lround(h * s)));
                const int left = static_cast<int>(std::lround((W - nw) / 2.0 - 0.1));
                const int top = static_cast<int>(std::lround((H - nh) / 2.0 - 0.1));
                const int pad = std::clamp(static_cast<int>(std::lround(p->pad_value)), 0, 255);
                canvas = cv::Mat(H, W, CV_8UC3, cv::Scalar(pad, pad, pad));
                cv::Mat resized;
                cv::resize(src, resized, cv::Size(nw, nh), 0, 0, cv::INTER_LINEAR);
                resized.copyTo(canvas(cv::Rect(left, top, nw, nh)));
                sx = nw / w; sy = nh / h; ox = left; oy = top;
                break;
            }
            case OV_CROP_CENTER: {  // scale so the image covers the input, keep the centre
                const double s = std::max(W / w, H / h);
                const double cw = W / s, ch = H / s;
                const double x0 = (w - cw) / 2, y0 = (h - ch) / 2;
                cv::Rect roi(static_cast<int>(std::floor(x0)), static_cast<int>(std::floor(y0)),
                             std::max(1, static_cast<int>(std::lround(cw))), std::max(1, static_cast<int>(std::lround(ch))));
                roi &= cv::Rect(0, 0, src.cols, src.rows);
                cv::resize(src(roi), canvas, cv::Size(W, H), 0, 0, cv::INTER_LINEAR);
                sx = W / static_cast<double>(roi.width); sy = H / static_cast<double>(roi.height);
                ox = -roi.x * sx; oy = -roi.y * sy;
                break;
            }
            default: return ov::fail(OV_ERR_INVALID_ARGUMENT, "unknown crop and scale mode");
        }
        if (mapping) {
            mapping->scale_x = static_cast<float>(sx);
            mapping->scale_y = static_cast<float>(sy);
            mapping->offset_x = static_cast<float>(ox);
            mapping->offset_y = static_cast<float>(oy);
        }

        write_tensor(canvas, *p, out);
        return ov::ok();
    });
}

// The one warp for MediaPipe's models (body pose, segmentation, hands, BlazeFace). The warp is done on 8-bit
// pixels and rounded before the float conversion, as MediaPipe does: the pose detector's keypoints move by a
// pixel when the input differs by that rounding (against MediaPipe Python: landmark error 0.04% of the diagonal
// with this warp, 0.4% with a resize).
extern "C" ov_status ov_preprocess_warp(const ov_image *image, const double m[9], int border_replicate,
                                        const ov_preprocess_params *p, float *out, size_t capacity) {
    return ov::guarded("ov_preprocess_warp", [&]() -> ov_status {
        if (!image || !p || !out || !m || image->empty()) return ov::fail(OV_ERR_INVALID_ARGUMENT, "missing image, matrix or parameters");
        if (const char *problem = checkParams(*p, capacity)) return ov::fail(OV_ERR_INVALID_ARGUMENT, problem);
        const int W = p->width, H = p->height;
        for (int i = 0; i < 9; ++i)
            if (!std::isfinite(m[i])) return ov::fail(OV_ERR_INVALID_ARGUMENT, "the warp matrix is not finite");
        cv::Mat matrix(3, 3, CV_64F);
        for (int i = 0; i < 9; ++i) matrix.at<double>(i / 3, i % 3) = m[i];
        if (std::abs(cv::determinant(matrix)) < 1e-12) return ov::fail(OV_ERR_INVALID_ARGUMENT, "the warp matrix is singular");

        const cv::Mat src = bgrOf(*image);
        // cv::remap (under both warps) asserts on a source of SHRT_MAX pixels a side or more.
        if (src.cols >= 32767 || src.rows >= 32767)
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "the image is " + std::to_string(src.cols) + "x" + std::to_string(src.rows) +
                                                         " pixels; warps take at most 32766 pixels a side");
        const int border = border_replicate ? cv::BORDER_REPLICATE : cv::BORDER_CONSTANT;
        cv::Mat canvas;
        // The matrix maps destination to source (WARP_INVERSE_MAP); affine when its last row is (0, 0, 1).
        if (m[6] == 0 && m[7] == 0 && m[8] == 1)
            cv::warpAffine(src, canvas, matrix.rowRange(0, 2), cv::Size(W, H), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP,
                           border, cv::Scalar(0, 0, 0));
        else
            cv::warpPerspective(src, canvas, matrix, cv::Size(W, H), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP,
                                border, cv::Scalar(0, 0, 0));
        write_tensor(canvas, *p, out);
        return ov::ok();
    });
}
