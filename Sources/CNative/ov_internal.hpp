// Internal C++ helpers shared by the native layer's implementation files. Never included by Swift.
#pragma once

#include "ov_native.h"
#include "ov_lazy.hpp"

#include <opencv2/core.hpp>

#include <cstdint>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <utility>
#include <vector>

// An image is either colour (`bgr` set, gray derived on demand and cached) or luma-only
// (`bgr` empty, `luma` set): decoding only luma is several times faster for JPEG and is all that
// barcode, text, face and rectangle detection need.
struct ov_image {
    cv::Mat bgr;   // CV_8UC3, continuous; empty for a luma-only image
    cv::Mat luma;  // CV_8UC1, continuous; set only for a luma-only image
    /// What the decoder warned about while making these pixels (a damaged JPEG), first ones first.
    std::vector<std::string> warnings;

    bool isGray() const { return bgr.empty(); }
    bool empty() const { return bgr.empty() && luma.empty(); }
    int cols() const { return isGray() ? luma.cols : bgr.cols; }
    int rows() const { return isGray() ? luma.rows : bgr.rows; }
    /// The stored pixels: bgr, or luma for a luma-only image.
    const cv::Mat &primary() const { return isGray() ? luma : bgr; }

    /// 8-bit gray pixels: the luma plane itself, or a conversion of bgr made once (thread-safe).
    const cv::Mat &gray() const {
        if (isGray()) return luma;
        std::call_once(grayOnce, [this] { computeGray(); });
        return grayCache;
    }

    /// Turns a luma-only image into a colour one (for drawing). Not thread-safe: callers own the image.
    void ensureColor();

private:
    void computeGray() const;
    mutable std::once_flag grayOnce;
    mutable cv::Mat grayCache;
};

namespace ov::jpeg {
enum class DecodeResult { decoded, failed, unsupported };
/// True for bytes that start like a JPEG (SOI + a marker).
bool isJpeg(const void *data, size_t length);
/// Decodes a JPEG with libjpeg itself (ov_jpeg.cpp): the pixels OpenCV's imdecode would give, plus
/// the decoder's warnings. `unsupported`: leave the file to OpenCV (CMYK); `failed`: `error` says why.
DecodeResult decode(const void *data, size_t length, bool lumaOnly, int reduction, cv::Mat &out,
                    std::vector<std::string> &warnings, std::string &error);
}  // namespace ov::jpeg

namespace ov {
/// Images up to this many pixels keep their working buffers between calls (ov::Kept).
constexpr size_t kKeptMaxPixels = size_t(1) << 20;

/// One value kept from a call for the next (buffers to reuse instead of allocating and page-faulting them
/// afresh); taken by one call at a time, so it is never shared. Thread-safe.
template <typename T>
class Kept {
public:
    T take() {
        std::lock_guard<std::mutex> hold(lock_);
        return std::exchange(value_, T{});
    }
    void keep(T value) {
        std::lock_guard<std::mutex> hold(lock_);
        value_ = std::move(value);
    }

private:
    std::mutex lock_;
    T value_{};
};
}  // namespace ov

namespace ov::png {
enum class DecodeResult { decoded, unsupported };
/// True for bytes that start with the PNG signature.
bool isPng(const void *data, size_t length);
/// Decodes a common PNG (8-bit gray/RGB(A), not interlaced, reduction 1) with libdeflate (ov_png.cpp):
/// the pixels OpenCV's imdecode would give. `unsupported`: leave the file to OpenCV, which also reports
/// every error (this path never fails on its own).
DecodeResult decode(const void *data, size_t length, bool lumaOnly, int reduction, cv::Mat &out);
enum class DataCheck { fits, exceeds, unknown };
/// Whether a PNG's image data (its IDAT zlib stream) inflates to no more than its header's size needs:
/// `exceeds` for a stream that goes on past it (libpng would inflate all of it and drop the excess: 8 GB
/// behind a 1 x 1 header took 17 s), found without inflating past the declared size; `unknown` for files
/// this check cannot read (truncated, damaged, no IDAT), which OpenCV then reports as it always did.
DataCheck checkDataSize(const void *data, size_t length);
/// Decodes any PNG with libpng itself (ov_libpng.cpp): the pixels OpenCV's imdecode would give, with libpng's
/// warnings collected instead of printed; false with libpng's error in `error`.
bool decodeWithLibpng(const void *data, size_t length, bool lumaOnly, int reduction, cv::Mat &out,
                      std::vector<std::string> &warnings, std::string &error);
}  // namespace ov::png

struct ov_tensors {
    struct Tensor {
        std::string name;
        std::vector<int64_t> shape;
        std::vector<float> storage;  // owned data (empty when `data` points into a kept-alive buffer)
        const float *data = nullptr;
        size_t count = 0;
    };
    std::vector<Tensor> tensors;
    std::vector<std::shared_ptr<void>> owners;  // buffers `data` may point into (e.g. ORT OrtValues)
};

namespace ov {

/// `image` shrunk with INTER_AREA so that its longer side is at most `maxSide` (each side at least 1);
/// `image` itself (shared, not copied) when it already fits.
cv::Mat fitWithin(const cv::Mat &image, int maxSide);

/// A zeroed array of `count` Ts (room for at least one) for a C result struct that the caller frees
/// with free(); throws std::bad_alloc (ov::guarded turns it into OV_ERR_OUT_OF_MEMORY).
template <typename T>
T *callocArray(size_t count) {
    void *p = std::calloc(count == 0 ? 1 : count, sizeof(T));
    if (!p) throw std::bad_alloc();
    return static_cast<T *>(p);
}

/// Stores `message` as this thread's last error and returns `status`.
ov_status fail(ov_status status, const std::string &message);

/// Clears this thread's last error and returns OV_OK.
ov_status ok();

/// Runs `body` (returning ov_status), turning any escaping C++ exception into a status + message.
template <typename F>
ov_status guarded(const char *where, F &&body) noexcept {
    try {
        return body();
    } catch (const Failure &f) {
        return fail(f.status, std::string(where) + ": " + f.what());
    } catch (const std::bad_alloc &) {
        return fail(OV_ERR_OUT_OF_MEMORY, std::string(where) + ": out of memory");
    } catch (const cv::Exception &e) {
        return fail(OV_ERR_INTERNAL, std::string(where) + ": OpenCV: " + e.what());
    } catch (const std::exception &e) {
        return fail(OV_ERR_INTERNAL, std::string(where) + ": " + e.what());
    } catch (...) {
        return fail(OV_ERR_INTERNAL, std::string(where) + ": unknown C++ exception");
    }
}

/// Wraps a Mat in a new heap handle (moves it): 3 channels become a colour image, 1 a luma-only one.
ov_image *wrap(cv::Mat &&pixels);

/// Elements of a tensor of `shape` (1 for a scalar); throws std::invalid_argument for a negative
/// dimension or an overflow (ov_tensor.cpp).
size_t elementCount(const std::vector<int64_t> &shape);

}  // namespace ov
