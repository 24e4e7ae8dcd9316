// Video: capture from files / network streams / image sequences / V4L2 cameras, video file writing and
// V4L2 camera enumeration (OpenCV videoio; V4L2 ioctls for enumeration and pre-flight checks).
#include "ov_internal.hpp"
#include "ov_video.h"

#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// ------------------------------------------------------------------ small helpers

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

void copyString(char *dst, size_t capacity, const std::string &src) {
    if (capacity == 0) return;
    size_t n = std::min(capacity - 1, src.size());
    std::memcpy(dst, src.data(), n);
    dst[n] = '\0';
}

/// The 4 characters of a fourcc ("" if it is not printable, e.g. an MPEG-TS stream type).
std::string fourccString(uint32_t code) {
    std::string s;
    for (int i = 0; i < 4; ++i) {
        char ch = static_cast<char>((code >> (8 * i)) & 0xFF);
        if (ch == '\0') break;
        if (ch < 32 || ch >= 127) return "";
        s += ch;
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();  // "Y16 " -> "Y16"
    return s;
}

/// The fourcc code of up to 4 characters (shorter ones padded with spaces, as V4L2 does: "Y16 ").
uint32_t fourccCode(const char *text) {
    char c[4] = {' ', ' ', ' ', ' '};
    for (int i = 0; i < 4 && text[i]; ++i) c[i] = text[i];
    return static_cast<uint32_t>(static_cast<unsigned char>(c[0])) |
           static_cast<uint32_t>(static_cast<unsigned char>(c[1])) << 8 |
           static_cast<uint32_t>(static_cast<unsigned char>(c[2])) << 16 |
           static_cast<uint32_t>(static_cast<unsigned char>(c[3])) << 24;
}

std::string lower(std::string s) {
    for (auto &ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
}

std::string extensionOf(const std::string &path) {
    size_t slash = path.find_last_of('/');
    size_t dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    return lower(path.substr(dot));
}

std::string directoryOf(const std::string &path) {
    size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

bool isDirectory(const std::string &path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool pathExists(const std::string &path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

/// "scheme://..." with a letters-only scheme of 2+ characters.
bool isUrl(const std::string &s) {
    size_t p = s.find("://");
    if (p == std::string::npos || p < 2) return false;
    for (size_t i = 0; i < p; ++i)
        if (!std::isalnum(static_cast<unsigned char>(s[i])) && s[i] != '+' && s[i] != '-' && s[i] != '.') return false;
    return true;
}

/// A printf-style frame-number pattern: %d, %4d, %04d.
bool hasSequencePattern(const std::string &s) {
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '%') continue;
        size_t j = i + 1;
        while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
        if (j < s.size() && s[j] == 'd') return true;
    }
    return false;
}

/// The URL with any "user:password@" replaced, for error messages.
std::string redact(const std::string &url) {
    size_t p = url.find("://");
    if (p == std::string::npos) return url;
    size_t hostStart = p + 3;
    size_t pathStart = url.find_first_of("/?#", hostStart);
    size_t at = url.rfind('@', pathStart == std::string::npos ? std::string::npos : pathStart);
    if (at == std::string::npos || at < hostStart) return url;
    return url.substr(0, hostStart) + "***@" + url.substr(at + 1);
}

int xioctl(int fd, unsigned long request, void *arg) {
    int r;
    do r = ::ioctl(fd, request, arg);
    while (r == -1 && errno == EINTR);
    return r;
}

struct Fd {
    int fd = -1;
    explicit Fd(int f) : fd(f) {}
    ~Fd() { if (fd >= 0) ::close(fd); }
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
};

// ------------------------------------------------------------------ FFmpeg error text
// OpenCV's FFmpeg backend reports only "failed"; FFmpeg's own reason ("Connection refused", "404 Not Found",
// "moov atom not found") goes to av_log. We chain a callback (found with dlsym in the libavutil OpenCV
// already loaded, so no link dependency) that copies error-level lines into a per-thread buffer while one
// of our calls is running, then forwards everything to FFmpeg's default callback unchanged.
namespace avlog {
using Callback = void (*)(void *, int, const char *, va_list);
thread_local std::string *sink = nullptr;
thread_local bool *damageSink = nullptr;
Callback defaultCallback = nullptr;

void hook(void *avcl, int level, const char *fmt, va_list args) {
    // A packet cut short by the end of the file: libavformat flags it ("Packet corrupt", a warning, e.g.
    // AVI) or the MP4 demuxer reports the next sample missing ("partial file"); either way the frame
    // decoded from it is damaged.
    if (damageSink && fmt && (std::strstr(fmt, "Packet corrupt") || std::strstr(fmt, "partial file"))) *damageSink = true;
    if (sink && fmt && level <= 24 /* AV_LOG_WARNING: "HTTP error 404 Not Found" is one */ && sink->size() < 1000) {
        va_list copy;
        va_copy(copy, args);
        char buffer[512];
        int n = std::vsnprintf(buffer, sizeof buffer, fmt, copy);
        va_end(copy);
        if (n > 0) {
            std::string line(buffer);
            while (!line.empty() && (line.back() == '\n' || line.back() == ' ')) line.pop_back();
            if (!line.empty() && sink->find(line) == std::string::npos) {
                if (!sink->empty()) *sink += "; ";
                *sink += line;
            }
        }
    }
    if (defaultCallback) defaultCallback(avcl, level, fmt, args);
}

void install() {
    static std::once_flag once;
    std::call_once(once, [] {
        void *setter = ::dlsym(RTLD_DEFAULT, "av_log_set_callback");
        void *fallback = ::dlsym(RTLD_DEFAULT, "av_log_default_callback");
        if (!setter || !fallback) return;
        defaultCallback = reinterpret_cast<Callback>(fallback);
        reinterpret_cast<void (*)(Callback)>(setter)(&hook);
    });
}

/// Collects FFmpeg error and warning lines logged on this thread while alive.
struct Capture {
    std::string text;
    bool damagedPacket = false;
    std::string *previous;
    bool *previousDamage;
    Capture() : previous(sink), previousDamage(damageSink) {
        install();
        sink = &text;
        damageSink = &damagedPacket;
    }
    ~Capture() {
        sink = previous;
        damageSink = previousDamage;
    }
    Capture(const Capture &) = delete;
    Capture &operator=(const Capture &) = delete;
    std::string suffix() const { return text.empty() ? "" : " (FFmpeg: " + text + ")"; }
};
}  // namespace avlog

// ------------------------------------------------------------------ MP4 diagnosis

struct Mp4Layout {
    bool isMp4 = false;   // first box is 'ftyp'
    bool hasMoov = false; // has its index
    bool cut = false;     // a top-level box runs past the end of the file
};

/// Walks the top-level boxes of an ISO-BMFF (MP4/MOV) file.
Mp4Layout mp4Layout(const std::string &path) {
    Mp4Layout layout;
    std::ifstream file(path, std::ios::binary);
    if (!file) return layout;
    file.seekg(0, std::ios::end);
    const uint64_t size = static_cast<uint64_t>(file.tellg());
    uint64_t offset = 0;
    for (int boxes = 0; boxes < 10000 && offset + 8 <= size; ++boxes) {
        unsigned char h[16];
        file.seekg(static_cast<std::streamoff>(offset));
        if (!file.read(reinterpret_cast<char *>(h), 8)) break;
        uint64_t boxSize = (uint64_t(h[0]) << 24) | (uint64_t(h[1]) << 16) | (uint64_t(h[2]) << 8) | h[3];
        std::string type(reinterpret_cast<char *>(h + 4), 4);
        uint64_t header = 8;
        if (boxSize == 1) {
            if (!file.read(reinterpret_cast<char *>(h + 8), 8)) break;
            boxSize = 0;
            for (int i = 8; i < 16; ++i) boxSize = (boxSize << 8) | h[i];
            header = 16;
        } else if (boxSize == 0) {
            boxSize = size - offset;
        }
        if (offset == 0) {
            if (type != "ftyp") return layout;
            layout.isMp4 = true;
        }
        if (boxSize < header) break;
        if (type == "moov") layout.hasMoov = true;
        if (offset + boxSize > size) {
            layout.cut = true;
            break;
        }
        offset += boxSize;
    }
    return layout;
}

// ------------------------------------------------------------------ V4L2 modes

struct Mode {
    uint32_t fourcc;
    int width, height;
    double fps;
};

/// Pixel formats OpenCV 4.6's V4L2 backend converts to BGR.
bool openCvConverts(uint32_t f) {
    switch (f) {
        case V4L2_PIX_FMT_BGR24: case V4L2_PIX_FMT_RGB24: case V4L2_PIX_FMT_YVU420: case V4L2_PIX_FMT_YUV420:
        case V4L2_PIX_FMT_YUV411P: case V4L2_PIX_FMT_YUYV: case V4L2_PIX_FMT_UYVY: case V4L2_PIX_FMT_NV12:
        case V4L2_PIX_FMT_NV21: case V4L2_PIX_FMT_SBGGR8: case V4L2_PIX_FMT_SGBRG8: case V4L2_PIX_FMT_SN9C10X:
        case V4L2_PIX_FMT_MJPEG: case V4L2_PIX_FMT_JPEG: case V4L2_PIX_FMT_Y16: case V4L2_PIX_FMT_Y10:
        case V4L2_PIX_FMT_GREY:
            return true;
        default:
            return false;
    }
}

void addIntervals(int fd, uint32_t pixelformat, int width, int height, std::vector<Mode> &modes) {
    const uint32_t fourcc = pixelformat & ~(1u << 31);  // strip V4L2_PIX_FMT_FLAG_BE-style high bit
    size_t before = modes.size();
    for (uint32_t i = 0; i < 256; ++i) {
        v4l2_frmivalenum fi{};
        fi.index = i;
        fi.pixel_format = pixelformat;
        fi.width = static_cast<uint32_t>(width);
        fi.height = static_cast<uint32_t>(height);
        if (xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi) != 0) break;
        if (fi.type == V4L2_FRMIVAL_TYPE_DISCRETE) {
            if (fi.discrete.numerator && fi.discrete.denominator)
                modes.push_back({fourcc, width, height, double(fi.discrete.denominator) / fi.discrete.numerator});
        } else {  // stepwise / continuous: the fastest and the slowest rate
            if (fi.stepwise.min.numerator && fi.stepwise.min.denominator)
                modes.push_back({fourcc, width, height, double(fi.stepwise.min.denominator) / fi.stepwise.min.numerator});
            if (fi.stepwise.max.numerator && fi.stepwise.max.denominator &&
                (fi.stepwise.max.numerator != fi.stepwise.min.numerator ||
                 fi.stepwise.max.denominator != fi.stepwise.min.denominator))
                modes.push_back({fourcc, width, height, double(fi.stepwise.max.denominator) / fi.stepwise.max.numerator});
            break;
        }
    }
    if (modes.size() == before) modes.push_back({fourcc, width, height, 0.0});
}

std::vector<Mode> enumerateModes(int fd) {
    std::vector<Mode> modes;
    static const int common[][2] = {{160, 120},  {320, 240},   {640, 480},   {800, 600},   {1024, 768},
                                    {1280, 720}, {1280, 960},  {1920, 1080}, {2560, 1440}, {3840, 2160}};
    for (uint32_t f = 0; f < 64 && modes.size() < 4096; ++f) {
        v4l2_fmtdesc desc{};
        desc.index = f;
        desc.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        if (xioctl(fd, VIDIOC_ENUM_FMT, &desc) != 0) break;
        std::vector<std::pair<int, int>> sizes;
        for (uint32_t s = 0; s < 1024; ++s) {
            v4l2_frmsizeenum fs{};
            fs.index = s;
            fs.pixel_format = desc.pixelformat;
            if (xioctl(fd, VIDIOC_ENUM_FRAMESIZES, &fs) != 0) break;
            if (fs.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
                sizes.emplace_back(int(fs.discrete.width), int(fs.discrete.height));
                continue;
            }
            // stepwise / continuous: the largest, the common sizes in range that fit the step, the smallest.
            const auto &sw = fs.stepwise;
            sizes.emplace_back(int(sw.max_width), int(sw.max_height));
            for (int i = int(sizeof common / sizeof common[0]) - 1; i >= 0; --i) {
                uint32_t w = uint32_t(common[i][0]), h = uint32_t(common[i][1]);
                if (w < sw.min_width || w > sw.max_width || h < sw.min_height || h > sw.max_height) continue;
                if ((sw.step_width > 1 && (w - sw.min_width) % sw.step_width) ||
                    (sw.step_height > 1 && (h - sw.min_height) % sw.step_height))
                    continue;
                if (w == sw.max_width && h == sw.max_height) continue;
                sizes.emplace_back(int(w), int(h));
            }
            if (sw.min_width != sw.max_width || sw.min_height != sw.max_height)
                sizes.emplace_back(int(sw.min_width), int(sw.min_height));
            break;
        }
        if (sizes.empty()) {  // driver without ENUM_FRAMESIZES: what TRY_FMT grants at the current size
            v4l2_format fmt{};
            fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
            if (xioctl(fd, VIDIOC_G_FMT, &fmt) == 0) {
                fmt.fmt.pix.pixelformat = desc.pixelformat;
                if (xioctl(fd, VIDIOC_TRY_FMT, &fmt) == 0 && fmt.fmt.pix.pixelformat == desc.pixelformat)
                    sizes.emplace_back(int(fmt.fmt.pix.width), int(fmt.fmt.pix.height));
            }
        }
        for (const auto &s : sizes) addIntervals(fd, desc.pixelformat, s.first, s.second, modes);
    }
    return modes;
}

std::string fpsText(double fps) {
    char buffer[32];
    if (std::fabs(fps - std::round(fps)) < 0.01) std::snprintf(buffer, sizeof buffer, "%d", int(std::lround(fps)));
    else std::snprintf(buffer, sizeof buffer, "%.2f", fps);
    return buffer;
}

/// "MJPG 1920x1080@30/15, 1280x720@30; YUYV 640x480@30/15" (grouped in enumeration order).
std::string describeModes(const std::vector<Mode> &modes) {
    if (modes.empty()) return "none enumerated";
    std::string out;
    uint32_t lastFourcc = 0;
    int lastW = -1, lastH = -1;
    for (const auto &m : modes) {
        if (m.fourcc != lastFourcc) {
            if (!out.empty()) out += "; ";
            out += fourccString(m.fourcc) + " ";
            lastW = lastH = -1;
        }
        if (m.width != lastW || m.height != lastH || m.fourcc != lastFourcc) {
            if (lastW >= 0) out += ", ";
            out += std::to_string(m.width) + "x" + std::to_string(m.height);
            if (m.fps > 0) out += "@" + fpsText(m.fps);
        } else if (m.fps > 0) {
            out += "/" + fpsText(m.fps);
        }
        lastFourcc = m.fourcc;
        lastW = m.width;
        lastH = m.height;
        if (out.size() > 1500) {
            out += " ...";
            break;
        }
    }
    return out;
}

/// Chooses a mode for a request: the requested pixel format (else the formats OpenCV converts); the
/// smallest size at least as large as requested (the largest if none is; "requested" defaults to the
/// current size); the lowest rate at least as fast as requested (the fastest if none is, or if no rate is
/// requested); then YUYV, then MJPG, then enumeration order. Returns -1 if no mode has the pixel format.
int chooseMode(const std::vector<Mode> &modes, uint32_t wantFourcc, int wantW, int wantH, double wantFps) {
    std::vector<int> candidates;
    for (int i = 0; i < int(modes.size()); ++i)
        if (wantFourcc ? modes[i].fourcc == wantFourcc : openCvConverts(modes[i].fourcc)) candidates.push_back(i);
    if (candidates.empty()) return -1;

    // size
    auto area = [&](int i) { return int64_t(modes[i].width) * modes[i].height; };
    int best = -1;
    for (int i : candidates) {
        if ((wantW > 0 && modes[i].width < wantW) || (wantH > 0 && modes[i].height < wantH)) continue;
        if (best < 0 || area(i) < area(best)) best = i;
    }
    if (best < 0)
        for (int i : candidates)
            if (best < 0 || area(i) > area(best)) best = i;
    const int w = modes[best].width, h = modes[best].height;
    std::vector<int> sized;
    for (int i : candidates)
        if (modes[i].width == w && modes[i].height == h) sized.push_back(i);

    // rate
    double rate = -1;
    if (wantFps > 0)
        for (int i : sized)
            if (modes[i].fps >= wantFps - 0.01 && (rate < 0 || modes[i].fps < rate)) rate = modes[i].fps;
    if (rate < 0)
        for (int i : sized) rate = std::max(rate, modes[i].fps);

    // pixel format preference
    int chosen = -1, chosenRank = 99;
    for (int i : sized) {
        if (std::fabs(modes[i].fps - rate) > 0.01) continue;
        int rank = modes[i].fourcc == V4L2_PIX_FMT_YUYV ? 0 : modes[i].fourcc == V4L2_PIX_FMT_MJPEG ? 1 : 2;
        if (rank < chosenRank) {
            chosen = i;
            chosenRank = rank;
        }
    }
    return chosen;
}

/// Opens a V4L2 node for queries; sets a failure message on error.
ov_status openDevice(const std::string &path, int &fdOut) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        if (errno == ENOENT) return ov::fail(OV_ERR_IO, "no such device " + path);
        return ov::fail(OV_ERR_IO, "cannot open device " + path + ": " + std::strerror(errno));
    }
    if (!S_ISCHR(st.st_mode)) return ov::fail(OV_ERR_IO, path + " is not a video device");
    int fd = ::open(path.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 && errno == EACCES) fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        if (e == EBUSY) return ov::fail(OV_ERR_IO, "device busy: " + path + " is in use by another process");
        if (e == EACCES)
            return ov::fail(OV_ERR_IO, "cannot open device " + path + ": permission denied (is the user in the 'video' group?)");
        if (e == ENODEV || e == ENXIO || e == ENOENT) return ov::fail(OV_ERR_IO, "no such device " + path);
        return ov::fail(OV_ERR_IO, "cannot open device " + path + ": " + std::strerror(e));
    }
    fdOut = fd;
    return OV_OK;
}

