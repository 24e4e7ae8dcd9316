// libFuzzer target: ov::png::decodeWithLibpng (Sources/CNative/ov_libpng.cpp), differential against OpenCV's
// imdecode on the same libpng. Whatever the input, it either fails with libpng's message or gives exactly
// OpenCV's pixels, at full and half scale, colour and luma; libpng's longjmp error path, the warning buffers and
// the row pointers run under AddressSanitizer.
#include "ov_internal.hpp"

#include <opencv2/imgcodecs.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
uint32_t bigEndian32(const uint8_t *p) { return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3]; }
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    // A header declaring more than 2^22 pixels only allocates OpenCV's own size (refused past 2^30 pixels, as
    // PNGDecodingTests checks): here it would meet libFuzzer's memory limit, not a decoder fault.
    if (size >= 24 && std::memcmp(data + 12, "IHDR", 4) == 0
        && uint64_t(bigEndian32(data + 16)) * bigEndian32(data + 20) > (uint64_t(1) << 22))
        return 0;
    const cv::Mat buffer(1, static_cast<int>(size), CV_8UC1, const_cast<uint8_t *>(data));
    for (bool luma : {false, true}) {
        for (int reduction : {1, 2}) {
            cv::Mat mine;
            std::vector<std::string> warnings;
            std::string error;
            const bool decoded = ov::png::decodeWithLibpng(data, size, luma, reduction, mine, warnings, error);
            if (!decoded) {
                if (error.empty()) {
                    std::fprintf(stderr, "png-libpng: failed without a message\n");
                    std::abort();
                }
                continue;
            }
            int flags = cv::IMREAD_IGNORE_ORIENTATION;
            if (reduction == 1) flags |= luma ? cv::IMREAD_GRAYSCALE : cv::IMREAD_COLOR;
            else flags |= luma ? cv::IMREAD_REDUCED_GRAYSCALE_2 : cv::IMREAD_REDUCED_COLOR_2;
            const cv::Mat reference = cv::imdecode(buffer, flags);
            if (reference.empty() || reference.size() != mine.size() || reference.type() != mine.type()
                || cv::norm(reference, mine, cv::NORM_INF) != 0) {
                std::fprintf(stderr, "png-libpng: decoded %dx%d, OpenCV %dx%d (luma %d, 1/%d): pixels differ\n", mine.cols,
                             mine.rows, reference.cols, reference.rows, luma, reduction);
                std::abort();
            }
        }
    }
    return 0;
}
