// Internal to the video files of CNative (not part of the C API): what ov_video_capture.cpp,
// ov_video_writer.cpp, ov_v4l2.cpp and ov_ffmpeg_diagnose.cpp share.
//   - small path, string and fourcc helpers (inline, here);
//   - FFmpeg diagnosis (ov_ffmpeg_diagnose.cpp): FFmpeg's own error lines while a call runs, the layout
//     of an MP4 that would not open;
//   - V4L2 modes (ov_v4l2.cpp): the pre-flight check of a device, its modes, the choice of one.
// Everything is in namespace ov::video; nothing here throws across the C API (callers are guarded).
#pragma once

#include "ov_internal.hpp"
#include "ov_video.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace ov::video {

// ------------------------------------------------------------------ small helpers

using Clock = std::chrono::steady_clock;

inline double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

inline void copyString(char *dst, size_t capacity, const std::string &src) {
    if (capacity == 0) return;
    size_t n = std::min(capacity - 1, src.size());
    std::memcpy(dst, src.data(), n);
    dst[n] = '\0';
}

/// The 4 characters of a fourcc ("" if it is not printable, e.g. an MPEG-TS stream type).
inline std::string fourccString(uint32_t code) {
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
inline uint32_t fourccCode(const char *text) {
    char c[4] = {' ', ' ', ' ', ' '};
    for (int i = 0; i < 4 && text[i]; ++i) c[i] = text[i];
    return static_cast<uint32_t>(static_cast<unsigned char>(c[0])) |
           static_cast<uint32_t>(static_cast<unsigned char>(c[1])) << 8 |
           static_cast<uint32_t>(static_cast<unsigned char>(c[2])) << 16 |
           static_cast<uint32_t>(static_cast<unsigned char>(c[3])) << 24;
}

inline std::string lower(std::string s) {
    for (auto &ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
}

inline std::string extensionOf(const std::string &path) {
    size_t slash = path.find_last_of('/');
    size_t dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    return lower(path.substr(dot));
}

inline std::string directoryOf(const std::string &path) {
    size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

inline bool isDirectory(const std::string &path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

inline bool pathExists(const std::string &path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

/// "scheme://..." with a letters-only scheme of 2+ characters.
inline bool isUrl(const std::string &s) {
    size_t p = s.find("://");
    if (p == std::string::npos || p < 2) return false;
    for (size_t i = 0; i < p; ++i)
        if (!std::isalnum(static_cast<unsigned char>(s[i])) && s[i] != '+' && s[i] != '-' && s[i] != '.') return false;
    return true;
}

/// The URL with any "user:password@" replaced, for error messages.
inline std::string redact(const std::string &url) {
    size_t p = url.find("://");
    if (p == std::string::npos) return url;
    size_t hostStart = p + 3;
    size_t pathStart = url.find_first_of("/?#", hostStart);
    size_t at = url.rfind('@', pathStart == std::string::npos ? std::string::npos : pathStart);
    if (at == std::string::npos || at < hostStart) return url;
    return url.substr(0, hostStart) + "***@" + url.substr(at + 1);
}

// ------------------------------------------------------------------ FFmpeg diagnosis (ov_ffmpeg_diagnose.cpp)

namespace avlog {
/// Collects FFmpeg error and warning lines logged on this thread while alive (an inner one hides
/// them from an outer one until it ends), and whether a packet was cut short by the end of a file.
struct Capture {
    std::string text;
    bool damagedPacket = false;
    Capture();
    ~Capture();
    Capture(const Capture &) = delete;
    Capture &operator=(const Capture &) = delete;
    std::string suffix() const { return text.empty() ? "" : " (FFmpeg: " + text + ")"; }

private:
    std::string *previous;
    bool *previousDamage;
};
}  // namespace avlog

struct Mp4Layout {
    bool isMp4 = false;   // first box is 'ftyp'
    bool hasMoov = false; // has its index
    bool cut = false;     // a top-level box runs past the end of the file
};

/// Walks the top-level boxes of an ISO-BMFF (MP4/MOV) file.
Mp4Layout mp4Layout(const std::string &path);

// ------------------------------------------------------------------ V4L2 modes (ov_v4l2.cpp)

struct Mode {
    uint32_t fourcc;
    int width, height;
    double fps;
};

/// Pixel formats OpenCV 4.6's V4L2 backend converts to BGR.
bool openCvConverts(uint32_t f);

/// "MJPG 1920x1080@30/15, 1280x720@30; YUYV 640x480@30/15" (grouped in enumeration order).
std::string describeModes(const std::vector<Mode> &modes);

/// Chooses a mode for a request: the requested pixel format (else the formats OpenCV converts); the
/// smallest size at least as large as requested (the largest if none is; "requested" defaults to the
/// current size); the lowest rate at least as fast as requested (the fastest if none is, or if no rate is
/// requested); then YUYV, then MJPG, then enumeration order. Returns -1 if no mode has the pixel format.
int chooseMode(const std::vector<Mode> &modes, uint32_t wantFourcc, int wantW, int wantH, double wantFps);

/// Checks that `path` is a free V4L2 capture device and lists its modes.
ov_status probeDevice(const std::string &path, std::vector<Mode> &modes);

/// "/dev/video3" -> 3, else -1.
int deviceIndex(const std::string &path);

}  // namespace ov::video
