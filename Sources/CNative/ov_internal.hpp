// Internal C++ helpers shared by the native layer's implementation files. Never included by Swift.
#pragma once

#include "ov_native.h"

#include <opencv2/core.hpp>

#include <exception>
#include <mutex>
#include <new>
#include <string>

struct ov_image {
    cv::Mat bgr;  // CV_8UC3, always continuous rows of its own

    const cv::Mat &gray() const {
        std::call_once(grayOnce, [this] { computeGray(); });
        return grayCache;
    }

private:
    void computeGray() const;
    mutable std::once_flag grayOnce;
    mutable cv::Mat grayCache;
};

namespace ov {

/// Stores `message` as this thread's last error and returns `status`.
ov_status fail(ov_status status, const std::string &message);

/// Clears this thread's last error and returns OV_OK.
ov_status ok();

/// Runs `body` (returning ov_status), turning any escaping C++ exception into a status + message.
template <typename F>
ov_status guarded(const char *where, F &&body) noexcept {
    try {
        return body();
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

/// Wraps a BGR Mat in a new heap handle (moves it).
ov_image *wrap(cv::Mat &&bgr);

}  // namespace ov
