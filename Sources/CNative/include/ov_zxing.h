/*
 * ov_zxing.h: what zxing-cpp's C API lacks (ov_zxing.cpp): a barcode's whole text, NUL characters included.
 * Conventions of ov_native.h (ov_status, ov_last_error(), *_free / ov_free).
 */
#ifndef OV_ZXING_H
#define OV_ZXING_H

#include <stddef.h>
#include "ov_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The text of `barcode` (a `const ZXing_Barcode *` of zxing-cpp's C API) in the text mode it was read with,
 * with its length in bytes: it may hold NUL characters, which ZXing_Barcode_text's C string cannot. UTF-8,
 * NUL-terminated after `length` bytes; free *out with ov_free. */
ov_status ov_zxing_barcode_text(const void *barcode, char **out, size_t *length);

#ifdef __cplusplus
}
#endif

#endif
