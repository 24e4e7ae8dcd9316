// Video file writing (ov_video_writer_*) through OpenCV's FFmpeg backend.
//
// Decisions
//   - The container follows the extension, each with a codec list tried in order (.mp4/.m4v/.mov: mp4v;
//     .avi: MJPG; .mkv: mp4v then XVID; .webm: VP80 then VP90). An explicit fourcc replaces the list.
//   - The directory is checked first so a missing or read-only folder says so (OpenCV only says "failed");
//     a failed open removes the empty file it left behind, unless the file was there before.
//   - Frames of another size are resized (INTER_AREA shrinking, else linear), luma-only ones turned to BGR.
//   - An MP4 is only readable once ov_video_writer_free has written its index: callers stopping early
//     (signals, errors) must still free the writer.
#include "ov_video_internal.hpp"

#include <opencv2/imgproc.hpp>
#include "ov_videoio.hpp"

#include <unistd.h>

#include <cerrno>
#include <memory>
#include <mutex>

using namespace ov::video;

struct ov_video_writer {
    ov::videoio::Writer writer;  // built by the lazily loaded videoio module
    cv::Size size;
    std::string path;
    std::mutex mutex;
};

extern "C" {

ov_status ov_video_writer_open(const char *path, const char *fourcc, double fps, int width, int height,
                               ov_video_writer **out) {
    return ov::guarded("ov_video_writer_open", [&]() -> ov_status {
        if (!out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no output handle");
        *out = nullptr;
        if (!path || !*path) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no path");
        if (!(fps > 0 && fps <= 1000)) return ov::fail(OV_ERR_INVALID_ARGUMENT, "fps must be in (0, 1000]");
        if (width <= 0 || height <= 0 || width > 16384 || height > 16384)
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "width and height must be 1...16384");
        if (fourcc && *fourcc && std::strlen(fourcc) > 4) return ov::fail(OV_ERR_INVALID_ARGUMENT, "a fourcc has at most 4 characters");
        const std::string file(path), ext = extensionOf(file);

        std::vector<std::string> codecs;
        if (ext == ".mp4" || ext == ".m4v" || ext == ".mov") codecs = {"mp4v"};
        else if (ext == ".avi") codecs = {"MJPG"};
        else if (ext == ".mkv") codecs = {"mp4v", "XVID"};
        else if (ext == ".webm") codecs = {"VP80", "VP90"};
        else return ov::fail(OV_ERR_UNSUPPORTED, "unknown video container '" + ext + "' for " + file + " (use .mp4, .avi, .mkv or .webm)");
        if (fourcc && *fourcc) codecs = {fourcc};

        const std::string dir = directoryOf(file);
        if (!isDirectory(dir)) return ov::fail(OV_ERR_IO, "cannot write video file " + file + ": no such directory " + dir);
        if (::access(dir.c_str(), W_OK) != 0)
            return ov::fail(OV_ERR_IO, "cannot write video file " + file + ": " + std::strerror(errno));
        if (isDirectory(file)) return ov::fail(OV_ERR_IO, "cannot write video file " + file + ": it is a directory");
        const bool existed = pathExists(file);

        std::unique_ptr<ov_video_writer> w(new ov_video_writer());
        w->size = cv::Size(width, height);
        w->path = file;
        avlog::Capture log;
        for (const auto &codec : codecs) {
            bool opened = false;
            try {
                opened = w->writer.open(file, cv::CAP_FFMPEG, static_cast<int>(fourccCode(codec.c_str())), fps, w->size,
                                        std::vector<int>{cv::VIDEOWRITER_PROP_IS_COLOR, 1});
            } catch (const cv::Exception &) {
                opened = false;
            }
            if (opened && w->writer->isOpened()) {
                *out = w.release();
                return ov::ok();
            }
        }
        if (!existed) {  // don't leave an empty file behind
            struct stat st {};
            if (::stat(file.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0) ::unlink(file.c_str());
        }
        std::string tried;
        for (const auto &codec : codecs) tried += (tried.empty() ? "'" : ", '") + codec + "'";
        return ov::fail(OV_ERR_UNSUPPORTED, "cannot write " + file + " with codec " + tried + " at " + std::to_string(width) +
                                                "x" + std::to_string(height) + log.suffix() +
                                                ((width % 2 || height % 2) ? " (many codecs need even dimensions)" : ""));
    });
}

ov_status ov_video_writer_write(ov_video_writer *w, const ov_image *frame) {
    return ov::guarded("ov_video_writer_write", [&]() -> ov_status {
        if (!w || !frame || frame->empty()) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no writer or frame");
        std::lock_guard<std::mutex> lock(w->mutex);
        if (!w->writer->isOpened()) return ov::fail(OV_ERR_IO, "the writer for " + w->path + " is closed");
        cv::Mat colour;
        if (frame->isGray()) cv::cvtColor(frame->luma, colour, cv::COLOR_GRAY2BGR);
        const cv::Mat &src = frame->isGray() ? colour : frame->bgr;
        if (src.size() == w->size) {
            w->writer->write(src);
        } else {
            cv::Mat resized;
            bool shrinking = src.cols >= w->size.width && src.rows >= w->size.height;
            cv::resize(src, resized, w->size, 0, 0, shrinking ? cv::INTER_AREA : cv::INTER_LINEAR);
            w->writer->write(resized);
        }
        return ov::ok();
    });
}

void ov_video_writer_free(ov_video_writer *w) {
    if (!w) return;
    try {
        w->writer->release();
    } catch (...) {
    }
    try {
        delete w;
    } catch (...) {
    }
}
}  // extern "C"
