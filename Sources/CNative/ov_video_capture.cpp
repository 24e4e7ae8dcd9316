// Video capture (ov_capture_*): files, network streams and V4L2 cameras through OpenCV videoio (FFmpeg
// and V4L2 backends). Image sequences (folders, printf patterns) are read in Swift (ImageSequence.swift).
//
// What it holds
//   - ov_capture_open: the source kind from the URL (or the requested API), then per kind: a file is
//     checked (exists, readable, not empty) before FFmpeg sees it, and diagnosed if FFmpeg refuses it
//     (ov_ffmpeg_diagnose.cpp); a network stream gets our open/read timeouts; a camera is probed and its
//     mode chosen (ov_v4l2.cpp).
//   - ov_capture_read: one BGR frame and its timestamp; the end of a file is OV_OK with no frame, and a
//     failed read says why (timeout, dropped stream, unplugged device).
//
// Decisions
//   - A file known to be cut short (an MP4 whose index lists samples past the end, or a packet cut by
//     the end of the file) is read one frame ahead, so the damaged last frame is dropped; reaching the
//     end before the container's frame count sets ov_capture_info.ended_early.
//   - A finite network stream that reached its announced length (within 2 %) ended cleanly; any other
//     end of a network stream is an error, so the caller reconnects.
//   - Timestamps: the stream position for files and streams (0 on a later frame means "none"), time
//     since the first frame for cameras (driver buffer timestamps).
//   - Calls on one handle are serialised (readMutex); info has its own lock so it can be read while a
//     read blocks.
#include "ov_video_internal.hpp"

#include <opencv2/imgproc.hpp>
#include "ov_videoio.hpp"

#include <linux/videodev2.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <memory>
#include <mutex>
#include <stdexcept>

using namespace ov::video;

enum class SourceKind { File, Network, Device };

struct ov_capture {
    ov::videoio::Capture cap;  // built by the lazily loaded videoio module
    SourceKind kind = SourceKind::File;
    std::string source;       // path, redacted URL or device path, for messages
    int readTimeoutMs = 0;    // effective read timeout (ours or the backend default)
    bool userReadTimeout = false;
    std::mutex readMutex;     // serialises reads
    mutable std::mutex infoMutex;
    ov_capture_info info{};
    bool ended = false;
    bool truncated = false;   // a file known to be cut short: hold one frame back, drop the last (damaged) one
    long framesRead = 0;      // returned to the caller
    long framesGrabbed = 0;   // decoded from the backend
    double deviceTimeBase = -1;
    cv::Mat pending;          // a frame read ahead (truncated files), returned next
    double pendingTimestamp = -1;
    bool hasPending = false;
};

