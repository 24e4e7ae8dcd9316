/*
 * ov_ppocr.h: PP-OCR text recognition (pure C): DB text detection, 0°/180° angle classification and
 * CRNN/CTC recognition, the models run by the caller (ov_ppocr_runner), with OpenCV pre- and
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

/* Where a stage's model writes its output: ov_ppocr_output_set copies it in. */
typedef struct ov_ppocr_output ov_ppocr_output;
/* Stores (copies) a stage's output: `data` holds the product of `shape[0..rank)` floats. Returns OV_OK, or
 * OV_ERR_INVALID_ARGUMENT for a NULL output, a negative dimension or a rank outside 1...8. */
ov_status ov_ppocr_output_set(ov_ppocr_output *output, const float *data, const int64_t *shape, int rank);

/* The stages' models are the caller's (OpenVision's VisionModel and its inference backend, like every other
 * model): PP-OCR calls `run` once per model run with the stage (OV_PPOCR_DETECTOR, OV_PPOCR_CLASSIFIER or
 * OV_PPOCR_RECOGNIZER), its one NCHW float32 input (borrowed for the call) and `context`; the runner stores the
 * model's first output with ov_ppocr_output_set and returns OV_OK, or returns a status and may write a message
 * (NUL-terminated, at most message_size bytes) into `message`. Called from the thread of ov_ppocr_recognize;
 * concurrent recognitions call it concurrently. */
enum { OV_PPOCR_DETECTOR = 0, OV_PPOCR_CLASSIFIER = 1, OV_PPOCR_RECOGNIZER = 2 };
typedef ov_status (*ov_ppocr_runner)(void *context, int stage, const float *input, const int64_t *shape, int rank,
                                     ov_ppocr_output *output, char *message, size_t message_size);

/* Loads the recogniser's dictionary (UTF-8, one entry per line, in model index order without the CTC blank
 * and the trailing space; empty lines are kept as entries). `recognizer_classes` is the recogniser's last
 * output dimension (-1 when the model leaves it open): the dictionary size must be that − 2.
 * Errors: OV_ERR_MODEL (a dictionary that does not fit the recogniser), OV_ERR_IO (dictionary unreadable).
 * The handle is immutable: concurrent recognise calls are safe. */
ov_status ov_ppocr_create(const char *dict_path, int64_t recognizer_classes, ov_ppocr **out);
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
    ov_ppocr_runner run;      /* runs the stages' models (required: NULL is OV_ERR_INVALID_ARGUMENT) */
    void *run_context;        /* passed to `run` */
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
 * OV_ERR_MODEL (a stage's output is not PP-OCR's), the runner's status, OV_ERR_CANCELLED, OV_ERR_OUT_OF_MEMORY. */
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