uint32_t deviceCaps(const v4l2_capability &cap) {
    return (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps : cap.capabilities;
}

/// Checks that `path` is a free V4L2 capture device and lists its modes.
ov_status probeDevice(const std::string &path, std::vector<Mode> &modes) {
    int raw = -1;
    ov_status s = openDevice(path, raw);
    if (s != OV_OK) return s;
    Fd fd(raw);
    v4l2_capability cap{};
    if (xioctl(fd.fd, VIDIOC_QUERYCAP, &cap) != 0) return ov::fail(OV_ERR_IO, path + " is not a V4L2 device");
    uint32_t caps = deviceCaps(cap);
    if (!(caps & V4L2_CAP_VIDEO_CAPTURE))
        return ov::fail(OV_ERR_UNSUPPORTED, path + " is not a video capture device (a metadata or output node?)");
    if (!(caps & V4L2_CAP_STREAMING))
        return ov::fail(OV_ERR_UNSUPPORTED, path + " does not support streaming I/O, which OpenCV's V4L2 backend needs");
    modes = enumerateModes(fd.fd);
    // A device streaming to another process refuses format changes with EBUSY (OpenCV would then spin in
    // select() for 10 s and fail without a reason), so try re-setting the current format.
    v4l2_format fmt{};
    fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (xioctl(fd.fd, VIDIOC_G_FMT, &fmt) == 0 && xioctl(fd.fd, VIDIOC_S_FMT, &fmt) != 0 && errno == EBUSY)
        return ov::fail(OV_ERR_IO, "device busy: " + path + " is in use by another process");
    return OV_OK;
}

/// "/dev/video3" -> 3, else -1.
int deviceIndex(const std::string &path) {
    const std::string prefix = "/dev/video";
    if (path.compare(0, prefix.size(), prefix) != 0 || path.size() == prefix.size()) return -1;
    int n = 0;
    for (size_t i = prefix.size(); i < path.size(); ++i) {
        if (!std::isdigit(static_cast<unsigned char>(path[i])) || n > 100000) return -1;
        n = n * 10 + (path[i] - '0');
    }
    return n;
}

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

}  // namespace

