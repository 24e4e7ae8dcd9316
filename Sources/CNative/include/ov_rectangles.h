/*
 * ov_rectangles.h: quadrilateral detection (ov_rectangles.cpp). Conventions of ov_native.h (ov_status, ov_last_error(), *_free; pixels, top-left origin).
 */
#ifndef OV_RECTANGLES_H
#define OV_RECTANGLES_H

#include "ov_image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ rectangles (OpenCV) */

typedef struct {
    /* Corners in pixels, top-left origin, in order: top-left, top-right, bottom-right, bottom-left
     * as seen in the image. */
    float x[4];
    float y[4];
    float confidence; /* 0...1 */
} ov_quad;

typedef struct {
    float minimum_aspect_ratio;   /* shorter side / longer side, 0...1 */
    float maximum_aspect_ratio;   /* 0...1 */
    float quadrature_tolerance;   /* degrees each corner may deviate from 90 */
    float minimum_size;           /* shorter side / shorter image dimension, 0...1 */
    float minimum_confidence;     /* 0...1 */
    int detection_side;           /* longer side of the image candidates are found on (px); 0 = 640 */
} ov_rectangle_params;

/* Finds quadrilaterals in `image`, most confident first. Writes up to `capacity` into `out`
 * and the number found (which may exceed capacity) into *count. */
ov_status ov_detect_rectangles(const ov_image *image, const ov_rectangle_params *params,
                               ov_quad *out, int capacity, int *count);

#ifdef __cplusplus
}
#endif

#endif /* OV_RECTANGLES_H */
