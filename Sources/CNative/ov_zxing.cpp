// zxing-cpp glue: the one thing its C API (ZXingC.h, used from Swift directly) cannot give.
//
// ZXing_Barcode_text returns the text as a NUL-terminated copy without its length, so a text holding U+0000
// reads as cut at the first one (zxing-cpp's aztec-1/padding_bs.png: 996 NULs read as ""). In C++ the C API's
// ZXing_Barcode is ZXing::Barcode itself (ZXingC.h's typedef), whose text() is a std::string with its size.
#include "ov_internal.hpp"

#include <ZXing/ZXingC.h>

#include <cstring>

extern "C" ov_status ov_zxing_barcode_text(const void *barcode, char **out, size_t *length) {
    return ov::guarded("ov_zxing_barcode_text", [&]() -> ov_status {
        if (!barcode || !out || !length) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no barcode or output");
        *out = nullptr;
        *length = 0;
        const std::string text = static_cast<const ZXing_Barcode *>(barcode)->text();
        char *buffer = ov::callocArray<char>(text.size() + 1);
        std::memcpy(buffer, text.data(), text.size());
        *out = buffer;
        *length = text.size();
        return ov::ok();
    });
}
