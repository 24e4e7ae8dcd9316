// libFuzzer target: ov_image_decode's PNG decoder (Sources/CNative/ov_png.cpp), differential against
// OpenCV's imdecode (libpng). Whatever the input, it either leaves the file to OpenCV or decodes it to
// exactly OpenCV's pixels; the sanitizer catches any read or write out of bounds. The data-size check
// (ov::png::checkDataSize) runs on every input too, and never calls a file the decoder took a bomb.
#include "ov_internal.hpp"

#include <opencv2/imgcodecs.hpp>

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const ov::png::DataCheck check = ov::png::checkDataSize(data, size);
    for (bool luma : {false, true}) {
        cv::Mat mine;
        if (ov::png::decode(data, size, luma, 1, mine) != ov::png::DecodeResult::decoded) continue;
        if (check == ov::png::DataCheck::exceeds) {
            std::fprintf(stderr, "png-decoder: decoded a file whose data check says it inflates past its size\n");
            std::abort();
        }
        const cv::Mat buffer(1, static_cast<int>(size), CV_8UC1, const_cast<uint8_t *>(data));
        const cv::Mat reference = cv::imdecode(buffer, (luma ? cv::IMREAD_GRAYSCALE : cv::IMREAD_COLOR) | cv::IMREAD_IGNORE_ORIENTATION);
        if (reference.empty() || reference.size() != mine.size() || reference.type() != mine.type()
            || cv::norm(reference, mine, cv::NORM_INF) != 0) {
            std::fprintf(stderr, "png-decoder: decoded %dx%d, OpenCV %dx%d (luma %d): pixels differ\n", mine.cols, mine.rows,
                         reference.cols, reference.rows, luma);
            std::abort();
        }
    }
    return 0;
}
