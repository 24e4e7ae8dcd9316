// V4L2 cameras: mode enumeration and choice, the pre-flight check before OpenCV opens a device, and
// the camera listing of the C API (ov_camera_list, ov_camera_modes).
//
// What it holds
//   - enumerateModes: VIDIOC_ENUM_FMT / ENUM_FRAMESIZES / ENUM_FRAMEINTERVALS as (fourcc, size, rate)
//     modes; stepwise ranges as their minimum, maximum and the common sizes between.
//   - chooseMode, describeModes, openCvConverts: what ov_video_capture.cpp uses to grant a request or
//     explain why it cannot.
//   - probeDevice: a device that is missing, busy, not a capture node or without streaming I/O fails here
//     with a reason, before OpenCV (which would only say "failed", or wait 10 s in select()).
//
// Decisions
//   - Devices are opened non-blocking, read-write (read-only when permission allows only that), and
//     closed again: queries never start streaming.
//   - A busy device is detected by re-setting its current format (EBUSY while another process streams).
//   - The listing skips nodes without V4L2_CAP_VIDEO_CAPTURE (metadata and output nodes of UVC cameras).
#include "ov_video_internal.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>

namespace ov::video {
namespace {

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

}  // namespace

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

}  // namespace ov::video

using namespace ov::video;

extern "C" {

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
