// PNG decoding through libpng itself, for the files the libdeflate path (ov_png.cpp) leaves, so that libpng's
// warnings and errors reach the caller instead of stderr.
//
// Algorithm / Decisions
// - OpenCV's imdecode creates its libpng reader with the default error handlers, which print
//   "libpng warning: iCCP: too short" or "libpng error: PNG input buffer is incomplete" to stderr: in
//   `openvision serve` every bad upload left an unstructured line in the server's log, and the caller saw
//   only "could not be decoded". Here the same library (Debian's libpng16, the one OpenCV's imgcodecs
//   links) decodes with handlers that collect warnings (they travel with the image, ov_image::warnings) and
//   keep the error's message for the OV_ERR_DECODE.
// - Same pixels as OpenCV 4.6 (grfmt_png.cpp, PngDecoder::readHeader/readData, and imdecode_): the same
//   transforms in the same order on a reader fed from memory the same way: 16-bit samples stripped to
//   8, alpha stripped, palette expanded to RGB, 1/2/4-bit gray expanded to 8, colour as BGR, gray
//   replicated to BGR for a colour output and colour to gray by png_set_rgb_to_gray(1, 0.299, 0.587),
//   interlace handled by libpng; a reduced decode is the full image resized with INTER_LINEAR_EXACT to
//   width / r × height / r, as imdecode does for decoders without a scaled decode. OpenCV's size limits
//   (CV_IO_MAX_IMAGE_WIDTH/HEIGHT 2^20, CV_IO_MAX_IMAGE_PIXELS 2^30) are refused the same way, as errors.
// - At most kMaxWarnings distinct messages are kept; the count of the rest is appended (as ov_jpeg.cpp).
// - libpng reports errors through the error handler, which must not return: it longjmps back into
//   decode(). Everything that outlives the jump lives in one heap block made before setjmp, the handlers
//   write only into fixed buffers (nothing that can throw across libpng's C frames).
#include "ov_internal.hpp"

#include <opencv2/imgproc.hpp>
#include <png.h>

#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr size_t kMaxWarnings = 4;
constexpr size_t kMessageLength = 200;
constexpr int kMaxSide = 1 << 20;               // OpenCV's CV_IO_MAX_IMAGE_WIDTH and _HEIGHT
constexpr uint64_t kMaxPixels = uint64_t(1) << 30;  // OpenCV's CV_IO_MAX_IMAGE_PIXELS

struct Reader {
    png_structp png = nullptr;
    png_infop info = nullptr;
    png_infop end = nullptr;
    const unsigned char *data = nullptr;
    size_t length = 0;
    size_t position = 0;
    char fatal[kMessageLength] = {0};
    char warnings[kMaxWarnings][kMessageLength] = {};
    size_t warningCount = 0;
    size_t moreWarnings = 0;
    cv::Mat pixels;
    std::vector<png_bytep> rows;

    ~Reader() {
        if (png) png_destroy_read_struct(&png, info ? &info : nullptr, end ? &end : nullptr);
    }
};

void copyMessage(char *to, png_const_charp message) {
    std::snprintf(to, kMessageLength, "%s", message ? message : "unknown error");
}

[[noreturn]] void onError(png_structp png, png_const_charp message) {
    copyMessage(static_cast<Reader *>(png_get_error_ptr(png))->fatal, message);
    png_longjmp(png, 1);
}

void onWarning(png_structp png, png_const_charp message) {
    Reader *r = static_cast<Reader *>(png_get_error_ptr(png));
    char text[kMessageLength];
    copyMessage(text, message);
    for (size_t i = 0; i < r->warningCount; ++i)
        if (std::strcmp(r->warnings[i], text) == 0) return;
    if (r->warningCount < kMaxWarnings) std::memcpy(r->warnings[r->warningCount++], text, kMessageLength);
    else r->moreWarnings++;
}

// OpenCV's readFromStreamOrBuffer: the bytes from memory, an error past their end.
void readBytes(png_structp png, png_bytep out, png_size_t count) {
    Reader *r = static_cast<Reader *>(png_get_io_ptr(png));
    if (count > r->length - r->position) png_error(png, "PNG input buffer is incomplete");
    std::memcpy(out, r->data + r->position, count);
    r->position += count;
}

}  // namespace

namespace ov::png {

bool decodeWithLibpng(const void *data, size_t length, bool lumaOnly, int reduction, cv::Mat &out,
                      std::vector<std::string> &warnings, std::string &error) {
    auto owned = std::make_unique<Reader>();
    Reader *r = owned.get();
    r->data = static_cast<const unsigned char *>(data);
    r->length = length;
    r->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, r, onError, onWarning);
    if (!r->png) throw std::bad_alloc();
    r->info = png_create_info_struct(r->png);
    r->end = png_create_info_struct(r->png);
    if (!r->info || !r->end) throw std::bad_alloc();
    if (setjmp(png_jmpbuf(r->png))) {
        error = r->fatal;
        return false;
    }
    png_set_read_fn(r->png, r, readBytes);
    png_read_info(r->png, r->info);
    png_uint_32 width = 0, height = 0;
    int bitDepth = 0, colorType = 0;
    png_get_IHDR(r->png, r->info, &width, &height, &bitDepth, &colorType, nullptr, nullptr, nullptr);
    if (bitDepth > 8 && bitDepth != 16) png_error(r->png, "unsupported bit depth");
    if (width == 0 || height == 0 || width > kMaxSide || height > kMaxSide || uint64_t(width) * height > kMaxPixels)
        png_error(r->png, "image size exceeds OpenCV's limits (2^20 per side, 2^30 pixels)");
    const bool color = !lumaOnly;
    r->pixels.create(static_cast<int>(height), static_cast<int>(width), color ? CV_8UC3 : CV_8UC1);

    if (bitDepth == 16) png_set_strip_16(r->png);
    png_set_strip_alpha(r->png);
    if (colorType == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(r->png);
    if ((colorType & PNG_COLOR_MASK_COLOR) == 0 && bitDepth < 8) png_set_expand_gray_1_2_4_to_8(r->png);
    if ((colorType & PNG_COLOR_MASK_COLOR) && color) png_set_bgr(r->png);
    else if (color) png_set_gray_to_rgb(r->png);
    else png_set_rgb_to_gray(r->png, 1, 0.299, 0.587);
    png_set_interlace_handling(r->png);
    png_read_update_info(r->png, r->info);
    if (png_get_rowbytes(r->png, r->info) != r->pixels.step[0])
        png_error(r->png, "unexpected row size after the transforms");

    r->rows.resize(height);
    for (png_uint_32 y = 0; y < height; ++y) r->rows[y] = r->pixels.ptr(static_cast<int>(y));
    png_read_image(r->png, r->rows.data());
    png_read_end(r->png, r->end);

    for (size_t i = 0; i < r->warningCount; ++i) warnings.emplace_back(std::string("PNG: ") + r->warnings[i]);
    if (r->moreWarnings) warnings.push_back("PNG: " + std::to_string(r->moreWarnings) + " more warnings");
    if (reduction > 1) {
        const cv::Size size(static_cast<int>(width) / reduction, static_cast<int>(height) / reduction);
        if (size.area() == 0) {
            error = "the image is too small for a reduced decode";
            return false;
        }
        cv::resize(r->pixels, out, size, 0, 0, cv::INTER_LINEAR_EXACT);
    } else {
        out = r->pixels;
    }
    return true;
}

}  // namespace ov::png
