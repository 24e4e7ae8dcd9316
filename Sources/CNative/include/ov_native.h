/*
 * ov_native.h: the pure C face of OpenVision's native layer.
 *
 * Everything behind these functions is C++ (OpenCV, dlib, Tesseract). Rules every
 * implementation file keeps:
 *   - every function returns an ov_status; on failure it stores a message retrievable
 *     with ov_last_error() on the same thread;
 *   - no C++ exception ever leaves a function (each body is wrapped in try/catch);
 *   - handles are opaque; whoever receives a handle owns it and frees it with the
 *     matching *_free function; buffers returned through `uint8_t **` are freed with ov_free.
 * Coordinates here are pixels, origin top-left, x right, y down (OpenCV's convention);
 * the Swift layer converts to Vision's normalised lower-left coordinates.
 */
#ifndef OV_NATIVE_H
#define OV_NATIVE_H

/* One header per component, named after the file that implements it; this one includes them all. */
#include "ov_status.h"
#include "ov_image.h"
#include "ov_layer.h"
#include "ov_bitmap.h"
#include "ov_preprocess.h"
#include "ov_rectangles.h"
#include "ov_faces.h"
#include "ov_contours.h"
#include "ov_horizon.h"
#include "ov_saliency.h"
#include "ov_quality.h"
#include "ov_textrects.h"
#include "ov_registration.h"
#include "ov_optical_flow.h"
#include "ov_trajectories.h"
#include "ov_object_tracker.h"
#include "ov_anchor_tracker.h"
#include "ov_video.h"
#include "ov_tensors.h"
#include "ov_limits.h"
#include "ov_dnn.h"
#include "ov_onnxruntime.h"
#include "ov_openvino.h"
#include "ov_ppocr.h"
#include "ov_zxing.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ text (Tesseract) */

/* An OCR engine for one language set. Not thread-safe: use one per thread (the Swift layer pools). */
typedef struct ov_ocr ov_ocr;

/* datapath: folder holding <lang>.traineddata, or NULL for Tesseract's default.
 * languages: "eng" or "eng+deu". Fails with OV_ERR_UNSUPPORTED naming the missing language. */
ov_status ov_ocr_create(const char *datapath, const char *languages, ov_ocr **out);
void ov_ocr_free(ov_ocr *ocr);

/* Languages installed in datapath (NULL = default), '+'-separated. Free with ov_free. */
ov_status ov_ocr_available_languages(const char *datapath, char **out);

typedef enum { OV_TEXT_LINE = 0, OV_TEXT_WORD = 1, OV_TEXT_SYMBOL = 2 } ov_text_level;

typedef struct {
    int level;        /* ov_text_level */
    int parent;       /* index of the enclosing line (for words) or word (for symbols); -1 for lines */
    int x, y, width, height; /* pixels, top-left origin */
    float confidence; /* 0...1 */
    int text_offset;  /* byte range of this item's UTF-8 text in the result text buffer */
    int text_length;
} ov_text_item;

typedef struct ov_text_result ov_text_result;

/* Recognises text. minimum_text_height: lines whose box is shorter (pixels) are dropped (0 = keep all).
 * detect_orientation: find a page turned 90°, 180° or 270° and read it upright (boxes stay in the image's
 * coordinates; ov_text_result_orientation says how it was turned); the other turns are read only when the page
 * as given read some words poorly, and take at most as long as that first read. cancel (NULL: none): once set,
 * recognition stops within a word and the call returns OV_ERR_CANCELLED (layout analysis and orientation
 * detection are not interrupted). Items are in reading order: each line, then its words, each word then its
 * symbols. */
ov_status ov_ocr_recognize(ov_ocr *ocr, const ov_image *image, int minimum_text_height, int detect_orientation,
                           const ov_cancel *cancel, ov_text_result **out);
/* Degrees (0, 90, 180, 270) the text of the page was found turned clockwise; 0 when not detected. */
int ov_text_result_orientation(const ov_text_result *result);
int ov_text_result_count(const ov_text_result *result);
const ov_text_item *ov_text_result_items(const ov_text_result *result);
const char *ov_text_result_text(const ov_text_result *result); /* UTF-8 buffer the items point into */
void ov_text_result_free(ov_text_result *result);

#ifdef __cplusplus
}
#endif

#endif /* OV_NATIVE_H */
