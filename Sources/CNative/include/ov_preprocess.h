/*
 * ov_preprocess.h: model input tensors from images (ov_preprocess.cpp). Conventions of ov_native.h (ov_status, ov_last_error(), *_free; pixels, top-left origin).
 */
#ifndef OV_PREPROCESS_H
#define OV_PREPROCESS_H

#include "ov_image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ model input (OpenCV) */

typedef enum {
    OV_CROP_SCALE_FILL = 0, /* stretch to the input size */
    OV_CROP_SCALE_FIT = 1,  /* keep aspect, pad (letterbox), centred */
    OV_CROP_CENTER = 2      /* keep aspect, fill the input, crop the overflow around the centre */
} ov_crop_mode;

typedef struct {
    int width, height;  /* model input size in pixels */
    int mode;           /* ov_crop_mode */
    float pad_value;    /* 0...255 fill for OV_CROP_SCALE_FIT (Ultralytics uses 114) */
    int rgb;            /* 1: channels R, G, B; 0: B, G, R */
    int nhwc;           /* 1: interleaved HWC; 0: planar CHW */
    float scale;        /* pixel (0...255) multiplier, e.g. 1/255 */
    float mean[3];      /* after scaling, per output channel: (x - mean) / std */
    float std[3];
} ov_preprocess_params;

/* How source pixels map into the model input: input = source * scale + offset (per axis). */
typedef struct {
    float scale_x, scale_y;
    float offset_x, offset_y;
} ov_input_mapping;

/* Writes width * height * 3 floats into `out` (capacity in floats) and the mapping used. */
ov_status ov_preprocess(const ov_image *image, const ov_preprocess_params *params, float *out, size_t capacity,
                        ov_input_mapping *mapping);

/* MediaPipe's ImageToTensorCalculator on the CPU: samples `image` into a params->width x params->height tensor
 * through `tensor_to_image` (3x3 row-major, maps tensor pixel coordinates to source pixel coordinates: a rotated
 * region of interest, or a letterbox), bilinear; samples outside the source are 0 (border_replicate 0) or repeat
 * the edge (1). Then (pixel * scale - mean) / std per channel as ov_preprocess (params->mode and pad_value unused). */
ov_status ov_preprocess_warp(const ov_image *image, const double tensor_to_image[9], int border_replicate,
                             const ov_preprocess_params *params, float *out, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif /* OV_PREPROCESS_H */