namespace {

/// Any 8-bit or 16-bit, 1/3/4-channel frame as an owned, continuous 8-bit BGR Mat.
cv::Mat toBgr(cv::Mat frame) {
    if (frame.depth() != CV_8U) {
        cv::Mat eight;
        double scale = frame.depth() == CV_16U ? 1.0 / 256 : frame.depth() == CV_32F || frame.depth() == CV_64F ? 255.0 : 1.0;
        frame.convertTo(eight, CV_8U, scale);
        frame = eight;
    }
    cv::Mat bgr;
    switch (frame.channels()) {
        case 1: cv::cvtColor(frame, bgr, cv::COLOR_GRAY2BGR); break;
        case 4: cv::cvtColor(frame, bgr, cv::COLOR_BGRA2BGR); break;
        case 3: bgr = (frame.u == nullptr || !frame.isContinuous()) ? frame.clone() : frame; break;  // own the pixels
        default: throw std::runtime_error("unexpected frame with " + std::to_string(frame.channels()) + " channels");
    }
    return bgr;
}

void fillInfo(ov_capture *c) {
    ov_capture_info info{};
    info.width = static_cast<int>(c->cap->get(cv::CAP_PROP_FRAME_WIDTH));
    info.height = static_cast<int>(c->cap->get(cv::CAP_PROP_FRAME_HEIGHT));
    double fps = c->cap->get(cv::CAP_PROP_FPS);
    info.fps = (std::isfinite(fps) && fps > 0 && fps <= 1000) ? fps : 0;
    double count = c->kind == SourceKind::Device ? -1 : c->cap->get(cv::CAP_PROP_FRAME_COUNT);
    info.frame_count = (std::isfinite(count) && count > 0 && count < 2e9) ? static_cast<int>(count) : -1;
    double fourcc = c->cap->get(cv::CAP_PROP_FOURCC);
    std::string tag = std::isfinite(fourcc) && fourcc > 0 ? fourccString(static_cast<uint32_t>(static_cast<int64_t>(fourcc))) : "";
    // Without a container tag OpenCV's FFmpeg backend returns the first 4 letters of the codec name.
    if (tag == "mjpe") tag = "MJPG";
    else if (tag == "h264") tag = "H264";
    else if (tag == "hevc") tag = "HEVC";
    copyString(info.fourcc, sizeof info.fourcc, tag);
    std::string backend;
    try {
        backend = c->cap.backendName();
    } catch (const cv::Exception &) {
        backend = "";
    }
    copyString(info.backend, sizeof info.backend, backend);
    std::lock_guard<std::mutex> lock(c->infoMutex);
    c->info = info;
}

bool openFfmpeg(ov_capture *c, const std::string &target, const ov_capture_request &req, double &elapsedMs) {
    std::vector<int> params;
    if (req.open_timeout_ms > 0) params.insert(params.end(), {cv::CAP_PROP_OPEN_TIMEOUT_MSEC, req.open_timeout_ms});
    if (req.read_timeout_ms > 0) params.insert(params.end(), {cv::CAP_PROP_READ_TIMEOUT_MSEC, req.read_timeout_ms});
    c->readTimeoutMs = req.read_timeout_ms > 0 ? req.read_timeout_ms : 30000;  // OpenCV's default
    c->userReadTimeout = req.read_timeout_ms > 0;
    auto start = Clock::now();
    bool opened = false;
    try {
        opened = c->cap->open(target, cv::CAP_FFMPEG, params);
    } catch (const cv::Exception &) {
        opened = false;
    }
    elapsedMs = msSince(start);
    return opened && c->cap->isOpened();
}

ov_status openFile(ov_capture *c, const std::string &path, const ov_capture_request &req) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return ov::fail(OV_ERR_IO, "cannot open video file " + path + ": " +
                                       (errno == ENOENT ? std::string("no such file") : std::strerror(errno)));
    if (S_ISDIR(st.st_mode)) return ov::fail(OV_ERR_IO, "cannot open video file " + path + ": it is a directory");
    if (::access(path.c_str(), R_OK) != 0)
        return ov::fail(OV_ERR_IO, "cannot open video file " + path + ": " + std::strerror(errno));
    if (S_ISREG(st.st_mode) && st.st_size == 0) return ov::fail(OV_ERR_DECODE, "not a video: " + path + " (empty file)");
    avlog::Capture log;
    double elapsed = 0;
    if (!openFfmpeg(c, path, req, elapsed)) {
        Mp4Layout mp4 = mp4Layout(path);
        if (mp4.isMp4 && !mp4.hasMoov)
            return ov::fail(OV_ERR_DECODE, "not a video: " + path + " (MP4/MOV without its index ('moov' box)" +
                                               (mp4.cut ? ": the file was cut short or its writer never finalised it)" : ")"));
        return ov::fail(OV_ERR_DECODE, "not a video: " + path + log.suffix());
    }
    // A cut MP4 whose index survived (moov first) lists samples past the end: its last frame comes from a
    // partial packet and is damaged, so reads look one frame ahead and drop it.
    if (mp4Layout(path).cut) c->truncated = true;
    if (c->cap->get(cv::CAP_PROP_FRAME_WIDTH) <= 0)
        return ov::fail(OV_ERR_DECODE, "not a video: " + path + " (no decodable video stream)");
    return OV_OK;
}

ov_status openNetwork(ov_capture *c, const std::string &url, const ov_capture_request &req) {
    avlog::Capture log;
    double elapsed = 0;
    if (!openFfmpeg(c, url, req, elapsed)) {
        const int timeout = req.open_timeout_ms > 0 ? req.open_timeout_ms : 30000;
        std::string what = "cannot open stream " + redact(url);
        if (elapsed >= 0.9 * timeout) return ov::fail(OV_ERR_IO, what + ": no answer within " + std::to_string(timeout) + " ms" + log.suffix());
        if (log.text.find("Invalid data found") != std::string::npos)
            return ov::fail(OV_ERR_DECODE, "not a video: " + redact(url) + log.suffix());
        return ov::fail(OV_ERR_IO, what + (log.text.empty() ? ": unreachable, or not a video stream FFmpeg can read" : log.suffix()));
    }
    return OV_OK;
}

