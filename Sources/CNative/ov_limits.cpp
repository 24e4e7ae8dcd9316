// ov_model_memory_limit (ov_limits.h): the memory bound every model runtime in CNative applies.
#include "ov_limits.h"

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

constexpr size_t kDefaultLimit = size_t(4) << 30;
constexpr size_t kMinimumLimit = size_t(64) << 20;
constexpr size_t kMaximumLimit = size_t(1) << 40;

/// "4294967296", "512M", "2G", "64k" → bytes; 0 when the text is not such a size.
size_t parseSize(const char *text) {
    if (!text) return 0;
    std::string s(text);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    int shift = 0;
    if (!s.empty()) {
        switch (std::toupper(static_cast<unsigned char>(s.back()))) {
        case 'K': shift = 10; break;
        case 'M': shift = 20; break;
        case 'G': shift = 30; break;
        default: break;
        }
        if (shift) s.pop_back();
    }
    if (s.empty() || s.size() > 15) return 0;
    uint64_t value = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return 0;
        value = value * 10 + uint64_t(c - '0');  // at most 15 digits: no overflow
    }
    if (value > (uint64_t(1) << 50) >> shift) return 0;
    return size_t(value << shift);
}

}  // namespace

extern "C" size_t ov_model_memory_limit(void) {
    static const size_t limit = [] {
        size_t value = parseSize(std::getenv("OPENVISION_MODEL_MEMORY_LIMIT"));
        return value >= kMinimumLimit && value <= kMaximumLimit ? value : kDefaultLimit;
    }();
    return limit;
}
