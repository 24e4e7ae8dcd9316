// JPEG decoding through libjpeg(-turbo) itself, so that its warnings reach the caller.
//
// Algorithm / Decisions
// - OpenCV's imdecode prints libjpeg's warnings ("Corrupt JPEG data: premature end of data
//   segment", "Premature end of JPEG file") to stderr and returns the image with grey padding for
//   whatever was missing, rc 0: a truncated upload looks like a good image. Here the same library
//   (Debian's libjpeg62-turbo, the one OpenCV's imgcodecs links) decodes with an error manager that
//   collects warnings instead of printing them; they travel with the image (ov_image::warnings),
//   and strict decoding turns the first one into an OV_ERR_DECODE.
// - Same settings as OpenCV 4.6's JPEG decoder (grfmt_jpeg.cpp), so the pixels are identical:
//   default IDCT (JDCT_ISLOW) and fancy upsampling, JCS_EXT_BGR for colour and JCS_GRAYSCALE for
//   luma, scale 1/reduction through libjpeg's own scaled IDCT (= IMREAD_REDUCED_*).
//   CMYK/YCCK files (4 components), which libjpeg-turbo cannot convert to BGR, are left to OpenCV.
// - libjpeg reports fatal errors through error_exit, which must not return: it longjmps back to
//   decode(). Everything that outlives the jump lives in one heap block owned by a unique_ptr made
//   before setjmp, and only C frames (libjpeg's) are skipped by the jump.
// - At most kMaxWarnings (4) distinct messages are kept (a damaged scan can warn thousands of times);
//   the count of the rest is appended.
// - At most kMaxScans (100) scans: every scan of a progressive file is a pass over all of the image's
//   blocks, and a few bytes make one, so 30 MB of repeated scans would keep a worker busy for hours
//   (libjpeg-turbo's djpeg -maxscans and TurboJPEG's scan limit exist for this). Encoders write about
//   10 (libjpeg's default script) and at most a few dozen. Checked by libjpeg's progress monitor as
//   the scans are read; CMYK/YCCK files, decoded by OpenCV, are read through here first for the count.
#include "ov_internal.hpp"

#include <csetjmp>
#include <cstdio>
#include <jpeglib.h>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr size_t kMaxWarnings = 4;
constexpr int kMaxScans = 100;

struct Decoder {
    jpeg_decompress_struct cinfo{};
    jpeg_error_mgr err{};
    jpeg_progress_mgr progress{};
    std::jmp_buf jump{};
    char fatal[JMSG_LENGTH_MAX] = {0};
    std::vector<std::string> warnings;
    size_t moreWarnings = 0;
    cv::Mat out;
    bool created = false;

    ~Decoder() {
        if (created) jpeg_destroy_decompress(&cinfo);
    }
};

Decoder *decoderOf(j_common_ptr cinfo) {
    // err is the first thing jpeg_std_error set up; cinfo->client_data points back at the Decoder.
    return static_cast<Decoder *>(cinfo->client_data);
}

[[noreturn]] void errorExit(j_common_ptr cinfo) {
    Decoder *d = decoderOf(cinfo);
    (*cinfo->err->format_message)(cinfo, d->fatal);
    std::longjmp(d->jump, 1);
}

void emitMessage(j_common_ptr cinfo, int level) {
    if (level >= 0) return;  // trace messages
    Decoder *d = decoderOf(cinfo);
    cinfo->err->num_warnings++;
    char buffer[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, buffer);
    std::string message(buffer);
    for (const auto &known : d->warnings)
        if (known == message) return;
    if (d->warnings.size() < kMaxWarnings) d->warnings.push_back(std::move(message)); else d->moreWarnings++;
}

void outputMessage(j_common_ptr) {}  // never to stderr

// Called by libjpeg as it reads the input (per iMCU row): ends the decode once a file has too many scans.
void checkScans(j_common_ptr cinfo) {
    const auto *d = reinterpret_cast<j_decompress_ptr>(cinfo);
    if (d->input_scan_number <= kMaxScans) return;
    Decoder *decoder = decoderOf(cinfo);
    std::snprintf(decoder->fatal, sizeof decoder->fatal, "the JPEG has more than %d scans (a decompression bomb): not decoded",
                  kMaxScans);
    std::longjmp(decoder->jump, 1);
}

}  // namespace

namespace ov::jpeg {

bool isJpeg(const void *data, size_t length) {
    const auto *b = static_cast<const unsigned char *>(data);
    return length >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF;
}

DecodeResult decode(const void *data, size_t length, bool lumaOnly, int reduction, cv::Mat &out,
                    std::vector<std::string> &warnings, std::string &error) {
    auto d = std::make_unique<Decoder>();
    Decoder *decoder = d.get();
    decoder->cinfo.err = jpeg_std_error(&decoder->err);
    decoder->err.error_exit = errorExit;
    decoder->err.emit_message = emitMessage;
    decoder->err.output_message = outputMessage;
    decoder->cinfo.client_data = decoder;
    decoder->progress.progress_monitor = checkScans;
    if (setjmp(decoder->jump)) {
        error = decoder->fatal;
        return DecodeResult::failed;
    }
    jpeg_create_decompress(&decoder->cinfo);
    decoder->created = true;
    decoder->cinfo.progress = &decoder->progress;
    jpeg_mem_src(&decoder->cinfo, static_cast<const unsigned char *>(data), static_cast<unsigned long>(length));
    jpeg_read_header(&decoder->cinfo, TRUE);
    if (decoder->cinfo.num_components == 4) {
        // CMYK/YCCK: OpenCV converts. A multi-scan file is read here first (its scans counted), then left to it.
        if (jpeg_has_multiple_scans(&decoder->cinfo)) {
            decoder->cinfo.out_color_space = JCS_CMYK;
            jpeg_start_decompress(&decoder->cinfo);
        }
        return DecodeResult::unsupported;
    }
    decoder->cinfo.scale_num = 1;
    decoder->cinfo.scale_denom = static_cast<unsigned int>(reduction);
    decoder->cinfo.out_color_space = lumaOnly ? JCS_GRAYSCALE : JCS_EXT_BGR;
    jpeg_start_decompress(&decoder->cinfo);
    const int width = static_cast<int>(decoder->cinfo.output_width);
    const int height = static_cast<int>(decoder->cinfo.output_height);
    const int channels = decoder->cinfo.output_components;
    if (width <= 0 || height <= 0 || (channels != 1 && channels != 3)) {
        error = "unexpected JPEG output geometry";
        return DecodeResult::failed;
    }
    decoder->out.create(height, width, channels == 1 ? CV_8UC1 : CV_8UC3);
    while (decoder->cinfo.output_scanline < decoder->cinfo.output_height) {
        JSAMPROW row = decoder->out.ptr(static_cast<int>(decoder->cinfo.output_scanline));
        jpeg_read_scanlines(&decoder->cinfo, &row, 1);
    }
    jpeg_finish_decompress(&decoder->cinfo);
    out = std::move(decoder->out);
    warnings = std::move(decoder->warnings);
    if (decoder->moreWarnings > 0)
        warnings.push_back("(" + std::to_string(decoder->moreWarnings) + " more JPEG warnings)");
    return DecodeResult::decoded;
}

}  // namespace ov::jpeg
