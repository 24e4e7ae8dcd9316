/*
 * ov_textrects.h: text rectangles without recognition (ov_textrects.cpp), the classic counterpart of Vision's
 * text-rectangle request.
 * Conventions of ov_native.h (ov_status, ov_last_error(), *_free; pixels, top-left origin).
 */
#ifndef OV_TEXTRECTS_H
#define OV_TEXTRECTS_H

#include "ov_image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ text rectangles (ov_textrects.cpp) */

typedef struct ov_text_rects {
    int line_count;
    float *lines;          /* line_count x (x, y, width, height, confidence), image pixels */
    int *char_offsets;     /* line_count + 1 entries: line i's characters are chars[off[i] ..< off[i+1]] */
    float *chars;          /* (x, y, width, height) per character, image pixels, left to right */
} ov_text_rects;

/* Fills `out` (zeroed first); a flat image gives no lines. */
ov_status ov_detect_text_rectangles(const ov_image *image, ov_text_rects *out);
void ov_text_rects_free(ov_text_rects *rects);

#ifdef __cplusplus
}
#endif

#endif /* OV_TEXTRECTS_H */