ov_status openDeviceCapture(ov_capture *c, const std::string &path, const ov_capture_request &req) {
    std::vector<Mode> modes;
    ov_status s = probeDevice(path, modes);
    if (s != OV_OK) return s;

    uint32_t wantFourcc = req.fourcc[0] ? fourccCode(req.fourcc) : 0;
    if (wantFourcc) {
        bool offered = modes.empty();
        for (const auto &m : modes) offered = offered || m.fourcc == wantFourcc;
        if (!offered)
            return ov::fail(OV_ERR_UNSUPPORTED, path + " does not offer pixel format '" + fourccString(wantFourcc) +
                                                    "'; supported modes: " + describeModes(modes));
        if (!openCvConverts(wantFourcc))
            return ov::fail(OV_ERR_UNSUPPORTED, "OpenCV cannot convert pixel format '" + fourccString(wantFourcc) +
                                                    "' from " + path + "; supported modes: " + describeModes(modes));
    } else if (!modes.empty()) {
        bool any = false;
        for (const auto &m : modes) any = any || openCvConverts(m.fourcc);
        if (!any)
            return ov::fail(OV_ERR_UNSUPPORTED, path + " offers no pixel format OpenCV can convert; modes: " + describeModes(modes));
    }

    const int index = deviceIndex(path);
    bool opened = false;
    try {
        opened = index >= 0 ? c->cap->open(index, cv::CAP_V4L2) : c->cap->open(path, cv::CAP_V4L2);
    } catch (const cv::Exception &) {
        opened = false;
    }
    if (!opened || !c->cap->isOpened()) return ov::fail(OV_ERR_IO, "cannot open camera " + path + " with V4L2");
    c->readTimeoutMs = req.read_timeout_ms > 0 ? req.read_timeout_ms : 10000;  // OpenCV's select() timeout
    c->userReadTimeout = req.read_timeout_ms > 0;

    const bool wantsMode = req.width > 0 || req.height > 0 || req.fps > 0 || wantFourcc;
    if (!wantsMode) return OV_OK;

    int w = req.width, h = req.height;
    uint32_t fourcc = wantFourcc;
    double fps = req.fps;
    if (!modes.empty()) {
        int curW = static_cast<int>(c->cap->get(cv::CAP_PROP_FRAME_WIDTH));
        int curH = static_cast<int>(c->cap->get(cv::CAP_PROP_FRAME_HEIGHT));
        bool sized = req.width > 0 || req.height > 0;
        int i = chooseMode(modes, wantFourcc, sized ? req.width : curW, sized ? req.height : curH, req.fps);
        if (i < 0)
            return ov::fail(OV_ERR_UNSUPPORTED, "no mode of " + path + " matches the request; supported modes: " + describeModes(modes));
        w = modes[i].width;
        h = modes[i].height;
        fourcc = modes[i].fourcc;
        fps = modes[i].fps;
    }
    // Pixel format first (it resets the stream), then the size (applied once both are set), then the rate.
    if (fourcc) c->cap->set(cv::CAP_PROP_FOURCC, static_cast<double>(fourcc));
    if (w > 0 && h > 0) {
        c->cap->set(cv::CAP_PROP_FRAME_WIDTH, w);
        c->cap->set(cv::CAP_PROP_FRAME_HEIGHT, h);
    }
    if (fps > 0) c->cap->set(cv::CAP_PROP_FPS, fps);

    const int gotW = static_cast<int>(c->cap->get(cv::CAP_PROP_FRAME_WIDTH));
    const int gotH = static_cast<int>(c->cap->get(cv::CAP_PROP_FRAME_HEIGHT));
    const uint32_t gotFourcc = static_cast<uint32_t>(static_cast<int64_t>(c->cap->get(cv::CAP_PROP_FOURCC)));
    if ((w > 0 && h > 0 && (gotW != w || gotH != h)) || (fourcc && gotFourcc != fourcc)) {
        char wanted[96];
        std::snprintf(wanted, sizeof wanted, "%s %dx%d", fourccString(fourcc).c_str(), w, h);
        return ov::fail(OV_ERR_UNSUPPORTED, path + " refused mode " + wanted + " (got " + fourccString(gotFourcc) + " " +
                                                std::to_string(gotW) + "x" + std::to_string(gotH) +
                                                "); supported modes: " + describeModes(modes));
    }
    return OV_OK;
}

