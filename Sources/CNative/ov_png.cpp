// PNG decoding with libdeflate for the image data: the common PNGs decode 3-4x faster than through
// OpenCV's imdecode (libpng + zlib), to the same pixels.
//
// Algorithm / Decisions
// - Why: on a 1000 x 750 RGB page, libpng with Debian's zlib 1.2.13 spends ~70 % of its 6.3 ms in
//   zlib (inflate's byte-wise match copies, adler32). libdeflate (Debian's libdeflate0, whole-buffer
//   DEFLATE) inflates the same stream in 0.3 ms instead of 4.5 (measured in one process).
// - What: 8-bit gray, gray + alpha, RGB and RGBA, not interlaced, decoded at full size. Anything else
//   (palette, 1/2/4/16-bit samples, Adam7, a reduced decode) is left to OpenCV, as before.
// - Same pixels as OpenCV 4.6's PNG decoder, i.e. the libpng transforms it asks for: alpha dropped (not
//   composited), colour as BGR, gray replicated to BGR, and colour to gray by libpng's rgb_to_gray at
//   OpenCV's coefficients (0.299, 0.587) in libpng's fixed point: (9797 R + 19234 G + 3737 B) >> 15,
//   not rounded. libpng gamma-corrects that conversion when the file has gAMA, sRGB, iCCP or cHRM, so
//   such files, when converted to gray, are left to OpenCV; so is any file with tRNS.
// - Never an error of its own: whatever it does not take exactly (a bad CRC on a critical chunk, an
//   unknown critical chunk, PLTE, a chunk type that is not four letters, a chunk longer than libpng
//   allows, a zlib stream that is short, too long or fails its Adler-32, a bad filter byte, no IEND)
//   returns `unsupported`, and OpenCV decodes the file, so damaged files give
//   libpng's errors exactly as before, at the cost of one failed fast attempt.
// - Memory: one buffer of the filtered rows (height x (1 + width x channels) + 16 bytes) beside the
//   output, at most 64 MiB (~21 MP of RGB): larger images are left to libpng, which streams row by row
//   instead of doubling the peak. Also left to OpenCV: more than libpng's 10^6 rows or columns, and rows
//   that could not come from the data present (more than deflate's 1032:1 expansion).
// - Checked by a differential fuzzer (scripts/fuzz png-decoder): any file it decodes must give
//   OpenCV's pixels exactly.
// - Unfiltering follows the PNG specification. Sub (the filter of every row of OpenCV's own PNGs of
//   flat images) runs as a per-channel prefix sum on 16-byte vectors (clang's vector extensions: SSE2
//   or NEON); Up is vectorised by the compiler; Average and Paeth are scalar.
#include "ov_internal.hpp"

#include <libdeflate.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

namespace {

constexpr size_t kMaxSide = 1000000;          // libpng's default user limit on width and height
constexpr size_t kMaxPixels = size_t(1) << 30;  // OpenCV's CV_IO_MAX_IMAGE_PIXELS
constexpr size_t kMaxDeflateRatio = 1032;     // deflate's largest expansion (258-byte matches in ~2 bits)
constexpr size_t kMaxChunk = 8000000;         // libpng's PNG_USER_CHUNK_MALLOC_MAX: longer chunks are errors
constexpr size_t kMaxFiltered = size_t(64) << 20;  // larger images go to libpng, which streams its rows

const uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a};

inline uint32_t bigEndian32(const uint8_t *p) {
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}

inline bool isType(const uint8_t *type, const char *name) { return std::memcmp(type, name, 4) == 0; }

#if defined(__clang__)
typedef uint8_t Bytes16 __attribute__((vector_size(16)));

inline Bytes16 load16(const uint8_t *p) {
    Bytes16 v;
    std::memcpy(&v, p, 16);
    return v;
}

inline void store16(uint8_t *p, Bytes16 v) { std::memcpy(p, &v, 16); }

// Lane i takes lane i - K; the K lowest lanes are zero.
template <int K>
inline Bytes16 shiftUp(Bytes16 v) {
    const Bytes16 zero = {};
    return __builtin_shufflevector(zero, v, 16 - K, 17 - K, 18 - K, 19 - K, 20 - K, 21 - K, 22 - K, 23 - K, 24 - K, 25 - K,
                                   26 - K, 27 - K, 28 - K, 29 - K, 30 - K, 31 - K);
}

