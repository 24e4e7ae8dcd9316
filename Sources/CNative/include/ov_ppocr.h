/*
 * ov_ppocr.h: PP-OCR text recognition (pure C): DB text detection, 0°/180° angle classification and
 * CRNN/CTC recognition on ONNX Runtime (ov_onnxruntime.h sessions), with OpenCV pre- and
 * post-processing. The pipeline and its defaults mirror the PyPI `rapidocr-onnxruntime` 1.4.4
 * (its config.yaml), whose model files scripts/setup installs. Implemented in ov_ppocr.cpp.
 * Conventions are those of ov_native.h (ov_status, ov_last_error(), *_free).
 */
#ifndef OV_PPOCR_H
#define OV_PPOCR_H

#include <stddef.h>
#include <stdint.h>

#include "ov_image.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ov_ppocr ov_ppocr;

/* Loads the three ONNX models (det, cls, rec) into ONNX Runtime sessions with `threads` intra-op
 * threads each (0 = ORT default) and the recogniser's dictionary (UTF-8, one entry per line, in
 * model index order without the CTC blank and the trailing space; empty lines are kept as
 * entries). The dictionary size must match the recogniser's last output dimension − 2.
 * Errors: OV_ERR_MODEL (a file that ORT cannot read, a dictionary that does not fit the model,
 * models whose inputs/outputs are not PP-OCR's), OV_ERR_IO (dictionary unreadable), and the
 * ov_ort_session_create errors. The handle is immutable: concurrent recognise calls are safe. */
ov_status ov_ppocr_create(const char *det_path, const char *cls_path, const char *rec_path,
                          const char *dict_path, int threads, ov_ppocr **out);
void ov_ppocr_free(ov_ppocr *ocr);
/* Entries in the dictionary (0 for NULL). */
int ov_ppocr_dictionary_size(const ov_ppocr *ocr);

typedef struct {
    int limit_side_len;       /* detector input: shorter side scaled up to at least this (736) */
    float det_thresh;         /* probability map binarisation (0.3) */
    float box_thresh;         /* mean probability inside a box to keep it (0.5) */
    float unclip_ratio;       /* box growth: area * ratio / perimeter (1.6) */
    int use_cls;              /* run the angle classifier (1) */
    float cls_thresh;         /* flip a line when "180" scores above this (0.9) */
    float text_score;         /* drop lines whose mean character probability is below (0.5) */
    float min_text_height;    /* drop lines whose text height (pixels of the input image) is below */
    const ov_cancel *cancel;  /* NULL, or a flag that stops the pipeline between model runs (OV_ERR_CANCELLED) */
    int detect_orientation;   /* find a page turned 90/180/270 degrees by a vote of its lines and read it
                               * upright (0; needs use_cls; not in rapidocr) */
} ov_ppocr_params;

/* rapidocr-onnxruntime 1.4.4's defaults. */
ov_ppocr_params ov_ppocr_default_params(void);

typedef struct {
    /* Corners in reading orientation (top-left, top-right, bottom-right, bottom-left) as x,y pairs in
     * pixels of the input image (top-left origin, clipped to the image). */
    float quad[8];
    float confidence;   /* mean probability of the emitted characters */
    int text_offset;    /* byte range of the line's UTF-8 text in ov_ppocr_result_text */
    int text_length;
    int char_start;     /* this line's characters: char_count entries from char_start */
    int char_count;
} ov_ppocr_line;

typedef struct {
    float quad[8];      /* the character's cell, as quad[] above: across the line's height, from halfway to the
                         * previous character's centre to halfway to the next (centres from the CTC time steps;
                         * the first and last cells are as wide on their outer side as on their inner one) */
    float confidence;   /* probability of the character's time step */
    int text_offset;    /* byte range of the character's UTF-8 text */
    int text_length;
} ov_ppocr_char;

typedef struct ov_ppocr_result ov_ppocr_result;

/* Reads the text of `image` (colour; a gray image is read as gray BGR). Lines are ordered top to
 * bottom, left to right (rapidocr's order). An image without text gives a result with 0 lines.
 * params NULL = defaults. Errors: OV_ERR_INVALID_ARGUMENT (NULL or empty image, bad params),
 * OV_ERR_INTERNAL (ORT run failure), OV_ERR_OUT_OF_MEMORY. */
ov_status ov_ppocr_recognize(const ov_ppocr *ocr, const ov_image *image, const ov_ppocr_params *params,
                             ov_ppocr_result **out);
int ov_ppocr_result_line_count(const ov_ppocr_result *result);
const ov_ppocr_line *ov_ppocr_result_lines(const ov_ppocr_result *result);
int ov_ppocr_result_char_count(const ov_ppocr_result *result);
const ov_ppocr_char *ov_ppocr_result_chars(const ov_ppocr_result *result);
const char *ov_ppocr_result_text(const ov_ppocr_result *result); /* UTF-8 buffer the items point into */
/* Degrees (0, 90, 180, 270) the page's text was found turned clockwise (detect_orientation), else 0. */
int ov_ppocr_result_orientation(const ov_ppocr_result *result);
void ov_ppocr_result_free(ov_ppocr_result *result);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* OV_PPOCR_H */