/// What a failed grab means for this source.
ov_status readFailure(ov_capture *c, double elapsedMs, const std::string &ffmpegLog) {
    const std::string log = ffmpegLog.empty() ? "" : " (FFmpeg: " + ffmpegLog + ")";
    switch (c->kind) {
        case SourceKind::File: {
            c->ended = true;  // end of file, or the last good frame of a truncated one
            // Cut short or damaged: a packet was cut by the end of the file, or fewer frames decoded than the
            // container lists (its count is estimated for some formats, hence the margin).
            std::lock_guard<std::mutex> lock(c->infoMutex);
            const long count = c->info.frame_count;
            c->info.ended_early = c->truncated || (count > 0 && c->framesGrabbed + std::max(2L, count / 50) < count);
            return ov::ok();
        }
        case SourceKind::Network: {
            if (elapsedMs >= 0.9 * c->readTimeoutMs)
                return ov::fail(OV_ERR_IO, "read timeout: no frame from " + c->source + " within " +
                                               std::to_string(c->readTimeoutMs) + " ms" + log);
            int count;
            {
                std::lock_guard<std::mutex> lock(c->infoMutex);
                count = c->info.frame_count;
            }
            // A finite stream (VOD, a file over HTTP) that reached its announced length ended cleanly.
            if (count > 0 && c->framesGrabbed + std::max(2L, long(count) / 50) >= count) {
                c->ended = true;
                return ov::ok();
            }
            return ov::fail(OV_ERR_IO, "stream " + c->source + " ended or the connection was lost after " +
                                           std::to_string(c->framesGrabbed) + " frames" + log);
        }
        case SourceKind::Device:
            if (elapsedMs >= 0.9 * c->readTimeoutMs)
                return ov::fail(OV_ERR_IO, "read timeout: no frame from " + c->source + " within " +
                                               std::to_string(c->readTimeoutMs) + " ms");
            if (!pathExists(c->source)) return ov::fail(OV_ERR_IO, "device " + c->source + " disconnected");
            return ov::fail(OV_ERR_IO, "cannot read a frame from " + c->source + " (device error or unplugged)");
    }
    return ov::fail(OV_ERR_INTERNAL, "unknown source kind");
}

/// Decodes the next frame from the backend into `frame` (left empty at the end of the stream, with
/// c->ended set) and its timestamp; an error status when the source failed.
ov_status grab(ov_capture *c, cv::Mat &frame, double &timestamp) {
    timestamp = -1;
    const auto start = Clock::now();
    if (c->kind == SourceKind::Device && c->userReadTimeout) {
        // Wait for a filled buffer ourselves: OpenCV's V4L2 grab only gives up after its own 10 s select().
        bool any = false;
        try {
            any = c->cap.waitReady(int64_t(c->readTimeoutMs) * 1000000);
        } catch (const cv::Exception &) {
            any = true;  // not supported: fall back to the backend's own timeout
        }
        if (!any && msSince(start) >= 0.9 * c->readTimeoutMs) return readFailure(c, msSince(start), "");
    }
    avlog::Capture log;
    bool got = false;
    try {
        got = c->cap->read(frame) && !frame.empty();
    } catch (const cv::Exception &e) {
        frame.release();
        if (c->kind == SourceKind::File)
            return ov::fail(OV_ERR_DECODE, "cannot decode a frame of " + c->source + ": " + e.what());
        return ov::fail(OV_ERR_IO, "cannot read a frame from " + c->source + ": " + e.what());
    }
    // From a packet cut short by the end of the file on, hold one frame back so the damaged last one is dropped.
    if (c->kind == SourceKind::File && log.damagedPacket) c->truncated = true;
    if (!got) {
        frame.release();
        return readFailure(c, msSince(start), log.text);
    }
    const long index = c->framesGrabbed++;
    if (c->kind == SourceKind::File || c->kind == SourceKind::Network) {
        double pos = c->cap->get(cv::CAP_PROP_POS_MSEC);
        // A frame without a timestamp gives 0 (or, in a stream without a start time such as HTTP MJPEG,
        // garbage around -3.7e20); the first frame may legitimately be at 0.
        if (std::isfinite(pos) && pos >= 0 && pos < 1e12 && !(index > 0 && pos == 0)) {
            timestamp = pos;
        } else if (index == 0 && c->kind == SourceKind::Network) {
            std::lock_guard<std::mutex> lock(c->infoMutex);
            c->info.fps = 0;  // a stream without timestamps: FFmpeg's rate (25) is a placeholder
        }
    } else if (c->kind == SourceKind::Device) {
        double pos = c->cap->get(cv::CAP_PROP_POS_MSEC);  // driver buffer timestamp (monotonic clock)
        if (std::isfinite(pos) && pos > 0) {
            if (c->deviceTimeBase < 0) c->deviceTimeBase = pos;
            timestamp = pos - c->deviceTimeBase;
        }
    }
    return OV_OK;
}

}  // namespace