// Prefix sums per channel (bpp bytes per pixel, bpp divides 16) of 16-byte blocks; returns the bytes done.
template <int Bpp>
size_t subBlocks(uint8_t *row, size_t n) {
    Bytes16 carry = {};
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        Bytes16 v = load16(row + i);
        v += shiftUp<Bpp>(v);
        if constexpr (Bpp < 8) v += shiftUp<2 * Bpp>(v);
        if constexpr (Bpp < 4) v += shiftUp<4 * Bpp>(v);
        if constexpr (Bpp < 2) v += shiftUp<8 * Bpp>(v);
        v += carry;
        store16(row + i, v);
        if constexpr (Bpp == 1) carry = __builtin_shufflevector(v, v, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15);
        if constexpr (Bpp == 2) carry = __builtin_shufflevector(v, v, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15);
        if constexpr (Bpp == 4) carry = __builtin_shufflevector(v, v, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15);
    }
    return i;
}

// Three bytes per pixel: five pixels (15 bytes) per block. The carry into the next block is updated
// from the block's own sums (not from its result), so consecutive blocks overlap in the pipeline, and
// the next block is loaded before this one is stored (a 16-byte load overlapping the previous store by
// one byte would stall on store forwarding).
size_t subBlocks3(uint8_t *row, size_t n) {
    if (n < 16) return 0;
    const Bytes16 zero = {};
    const Bytes16 last = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff};
    const Bytes16 low3 = {0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    Bytes16 carry = {}, next = load16(row);
    size_t i = 0;
    for (; i + 16 <= n; i += 15) {
        const Bytes16 original = next;
        if (i + 31 <= n) next = load16(row + i + 15);
        Bytes16 v = original;
        v += shiftUp<3>(v);
        v += shiftUp<6>(v);
        v += shiftUp<12>(v);
        Bytes16 total = __builtin_shufflevector(v, zero, 12, 13, 14, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16) & low3;
        total |= shiftUp<3>(total);
        total |= shiftUp<6>(total);
        total |= shiftUp<12>(total);
        v += carry;
        carry += total;
        store16(row + i, (v & ~last) | (original & last));  // byte 15 is the next block's first
    }
    return i;
}
#endif

// Sub: each byte adds the byte bpp before it (already unfiltered).
void unSub(uint8_t *row, size_t n, int bpp) {
    size_t done = 0;
#if defined(__clang__)
    switch (bpp) {
        case 1: done = subBlocks<1>(row, n); break;
        case 2: done = subBlocks<2>(row, n); break;
        case 3: done = subBlocks3(row, n); break;
        case 4: done = subBlocks<4>(row, n); break;
        default: break;
    }
#endif
    for (size_t i = std::max(done, static_cast<size_t>(bpp)); i < n; ++i) row[i] = uint8_t(row[i] + row[i - bpp]);
}

