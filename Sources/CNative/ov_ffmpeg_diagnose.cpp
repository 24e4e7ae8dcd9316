// FFmpeg diagnosis for the video files: why FFmpeg failed, in words a person can act on.
//
// What it holds
//   - avlog::Capture: FFmpeg's own error and warning lines logged on this thread while one of our calls
//     runs ("Connection refused", "404 Not Found", "moov atom not found"), and whether a packet was cut
//     short by the end of a file ("Packet corrupt", "partial file").
//   - mp4Layout: the top-level boxes of an MP4/MOV, to tell a file cut short (or never finalised) from
//     one that is not a video.
//
// Decisions
//   - FFmpeg is reached through dlsym on the libavutil OpenCV already loaded: no link dependency on
//     FFmpeg's headers or libraries. If the symbols are missing, messages simply carry no FFmpeg detail.
//   - Every line is still forwarded to FFmpeg's default callback unchanged (what FFmpeg prints on
//     standard error stays as it was).
#include "ov_video_internal.hpp"

#include <dlfcn.h>

#include <cstdarg>
#include <cstdio>
#include <fstream>
#include <mutex>

namespace ov::video {

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

Capture::Capture() : previous(sink), previousDamage(damageSink) {
    install();
    sink = &text;
    damageSink = &damagedPacket;
}

Capture::~Capture() {
    sink = previous;
    damageSink = previousDamage;
}
}  // namespace avlog

// ------------------------------------------------------------------ MP4 diagnosis

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

}  // namespace ov::video