extern "C" {

ov_status ov_capture_open(const char *url, int device, ov_capture_api api, const ov_capture_request *request,
                          ov_capture **out) {
    return ov::guarded("ov_capture_open", [&]() -> ov_status {
        if (!out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no output handle");
        *out = nullptr;
        ov_capture_request req{};
        if (request) req = *request;
        req.fourcc[4] = '\0';
        if (req.width < 0 || req.height < 0 || !(req.fps >= 0) || req.open_timeout_ms < 0 || req.read_timeout_ms < 0)
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "negative value in the capture request");
        if (api < OV_CAPTURE_AUTO || api > OV_CAPTURE_V4L2) return ov::fail(OV_ERR_INVALID_ARGUMENT, "unknown capture API");

        std::string source;
        if (url) {
            source = url;
            if (source.empty()) return ov::fail(OV_ERR_INVALID_ARGUMENT, "empty url");
        } else {
            if (device < 0) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no url and no device index");
            if (api == OV_CAPTURE_FFMPEG)
                return ov::fail(OV_ERR_INVALID_ARGUMENT, "a device index needs OV_CAPTURE_AUTO or OV_CAPTURE_V4L2");
            source = "/dev/video" + std::to_string(device);
        }
        if (source.compare(0, 7, "file://") == 0) source = source.substr(7);

        SourceKind kind;
        switch (api) {
            case OV_CAPTURE_V4L2: kind = SourceKind::Device; break;
            case OV_CAPTURE_FFMPEG: kind = isUrl(source) ? SourceKind::Network : SourceKind::File; break;
            default:
                if (!url || deviceIndex(source) >= 0) kind = SourceKind::Device;
                else if (isUrl(source)) kind = SourceKind::Network;
                else kind = SourceKind::File;
        }

        std::unique_ptr<ov_capture> c(new ov_capture());
        c->kind = kind;
        c->source = kind == SourceKind::Network ? redact(source) : source;
        ov_status s = OV_OK;
        switch (kind) {
            case SourceKind::File: s = openFile(c.get(), source, req); break;
            case SourceKind::Network: s = openNetwork(c.get(), source, req); break;
            case SourceKind::Device: s = openDeviceCapture(c.get(), source, req); break;
        }
        if (s != OV_OK) return s;
        fillInfo(c.get());
        *out = c.release();
        return ov::ok();
    });
}

ov_status ov_capture_read(ov_capture *c, ov_image **out, double *timestamp_ms) {
    return ov::guarded("ov_capture_read", [&]() -> ov_status {
        if (!c || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no capture or output");
        *out = nullptr;
        if (timestamp_ms) *timestamp_ms = -1;
        std::lock_guard<std::mutex> lock(c->readMutex);
        if (c->ended) return ov::ok();

        cv::Mat frame;
        double timestamp = -1;
        if (c->hasPending) {
            frame = std::move(c->pending);
            timestamp = c->pendingTimestamp;
            c->hasPending = false;
        } else {
            ov_status s = grab(c, frame, timestamp);
            if (s != OV_OK || frame.empty()) return s;
        }
        if (c->truncated) {  // return this frame only if another follows: the last one of a cut file is damaged
            cv::Mat next;
            double nextTimestamp = -1;
            ov_status s = grab(c, next, nextTimestamp);
            if (s != OV_OK) return s;
            if (next.empty()) return ov::ok();  // grab marked the end
            c->pending = std::move(next);
            c->pendingTimestamp = nextTimestamp;
            c->hasPending = true;
        }

        cv::Mat bgr = toBgr(std::move(frame));
        c->framesRead++;
        {
            std::lock_guard<std::mutex> infoLock(c->infoMutex);
            c->info.width = bgr.cols;
            c->info.height = bgr.rows;
        }
        *out = ov::wrap(std::move(bgr));
        if (timestamp_ms) *timestamp_ms = timestamp;
        return ov::ok();
    });
}

ov_status ov_capture_get_info(const ov_capture *c, ov_capture_info *out) {
    return ov::guarded("ov_capture_get_info", [&]() -> ov_status {
        if (!c || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no capture or output");
        std::lock_guard<std::mutex> lock(c->infoMutex);
        *out = c->info;
        return ov::ok();
    });
}

void ov_capture_free(ov_capture *c) {
    try {
        delete c;
    } catch (...) {
    }
}

}  // extern "C"