// ------------------------------------------------------------------ capture

enum class SourceKind { File, Network, Images, Device };

struct ov_capture {
    cv::VideoCapture cap;
    SourceKind kind = SourceKind::File;
    std::string source;       // path, redacted URL or device path, for messages
    int readTimeoutMs = 0;    // effective read timeout (ours or the backend default)
    bool userReadTimeout = false;
    std::mutex readMutex;     // serialises reads
    mutable std::mutex infoMutex;
    ov_capture_info info{};
    bool ended = false;
    bool stopAtCount = false; // CAP_IMAGES: end at the counted number of files (avoids a warning per read)
    bool truncated = false;   // a file known to be cut short: hold one frame back, drop the last (damaged) one
    long framesRead = 0;      // returned to the caller
    long framesGrabbed = 0;   // decoded from the backend
    double deviceTimeBase = -1;
    cv::Mat pending;          // a frame read ahead (image sequences at open, truncated files), returned next
    double pendingTimestamp = -1;
    bool hasPending = false;
};

namespace {

void fillInfo(ov_capture *c) {
    ov_capture_info info{};
    info.width = static_cast<int>(c->cap.get(cv::CAP_PROP_FRAME_WIDTH));
    info.height = static_cast<int>(c->cap.get(cv::CAP_PROP_FRAME_HEIGHT));
    double fps = c->cap.get(cv::CAP_PROP_FPS);
    info.fps = (std::isfinite(fps) && fps > 0 && fps <= 1000) ? fps : 0;
    double count = c->kind == SourceKind::Device ? -1 : c->cap.get(cv::CAP_PROP_FRAME_COUNT);
    info.frame_count = (std::isfinite(count) && count > 0 && count < 2e9) ? static_cast<int>(count) : -1;
    double fourcc = c->cap.get(cv::CAP_PROP_FOURCC);
    std::string tag = std::isfinite(fourcc) && fourcc > 0 ? fourccString(static_cast<uint32_t>(static_cast<int64_t>(fourcc))) : "";
    // Without a container tag OpenCV's FFmpeg backend returns the first 4 letters of the codec name.
    if (tag == "mjpe") tag = "MJPG";
    else if (tag == "h264") tag = "H264";
    else if (tag == "hevc") tag = "HEVC";
    copyString(info.fourcc, sizeof info.fourcc, tag);
    std::string backend;
    try {
        backend = c->cap.getBackendName();
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
        opened = c->cap.open(target, cv::CAP_FFMPEG, params);
    } catch (const cv::Exception &) {
        opened = false;
    }
    elapsedMs = msSince(start);
    return opened && c->cap.isOpened();
}

ov_status openFile(ov_capture *c, const std::string &path, const ov_capture_request &req) {
    if (hasSequencePattern(path) && !pathExists(path)) {  // OV_CAPTURE_FFMPEG with a pattern: FFmpeg's image2
        const std::string dir = directoryOf(path);
        if (!isDirectory(dir)) return ov::fail(OV_ERR_IO, "cannot open image sequence " + path + ": no such directory " + dir);
        avlog::Capture log;
        double elapsed = 0;
        if (!openFfmpeg(c, path, req, elapsed))
            return ov::fail(OV_ERR_IO, "cannot open image sequence " + path + ": no file matches" + log.suffix());
        c->kind = SourceKind::Images;  // ends cleanly like a sequence; no timestamps
        return OV_OK;
    }
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
    if (c->cap.get(cv::CAP_PROP_FRAME_WIDTH) <= 0)
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

ov_status openImages(ov_capture *c, const std::string &pattern) {
    const std::string dir = directoryOf(pattern);
    if (!isDirectory(dir)) return ov::fail(OV_ERR_IO, "cannot open image sequence " + pattern + ": no such directory " + dir);
    bool opened = false;
    try {
        opened = c->cap.open(pattern, cv::CAP_IMAGES);
    } catch (const cv::Exception &) {
        opened = false;
    }
    if (!opened || !c->cap.isOpened())
        return ov::fail(OV_ERR_IO, "cannot open image sequence " + pattern + ": no file matches" +
                                       (hasSequencePattern(pattern) ? "" : " (use a pattern such as img_%04d.jpg, or a file name ending in a number)"));
    // The backend learns the frame size only from a frame: read the first one now (and validate it).
    cv::Mat first;
    bool got = false;
    try {
        got = c->cap.read(first) && !first.empty();
    } catch (const cv::Exception &) {
        got = false;
    }
    if (!got) return ov::fail(OV_ERR_DECODE, "not an image sequence: the first file of " + pattern + " could not be decoded");
    c->pending = toBgr(first);
    c->hasPending = true;
    c->framesGrabbed = 1;
    c->stopAtCount = true;
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
        opened = index >= 0 ? c->cap.open(index, cv::CAP_V4L2) : c->cap.open(path, cv::CAP_V4L2);
    } catch (const cv::Exception &) {
        opened = false;
    }
    if (!opened || !c->cap.isOpened()) return ov::fail(OV_ERR_IO, "cannot open camera " + path + " with V4L2");
    c->readTimeoutMs = req.read_timeout_ms > 0 ? req.read_timeout_ms : 10000;  // OpenCV's select() timeout
    c->userReadTimeout = req.read_timeout_ms > 0;

    const bool wantsMode = req.width > 0 || req.height > 0 || req.fps > 0 || wantFourcc;
    if (!wantsMode) return OV_OK;

    int w = req.width, h = req.height;
    uint32_t fourcc = wantFourcc;
    double fps = req.fps;
    if (!modes.empty()) {
        int curW = static_cast<int>(c->cap.get(cv::CAP_PROP_FRAME_WIDTH));
        int curH = static_cast<int>(c->cap.get(cv::CAP_PROP_FRAME_HEIGHT));
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
    if (fourcc) c->cap.set(cv::CAP_PROP_FOURCC, static_cast<double>(fourcc));
    if (w > 0 && h > 0) {
        c->cap.set(cv::CAP_PROP_FRAME_WIDTH, w);
        c->cap.set(cv::CAP_PROP_FRAME_HEIGHT, h);
    }
    if (fps > 0) c->cap.set(cv::CAP_PROP_FPS, fps);

    const int gotW = static_cast<int>(c->cap.get(cv::CAP_PROP_FRAME_WIDTH));
    const int gotH = static_cast<int>(c->cap.get(cv::CAP_PROP_FRAME_HEIGHT));
    const uint32_t gotFourcc = static_cast<uint32_t>(static_cast<int64_t>(c->cap.get(cv::CAP_PROP_FOURCC)));
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
        case SourceKind::File:
        case SourceKind::Images: {
            c->ended = true;  // end of file, or the last good frame of a truncated one
            if (c->kind != SourceKind::File) return ov::ok();
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
    // An image sequence ends at its counted length (reading past it only makes OpenCV log a warning).
    if (c->stopAtCount) {
        int count;
        {
            std::lock_guard<std::mutex> lock(c->infoMutex);
            count = c->info.frame_count;
        }
        if (count > 0 && c->framesGrabbed >= count) {
            c->ended = true;
            return ov::ok();
        }
    }
    const auto start = Clock::now();
    if (c->kind == SourceKind::Device && c->userReadTimeout) {
        // Wait for a filled buffer ourselves: OpenCV's V4L2 grab only gives up after its own 10 s select().
        std::vector<cv::VideoCapture> streams{c->cap};
        std::vector<int> ready;
        bool any = false;
        try {
            any = cv::VideoCapture::waitAny(streams, ready, int64_t(c->readTimeoutMs) * 1000000) && !ready.empty();
        } catch (const cv::Exception &) {
            any = true;  // not supported: fall back to the backend's own timeout
        }
        if (!any && msSince(start) >= 0.9 * c->readTimeoutMs) return readFailure(c, msSince(start), "");
    }
    avlog::Capture log;
    bool got = false;
    try {
        got = c->cap.read(frame) && !frame.empty();
    } catch (const cv::Exception &e) {
        frame.release();
        if (c->kind == SourceKind::File || c->kind == SourceKind::Images)
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
        double pos = c->cap.get(cv::CAP_PROP_POS_MSEC);
        // A frame without a timestamp gives 0 (or, in a stream without a start time such as HTTP MJPEG,
        // garbage around -3.7e20); the first frame may legitimately be at 0.
        if (std::isfinite(pos) && pos >= 0 && pos < 1e12 && !(index > 0 && pos == 0)) {
            timestamp = pos;
        } else if (index == 0 && c->kind == SourceKind::Network) {
            std::lock_guard<std::mutex> lock(c->infoMutex);
            c->info.fps = 0;  // a stream without timestamps: FFmpeg's rate (25) is a placeholder
        }
    } else if (c->kind == SourceKind::Device) {
        double pos = c->cap.get(cv::CAP_PROP_POS_MSEC);  // driver buffer timestamp (monotonic clock)
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
        if (api < OV_CAPTURE_AUTO || api > OV_CAPTURE_IMAGES) return ov::fail(OV_ERR_INVALID_ARGUMENT, "unknown capture API");

        std::string source;
        if (url) {
            source = url;
            if (source.empty()) return ov::fail(OV_ERR_INVALID_ARGUMENT, "empty url");
        } else {
            if (device < 0) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no url and no device index");
            if (api == OV_CAPTURE_FFMPEG || api == OV_CAPTURE_IMAGES)
                return ov::fail(OV_ERR_INVALID_ARGUMENT, "a device index needs OV_CAPTURE_AUTO or OV_CAPTURE_V4L2");
            source = "/dev/video" + std::to_string(device);
        }
        if (source.compare(0, 7, "file://") == 0) source = source.substr(7);

        SourceKind kind;
        switch (api) {
            case OV_CAPTURE_V4L2: kind = SourceKind::Device; break;
            case OV_CAPTURE_IMAGES: kind = SourceKind::Images; break;
            case OV_CAPTURE_FFMPEG: kind = isUrl(source) ? SourceKind::Network : SourceKind::File; break;
            default:
                if (!url || deviceIndex(source) >= 0) kind = SourceKind::Device;
                else if (isUrl(source)) kind = SourceKind::Network;
                else if (hasSequencePattern(source) && !pathExists(source)) kind = SourceKind::Images;
                else kind = SourceKind::File;
        }

        std::unique_ptr<ov_capture> c(new ov_capture());
        c->kind = kind;
        c->source = kind == SourceKind::Network ? redact(source) : source;
        ov_status s = OV_OK;
        switch (kind) {
            case SourceKind::File: s = openFile(c.get(), source, req); break;
            case SourceKind::Network: s = openNetwork(c.get(), source, req); break;
            case SourceKind::Images: s = openImages(c.get(), source); break;
            case SourceKind::Device: s = openDeviceCapture(c.get(), source, req); break;
        }
        if (s != OV_OK) return s;
        fillInfo(c.get());
        if (kind == SourceKind::Images) {  // the frame read at open gives the size; a rate is meaningless
            std::lock_guard<std::mutex> lock(c->infoMutex);
            c->info.width = c->pending.cols;
            c->info.height = c->pending.rows;
            c->info.fps = 0;
        }
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

// ------------------------------------------------------------------ writer

struct ov_video_writer {
    cv::VideoWriter writer;
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
            if (opened && w->writer.isOpened()) {
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
        if (!w->writer.isOpened()) return ov::fail(OV_ERR_IO, "the writer for " + w->path + " is closed");
        cv::Mat colour;
        if (frame->isGray()) cv::cvtColor(frame->luma, colour, cv::COLOR_GRAY2BGR);
        const cv::Mat &src = frame->isGray() ? colour : frame->bgr;
        if (src.size() == w->size) {
            w->writer.write(src);
        } else {
            cv::Mat resized;
            bool shrinking = src.cols >= w->size.width && src.rows >= w->size.height;
            cv::resize(src, resized, w->size, 0, 0, shrinking ? cv::INTER_AREA : cv::INTER_LINEAR);
            w->writer.write(resized);
        }
        return ov::ok();
    });
}

void ov_video_writer_free(ov_video_writer *w) {
    if (!w) return;
    try {
        w->writer.release();
    } catch (...) {
    }
    try {
        delete w;
    } catch (...) {
    }
}

// ------------------------------------------------------------------ cameras

ov_status ov_camera_list(ov_camera_device *out, int capacity, int *count) {
    return ov::guarded("ov_camera_list", [&]() -> ov_status {
        if (!count || capacity < 0 || (capacity > 0 && !out)) return ov::fail(OV_ERR_INVALID_ARGUMENT, "bad output array");
        *count = 0;
        std::vector<int> numbers;
        if (DIR *dir = ::opendir("/dev")) {
            while (dirent *entry = ::readdir(dir)) {
                int n = deviceIndex(std::string("/dev/") + entry->d_name);
                if (n >= 0) numbers.push_back(n);
            }
            ::closedir(dir);
        }
        std::sort(numbers.begin(), numbers.end());
        int found = 0;
        for (int n : numbers) {
            const std::string path = "/dev/video" + std::to_string(n);
            int fd = ::open(path.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
            if (fd < 0 && errno == EACCES) fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
            if (fd < 0) continue;
            Fd guard(fd);
            v4l2_capability cap{};
            if (xioctl(fd, VIDIOC_QUERYCAP, &cap) != 0) continue;
            if (!(deviceCaps(cap) & V4L2_CAP_VIDEO_CAPTURE)) continue;
            if (found < capacity) {
                ov_camera_device &d = out[found];
                std::memset(&d, 0, sizeof d);
                copyString(d.path, sizeof d.path, path);
                copyString(d.name, sizeof d.name, std::string(reinterpret_cast<const char *>(cap.card), strnlen(reinterpret_cast<const char *>(cap.card), sizeof cap.card)));
                copyString(d.driver, sizeof d.driver, std::string(reinterpret_cast<const char *>(cap.driver), strnlen(reinterpret_cast<const char *>(cap.driver), sizeof cap.driver)));
                copyString(d.bus, sizeof d.bus, std::string(reinterpret_cast<const char *>(cap.bus_info), strnlen(reinterpret_cast<const char *>(cap.bus_info), sizeof cap.bus_info)));
            }
            ++found;
        }
        *count = found;
        return ov::ok();
    });
}

ov_status ov_camera_modes(const char *path, ov_camera_mode *out, int capacity, int *count) {
    return ov::guarded("ov_camera_modes", [&]() -> ov_status {
        if (!path || !count || capacity < 0 || (capacity > 0 && !out))
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "no path or bad output array");
        *count = 0;
        int raw = -1;
        ov_status s = openDevice(path, raw);
        if (s != OV_OK) return s;
        Fd fd(raw);
        v4l2_capability cap{};
        if (xioctl(fd.fd, VIDIOC_QUERYCAP, &cap) != 0) return ov::fail(OV_ERR_IO, std::string(path) + " is not a V4L2 device");
        if (!(deviceCaps(cap) & V4L2_CAP_VIDEO_CAPTURE))
            return ov::fail(OV_ERR_UNSUPPORTED, std::string(path) + " is not a video capture device");
        std::vector<Mode> modes = enumerateModes(fd.fd);
        for (int i = 0; i < int(modes.size()) && i < capacity; ++i) {
            std::memset(&out[i], 0, sizeof out[i]);
            copyString(out[i].fourcc, sizeof out[i].fourcc, fourccString(modes[i].fourcc));
            out[i].width = modes[i].width;
            out[i].height = modes[i].height;
            out[i].fps = modes[i].fps;
        }
        *count = static_cast<int>(modes.size());
        return ov::ok();
    });
}

}  // extern "C"