inline uint8_t paeth(int a, int b, int c) {
    const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
    return uint8_t(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

// Undoes one row's filter in place; `previous` is the row above, unfiltered (nullptr on the first row,
// which the specification treats as a row of zeros).
bool unfilter(uint8_t filter, uint8_t *row, const uint8_t *previous, size_t n, int bpp) {
    switch (filter) {
        case 0: return true;
        case 1: unSub(row, n, bpp); return true;
        case 2:
            if (previous)
                for (size_t i = 0; i < n; ++i) row[i] = uint8_t(row[i] + previous[i]);
            return true;
        case 3:
            if (previous) {
                for (int i = 0; i < bpp; ++i) row[i] = uint8_t(row[i] + (previous[i] >> 1));
                for (size_t i = bpp; i < n; ++i) row[i] = uint8_t(row[i] + ((row[i - bpp] + previous[i]) >> 1));
            } else {
                for (size_t i = bpp; i < n; ++i) row[i] = uint8_t(row[i] + (row[i - bpp] >> 1));
            }
            return true;
        case 4:
            if (!previous) {
                unSub(row, n, bpp);  // Paeth with a zero row above is Sub
                return true;
            }
            for (int i = 0; i < bpp; ++i) row[i] = uint8_t(row[i] + previous[i]);
            for (size_t i = bpp; i < n; ++i) row[i] = uint8_t(row[i] + paeth(row[i - bpp], previous[i], previous[i - bpp]));
            return true;
        default: return false;  // libpng: "bad adaptive filter value"
    }
}

// libpng's rgb_to_gray at OpenCV's coefficients, as tables (faster than three multiplications here).
struct GrayTables {
    uint32_t r[256], g[256], b[256];
    GrayTables() {
        for (uint32_t i = 0; i < 256; ++i) r[i] = 9797u * i, g[i] = 19234u * i, b[i] = 3737u * i;
    }
};

template <int Channels>
void rowToGray(const uint8_t *s, uint8_t *out, size_t width) {
    if constexpr (Channels <= 2) {
        for (size_t x = 0; x < width; ++x) out[x] = s[x * Channels];
    } else {
        static const GrayTables t;
        for (size_t x = 0; x < width; ++x, s += Channels) out[x] = uint8_t((t.r[s[0]] + t.g[s[1]] + t.b[s[2]]) >> 15);
    }
}

template <int Channels>
void rowToBGR(const uint8_t *s, uint8_t *out, size_t width) {
    for (size_t x = 0; x < width; ++x, s += Channels, out += 3) {
        if constexpr (Channels <= 2) {
            out[0] = out[1] = out[2] = s[0];
        } else {
            out[0] = s[2], out[1] = s[1], out[2] = s[0];
        }
    }
}

void convertRow(const uint8_t *s, uint8_t *out, size_t width, int channels, bool lumaOnly) {
    switch (channels) {
        case 1: lumaOnly ? rowToGray<1>(s, out, width) : rowToBGR<1>(s, out, width); break;
        case 2: lumaOnly ? rowToGray<2>(s, out, width) : rowToBGR<2>(s, out, width); break;
        case 3: lumaOnly ? rowToGray<3>(s, out, width) : rowToBGR<3>(s, out, width); break;
        default: lumaOnly ? rowToGray<4>(s, out, width) : rowToBGR<4>(s, out, width); break;
    }
}

struct DecompressorDeleter {
    void operator()(libdeflate_decompressor *d) const { libdeflate_free_decompressor(d); }
};

}  // namespace

namespace ov::png {

bool isPng(const void *data, size_t length) {
    return data && length >= sizeof kSignature && std::memcmp(data, kSignature, sizeof kSignature) == 0;
}

DecodeResult decode(const void *data, size_t length, bool lumaOnly, int reduction, cv::Mat &out) {
    if (!isPng(data, length) || reduction != 1) return DecodeResult::unsupported;
    const auto *bytes = static_cast<const uint8_t *>(data);

    // Chunks: IHDR first, then consecutive IDATs, up to IEND.
    size_t width = 0, height = 0, idatLimit = 0;
    int colorType = -1;
    bool colorimetry = false, transparency = false, ended = false;
    const uint8_t *firstData = nullptr;
    size_t firstDataLength = 0, dataChunks = 0;
    bool dataDone = false;
    std::vector<uint8_t> joined;  // only when the data spans several IDAT chunks
    for (size_t pos = sizeof kSignature; pos + 12 <= length;) {
        const uint32_t chunkLength = bigEndian32(bytes + pos);
        if (chunkLength > 0x7fffffffu || chunkLength > length - pos - 12) return DecodeResult::unsupported;
        const uint8_t *type = bytes + pos + 4, *body = bytes + pos + 8;
        if (!std::all_of(type, type + 4, [](uint8_t c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }))
            return DecodeResult::unsupported;  // libpng: "invalid chunk type"
        if (chunkLength > kMaxChunk && !(isType(type, "IDAT") && chunkLength <= idatLimit))
            return DecodeResult::unsupported;  // libpng: "chunk data is too large"
        const bool critical = (type[0] & 0x20) == 0;
        if (critical && libdeflate_crc32(0, type, chunkLength + 4) != bigEndian32(body + chunkLength))
            return DecodeResult::unsupported;
        if (pos == sizeof kSignature) {
            if (!isType(type, "IHDR") || chunkLength != 13) return DecodeResult::unsupported;
            width = bigEndian32(body);
            height = bigEndian32(body + 4);
            colorType = body[9];
            const bool supported = body[8] == 8 && (colorType == 0 || colorType == 2 || colorType == 4 || colorType == 6)
                                   && body[10] == 0 && body[11] == 0 && body[12] == 0;
            if (!supported || width == 0 || height == 0 || width > kMaxSide || height > kMaxSide || width * height > kMaxPixels)
                return DecodeResult::unsupported;
            // libpng's bound on one IDAT chunk (png_check_chunk_length): the filtered rows plus zlib's overhead.
            const int channels = colorType == 0 ? 1 : colorType == 4 ? 2 : colorType == 2 ? 3 : 4;
            const size_t rowFactor = width * channels + 1, rows = height * rowFactor;
            idatLimit = std::min<size_t>(0x7fffffff, rows + 6 + 5 * (rows / std::min<size_t>(rowFactor, 32566) + 1));
        } else if (isType(type, "IDAT")) {
            if (dataDone) return DecodeResult::unsupported;  // IDAT chunks must be consecutive
            if (++dataChunks == 1) {
                firstData = body;
                firstDataLength = chunkLength;
            } else {
                if (dataChunks == 2) joined.assign(firstData, firstData + firstDataLength);
                joined.insert(joined.end(), body, body + chunkLength);
            }
        } else {
            if (dataChunks) dataDone = true;
            if (isType(type, "IEND")) {
                ended = true;
                break;
            }
            if (critical) return DecodeResult::unsupported;  // PLTE, or one libpng does not know
            if (isType(type, "gAMA") || isType(type, "sRGB") || isType(type, "iCCP") || isType(type, "cHRM"))
                colorimetry = true;
            if (isType(type, "tRNS")) transparency = true;
        }
        pos += 12 + size_t(chunkLength);
    }
    const bool colorSource = colorType == 2 || colorType == 6;
    if (!ended || dataChunks == 0 || transparency || (colorimetry && lumaOnly && colorSource))
        return DecodeResult::unsupported;

    const int channels = colorType == 0 ? 1 : colorType == 4 ? 2 : colorType == 2 ? 3 : 4;
    const size_t rowBytes = width * channels, stride = rowBytes + 1, filtered = stride * height;
    const uint8_t *stream = dataChunks == 1 ? firstData : joined.data();
    const size_t streamLength = dataChunks == 1 ? firstDataLength : joined.size();
    if (filtered > kMaxFiltered) return DecodeResult::unsupported;
    if (filtered / kMaxDeflateRatio > streamLength) return DecodeResult::unsupported;  // truncated

    std::unique_ptr<libdeflate_decompressor, DecompressorDeleter> inflater(libdeflate_alloc_decompressor());
    if (!inflater) return DecodeResult::unsupported;
    std::unique_ptr<uint8_t[]> rows(new uint8_t[filtered + 16]);  // + 16: vector loads near the end
    size_t consumed = 0;
    if (libdeflate_zlib_decompress_ex(inflater.get(), stream, streamLength, rows.get(), filtered, &consumed, nullptr)
            != LIBDEFLATE_SUCCESS
        || consumed != streamLength)
        return DecodeResult::unsupported;

    cv::Mat pixels(static_cast<int>(height), static_cast<int>(width), lumaOnly ? CV_8UC1 : CV_8UC3);
    const uint8_t *previous = nullptr;
    for (size_t y = 0; y < height; ++y) {
        uint8_t *row = rows.get() + y * stride;
        if (!unfilter(row[0], row + 1, previous, rowBytes, channels)) return DecodeResult::unsupported;
        convertRow(row + 1, pixels.ptr<uint8_t>(static_cast<int>(y)), width, channels, lumaOnly);
        previous = row + 1;
    }
    out = std::move(pixels);
    return DecodeResult::decoded;
}

}  // namespace ov::png

namespace {

// Bytes of filtered rows (a filter byte per row) that a PNG of this header inflates to (PNG spec, 7.2 and
// 8.2: Adam7's seven passes, each a reduced image of its own); 0 on overflow or an invalid header.
size_t filteredSize(size_t width, size_t height, int bitDepth, int colorType, bool interlaced) {
    int channels = 0;
    switch (colorType) {
        case 0: case 3: channels = 1; break;
        case 2: channels = 3; break;
        case 4: channels = 2; break;
        case 6: channels = 4; break;
        default: return 0;
    }
    if (bitDepth != 1 && bitDepth != 2 && bitDepth != 4 && bitDepth != 8 && bitDepth != 16) return 0;
    if (width == 0 || height == 0 || width > 0x7fffffffu || height > 0x7fffffffu) return 0;
    const size_t bitsPerPixel = size_t(channels) * size_t(bitDepth);
    auto passSize = [&](size_t cols, size_t rows) -> size_t {
        if (cols == 0 || rows == 0) return 0;
        return rows * (1 + (cols * bitsPerPixel + 7) / 8);  // < 2^31 * (1 + 2^31 * 8): fits in 64 bits
    };
    if (!interlaced) return passSize(width, height);
    static const int adam7[7][4] = {{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4}, {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}};
    size_t total = 0;
    for (const auto &p : adam7) {
        const size_t cols = width > size_t(p[0]) ? (width - p[0] + p[2] - 1) / p[2] : 0;
        const size_t rows = height > size_t(p[1]) ? (height - p[1] + p[3] - 1) / p[3] : 0;
        total += passSize(cols, rows);
    }
    return total;
}

constexpr size_t kCheckInMemory = size_t(64) << 20;  // larger images are checked streaming, with zlib

}  // namespace

namespace ov::png {

DataCheck checkDataSize(const void *data, size_t length) {
    if (!isPng(data, length)) return DataCheck::unknown;
    const auto *bytes = static_cast<const uint8_t *>(data);
    size_t expected = 0;
    std::vector<std::pair<const uint8_t *, size_t>> pieces;  // the IDAT chunks' data, in order
    size_t total = 0;
    for (size_t pos = sizeof kSignature; pos + 12 <= length;) {
        const uint32_t chunkLength = bigEndian32(bytes + pos);
        if (chunkLength > length - pos - 12) return DataCheck::unknown;  // truncated: OpenCV reports it
        const uint8_t *type = bytes + pos + 4, *body = bytes + pos + 8;
        if (pos == sizeof kSignature) {
            if (!isType(type, "IHDR") || chunkLength != 13) return DataCheck::unknown;
            expected = filteredSize(bigEndian32(body), bigEndian32(body + 4), body[8], body[9], body[12] == 1);
            if (expected == 0) return DataCheck::unknown;
        } else if (isType(type, "IDAT")) {
            pieces.emplace_back(body, chunkLength);
            total += chunkLength;
        } else if (isType(type, "IEND")) {
            break;
        }
        pos += 12 + size_t(chunkLength);
    }
    if (pieces.empty()) return DataCheck::unknown;

    if (expected <= kCheckInMemory) {
        // libdeflate stops as soon as the output would pass the buffer: a stream that inflates further
        // costs no more than the declared size.
        std::vector<uint8_t> joined;
        const uint8_t *stream = pieces[0].first;
        if (pieces.size() > 1) {
            joined.reserve(total);
            for (const auto &p : pieces) joined.insert(joined.end(), p.first, p.first + p.second);
            stream = joined.data();
        }
        std::unique_ptr<libdeflate_decompressor, DecompressorDeleter> inflater(libdeflate_alloc_decompressor());
        if (!inflater) return DataCheck::unknown;
        std::unique_ptr<uint8_t[]> out(new uint8_t[expected]);
        size_t consumed = 0, produced = 0;
        switch (libdeflate_zlib_decompress_ex(inflater.get(), stream, total, out.get(), expected, &consumed, &produced)) {
            case LIBDEFLATE_SUCCESS: return DataCheck::fits;
            case LIBDEFLATE_INSUFFICIENT_SPACE: return DataCheck::exceeds;
            default: return DataCheck::unknown;  // damaged or truncated: OpenCV reports it
        }
    }
    // Streaming, 256 KiB at a time, stopping once the output passes the declared size.
    z_stream z{};
    if (inflateInit(&z) != Z_OK) return DataCheck::unknown;
    std::unique_ptr<uint8_t[]> scratch(new uint8_t[256 * 1024]);
    size_t produced = 0;
    DataCheck result = DataCheck::unknown;
    for (size_t i = 0; i < pieces.size() && result == DataCheck::unknown; ++i) {
        z.next_in = const_cast<Bytef *>(pieces[i].first);
        z.avail_in = static_cast<uInt>(pieces[i].second);
        while (z.avail_in > 0) {
            z.next_out = scratch.get();
            z.avail_out = 256 * 1024;
            const int rc = inflate(&z, Z_NO_FLUSH);
            produced += 256 * 1024 - z.avail_out;
            if (produced > expected) { result = DataCheck::exceeds; break; }
            if (rc == Z_STREAM_END) { result = DataCheck::fits; break; }
            if (rc != Z_OK) break;  // damaged: OpenCV reports it
        }
    }
    inflateEnd(&z);
    return result;
}

}  // namespace ov::png
